/// How the document viewer lays pages out (after PSPDFKit's `PSPDFDocumentViewLayout` family and
/// the WYSIWYS `continuousScrolling` / `verticalScrolling` options).
public struct LayoutConfiguration: Sendable, Hashable {
    /// The scroll axis.
    public enum Direction: Sendable, Hashable {
        /// Pages follow one another top to bottom.
        case vertical
        /// Pages follow one another left to right.
        case horizontal
    }

    /// How pages group into spreads.
    public enum Spreads: Sendable, Hashable {
        /// One page per spread.
        case single
        /// Two pages side by side (vertically centred); with `firstPageAlone`, page 0 is a cover on its own.
        case double(firstPageAlone: Bool)
    }

    /// Which zoom the layout starts at (``DocumentLayout/fitZoom``).
    public enum Fit: Sendable, Hashable {
        /// The widest spread fills the viewport width minus the padding on both sides.
        case width
        /// The largest spread fits entirely inside the viewport minus the padding.
        case page
        /// A fixed zoom.
        case zoom(Double)
    }

    /// Continuous scrolling (true) or one spread per viewport-sized page of content (false).
    public var continuous: Bool
    /// The scroll axis.
    public var direction: Direction
    /// How pages group into spreads.
    public var spreads: Spreads
    /// The gap between two spreads along the scroll axis in continuous mode, in points at zoom 1
    /// (it scales with the zoom).
    public var spreadSpacing: Double
    /// The initial zoom rule.
    public var fit: Fit
    /// The smallest zoom (default 0.25).
    public var minZoom: Double
    /// The largest zoom (default 8).
    public var maxZoom: Double
    /// The margin around the content on every side, in view pixels (it does not scale with the zoom).
    public var padding: Double

    /// A configuration; every parameter has the default of a vertical, continuous, single-page viewer.
    public init(
        continuous: Bool = true, direction: Direction = .vertical, spreads: Spreads = .single,
        spreadSpacing: Double = 16, fit: Fit = .width, minZoom: Double = 0.25, maxZoom: Double = 8,
        padding: Double = 0
    ) {
        self.continuous = continuous
        self.direction = direction
        self.spreads = spreads
        self.spreadSpacing = max(0, spreadSpacing)
        self.fit = fit
        self.minZoom = max(minZoom, .leastNormalMagnitude)
        self.maxZoom = max(maxZoom, self.minZoom)
        self.padding = max(0, padding)
    }

    /// `zoom` clamped to `[minZoom, maxZoom]`; `minZoom` for a value that is not finite.
    public func clampZoom(_ zoom: Double) -> Double {
        guard zoom.isFinite else { return minZoom }
        return min(max(zoom, minZoom), maxZoom)
    }

    /// The page indices of each spread for a document of `pageCount` pages.
    public func spreadPages(pageCount: Int) -> [[Int]] {
        guard pageCount > 0 else { return [] }
        switch spreads {
        case .single:
            return (0..<pageCount).map { [$0] }
        case .double(let firstPageAlone):
            var result: [[Int]] = firstPageAlone ? [[0]] : []
            var index = firstPageAlone ? 1 : 0
            while index < pageCount {
                result.append(index + 1 < pageCount ? [index, index + 1] : [index])
                index += 2
            }
            return result
        }
    }
}
