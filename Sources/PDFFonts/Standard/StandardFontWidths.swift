import PDFCore

/// The advance widths of the standard 14 fonts (ISO 32000-2 §9.6.2.2: a reader knows the metrics of
/// these fonts, so `/Widths` may be left out for them), in 1/1000 em.
///
/// The widths by glyph name (``glyphWidths``, generated into `StandardFontWidthData1.swift` and
/// `StandardFontWidthData2.swift`) are the one table: PDFGraphics' font model looks glyph names up in
/// it, and ``widths``, the widths by code that ``StandardFont`` lays text out with, are derived from it
/// through the glyph names of each font's encoding. `scripts/gen-standard-fonts.py` checks that the
/// derived width of every code is Adobe's AFM width of that code.
extension StandardFontData {
    /// The width of each glyph name, per font in ``metrics`` order, looked up in place.
    static let glyphWidths: [SortedTableText] = (glyphWidthTexts1 + glyphWidthTexts2).map { SortedTableText([$0]) }

    /// The width of `glyphName` in the font at `index` of ``metrics``, or nil without such a glyph.
    static func width(ofGlyph glyphName: String, font index: Int) -> UInt16? {
        glyphWidths[index].withValue(for: glyphName) { GeneratedTableText.decimal($0).flatMap { UInt16(exactly: $0) } }
            ?? nil
    }

    /// Advance widths by character code: 256 per font, in the order of ``metrics``; 0 where the code
    /// has no glyph. Codes are WinAnsiEncoding for the text fonts and the built-in encoding for Symbol
    /// and ZapfDingbats: the glyph names are ``BaseEncoding``'s (the one copy of the named encodings),
    /// for the codes that ``SimpleEncoding`` gives a character (BaseEncoding also names the bullet
    /// that readers show for WinAnsi's unused codes, and Apple's logo at Symbol's 0x80, neither of
    /// which a standard font writes).
    static let widths: [UInt16] = {
        var widths = [UInt16](repeating: 0, count: 256 * StandardFont.Name.allCases.count)
        for font in StandardFont.Name.allCases {
            let base: BaseEncoding
            let simple: SimpleEncoding
            switch font {
            case .symbol: (base, simple) = (.symbol, .symbol)
            case .zapfDingbats: (base, simple) = (.zapfDingbats, .zapfDingbats)
            default: (base, simple) = (.winAnsi, .winAnsi)
            }
            for code in UInt8.min...UInt8.max where simple.scalar(for: code) != nil {
                let glyphWidth = base.glyphName(at: code).flatMap {
                    StandardFontData.width(ofGlyph: $0, font: font.dataIndex)
                }
                widths[font.dataIndex * 256 + Int(code)] = glyphWidth ?? 0
            }
        }
        return widths
    }()
}

extension StandardFont {
    /// The advance width of the glyph named `glyphName`, in 1/1000 em, or nil when the font has no such
    /// glyph. Besides the glyphs of the font's encoding, the text fonts know the other glyphs of Latin
    /// text and punctuation (`Scedilla`, `Lslash`, `fi`, …) and `.notdef`.
    package func width(ofGlyph glyphName: String) -> Double? {
        StandardFontData.width(ofGlyph: glyphName, font: name.dataIndex).map(Double.init)
    }
}
