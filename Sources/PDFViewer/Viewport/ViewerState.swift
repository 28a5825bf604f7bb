public import PDFCore

/// The viewport over a ``DocumentLayout``: zoom, content offset, what may move, and the spread index
/// (PSPDFKit `PSPDFDocumentViewController`'s model, without views).
///
/// A value type: every call that would scroll or zoom returns whether it changed anything and is a
/// no-op (returning false) when ``isScrollEnabled`` / ``isZoomEnabled`` is off. The content offset is
/// always clamped to the scrollable range `[0, max(0, content − viewport)]` on each axis.
public struct ViewerState: Sendable, Hashable {
    /// The layout being viewed.
    public internal(set) var layout: DocumentLayout
    /// The zoom, always inside `[minZoom, maxZoom]`.
    public internal(set) var zoom: Double
    /// The content point at the viewport's top-left corner, in content coordinates at ``zoom``.
    public internal(set) var contentOffset: PDFPoint
    /// Whether calls that scroll may change ``contentOffset``.
    public var isScrollEnabled: Bool
    /// Whether calls that zoom may change ``zoom``.
    public var isZoomEnabled: Bool
    /// The spreads' frames at ``zoom`` (cached: recomputed when the zoom changes).
    public internal(set) var spreadFrames: [PDFRectangle]
    /// The pages' frames at ``zoom``.
    public internal(set) var pageFrames: [PDFRectangle]

    /// A viewer at the layout's ``DocumentLayout/fitZoom``, scrolled to the start.
    public init(layout: DocumentLayout, isScrollEnabled: Bool = true, isZoomEnabled: Bool = true) {
        self.layout = layout
        self.zoom = layout.fitZoom
        self.contentOffset = .zero
        self.isScrollEnabled = isScrollEnabled
        self.isZoomEnabled = isZoomEnabled
        self.spreadFrames = []
        self.pageFrames = []
        applyZoom(zoom)
    }

    /// The viewport size in view pixels.
    public var viewportSize: PDFSize { layout.viewportSize }

    /// The content size at ``zoom``.
    public var contentSize: PDFSize { layout.contentSize(zoom: zoom) }

    /// The visible part of the content, in content coordinates.
    public var visibleRect: PDFRectangle {
        PDFRectangle(x: contentOffset.x, y: contentOffset.y, width: viewportSize.width, height: viewportSize.height)
    }

    /// The number of spreads.
    public var spreadCount: Int { layout.spreadCount }

    // MARK: Offset and zoom primitives

    /// The largest valid content offset.
    public var maximumContentOffset: PDFPoint {
        let content = contentSize
        return PDFPoint(
            x: max(0, content.width - viewportSize.width), y: max(0, content.height - viewportSize.height))
    }

    /// `offset` clamped to the scrollable range.
    public func clampedOffset(_ offset: PDFPoint) -> PDFPoint {
        let maximum = maximumContentOffset
        return PDFPoint(x: min(max(offset.x, 0), maximum.x), y: min(max(offset.y, 0), maximum.y))
    }

    /// Scrolls to `offset` (clamped). Returns whether the offset changed; false when scrolling is disabled.
    @discardableResult
    public mutating func setContentOffset(_ offset: PDFPoint) -> Bool {
        guard isScrollEnabled else { return false }
        let clamped = clampedOffset(offset)
        guard clamped != contentOffset else { return false }
        contentOffset = clamped
        return true
    }

    /// Sets the zoom (clamped), keeping the content offset (clamped to the new range). Returns whether the
    /// zoom changed; false when zooming is disabled. Use ``zoom(to:around:)`` to keep a point still.
    @discardableResult
    public mutating func setZoom(_ newZoom: Double) -> Bool {
        guard isZoomEnabled else { return false }
        let clamped = layout.configuration.clampZoom(newZoom)
        guard clamped != zoom else { return false }
        applyZoom(clamped)
        return true
    }

