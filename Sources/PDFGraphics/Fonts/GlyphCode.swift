public import PDFCore

/// One character code of a string operand, decoded (ISO 32000-2 §9.4.3, §9.7.6).
public struct GlyphCode: Sendable, Hashable {
    /// The character code.
    public var code: UInt32
    /// How many bytes of the string the code took (1 to 4).
    public var byteCount: Int
    /// The CID for composite fonts; the code for simple fonts.
    public var cid: UInt32
    /// The horizontal advance in text space units per unit of font size: a `/Widths` or `/W` value
    /// ÷ 1000 (Type 3: the width in glyph space transformed by `/FontMatrix`).
    public var width: Double
    /// Writing mode 1: the vertical displacement `w1y` ÷ 1000 (negative is downward; −1 by default).
    public var verticalAdvance: Double?
    /// Writing mode 1: the position vector (v_x, v_y) ÷ 1000 from the horizontal origin to the
    /// vertical one (by default (w0 / 2, 0.88)).
    public var verticalOrigin: PDFPoint?
    /// The text the code stands for, when known.
    public var unicode: String?
    /// True for a single-byte code 32, to which word spacing applies (§9.3.3).
    public var isWordSpace: Bool

    /// A decoded code; vertical metrics only in writing mode 1.
    public init(
        code: UInt32, byteCount: Int, cid: UInt32, width: Double, verticalAdvance: Double? = nil,
        verticalOrigin: PDFPoint? = nil, unicode: String?, isWordSpace: Bool
    ) {
        self.code = code
        self.byteCount = byteCount
        self.cid = cid
        self.width = width
        self.verticalAdvance = verticalAdvance
        self.verticalOrigin = verticalOrigin
        self.unicode = unicode
        self.isWordSpace = isWordSpace
    }
}
