public import PDFAnnotations
public import PDFCore

/// What the viewer is doing: each interactive mode of the WYSIWYS / signo viewers as an explicit
/// state with its data. Transitions live in ``ViewerModeMachine``.
public enum ViewerMode: Sendable, Hashable {
    /// Scrolling and zooming; the state every other mode returns to.
    case browsing
    /// Filling form fields, one focused at a time.
    case formEditing(FormEditing)
    /// Capturing a handwritten signature (for `field`, when one was chosen).
    case signatureCapture(field: String?)
    /// Moving and resizing the signature's rectangle on a page.
    case signaturePositioning(SignaturePlacement)
    /// signo `createViewerRect`: a rectangle over the viewer the user moves and resizes, then confirms.
    case viewerRect(ViewerRectSession)
    /// Choosing which signature field to sign among `candidates`.
    case fieldSelection(candidates: [String])
    /// Handwritten notes (signo notes mode).
    case notes(InkNotes)
    /// Search results shown with highlights (signo `scrollToSearchResult`, `finishTextSearch`).
    case search(SearchSession)
}

/// The form editing state: the fields in tab order and the focused one.
public struct FormEditing: Sendable, Hashable {
    /// The fields' names in tab order (the order given).
    public var fields: [String]
    /// The index of the focused field in ``fields``, or nil when none has focus.
    public var focusedIndex: Int?

    /// The focused field's name.
    public var focusedField: String? { focusedIndex.map { fields[$0] } }
}

/// A colour with components in 0…1.
public struct ViewerColor: Sendable, Hashable {
    /// The red component, 0…1.
    public var red: Double
    /// The green component, 0…1.
    public var green: Double
    /// The blue component, 0…1.
    public var blue: Double

    /// A colour from its components (each clamped to 0…1).
    public init(red: Double, green: Double, blue: Double) {
        self.red = min(max(red, 0), 1)
        self.green = min(max(green, 0), 1)
        self.blue = min(max(blue, 0), 1)
    }

    /// Yellow, the usual highlight.
    public static let yellow = ViewerColor(red: 1, green: 1, blue: 0)
    /// Red.
    public static let red = ViewerColor(red: 1, green: 0, blue: 0)
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
    /// The results in page order.
    public var results: [SearchHit]
    /// The index of the current result, nil before the first navigation.
    public var currentIndex: Int?
    /// The colour of the current result's highlight.
    public var highlightColor: ViewerColor

    /// The current result.
    public var current: SearchHit? { currentIndex.map { results[$0] } }
}
