/// The tokens of PDF syntax (ISO 32000-2 §7.2, §7.3) over a byte buffer.
///
/// A value type: copying it saves a position, so look-ahead is a copy. Reading past the end gives
/// `.end`; malformed tokens are read liberally (as qpdf and pdf.js do), never trapping.
package struct Lexer {
    package enum Token: Equatable {
        case integer(Int)
        case real(PDFReal)
        case string(PDFString)
        case name(PDFName)
        case arrayOpen
        case arrayClose
        case dictionaryOpen
        case dictionaryClose
        case braceOpen
        case braceClose
        case keyword(Keyword)
        case end
    }

    package let bytes: UnsafeRawBufferPointer
    package var position: Int
    /// How many names had a `#` not followed by two hex digits (kept literally, as before PDF 1.2).
    package var strayHashes = 0
    /// How many single `>` were read as `>>`.
    package var loneAngles = 0

    package init(_ bytes: UnsafeRawBufferPointer, at position: Int = 0) {
        self.bytes = bytes
        self.position = position
    }

    package var isAtEnd: Bool { position >= bytes.count }

    @inline(__always) package func byte(at offset: Int) -> UInt8? {
        offset >= 0 && offset < bytes.count ? bytes[offset] : nil
    }

    @inline(__always) package static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 || byte == 0x0C || byte == 0x00
    }

    @inline(__always) package static func isDelimiter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "["),
            UInt8(ascii: "]"), UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "/"), UInt8(ascii: "%"):
            true
        default: false
        }
    }

    @inline(__always) package static func isRegular(_ byte: UInt8) -> Bool {
        !isWhitespace(byte) && !isDelimiter(byte)
    }

    @inline(__always) package static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    /// Skips white space and comments.
    package mutating func skipWhitespace() {
        let count = bytes.count
        while position < count {
            let byte = bytes[position]
            if Lexer.isWhitespace(byte) {
                position += 1
            } else if byte == UInt8(ascii: "%") {
                while position < count, bytes[position] != 0x0A, bytes[position] != 0x0D { position += 1 }
            } else {
                return
            }
        }
    }

    /// The next token.
    package mutating func next() -> Token {
        skipWhitespace()
        guard position < bytes.count else { return .end }
        let first = bytes[position]
        switch first {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."):
            return readNumber()
        case UInt8(ascii: "/"):
            position += 1
            return .name(readName())
        case UInt8(ascii: "("):
            position += 1
            return .string(readLiteralString())
        case UInt8(ascii: "<"):
            if byte(at: position + 1) == UInt8(ascii: "<") {
                position += 2
                return .dictionaryOpen
            }
            position += 1
            return .string(readHexString())
        case UInt8(ascii: ">"):
            position += 1
            if byte(at: position) == UInt8(ascii: ">") { position += 1 } else { loneAngles += 1 }
            return .dictionaryClose
        case UInt8(ascii: "["):
            position += 1
            return .arrayOpen
        case UInt8(ascii: "]"):
            position += 1
            return .arrayClose
        case UInt8(ascii: "{"):
            position += 1
            return .braceOpen
        case UInt8(ascii: "}"):
            position += 1
            return .braceClose
        case UInt8(ascii: ")"):
            // A stray closing parenthesis: a one-byte keyword the parser will report.
            position += 1
            return .keyword(Keyword(packing: UnsafeRawBufferPointer(rebasing: bytes[(position - 1)..<position])))
        default:
            let start = position
            while position < bytes.count, Lexer.isRegular(bytes[position]) { position += 1 }
            return .keyword(Keyword(packing: UnsafeRawBufferPointer(rebasing: bytes[start..<position])))
        }
    }

    /// Reads a number: an integer when there is no decimal point and it fits, else a real keeping
    /// its literal. Signs and points out of place are read as pdf.js does (`--5` is −5, `-` is 0).
    package mutating func readNumber() -> Token {
        let start = position
        let count = bytes.count
        var negative = false
        while position < count, bytes[position] == UInt8(ascii: "-") || bytes[position] == UInt8(ascii: "+") {
            if bytes[position] == UInt8(ascii: "-") { negative = true }
            position += 1
        }
        var mantissa: UInt64 = 0
        var digits = 0
        var overflow = false
        var fractionDigits = 0
        var sawPoint = false
        while position < count {
            let byte = bytes[position]
            if Lexer.isDigit(byte) {
                if mantissa < 100_000_000_000_000_000 {
                    mantissa = mantissa * 10 + UInt64(byte - UInt8(ascii: "0"))
                    if sawPoint { fractionDigits += 1 }
                } else if !sawPoint {
                    overflow = true
                }
                digits += 1
            } else if byte == UInt8(ascii: "."), !sawPoint {
                sawPoint = true
            } else {
                break
            }
            position += 1
        }
        // Trailing junk such as `12-3` or `4.5.6`: stop at the first byte that is not part of a number.
        if !sawPoint && !overflow {
            let value = Int(mantissa)
            return .integer(negative ? -value : value)
        }
        let literal = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        var value: Double
        if overflow {
            var cleaned = String(literal.drop { $0 == "+" || $0 == "-" })
            if cleaned.hasPrefix(".") { cleaned = "0" + cleaned }
            value = (Double(cleaned) ?? 0) * (negative ? -1 : 1)
        } else {
            value = Double(mantissa)
            var remaining = fractionDigits
            while remaining > 0 {
                let step = min(remaining, 22)
                value /= Lexer.powersOfTen[step]
                remaining -= step
            }
            if negative { value = -value }
        }
        if digits == 0 { value = 0 }
        return .real(PDFReal(value, literal: literal))
    }

    private static let powersOfTen: [Double] = (0...22).map { exponent in
        var value = 1.0
        for _ in 0..<exponent { value *= 10 }
        return value
    }

    /// Reads a name after its slash, resolving `#xx` escapes (§7.3.5).
    package mutating func readName() -> PDFName {
        let start = position
        let count = bytes.count
        var hasEscape = false
        while position < count {
            let byte = bytes[position]
            if !Lexer.isRegular(byte) { break }
            if byte == UInt8(ascii: "#") { hasEscape = true }
            position += 1
        }
        let raw = UnsafeRawBufferPointer(rebasing: bytes[start..<position])
        guard hasEscape else { return PDFName(bytes: raw) }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(raw.count)
        var index = 0
        while index < raw.count {
            let byte = raw[index]
            if byte == UInt8(ascii: "#"), index + 2 < raw.count,
                let high = ASCIIHex.hexValue(raw[index + 1]), let low = ASCIIHex.hexValue(raw[index + 2])
            {
                decoded.append(high << 4 | low)
                index += 3
            } else {
                if byte == UInt8(ascii: "#") { strayHashes += 1 }
                decoded.append(byte)
                index += 1
            }
        }
        return PDFName(bytes: decoded)
    }

    /// Reads a literal string after its opening parenthesis (§7.3.4.2).
    package mutating func readLiteralString() -> PDFString {
        var output: [UInt8] = []
        var depth = 1
        let count = bytes.count
        while position < count {
            let byte = bytes[position]
            position += 1
            switch byte {
            case UInt8(ascii: "("):
                depth += 1
                output.append(byte)
            case UInt8(ascii: ")"):
                depth -= 1
                if depth == 0 { return PDFString(bytes: output) }
                output.append(byte)
            case UInt8(ascii: "\\"):
                guard position < count else { break }
                let escaped = bytes[position]
                position += 1
                switch escaped {
                case UInt8(ascii: "n"): output.append(0x0A)
                case UInt8(ascii: "r"): output.append(0x0D)
                case UInt8(ascii: "t"): output.append(0x09)
                case UInt8(ascii: "b"): output.append(0x08)
                case UInt8(ascii: "f"): output.append(0x0C)
                case UInt8(ascii: "0")...UInt8(ascii: "7"):
                    var value = Int(escaped - UInt8(ascii: "0"))
                    for _ in 0..<2 {
                        guard position < count, bytes[position] >= UInt8(ascii: "0"),
                            bytes[position] <= UInt8(ascii: "7")
                        else { break }
                        value = value * 8 + Int(bytes[position] - UInt8(ascii: "0"))
                        position += 1
                    }
                    output.append(UInt8(truncatingIfNeeded: value))
                case 0x0D:
                    if position < count, bytes[position] == 0x0A { position += 1 }
                case 0x0A:
                    break
                default:
                    output.append(escaped)
                }
            case 0x0D:
                // An end of line in a string is read as a single line feed (§7.3.4.2).
                if position < count, bytes[position] == 0x0A { position += 1 }
                output.append(0x0A)
            default:
                output.append(byte)
            }
        }
        return PDFString(bytes: output)
    }

    /// Reads a hexadecimal string after its `<` (§7.3.4.3); bad characters are skipped.
    package mutating func readHexString() -> PDFString {
        var output: [UInt8] = []
        var high: UInt8? = nil
        let count = bytes.count
        while position < count {
            let byte = bytes[position]
            position += 1
            if byte == UInt8(ascii: ">") { break }
            guard let value = ASCIIHex.hexValue(byte) else { continue }
            if let pending = high {
                output.append(pending << 4 | value)
                high = nil
            } else {
                high = value
            }
        }
        if let pending = high { output.append(pending << 4) }
        return PDFString(bytes: output, isHex: true)
    }

    /// Reads `int int R` ahead without moving; returns the reference when it is there.
    package func peekReferenceTail() -> (generation: Int, end: Int)? {
        var cursor = self
        cursor.skipWhitespace()
        var generation = 0
        var digits = 0
        while cursor.position < bytes.count, Lexer.isDigit(bytes[cursor.position]), digits < 10 {
            generation = generation * 10 + Int(bytes[cursor.position] - UInt8(ascii: "0"))
            cursor.position += 1
            digits += 1
        }
        guard digits > 0, cursor.position < bytes.count, !Lexer.isRegular(bytes[cursor.position]) else { return nil }
        cursor.skipWhitespace()
        guard cursor.position < bytes.count, bytes[cursor.position] == UInt8(ascii: "R") else { return nil }
        let after = cursor.position + 1
        if after < bytes.count, Lexer.isRegular(bytes[after]) { return nil }
        return (generation, after)
    }

    /// Reads an unsigned decimal integer of at most `maxDigits` (≤ 18, so it cannot overflow) at the
    /// position (no white space skipped); on failure the position is unchanged.
    package mutating func readUnsigned(maxDigits: Int = 18) -> Int? {
        let start = position
        let limit = min(maxDigits, 18)
        var value = 0
        var digits = 0
        while position < bytes.count, Lexer.isDigit(bytes[position]) {
            if digits < limit { value = value * 10 + Int(bytes[position] - UInt8(ascii: "0")) }
            digits += 1
            position += 1
        }
        guard digits > 0 && digits <= limit else {
            position = start
            return nil
        }
        return value
    }

    /// True when the bytes at the position are `keyword` followed by a non-regular byte or the end.
    package func hasKeyword(_ keyword: StaticString, at offset: Int? = nil) -> Bool {
        let start = offset ?? position
        let length = keyword.utf8CodeUnitCount
        guard start >= 0, start + length <= bytes.count else { return false }
        let text = keyword.utf8Start
        for index in 0..<length where bytes[start + index] != text[index] { return false }
        if start + length < bytes.count, Lexer.isRegular(bytes[start + length]) { return false }
        return true
    }
}

