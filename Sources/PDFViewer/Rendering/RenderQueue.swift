import PDFCore

/// What draws pages for the viewer (the cairo backend, a test fake…): the viewer never imports a
/// graphics library, it only asks for a page at a scale.
public protocol ViewerPageRenderer: Sendable {
    /// The renderer's image type.
    associatedtype Tile: Sendable
    /// Renders `page` (0-based) at `scale` (1 = 72 dpi, one pixel per point); nil on failure.
    func render(page: Int, scale: Double) async -> Tile?
}

/// A page to render at a scale.
public struct RenderRequest: Sendable, Hashable {
    /// The page index (0-based).
    public var page: Int
    /// Device pixels per point: the zoom times the device's pixel scale.
    public var scale: Double

    /// A request from its page and scale.
    public init(page: Int, scale: Double) {
        self.page = page
        self.scale = scale
    }
}

/// Which pages to render, in which order, and which requests to drop as the viewport moves.
///
/// The wanted set is the visible pages, nearest to the viewport centre first, then the pages of the
/// ``neighbourSpreads`` spreads before and after the visible ones (nearest first). ``update(for:)``
/// replaces the queue with the wanted requests not yet rendered at that scale and reports the pending
/// or running requests that fell out of the wanted set, to be cancelled. Rendered pages outside the
/// wanted set are forgotten (their tiles may be evicted).
public struct RenderQueue: Sendable, Hashable {
    /// Device pixels per view pixel (2 on a "retina" screen).
    public var pixelScale: Double
    /// How many spreads on each side of the visible ones to render ahead.
    public var neighbourSpreads: Int
    /// The requests waiting to start, first to start first.
    public private(set) var pending: [RenderRequest] = []
    /// The requests started and not finished.
    public private(set) var running: [RenderRequest] = []
    /// The scale each page was last rendered at.
    public private(set) var rendered: [Int: Double] = [:]

    /// An empty queue.
    public init(pixelScale: Double = 1, neighbourSpreads: Int = 1) {
        self.pixelScale = pixelScale > 0 ? pixelScale : 1
        self.neighbourSpreads = max(0, neighbourSpreads)
    }

    /// The wanted requests for `state`, in priority order (see the type's summary).
    public func wantedRequests(for state: ViewerState) -> [RenderRequest] {
        let visibleSpreads = state.visibleSpreads
        guard let first = visibleSpreads.first, let last = visibleSpreads.last else { return [] }
        let center = state.visibleRect.center
        func distance(_ page: Int) -> Double {
            let frame = state.pageFrames[page]
            let (dx, dy) = (frame.midX - center.x, frame.midY - center.y)
            return dx * dx + dy * dy
        }
        let byDistance: (Int, Int) -> Bool = { lhs, rhs in
            (distance(lhs), lhs) < (distance(rhs), rhs)
        }
        let visible = state.visiblePages.sorted(by: byDistance)
        let low = max(0, first - neighbourSpreads)
        let high = min(state.spreadCount - 1, last + neighbourSpreads)
        let neighbours = (Array(low..<first) + Array((last + 1)..<(high + 1)))
            .flatMap { state.layout.spreads[$0] }
        // Pages of visible spreads whose frame is off screen (the hidden half of a spread) count as neighbours.
        let hidden = visibleSpreads.flatMap { state.layout.spreads[$0] }.filter { !visible.contains($0) }
        let scale = state.zoom * pixelScale
        return (visible + (neighbours + hidden).sorted(by: byDistance)).map { RenderRequest(page: $0, scale: scale) }
    }

    /// Recomputes the queue for `state`. Returns the pending and running requests no longer wanted
    /// (removed from the queue; the caller cancels the running ones).
    @discardableResult
    public mutating func update(for state: ViewerState) -> [RenderRequest] {
        let wanted = wantedRequests(for: state)
        let wantedSet = Set(wanted)
        let wantedPages = Set(wanted.map(\.page))
        let cancelled = (running + pending).filter { !wantedSet.contains($0) }
        running.removeAll { !wantedSet.contains($0) }
        rendered = rendered.filter { wantedPages.contains($0.key) }
        pending = wanted.filter { rendered[$0.page] != $0.scale && !running.contains($0) }
        return cancelled
    }

    /// Takes the next pending request and marks it running.
    public mutating func startNext() -> RenderRequest? {
        guard !pending.isEmpty else { return nil }
        let request = pending.removeFirst()
        running.append(request)
        return request
    }

    /// Marks `request` finished; when `succeeded`, its page counts as rendered at its scale.
    public mutating func finish(_ request: RenderRequest, succeeded: Bool) {
        guard let index = running.firstIndex(of: request) else { return }
        running.remove(at: index)
        if succeeded { rendered[request.page] = request.scale }
    }

    /// Starts the next pending request, renders it with `renderer` and marks it finished. Nil when
    /// nothing is pending.
    public mutating func renderNext<Renderer: ViewerPageRenderer>(
        with renderer: Renderer
    ) async -> (request: RenderRequest, tile: Renderer.Tile?)? {
        guard let request = startNext() else { return nil }
        let tile = await renderer.render(page: request.page, scale: request.scale)
        finish(request, succeeded: tile != nil)
        return (request, tile)
    }
}
