import PDFCore

/// The one-byte encodings the standard 14 fonts are written with: WinAnsiEncoding for the text fonts
/// and the fonts' built-in encodings for Symbol and ZapfDingbats (ISO 32000-2 §9.6.5, Annex D).
package enum SimpleEncoding: Hashable, Sendable {
    /// WinAnsiEncoding (ISO 32000-2 Annex D.2).
    case winAnsi
    /// The built-in encoding of the Symbol font (ISO 32000-2 Annex D.5).
    case symbol
    /// The built-in encoding of the ZapfDingbats font (ISO 32000-2 Annex D.6).
    case zapfDingbats

    /// The code of `scalar`, or nil when the encoding has none.
    package func code(for scalar: Unicode.Scalar) -> UInt8? {
        switch self {
        case .winAnsi: WinAnsiEncoding.code(for: scalar)
        case .symbol: SymbolEncoding.code(for: scalar)
        case .zapfDingbats: ZapfDingbatsEncoding.code(for: scalar)
        }
    }

    /// The character `code` stands for, or nil when the code is undefined.
    package func scalar(for code: UInt8) -> Unicode.Scalar? {
        switch self {
        case .winAnsi: WinAnsiEncoding.scalar(for: code)
        case .symbol: SymbolEncoding.scalar(for: code)
        case .zapfDingbats: ZapfDingbatsEncoding.scalar(for: code)
        }
    }
}

/// WinAnsiEncoding (ISO 32000-2 Annex D.2): Windows code page 1252.
///
/// 0x20…0x7E are ASCII and 0xA0…0xFF are Latin-1, where 0xA0 is the space glyph (read as U+00A0
/// no-break space) and 0xAD the hyphen glyph (read as U+00AD soft hyphen). 0x80…0x9F hold the
/// typographic characters of code page 1252; 0x81, 0x8D, 0x8F, 0x90, 0x9D and the control codes
/// 0x00…0x1F and 0x7F are undefined.
package enum WinAnsiEncoding {
    /// The Unicode values of 0x80…0x9F; 0 where the code is undefined.
    private static let high: [UInt16] = [
        0x20AC, 0x0000, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,  // € ‚ ƒ „ … † ‡
        0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x0000, 0x017D, 0x0000,  // ˆ ‰ Š ‹ Œ Ž
        0x0000, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,  // ‘ ’ “ ” • – —
        0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x0000, 0x017E, 0x0178,  // ˜ ™ š › œ ž Ÿ
    ]

    /// The code of `scalar`, or nil when WinAnsiEncoding has none.
    package static func code(for scalar: Unicode.Scalar) -> UInt8? {
        let value = scalar.value
        switch value {
        case 0x20...0x7E, 0xA0...0xFF: return UInt8(value)
        case 0x100...0xFFFF:
            guard let index = high.firstIndex(of: UInt16(value)) else { return nil }
            return 0x80 + UInt8(index)
        default: return nil
        }
    }

    /// The character `code` stands for, or nil when the code is undefined.
    package static func scalar(for code: UInt8) -> Unicode.Scalar? {
        switch code {
        case 0x20...0x7E, 0xA0...0xFF: return Unicode.Scalar(code)
        case 0x80...0x9F:
            let value = high[Int(code) - 0x80]
            return value == 0 ? nil : Unicode.Scalar(value)
        default: return nil
        }
    }
}

/// The built-in encoding of the Symbol font (ISO 32000-2 Annex D.5), with the Unicode values of its
/// glyph names (Adobe Glyph List; Greek letters for Delta, Omega and mu as in Adobe's Symbol-to-Unicode
/// table). Encoding also accepts U+2206 increment, U+2126 ohm sign and U+00B5 micro sign, which the
/// Adobe Glyph List gives for those glyphs.
package enum SymbolEncoding {
    private static let aliases: [UInt32: UInt8] = [0x2206: 0x44, 0x2126: 0x57, 0x00B5: 0x6D]
    private static let codes = reverse(StandardFontData.symbolUnicode, adding: aliases)

    /// The code of `scalar`, or nil when the Symbol font has no glyph for it.
    package static func code(for scalar: Unicode.Scalar) -> UInt8? { codes[scalar.value] }

    /// The character `code` stands for, or nil when the Symbol font has no glyph at that code.
    package static func scalar(for code: UInt8) -> Unicode.Scalar? {
        lookUp(code, in: StandardFontData.symbolUnicode)
    }
}

/// The built-in encoding of the ZapfDingbats font (ISO 32000-2 Annex D.6), with the Unicode values of
/// its glyph names in Adobe's zapfdingbats.txt (for example 0x34 ✔ U+2714, 0x6C ● U+25CF).
package enum ZapfDingbatsEncoding {
    private static let codes = reverse(StandardFontData.zapfDingbatsUnicode, adding: [:])

    /// The code of `scalar`, or nil when the ZapfDingbats font has no glyph for it.
    package static func code(for scalar: Unicode.Scalar) -> UInt8? { codes[scalar.value] }

    /// The character `code` stands for, or nil when the ZapfDingbats font has no glyph at that code.
    package static func scalar(for code: UInt8) -> Unicode.Scalar? {
        lookUp(code, in: StandardFontData.zapfDingbatsUnicode)
    }
}

/// The scalar at `code` in a 256-entry table where 0 means undefined.
private func lookUp(_ code: UInt8, in table: [UInt16]) -> Unicode.Scalar? {
    let value = table[Int(code)]
    return value == 0 ? nil : Unicode.Scalar(value)
}

/// The code of each Unicode value of a 256-entry table (0 entries skipped), plus `aliases`.
private func reverse(_ table: [UInt16], adding aliases: [UInt32: UInt8]) -> [UInt32: UInt8] {
    var codes = aliases
    for (code, value) in table.enumerated() where value != 0 {
        codes[UInt32(value)] = UInt8(code)
    }
    return codes
}