/// A bare word of PDF syntax (`obj`, `R`, `true`, or a content operator), packed for fast comparison.
package struct Keyword: Hashable, Sendable, CustomStringConvertible {
    /// The first eight bytes, little-endian.
    package let packed: UInt64
    /// Bytes 8…15; longer words are told apart by a hash of the rest.
    package let packedTail: UInt64
    package let length: Int

    package init(packing bytes: UnsafeRawBufferPointer) {
        var value: UInt64 = 0
        for index in 0..<min(8, bytes.count) { value |= UInt64(bytes[index]) << (8 * UInt64(index)) }
        packed = value
        var tail: UInt64 = 0
        if bytes.count > 8 {
            for index in 8..<min(16, bytes.count) { tail |= UInt64(bytes[index]) << (8 * UInt64(index - 8)) }
            // FNV-1a over anything past 16 bytes keeps long words distinct too.
            for index in 16..<max(16, bytes.count) { tail = (tail ^ UInt64(bytes[index])) &* 0x100_0000_01B3 }
        }
        packedTail = tail
        length = bytes.count
    }

    package init(_ text: StaticString) {
        self.init(packing: UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    package var description: String {
        var bytes: [UInt8] = []
        for index in 0..<min(8, length) { bytes.append(UInt8(truncatingIfNeeded: packed >> (8 * UInt64(index)))) }
        // Bytes 8…15 are kept as they are only when the word is at most 16 bytes long.
        if length <= 16 {
            for index in 0..<max(0, length - 8) {
                bytes.append(UInt8(truncatingIfNeeded: packedTail >> (8 * UInt64(index))))
            }
        }
        return String(decoding: bytes, as: UTF8.self) + (length > 16 ? "…" : "")
    }

    package static let `true` = Keyword("true")
    package static let `false` = Keyword("false")
    package static let null = Keyword("null")
    package static let obj = Keyword("obj")
    package static let endobj = Keyword("endobj")
    package static let stream = Keyword("stream")
    package static let endstream = Keyword("endstream")
    package static let r = Keyword("R")
    package static let xref = Keyword("xref")
    package static let trailer = Keyword("trailer")
    package static let startxref = Keyword("startxref")
}
