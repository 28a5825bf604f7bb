/// A PDF string: bytes, remembered as written literally `( … )` or in hex `< … >` (ISO 32000-2 §7.3.4).
///
/// Equality compares bytes only; the hex form is a writing preference.
public struct PDFString: Hashable, Sendable, CustomStringConvertible {
    /// The string's bytes (escapes resolved, decrypted).
    public var bytes: [UInt8]
    /// True when the string was (or should be) written as a hexadecimal string.
    public var isHex: Bool

    /// A string of the given bytes, written as a hexadecimal string `< … >` when `isHex` is true, else as a literal
    /// string `( … )`.
    public init(bytes: [UInt8], isHex: Bool = false) {
        self.bytes = bytes
        self.isHex = isHex
    }

    /// A text string (§7.9.2.2): PDFDocEncoding when every character has a code there, else UTF-16BE
    /// with a byte order mark.
    public init(text: String) {
        if let encoded = PDFDocEncoding.encode(text) {
            self.init(bytes: encoded)
        } else {
            var bytes: [UInt8] = [0xFE, 0xFF]
            for unit in text.utf16 {
                bytes.append(UInt8(unit >> 8))
                bytes.append(UInt8(unit & 0xFF))
            }
            self.init(bytes: bytes)
        }
    }

    /// The string read as a text string (§7.9.2.2): UTF-16BE or UTF-8 with a byte order mark,
    /// else PDFDocEncoding.
    public var text: String {
        if bytes.count >= 2, bytes[0] == 0xFE, bytes[1] == 0xFF {
            var units: [UInt16] = []
            units.reserveCapacity(bytes.count / 2)
            var index = 2
            while index + 1 < bytes.count {
                units.append(UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1]))
                index += 2
            }
            return String(decoding: units, as: UTF16.self)
        }
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            return String(decoding: bytes.dropFirst(3), as: UTF8.self)
        }
        return PDFDocEncoding.decode(bytes)
    }

    /// True when both have the same bytes, whichever form they are written in.
    public static func == (lhs: PDFString, rhs: PDFString) -> Bool { lhs.bytes == rhs.bytes }
    /// Hashes the bytes alone, as `==` compares.
    public func hash(into hasher: inout Hasher) { hasher.combine(bytes) }

    /// The string read as a text string (``text``).
    public var description: String { text }
}

/// PDFDocEncoding (ISO 32000-2 Annex D.2): Latin-1 with typographic characters in 0x18…0x1F and 0x80…0xA0.
package enum PDFDocEncoding {
    private static let low: [UInt32] = [0x02D8, 0x02C7, 0x02C6, 0x02D9, 0x02DD, 0x02DB, 0x02DA, 0x02DC]
    private static let high: [UInt32] = [
        0x2022, 0x2020, 0x2021, 0x2026, 0x2014, 0x2013, 0x0192, 0x2044,
        0x2039, 0x203A, 0x2212, 0x2030, 0x201E, 0x201C, 0x201D, 0x2018,
        0x2019, 0x201A, 0x2122, 0xFB01, 0xFB02, 0x0141, 0x0152, 0x0160,
        0x0178, 0x017D, 0x0131, 0x0142, 0x0153, 0x0161, 0x017E, 0xFFFD,
        0x20AC,
    ]

    /// The Unicode scalar of a PDFDocEncoding byte.
    package static func scalar(_ byte: UInt8) -> Unicode.Scalar {
        let value: UInt32
        switch byte {
        case 0x18...0x1F: value = low[Int(byte) - 0x18]
        case 0x80...0xA0: value = high[Int(byte) - 0x80]
        case 0xAD: value = 0xFFFD
        default: value = UInt32(byte)
        }
        return Unicode.Scalar(value) ?? "\u{FFFD}"
    }

    package static func decode(_ bytes: some Sequence<UInt8>) -> String {
        var scalars = String.UnicodeScalarView()
        for byte in bytes { scalars.append(scalar(byte)) }
        return String(scalars)
    }

    /// The bytes of `text` in PDFDocEncoding, or nil when a character has no code.
    package static func encode(_ text: String) -> [UInt8]? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if value < 0x80 && !(0x18...0x1F).contains(value) || (0xA1...0xFF).contains(value) && value != 0xAD {
                bytes.append(UInt8(value))
            } else if let index = low.firstIndex(of: value) {
                bytes.append(UInt8(0x18 + index))
            } else if value != 0xFFFD, let index = high.firstIndex(of: value) {
                bytes.append(UInt8(0x80 + index))
            } else {
                return nil
            }
        }
        return bytes
    }
}
