public import PDFAuthoring
import PDFCore

/// How ink notes are drawn (signoAPI `STNotesConfig`): stroke width in points and colour.
public struct InkStyle: Hashable, Sendable, Codable {
    public var width: Double
    public var color: PDFColor

    public init(width: Double = 2, color: PDFColor = .rgb(0.85, 0.1, 0.1)) {
        self.width = width
        self.color = color
    }
}

/// One handwritten note: strokes on a page, in the page's user space, drawn in one style.
public struct InkNote: Hashable, Sendable {
    /// The page, from 0.
    public var pageIndex: Int
    public var strokes: [InkStroke]
    public var style: InkStyle

    public init(pageIndex: Int, strokes: [InkStroke], style: InkStyle = InkStyle()) {
        self.pageIndex = pageIndex
        self.strokes = strokes
        self.style = style
    }
}
