/// Reads the tables generated into Swift source as text (`key=value` entries separated by spaces
/// and line feeds: glyph widths, the Adobe Glyph List), on their UTF-8 bytes.
///
/// Splitting such text as `String` walks grapheme clusters and costs more than the rest of a page's
/// work in a short-lived process; the bytes are ASCII, so they are scanned as bytes.
package enum GeneratedTableText {
    /// Calls `body` with each entry's key and the bytes of its value, in order.
    package static func forEachEntry(
        in text: String, _ body: (_ key: String, _ value: UnsafeBufferPointer<UInt8>) -> Void
    ) {
        var text = text
        text.withUTF8 { bytes in
            var index = 0
            while index < bytes.count {
                while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A { index += 1 }
                let start = index
                var equals: Int? = nil
                while index < bytes.count, bytes[index] != 0x20, bytes[index] != 0x0A {
                    if equals == nil, bytes[index] == 0x3D { equals = index }
                    index += 1
                }
                guard let equals, equals > start else { continue }
                let key = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<equals]), as: UTF8.self)
                body(key, UnsafeBufferPointer(rebasing: bytes[(equals + 1)..<index]))
            }
        }
    }

    /// The words of `text` (separated by spaces and line feeds), in order.
    package static func words(in text: String) -> [String] {
        var text = text
        return text.withUTF8 { bytes in
            var words: [String] = []
            var index = 0
            while index < bytes.count {
                while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A { index += 1 }
                let start = index
                while index < bytes.count, bytes[index] != 0x20, bytes[index] != 0x0A { index += 1 }
                if index > start {
                    words.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
                }
            }
            return words
        }
    }

    /// The values of a comma-separated list of hexadecimal numbers (`41` or `66,69`).
    package static func hexValues(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt32] {
        var values: [UInt32] = []
        var value: UInt32 = 0
        var digits = 0
        for byte in bytes {
            switch byte {
            case 0x30...0x39: value = value << 4 | UInt32(byte - 0x30)
            case 0x41...0x46: value = value << 4 | UInt32(byte - 0x41 + 10)
            case 0x61...0x66: value = value << 4 | UInt32(byte - 0x61 + 10)
            case 0x2C:
                if digits > 0 { values.append(value) }
                (value, digits) = (0, 0)
                continue
            default: return values
            }
            digits += 1
        }
        if digits > 0 { values.append(value) }
        return values
    }

    /// The value of a decimal number, or nil when the bytes are not one.
    package static func decimal(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard !bytes.isEmpty, bytes.count < 10 else { return nil }
        var value = 0
        for byte in bytes {
            guard (0x30...0x39).contains(byte) else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        return value
    }
}
