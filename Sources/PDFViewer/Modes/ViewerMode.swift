public import PDFAnnotations
public import PDFAuthoring
public import PDFCore

/// What the viewer is doing: each interactive mode of the signo / WYSIWYS viewers as one state with
/// its data. Transitions live in ``ViewerModeMachine``; `DocumentSession` (PDFSession) owns the one
/// machine of a document, and every viewer — the web viewer first — draws the mode it reports.
public enum ViewerMode: Sendable, Hashable {
    /// Scrolling, zooming and filling fields; the state every other mode returns to.
    case browsing
    /// The signing workflow has the screen (field choice, capture, saved signatures, positioning,
    /// preview): which dialog is the workflow's phase (`SigningWorkflow.Phase`), the one record of
    /// those steps.
    case signing
    /// Handwritten notes (signo notes mode): the notes drawn so far with their undo and redo stacks.
    case notes(InkNotes)
    /// Search results shown with highlights (signo `scrollToSearchResult`, `finishTextSearch`).
    case search(SearchSession)
    /// signo `createViewerRect`: rectangle `id` is shown until the person creates or cancels it.
    case viewerRect(id: Int)

    /// The mode's name as the web API spells it: `browsing`, `signing`, `notes`, `search`, `viewerRect`.
    public var name: String {
        switch self {
        case .browsing: "browsing"
        case .signing: "signing"
        case .notes: "notes"
        case .search: "search"
        case .viewerRect: "viewerRect"
        }
    }
}

/// A quadrilateral in PDF user space (as `/QuadPoints`, ISO 32000-2 §12.5.6.10).
public struct ViewerQuad: Sendable, Hashable {
    /// The four corners.
    public var points: [PDFPoint]

    /// A quad from eight numbers `x1 y1 x2 y2 x3 y3 x4 y4`; nil unless there are eight.
    public init?(_ numbers: [Double]) {
        guard numbers.count == 8 else { return nil }
        points = stride(from: 0, to: 8, by: 2).map { PDFPoint(x: numbers[$0], y: numbers[$0 + 1]) }
    }

    /// The eight numbers `x1 y1 … x4 y4`.
    public var numbers: [Double] { points.flatMap { [$0.x, $0.y] } }

    /// The bounding box.
    public var boundingBox: PDFRectangle { PDFRectangle(boundingBoxOf: points) }
}

/// One search hit: its page and the quads of its glyphs.
public struct SearchHit: Sendable, Hashable {
    /// The page index (0-based).
    public var page: Int
    /// The quads in the page's PDF user space.
    public var quads: [ViewerQuad]

    /// A result from its page and quads.
    public init(page: Int, quads: [ViewerQuad]) {
        self.page = page
        self.quads = quads
    }
}

/// The search mode: every result highlighted, one of them current.
public struct SearchSession: Sendable, Hashable {
    /// The text searched for.
    public var query: String
    /// The results in page order.
    public var results: [SearchHit]
    /// The index of the current result, nil before the first navigation.
    public var currentIndex: Int?
    /// The colour of the current result's highlight (signo `scrollToSearchResult:withHighlightColor:`);
    /// nil for the viewer's own style of the current result.
    public var highlightColor: PDFColor?

    /// The current result.
    public var current: SearchHit? { currentIndex.map { results[$0] } }
}
