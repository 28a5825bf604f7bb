public import PDFCore

/// Glyphs shown by one text-showing operator (`Tj`, `TJ`, `'`, `"`), ISO 32000-2 §9.4.
public struct GlyphRun: Sendable {
    /// The font the glyphs are shown in.
    public var font: LoadedFont
    /// The glyphs in the order shown, each with its own matrix.
    public var glyphs: [PositionedGlyph]
    /// `Tr`, 0 to 7 (§9.3.6): 0 fill, 1 stroke, 2 both, 3 invisible, 4–7 the same and add to the clip.
    public var renderMode: Int
    /// The paint for filling glyphs (render modes 0, 2, 4, 6), else nil.
    public var fill: Paint?
    /// The paint for stroking glyph outlines (modes 1, 2, 5, 6), else nil.
    public var stroke: Paint?
    /// The stroke style, in the space `ctm` maps to user space.
    public var strokeStyle: StrokeStyle
    /// User space of the content stream (the CTM when the text was shown): stroke widths are in it.
    public var ctm: PDFMatrix

    /// A run; each argument sets the property of the same name.
    public init(
        font: LoadedFont, glyphs: [PositionedGlyph], renderMode: Int, fill: Paint?, stroke: Paint?,
        strokeStyle: StrokeStyle, ctm: PDFMatrix
    ) {
        self.font = font
        self.glyphs = glyphs
        self.renderMode = renderMode
        self.fill = fill
        self.stroke = stroke
        self.strokeStyle = strokeStyle
        self.ctm = ctm
    }

    /// Render modes 4 to 7 add the glyph outlines to the clip when the text object ends.
    public var addsToClip: Bool { renderMode >= 4 }
    /// Mode 3 (and 7) paint nothing: invisible text, found by extraction and search.
    public var isInvisible: Bool { fill == nil && stroke == nil }
}

/// One glyph of a run.
public struct PositionedGlyph: Sendable {
    /// The character code as the string held it (one to four bytes).
    public var code: UInt32
    /// The CID for composite fonts; the code for simple fonts.
    public var cid: UInt32
    /// Text the glyph stands for (from `/ToUnicode`, the encoding's glyph names or the CMap's
    /// character collection), when known.
    public var unicode: String?
    /// Maps the glyph's em square (1 unit = the font size, glyph origin at 0,0, y up; the font
    /// matrix already applied) to user space: the text rendering matrix of §9.4.4 without the
    /// device transformation.
    public var matrix: PDFMatrix
    /// The advance along the writing direction, in em units (a `/Widths` value ÷ 1000).
    public var advance: Double

    /// A glyph; each argument sets the property of the same name.
    public init(code: UInt32, cid: UInt32, unicode: String?, matrix: PDFMatrix, advance: Double) {
        self.code = code
        self.cid = cid
        self.unicode = unicode
        self.matrix = matrix
        self.advance = advance
    }
}
