public import PDFCore

/// The layout as plain values for the web API's `GET /api/layout` (the web module encodes it as JSON):
/// frames are `[x, y, width, height]` in content coordinates (view pixels at ``zoom``), matrices
/// `[a, b, c, d, e, f]`.
public struct LayoutDescription: Sendable, Hashable {
    /// One spread.
    public struct Spread: Sendable, Hashable {
        /// The spread index.
        public var index: Int
        /// Its pages (0-based).
        public var pages: [Int]
        /// `[x, y, width, height]`.
        public var frame: [Double]
    }

    /// One page.
    public struct Page: Sendable, Hashable {
        /// The page index (0-based).
        public var index: Int
        /// `[x, y, width, height]`.
        public var frame: [Double]
        /// PDF user space → content coordinates at the zoom (y down), `[a, b, c, d, e, f]`.
        public var pdfToView: [Double]
    }

    /// The content width in view pixels.
    public var contentWidth: Double
    /// The content height in view pixels.
    public var contentHeight: Double
    /// The zoom the frames are computed at.
    public var zoom: Double
    /// The spreads in order.
    public var spreads: [Spread]
    /// The pages in order.
    public var pages: [Page]

    /// Describes the layout of `pages` with `configuration` in a viewport of `viewportSize`, at `zoom`
    /// (clamped to the configuration's range) or, when nil, at the configuration's fit zoom.
    public init(
        pages: [PageGeometry], configuration: LayoutConfiguration, viewportSize: PDFSize, zoom: Double? = nil
    ) {
        self.init(
            layout: DocumentLayout(pages: pages, configuration: configuration, viewportSize: viewportSize),
            zoom: zoom)
    }

    /// Describes `layout` at `zoom` (clamped) or, when nil, at its fit zoom.
    public init(layout: DocumentLayout, zoom: Double? = nil) {
        let zoom = zoom.map(layout.configuration.clampZoom) ?? layout.fitZoom
        let spreadFrames = layout.spreadFrames(zoom: zoom)
        let pageFrames = layout.pageFrames(spreadFrames: spreadFrames, zoom: zoom)
        let content = layout.contentSize(zoom: zoom)
        func array(_ rect: PDFRectangle) -> [Double] { [rect.x0, rect.y0, rect.width, rect.height] }
        self.contentWidth = content.width
        self.contentHeight = content.height
        self.zoom = zoom
        self.spreads = layout.spreads.enumerated().map { index, pages in
            Spread(index: index, pages: pages, frame: array(spreadFrames[index]))
        }
        self.pages = pageFrames.enumerated().map { index, frame in
            Page(
                index: index, frame: array(frame),
                pdfToView: layout.pdfToContentTransform(page: index, pageFrame: frame, zoom: zoom).coefficients)
        }
    }
}
