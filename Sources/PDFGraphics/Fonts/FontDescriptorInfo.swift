public import PDFCore
import PDFFonts

/// A font's descriptor (ISO 32000-2 §9.8): the flags and metrics a renderer needs to substitute a
/// font that is not embedded, in glyph space units (1/1000 em).
///
/// Values missing from the PDF are filled in: from the standard 14 fonts' AFM metrics for those
/// fonts and their aliases (Arial, Times New Roman, Courier New), else from `/FontBBox` or typical
/// Latin proportions.
public struct FontDescriptorInfo: Sendable, Hashable {
    /// `/Flags` (§9.8.2, Table 121).
    public var flags: Int
    /// `/Ascent`: the maximum height above the baseline (positive).
    public var ascent: Double
    /// `/Descent`: the maximum depth below the baseline (negative).
    public var descent: Double
    /// `/CapHeight`: the height of flat capital letters.
    public var capHeight: Double
    /// `/XHeight`: the height of flat lowercase letters (0 when unknown).
    public var xHeight: Double
    /// `/ItalicAngle`: degrees counter-clockwise from vertical (negative leans right).
    public var italicAngle: Double
    /// `/StemV`: the thickness of the dominant vertical stems.
    public var stemV: Double
    /// `/FontBBox`; nil when absent or degenerate.
    public var fontBBox: PDFRectangle?
    /// `/FontWeight` (100 to 900, 400 normal, 700 bold); nil when absent.
    public var fontWeight: Int?
    /// `/FontFamily`; nil when absent.
    public var fontFamily: String?
    /// `/FontStretch` (`Normal`, `Condensed`, …); nil when absent.
    public var fontStretch: String?
    /// `/MissingWidth`: the width of codes `/Widths` does not cover.
    public var missingWidth: Double

    /// A descriptor with the given values (glyph space units, 1/1000 em).
    public init(
        flags: Int, ascent: Double, descent: Double, capHeight: Double, xHeight: Double = 0,
        italicAngle: Double, stemV: Double, fontBBox: PDFRectangle?, fontWeight: Int? = nil, fontFamily: String? = nil,
        fontStretch: String? = nil, missingWidth: Double = 0
    ) {
        self.flags = flags
        self.ascent = ascent
        self.descent = descent
        self.capHeight = capHeight
        self.xHeight = xHeight
        self.italicAngle = italicAngle
        self.stemV = stemV
        self.fontBBox = fontBBox
        self.fontWeight = fontWeight
        self.fontFamily = fontFamily
        self.fontStretch = fontStretch
        self.missingWidth = missingWidth
    }

    /// All glyphs have the same width (flag 1).
    public var isFixedPitch: Bool { flags & 1 != 0 }
    /// Glyphs have serifs (flag 2).
    public var isSerif: Bool { flags & 2 != 0 }
    /// The font has glyphs outside the Standard Latin character set (flag 3).
    public var isSymbolic: Bool { flags & 4 != 0 }
    /// Glyphs resemble cursive handwriting (flag 4).
    public var isScript: Bool { flags & 8 != 0 }
    /// The font uses the Standard Latin character set (flag 6).
    public var isNonsymbolic: Bool { flags & 32 != 0 }
    /// Glyphs have dominant vertical strokes that are slanted (flag 7).
    public var isItalic: Bool { flags & 64 != 0 }
    /// No lowercase letters (flag 17).
    public var isAllCap: Bool { flags & (1 << 16) != 0 }
    /// Lowercase letters are small capitals (flag 18).
    public var isSmallCap: Bool { flags & (1 << 17) != 0 }
    /// Bold glyphs are painted with extra pixels at small sizes (flag 19).
    public var isForceBold: Bool { flags & (1 << 18) != 0 }

    /// The descriptor of a standard 14 font, from its AFM metrics.
    init(standard font: StandardFont) {
        let box = font.bbox
        self.init(
            flags: font.flags, ascent: font.ascent, descent: font.descent, capHeight: font.capHeight,
            xHeight: font.xHeight, italicAngle: font.italicAngle, stemV: font.stemV,
            fontBBox: PDFRectangle(x0: box.x0, y0: box.y0, x1: box.x1, y1: box.y1),
            fontWeight: font.name.rawValue.contains("Bold") ? 700 : 400)
    }

    /// Reads `/FontDescriptor` `dictionary`, filling what it lacks from `fallback` (the standard
    /// font's values) or from the font box and typical proportions.
    init(_ dictionary: PDFDictionary?, document: PDFDocument, fallback: FontDescriptorInfo?, warnings: inout [String]) {
        func number(_ key: PDFName) -> Double? {
            guard let value = dictionary.flatMap({ document.resolve($0, key) })?.numberValue, value.isFinite
            else { return nil }
            return value
        }
        var box: PDFRectangle? = nil
        if let items = dictionary.flatMap({ document.resolve($0, "FontBBox") })?.arrayValue, items.count == 4 {
            let values = items.compactMap { document.resolve($0).numberValue }.filter(\.isFinite)
            if values.count == 4 {
                let rect = PDFRectangle(x0: values[0], y0: values[1], x1: values[2], y1: values[3])
                if !rect.isEmpty { box = rect }
            }
        }
        if dictionary == nil, fallback == nil { warnings.append("the font has no /FontDescriptor") }
        let flags = number("Flags").map { Int(exactly: $0.rounded()) ?? 0 }
        var ascent = number("Ascent") ?? fallback?.ascent ?? box?.y1 ?? 800
        var descent = number("Descent") ?? fallback?.descent ?? box?.y0 ?? -200
        // Some producers write the descent as a positive depth, or leave both zero.
        if descent > 0 { descent = -descent }
        if ascent == 0, descent == 0 {
            ascent = fallback?.ascent ?? box?.y1 ?? 800
            descent = fallback?.descent ?? box?.y0 ?? -200
        }
        let name = dictionary.flatMap { document.resolve($0, "FontStretch") }?.nameValue
        let family = dictionary.flatMap { document.resolve($0, "FontFamily") }?.stringValue
        self.init(
            flags: flags ?? fallback?.flags ?? 32, ascent: ascent, descent: descent,
            capHeight: number("CapHeight") ?? fallback?.capHeight ?? ascent,
            xHeight: number("XHeight") ?? fallback?.xHeight ?? 0,
            italicAngle: number("ItalicAngle") ?? fallback?.italicAngle ?? 0,
            stemV: number("StemV") ?? fallback?.stemV ?? 80,
            fontBBox: box ?? fallback?.fontBBox,
            fontWeight: number("FontWeight").map { Int(max(100, min(900, $0))) } ?? fallback?.fontWeight,
            fontFamily: family?.text ?? fallback?.fontFamily, fontStretch: name?.string ?? fallback?.fontStretch,
            missingWidth: number("MissingWidth") ?? 0)
    }
}
