public import PDFAuthoring
import PDFCore

/// How ink notes are drawn (signoAPI `STNotesConfig`): stroke width in points and colour.
public struct InkStyle: Hashable, Sendable, Codable {
    /// The stroke width in points at full pressure (`/BS /W`).
    public var width: Double
    /// The ink colour (`/C`).
    public var color: PDFColor

    /// A style; by default 2 pt strokes in red.
    public init(width: Double = 2, color: PDFColor = .rgb(0.85, 0.1, 0.1)) {
        self.width = width
        self.color = color
    }
}

/// One handwritten note: strokes on a page, in the page's user space, drawn in one style.
public struct InkNote: Hashable, Sendable {
    /// The page, from 0.
    public var pageIndex: Int
    /// The strokes, in the page's user space.
    public var strokes: [InkStroke]
    /// How the strokes are drawn.
    public var style: InkStyle

    /// A note of `strokes` on page `pageIndex` (from 0), drawn in `style`.
    public init(pageIndex: Int, strokes: [InkStroke], style: InkStyle = InkStyle()) {
        self.pageIndex = pageIndex
        self.strokes = strokes
        self.style = style
    }
}
