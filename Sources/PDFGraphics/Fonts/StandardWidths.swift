import PDFCore

/// The widths of the standard 14 fonts by glyph name (ISO 32000-2 §9.6.2.2: a reader knows the
/// metrics of these fonts, so `/Widths` may be left out for them), in 1/1000 em.
///
/// Codes of WinAnsiEncoding use the AFM widths of PDFCore's ``StandardFont``; other glyph names
/// use the tables `scripts/gen-font-data.py` generates from the same AFM metrics.
enum StandardWidths {
    private static let parsed: [String: [String: Double]] = {
        var result: [String: [String: Double]] = [:]
        for (font, text) in tables1.merging(tables2, uniquingKeysWith: { first, _ in first }) {
            var widths: [String: Double] = [:]
            for entry in text.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
                guard let equals = entry.firstIndex(of: "="), let width = Double(entry[entry.index(after: equals)...])
                else { continue }
                widths[String(entry[..<equals])] = width
            }
            result[font] = widths
        }
        return result
    }()

    /// The width of glyph `name` in `font`, or nil when the font has no such glyph.
    static func width(of name: String, in font: StandardFont) -> Double? {
        if font.encoding == .winAnsi, let code = winAnsiCodes[name] {
            let width = font.width(of: code)
            if width > 0 { return width }
        }
        return parsed[font.name.rawValue]?[name]
    }

    /// The WinAnsiEncoding code of each glyph name.
    private static let winAnsiCodes: [String: UInt8] = {
        var codes: [String: UInt8] = [:]
        for code in 0..<256 {
            if let name = BaseEncoding.winAnsi.glyphName(at: UInt8(code)), codes[name] == nil, code != 0xA0,
                code != 0xAD
            {
                codes[name] = UInt8(code)
            }
        }
        return codes
    }()
}
