public import PDFCore

/// A corner handle of a rectangle being resized, named as the user sees it on screen.
public enum ResizeHandle: Sendable, Hashable, CaseIterable {
    /// The corner at the top left on screen.
    case topLeft
    /// The corner at the top right on screen.
    case topRight
    /// The corner at the bottom left on screen.
    case bottomLeft
    /// The corner at the bottom right on screen.
    case bottomRight
}

/// Moves the `handle` corner of `rect` by `delta`, keeping the opposite corner fixed and both sides at
/// least `minimumSize` long, the moved corner clamped to `bounds` when given (all in one y-down space).
func resized(
    _ rect: PDFRectangle, handle: ResizeHandle, by delta: PDFPoint, minimumSize: Double, bounds: PDFRectangle?
) -> PDFRectangle {
    var (minX, minY, maxX, maxY) = (rect.x0, rect.y0, rect.x1, rect.y1)
    let lowX = bounds?.x0 ?? -Double.infinity
    let lowY = bounds?.y0 ?? -Double.infinity
    let highX = bounds?.x1 ?? Double.infinity
    let highY = bounds?.y1 ?? Double.infinity
    switch handle {
    case .topLeft, .bottomLeft: minX = max(min(minX + delta.x, maxX - minimumSize), lowX)
    case .topRight, .bottomRight: maxX = min(max(maxX + delta.x, minX + minimumSize), highX)
    }
    switch handle {
    case .topLeft, .topRight: minY = max(min(minY + delta.y, maxY - minimumSize), lowY)
    case .bottomLeft, .bottomRight: maxY = min(max(maxY + delta.y, minY + minimumSize), highY)
    }
    return PDFRectangle(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
}

/// `rect` moved inside `bounds` (shrunk to them first when larger).
func clamped(_ rect: PDFRectangle, inside bounds: PDFRectangle) -> PDFRectangle {
    let width = min(rect.width, bounds.width)
    let height = min(rect.height, bounds.height)
    return PDFRectangle(
        x: min(max(rect.x0, bounds.x0), bounds.x1 - width),
        y: min(max(rect.y0, bounds.y0), bounds.y1 - height), width: width, height: height)
}

/// The signature's rectangle being positioned on a page (WYSIWYS "signature positioning"): always
/// inside the page's crop box, never smaller than ``minimumSize``.
///
/// Moves and resizes take deltas in view pixels at the current zoom, as a drag gesture reports them;
/// they are applied in the page's view box (so a handle follows the finger on a rotated page) and the
/// result is stored in PDF user space.
public struct SignaturePlacement: Sendable, Hashable {
    /// The page index (0-based).
    public private(set) var page: Int
    /// The rectangle in the page's PDF user space.
    public private(set) var rect: PDFRectangle
    /// The smallest width and height, in points of the page view box at zoom 1 (PDF units × UserUnit).
    public let minimumSize: Double

    /// A placement of `rect` on `page`, clamped inside the page's crop box and grown to `minimumSize`.
    public init(page: Int, rect: PDFRectangle, geometry: PageGeometry, minimumSize: Double = 10) {
        self.page = page
        self.minimumSize = max(0, minimumSize)
        let bounds = geometry.pageBounds
        let placed = geometry.pageRect(fromPDF: rect)
        let box = PDFRectangle(
            x: placed.x0, y: placed.y0, width: max(placed.width, min(self.minimumSize, bounds.width)),
            height: max(placed.height, min(self.minimumSize, bounds.height)))
        self.rect = geometry.pdfRect(fromPage: clamped(box, inside: bounds))
    }

    /// Moves the rectangle by `delta` view pixels at `zoom`, stopping at the page's edges.
    public mutating func move(byViewDelta delta: PDFPoint, geometry: PageGeometry, zoom: Double) {
        guard zoom > 0 else { return }
        let box = geometry.pageRect(fromPDF: rect).offsetBy(dx: delta.x / zoom, dy: delta.y / zoom)
        rect = geometry.pdfRect(fromPage: clamped(box, inside: geometry.pageBounds))
    }

    /// Drags the `handle` corner by `delta` view pixels at `zoom`; the opposite corner stays, the size
    /// stays at least ``minimumSize`` and the corner stops at the page's edges.
    public mutating func resize(
        handle: ResizeHandle, byViewDelta delta: PDFPoint, geometry: PageGeometry, zoom: Double
    ) {
        guard zoom > 0 else { return }
        let box = resized(
            geometry.pageRect(fromPDF: rect), handle: handle,
            by: PDFPoint(x: delta.x / zoom, y: delta.y / zoom), minimumSize: minimumSize,
            bounds: geometry.pageBounds)
        rect = geometry.pdfRect(fromPage: box)
    }
}

/// signo `createViewerRect`: a rectangle in viewport coordinates the user moves and resizes freely.
public struct ViewerRectSession: Sendable, Hashable {
    /// The identifier returned to the caller.
    public var id: Int
    /// The rectangle in viewport coordinates (view pixels).
    public private(set) var rect: PDFRectangle
    /// The smallest width and height in view pixels.
    public let minimumSize: Double

    /// A session for rectangle `id` at `rect` (viewport coordinates).
    public init(id: Int, rect: PDFRectangle, minimumSize: Double = 10) {
        self.id = id
        self.minimumSize = max(0, minimumSize)
        self.rect = PDFRectangle(
            x: rect.x0, y: rect.y0, width: max(rect.width, self.minimumSize), height: max(rect.height, self.minimumSize)
        )
    }

    /// Moves the rectangle by `delta` view pixels.
    public mutating func move(by delta: PDFPoint) { rect = rect.offsetBy(dx: delta.x, dy: delta.y) }

    /// Drags the `handle` corner by `delta` view pixels, keeping ``minimumSize``.
    public mutating func resize(handle: ResizeHandle, by delta: PDFPoint) {
        rect = resized(rect, handle: handle, by: delta, minimumSize: minimumSize, bounds: nil)
    }

    /// Where the rectangle lies: the page whose frame contains the rectangle's centre (its index,
    /// from 0) and the part of the rectangle on that page in its PDF user space; the zero rectangle
    /// and no page when the centre is on no page (a gap, the padding).
    public func result(in state: ViewerState) -> ViewerRectResult {
        guard let (page, _) = state.page(atViewPoint: rect.center) else { return .noPage }
        let frame = state.viewRect(fromPage: state.layout.pages[page].pageBounds, page: page)
        let onPage = rect.intersection(frame) ?? rect
        return ViewerRectResult(rect: state.pdfRect(fromView: onPage, page: page), pageIndex: page)
    }
}

/// A confirmed viewer rectangle (signo `viewerRectConfirmed:inPage:`): the rectangle in PDF user
/// space and the page's index, counted from 0 like every page of the API (signo's `inPage:` is
/// `pageIndex + 1`), or the zero rectangle and nil when it lies on no page (signo's −1).
public struct ViewerRectResult: Sendable, Hashable {
    /// The rectangle in the page's PDF user space.
    public var rect: PDFRectangle
    /// The page's index, from 0 (what `DocumentSession.createSignatureField(name:pageIndex:rect:)`
    /// takes); nil when the rectangle is on no page.
    public var pageIndex: Int?

    /// A result from its rectangle and page index (from 0; nil for no page).
    public init(rect: PDFRectangle, pageIndex: Int?) {
        self.rect = rect
        self.pageIndex = pageIndex
    }

    /// The answer for a rectangle on no page: `[0 0 0 0]`, no page.
    public static let noPage = ViewerRectResult(rect: PDFRectangle(x0: 0, y0: 0, x1: 0, y1: 0), pageIndex: nil)
}
