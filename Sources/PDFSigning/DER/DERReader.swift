/// A cursor over DER octets (ITU-T X.690 §8 and §10), shaped like swift-asn1's `DER.Parser`.
///
/// `peek…` never moves the cursor; `read…` moves it past what it read and leaves it where it was
/// when it throws. Only definite lengths are accepted (DER, X.690 §10.1); non-minimal long-form
/// lengths are read liberally. Nesting is bounded by `maximumDepth`. Hostile input never traps: every
/// failure throws `SigningError` with code `.malformedData` and the byte offset.
package struct DERReader: Sendable {
    /// The deepest nesting a reader follows (certificates and CMS use about 12 levels).
    package static let maximumDepth = 48

    private let bytes: ArraySlice<UInt8>
    /// The offset of the next node in the underlying buffer.
    package private(set) var position: Int
    /// The nesting depth of the nodes this reader reads.
    package let depth: Int

    /// A reader over all of `bytes`.
    package init(_ bytes: [UInt8]) {
        self.init(bytes[...])
    }

    /// A reader over a slice; node ranges are indices of the slice's base buffer.
    package init(_ bytes: ArraySlice<UInt8>, depth: Int = 0) {
        self.bytes = bytes
        self.position = bytes.startIndex
        self.depth = depth
    }

    /// Whether every node has been read.
    package var isAtEnd: Bool { position >= bytes.endIndex }

    /// The octets not yet read.
    package var remainingBytes: ArraySlice<UInt8> { bytes[position...] }

    /// The next node, without moving; nil at the end or when the next node is malformed.
    package func peekNode() -> DERNode? {
        try? parseNode(at: position)
    }

    /// The tag of the next node, without moving; nil at the end or when the next node is malformed.
    package func peekTag() -> DERTag? {
        peekNode()?.tag
    }

    /// Reads the next node, whatever its tag.
    ///
    /// - Throws: `.malformedData` at the end of input, for an indefinite or overlong length, or when
    ///   the content runs past the end.
    package mutating func readNode() throws(SigningError) -> DERNode {
        let node = try parseNode(at: position)
        position = node.encoded.endIndex
        return node
    }

    /// Reads the next node, which must have `tag`.
    package mutating func readNode(_ tag: DERTag) throws(SigningError) -> DERNode {
        let node = try parseNode(at: position)
        guard node.tag == tag else {
            throw SigningError(.malformedData, "DER: expected \(tag) at offset \(position), found \(node.tag)")
        }
        position = node.encoded.endIndex
        return node
    }

    /// Reads the next node when it has `tag` (an OPTIONAL or DEFAULT component); nil otherwise.
    package mutating func readOptionalNode(_ tag: DERTag) throws(SigningError) -> DERNode? {
        guard !isAtEnd else { return nil }
        let node = try parseNode(at: position)
        guard node.tag == tag else { return nil }
        position = node.encoded.endIndex
        return node
    }

    /// Checks that nothing is left (a SEQUENCE with extra components is malformed).
    package func finish() throws(SigningError) {
        guard isAtEnd else {
            throw SigningError(.malformedData, "DER: unexpected data at offset \(position)")
        }
    }

    /// Reads a constructed node with `tag` and hands a reader over its content to `body`, which
    /// must read all of it.
    package mutating func readConstructed<T>(
        _ tag: DERTag, _ body: (inout DERReader) throws(SigningError) -> T
    ) throws(SigningError) -> T {
        let node = try parseNode(at: position)
        guard node.tag == tag else {
            throw SigningError(.malformedData, "DER: expected \(tag) at offset \(position), found \(node.tag)")
        }
        var inner = try node.contentReader()
        let value = try body(&inner)
        try inner.finish()
        position = node.encoded.endIndex
        return value
    }

    /// Reads a SEQUENCE (X.690 §8.9) through `body`.
    package mutating func readSequence<T>(
        _ body: (inout DERReader) throws(SigningError) -> T
    ) throws(SigningError) -> T {
        try readConstructed(.sequence, body)
    }

    /// Reads a SET or SET OF (X.690 §8.11, §8.12) through `body`.
    package mutating func readSet<T>(_ body: (inout DERReader) throws(SigningError) -> T) throws(SigningError) -> T {
        try readConstructed(.set, body)
    }

    /// Reads `[number] EXPLICIT` (X.690 §8.14): `body` reads the one node inside.
    package mutating func readExplicit<T>(
        _ number: UInt32, _ body: (inout DERReader) throws(SigningError) -> T
    ) throws(SigningError) -> T {
        try readConstructed(.context(number), body)
    }

    /// Reads an optional `[number] EXPLICIT` component; nil when the next node has another tag.
    package mutating func readOptionalExplicit<T>(
        _ number: UInt32, _ body: (inout DERReader) throws(SigningError) -> T
    ) throws(SigningError) -> T? {
        guard peekTag() == .context(number) else { return nil }
        return try readExplicit(number, body)
    }

    /// Reads `[number] IMPLICIT` (X.690 §8.14.3): the node whose content is the underlying type's.
    package mutating func readImplicit(_ number: UInt32, constructed: Bool) throws(SigningError) -> DERNode {
        try readNode(.context(number, constructed: constructed))
    }

    // MARK: Parsing one node

    private func parseNode(at start: Int) throws(SigningError) -> DERNode {
        var index = start
        guard index < bytes.endIndex else {
            throw SigningError(.malformedData, "DER: unexpected end at offset \(start)")
        }
        let first = bytes[index]
        index += 1
        var number = UInt32(first & 0x1F)
        if number == 0x1F {
            // High-tag-number form: base-128, minimal, at most 32 bits.
            number = 0
            var count = 0
            while true {
                guard index < bytes.endIndex else {
                    throw SigningError(.malformedData, "DER: truncated tag at \(start)")
                }
                let byte = bytes[index]
                index += 1
                count += 1
                guard !(count == 1 && byte == 0x80), count <= 5, number >> 25 == 0 else {
                    throw SigningError(.malformedData, "DER: invalid tag number at offset \(start)")
                }
                number = number << 7 | UInt32(byte & 0x7F)
                if byte & 0x80 == 0 { break }
            }
        }
        let tag = DERTag(
            DERTag.TagClass(rawValue: first >> 6) ?? .universal, number: number, constructed: first & 0x20 != 0)

        guard index < bytes.endIndex else { throw SigningError(.malformedData, "DER: truncated length at \(start)") }
        let lengthByte = bytes[index]
        index += 1
        var length = 0
        if lengthByte < 0x80 {
            length = Int(lengthByte)
        } else if lengthByte == 0x80 {
            throw SigningError(.malformedData, "DER: indefinite length at offset \(start) (BER is not DER)")
        } else {
            let count = Int(lengthByte & 0x7F)
            guard count <= 8, count <= bytes.endIndex - index else {
                throw SigningError(.malformedData, "DER: invalid length at offset \(start)")
            }
            for _ in 0..<count {
                guard length >> 55 == 0 else { throw SigningError(.malformedData, "DER: length too large at \(start)") }
                length = length << 8 | Int(bytes[index])
                index += 1
            }
        }
        guard length <= bytes.endIndex - index else {
            throw SigningError(
                .malformedData, "DER: \(tag) at offset \(start) needs \(length) bytes, \(bytes.endIndex - index) left")
        }
        let end = index + length
        return DERNode(tag: tag, content: bytes[index..<end], encoded: bytes[start..<end], depth: depth)
    }
}
