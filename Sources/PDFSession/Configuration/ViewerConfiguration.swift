public import PDFAuthoring
import PDFCore

/// How a document is shown (WYSIWYS `WYSViewerConfiguration`, signo's toolbar and page number
/// properties). The session keeps it for the viewer; it changes nothing in the document.
public struct ViewerConfiguration: Sendable, Codable, Equatable {
    /// Continuous scrolling instead of one page at a time (WYSIWYS default: page by page).
    public var continuousScrolling = false
    /// Vertical scrolling instead of horizontal (WYSIWYS default: horizontal).
    public var verticalScrolling = false
    /// Two pages side by side (PSPDFKit's double-page spreads), the first alone as a cover when
    /// `firstPageAlone`.
    public var twoPageSpreads = false
    /// With ``twoPageSpreads``, the first page alone as a cover (the default).
    public var firstPageAlone = true
    /// The colour behind the pages.
    public var backgroundColor: PDFColor = .rgb(0.9, 0.9, 0.9)
    /// signo `showToolbar` and `toolbarHeight` (points).
    public var showsToolbar = true
    /// The toolbar's height in points (signo `toolbarHeight`).
    public var toolbarHeight: Double = 50
    /// signo `showPageNumber`.
    public var showsPageNumber = true
    /// signo `enableAutoRotation`: false locks the orientation the viewer was in.
    public var allowsRotation = true
    /// signo `enableTouchEvents`: false ignores touch, pen and mouse on the document — no scrolling,
    /// zooming or field focus — until it is turned on again.
    public var acceptsInput = true
    /// The colour a search result is highlighted with (signo `scrollToSearchResult:withHighlightColor:`).
    public var searchHighlightColor: PDFColor = .rgb(1, 0.85, 0)

    /// The seeds' defaults: horizontal, page by page, single pages, gray background, toolbar and page number shown.
    public init() {}
}
