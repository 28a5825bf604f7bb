public import PDFCore

/// What a Type 3 font draws its glyphs with (ISO 32000-2 §9.6.4).
public struct Type3Glyphs: Sendable {
    /// `/CharProcs`: each glyph name's content stream (usually a reference).
    public var charProcs: [String: PDFObject]
    /// `/Resources` of the glyph procedures, resolved; nil when absent (the page's resources apply).
    public var resources: PDFDictionary?
    /// `/FontBBox` in glyph space; nil when absent or all zero.
    public var fontBBox: PDFRectangle?

    /// The glyph procedures, their resources and the glyph box of a Type 3 font.
    public init(charProcs: [String: PDFObject], resources: PDFDictionary?, fontBBox: PDFRectangle?) {
        self.charProcs = charProcs
        self.resources = resources
        self.fontBBox = fontBBox
    }
}
