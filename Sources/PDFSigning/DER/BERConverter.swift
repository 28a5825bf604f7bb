/// Re-encodes BER (ITU-T X.690 §8) with definite lengths, so that `DERReader` can read what some
/// real signers write: indefinite lengths (§8.1.3.6) and constructed OCTET STRINGs (§8.7.3).
///
/// Only what needs it is rewritten: a node whose length is definite and that holds nothing
/// indefinite or constructed-string is copied byte for byte. Signed attributes and certificates
/// are DER (RFC 5652 §5.4, RFC 5280 §4.1), so their bytes — over which signatures are checked —
/// come out unchanged. Nesting is bounded by `DERReader.maximumDepth`; hostile input throws
/// `SigningError` `.malformedData`, never traps.
package enum BERConverter {
    /// Converts the first TLV of `bytes`.
    ///
    /// - Returns: its definite-length encoding and the offset in `bytes` just after the TLV (the
    ///   end-of-contents octets of an indefinite length included), so callers can check what follows.
    /// - Throws: `.malformedData` when the first TLV is not valid BER.
    package static func definiteLength(_ bytes: [UInt8]) throws(SigningError) -> (encoding: [UInt8], end: Int) {
        let converted = try convert(bytes, at: 0, limit: bytes.count, depth: 0)
        return (converted.encoding ?? Array(bytes[0..<converted.end]), converted.end)
    }

    /// Whether `bytes` start with a TLV that `DERReader` refuses but BER allows (an indefinite length
    /// or a constructed OCTET STRING somewhere inside).
    package static func needsConversion(_ bytes: [UInt8]) -> Bool {
        guard let converted = try? convert(bytes, at: 0, limit: bytes.count, depth: 0) else { return false }
        return converted.encoding != nil
    }

    /// One converted TLV: where it ends in the input and its new encoding (nil: unchanged).
    private struct Converted {
        var end: Int
        var encoding: [UInt8]?
        /// The content octets of a primitive OCTET STRING (for flattening constructed ones).
        var octets: [UInt8]?
    }

    private static func convert(
        _ bytes: [UInt8], at start: Int, limit: Int, depth: Int
    ) throws(SigningError) -> Converted {
        guard depth <= DERReader.maximumDepth else {
            throw SigningError(.malformedData, "BER: nesting deeper than \(DERReader.maximumDepth) levels")
        }
        var index = start
        guard index < limit else { throw SigningError(.malformedData, "BER: unexpected end at offset \(start)") }
        let first = bytes[index]
        index += 1
        if first & 0x1F == 0x1F {
            // High-tag-number form (§8.1.2.4): base-128 octets, the last without bit 8.
            var count = 0
            while true {
                guard index < limit, count < 5 else {
                    throw SigningError(.malformedData, "BER: invalid tag at offset \(start)")
                }
                let byte = bytes[index]
                index += 1
                count += 1
                if byte & 0x80 == 0 { break }
            }
        }
        let identifier = bytes[start..<index]
        let constructed = first & 0x20 != 0
        let isOctetString = first & 0xDF == 0x04  // universal 4, primitive or constructed
        guard index < limit else { throw SigningError(.malformedData, "BER: truncated length at offset \(start)") }
        let lengthByte = bytes[index]
        index += 1

        var contentEnd: Int? = nil
        if lengthByte < 0x80 {
            contentEnd = index + Int(lengthByte)
        } else if lengthByte != 0x80 {
            let count = Int(lengthByte & 0x7F)
            guard count <= 8, lengthByte != 0xFF, count <= limit - index else {
                throw SigningError(.malformedData, "BER: invalid length at offset \(start)")
            }
            var length = 0
            for _ in 0..<count {
                guard length >> 55 == 0 else { throw SigningError(.malformedData, "BER: length too large at \(start)") }
                length = length << 8 | Int(bytes[index])
                index += 1
            }
            contentEnd = index + length
        } else if !constructed {
            throw SigningError(.malformedData, "BER: indefinite length of a primitive value at offset \(start)")
        }
        if let end = contentEnd, end > limit {
            throw SigningError(.malformedData, "BER: value at offset \(start) runs past the end")
        }

        guard constructed else {
            let end = contentEnd!
            return Converted(end: end, encoding: nil, octets: isOctetString ? Array(bytes[index..<end]) : nil)
        }

        // Constructed: convert the children, up to the end or to the end-of-contents octets.
        var children: [(range: Range<Int>, converted: Converted)] = []
        var position = index
        var changed = contentEnd == nil || isOctetString
        let childLimit = contentEnd ?? limit
        while true {
            if let end = contentEnd {
                if position >= end { break }
            } else {
                guard position + 1 < limit else {
                    throw SigningError(.malformedData, "BER: no end-of-contents for the value at offset \(start)")
                }
                if bytes[position] == 0, bytes[position + 1] == 0 {
                    position += 2
                    break
                }
            }
            let child = try convert(bytes, at: position, limit: childLimit, depth: depth + 1)
            if child.encoding != nil { changed = true }
            children.append((position..<child.end, child))
            position = child.end
        }
        let end = contentEnd ?? position
        guard changed else { return Converted(end: end, encoding: nil, octets: nil) }

        if isOctetString {
            // A constructed OCTET STRING is the concatenation of its segments (§8.7.3.2).
            var octets: [UInt8] = []
            for child in children {
                guard let segment = child.converted.octets else {
                    throw SigningError(.malformedData, "BER: a constructed OCTET STRING holds another type")
                }
                octets += segment
            }
            var encoding: [UInt8] = [first & 0xDF]
            appendLength(octets.count, to: &encoding)
            encoding += octets
            return Converted(end: end, encoding: encoding, octets: octets)
        }
        var content: [UInt8] = []
        for child in children {
            if let encoding = child.converted.encoding {
                content += encoding
            } else {
                content += bytes[child.range]
            }
        }
        var encoding = Array(identifier)
        appendLength(content.count, to: &encoding)
        encoding += content
        return Converted(end: end, encoding: encoding, octets: nil)
    }

    /// Appends a definite length in the fewest octets (X.690 §10.1).
    private static func appendLength(_ length: Int, to output: inout [UInt8]) {
        guard length >= 0x80 else {
            output.append(UInt8(length))
            return
        }
        var octets: [UInt8] = []
        var rest = length
        while rest > 0 {
            octets.insert(UInt8(rest & 0xFF), at: 0)
            rest >>= 8
        }
        output.append(0x80 | UInt8(octets.count))
        output += octets
    }
}