    /// Replaces the viewport size (rotation, window resize) keeping the continuous spread index and the zoom.
    public mutating func resizeViewport(to size: PDFSize) {
        let index = continuousSpreadIndex
        layout = DocumentLayout(pages: layout.pages, configuration: layout.configuration, viewportSize: size)
        applyZoom(zoom)
        contentOffset = clampedOffset(offsetCentering(continuousSpreadIndex: index))
    }

    /// Sets the zoom and recomputes the frames, without checking the flags (the offset is re-clamped).
    mutating func applyZoom(_ newZoom: Double) {
        zoom = newZoom
        spreadFrames = layout.spreadFrames(zoom: newZoom)
        pageFrames = layout.pageFrames(spreadFrames: spreadFrames, zoom: newZoom)
        contentOffset = clampedOffset(contentOffset)
    }

    // MARK: Axis helpers

    var isVertical: Bool { layout.isVertical }

    func axis(_ point: PDFPoint) -> Double { isVertical ? point.y : point.x }

    func axisLength(_ size: PDFSize) -> Double { isVertical ? size.height : size.width }

    func axisRange(_ rect: PDFRectangle) -> (start: Double, end: Double) {
        isVertical ? (rect.y0, rect.y1) : (rect.x0, rect.x1)
    }

    /// `offset` with its scroll-axis component replaced by `value`.
    func offset(_ offset: PDFPoint, settingAxis value: Double) -> PDFPoint {
        isVertical ? PDFPoint(x: offset.x, y: value) : PDFPoint(x: value, y: offset.y)
    }

    // MARK: Spread index

    /// The continuous spread index at the viewport centre (PSPDFKit `continuousSpreadIndex`): inside
    /// spread `i` it grows linearly from `i` at the spread's leading edge towards `i + 1` at its trailing
    /// edge; in the gap after spread `i` it stays `i + 1`; before the first spread it is 0. Clamped to
    /// `[0, spreadCount)`, so its largest value is `spreadCount` minus one ulp. 0 for an empty document.
    public var continuousSpreadIndex: Double {
        continuousSpreadIndex(atAxisPosition: axis(contentOffset) + axisLength(viewportSize) / 2)
    }

    /// The continuous spread index of the content position `position` along the scroll axis.
    public func continuousSpreadIndex(atAxisPosition position: Double) -> Double {
        let count = spreadFrames.count
        guard count > 0 else { return 0 }
        // The first spread whose trailing edge lies after `position` (binary search: frames are ordered).
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if axisRange(spreadFrames[middle]).end <= position { low = middle + 1 } else { high = middle }
        }
        guard low < count else { return Double(count).nextDown }
        let (start, end) = axisRange(spreadFrames[low])
        let value: Double
        if position <= start || end <= start {
            value = Double(low)
        } else {
            value = Double(low) + (position - start) / (end - start)
        }
        return min(max(value, 0), Double(count).nextDown)
    }

    /// The content offset whose viewport centre lies at continuous spread index `index` (clamped to
    /// `[0, spreadCount)`), before clamping the offset to the scrollable range. The cross-axis
    /// component keeps the current offset.
    public func offsetCentering(continuousSpreadIndex index: Double) -> PDFPoint {
        let count = spreadFrames.count
        guard count > 0, index.isFinite else { return contentOffset }
        let clamped = min(max(index, 0), Double(count).nextDown)
        let spread = min(Int(clamped.rounded(.down)), count - 1)
        let (start, end) = axisRange(spreadFrames[spread])
        let position = start + (clamped - Double(spread)) * (end - start)
        return offset(contentOffset, settingAxis: position - axisLength(viewportSize) / 2)
    }

    /// Scrolls so that continuous spread index `index` lies at the viewport centre (as far as the
    /// scrollable range allows). Returns whether the offset changed.
    @discardableResult
    public mutating func setContinuousSpreadIndex(_ index: Double) -> Bool {
        setContentOffset(offsetCentering(continuousSpreadIndex: index))
    }

    /// The spread at the viewport centre: the integer part of ``continuousSpreadIndex`` (so in a gap it
    /// is the next spread). 0 for an empty document.
    public var spreadIndex: Int {
        spreadCount == 0 ? 0 : min(Int(continuousSpreadIndex.rounded(.down)), spreadCount - 1)
    }
}
