public import PDFCore

/// The geometry of a document in the viewer: spreads, their frames and the pages' frames in
/// content coordinates (origin top left, y down, view pixels at a given zoom), the content size
/// and the zoom that fits.
///
/// Along the scroll axis, continuous mode stacks spreads `spreadSpacing · zoom` apart after a
/// `padding` margin; paging mode (`continuous == false`) gives each spread a slot as long as the
/// viewport (longer when the zoomed spread plus padding does not fit) and centres the spread in it,
/// as a paging scroll view does. Across the axis, the content is at least as wide as the viewport and
/// every spread is centred in it.
public struct DocumentLayout: Sendable, Hashable {
    /// The pages, in document order.
    public let pages: [PageGeometry]
    /// The configuration.
    public let configuration: LayoutConfiguration
    /// The viewport size in view pixels.
    public let viewportSize: PDFSize
    /// The page indices of each spread.
    public let spreads: [[Int]]
    /// Each spread's size at zoom 1 (pages side by side, no gap).
    public let spreadSizes: [PDFSize]
    /// Each page's frame inside its spread at zoom 1 (vertically centred in two-page spreads).
    public let pageFramesInSpread: [PDFRectangle]
    /// The spread of each page.
    public let spreadOfPage: [Int]

    /// Lays out `pages` for a viewport of `viewportSize` view pixels.
    public init(pages: [PageGeometry], configuration: LayoutConfiguration, viewportSize: PDFSize) {
        self.pages = pages
        self.configuration = configuration
        self.viewportSize = PDFSize(width: max(0, viewportSize.width), height: max(0, viewportSize.height))
        let spreads = configuration.spreadPages(pageCount: pages.count)
        self.spreads = spreads
        var sizes: [PDFSize] = []
        var inSpread = [PDFRectangle](repeating: .zero, count: pages.count)
        var spreadOfPage = [Int](repeating: 0, count: pages.count)
        for (spreadIndex, members) in spreads.enumerated() {
            let height = members.map { pages[$0].displaySize.height }.max() ?? 0
            var x = 0.0
            for page in members {
                let size = pages[page].displaySize
                inSpread[page] = PDFRectangle(
                    x: x, y: (height - size.height) / 2, width: size.width, height: size.height)
                spreadOfPage[page] = spreadIndex
                x += size.width
            }
            sizes.append(PDFSize(width: x, height: height))
        }
        self.spreadSizes = sizes
        self.pageFramesInSpread = inSpread
        self.spreadOfPage = spreadOfPage
    }

    /// The number of spreads.
    public var spreadCount: Int { spreads.count }

    /// Whether the scroll axis is vertical.
    public var isVertical: Bool { configuration.direction == .vertical }

    /// The widest spread's width and the tallest spread's height at zoom 1.
    public var largestSpreadSize: PDFSize {
        PDFSize(
            width: spreadSizes.map(\.width).max() ?? 0, height: spreadSizes.map(\.height).max() ?? 0)
    }

    /// The zoom of ``LayoutConfiguration/fit``, clamped to the configuration's zoom range:
    /// fit width is `(viewport width − 2·padding) / widest spread width`; fit page is the smaller of
    /// that and `(viewport height − 2·padding) / tallest spread height`. 1 for an empty document.
    public var fitZoom: Double {
        let largest = largestSpreadSize
        guard largest.width > 0, largest.height > 0 else { return configuration.clampZoom(1) }
        let padding = 2 * configuration.padding
        let widthZoom = (viewportSize.width - padding) / largest.width
        switch configuration.fit {
        case .width: return configuration.clampZoom(widthZoom)
        case .page: return configuration.clampZoom(min(widthZoom, (viewportSize.height - padding) / largest.height))
        case .zoom(let zoom): return configuration.clampZoom(zoom)
        }
    }

    /// The length of `size` along the scroll axis.
    func axisLength(_ size: PDFSize) -> Double { isVertical ? size.height : size.width }
    /// The length of `size` across the scroll axis.
    func crossLength(_ size: PDFSize) -> Double { isVertical ? size.width : size.height }

    /// The content's extent across the scroll axis at `zoom`.
    func crossExtent(zoom: Double) -> Double {
        max(crossLength(viewportSize), zoom * crossLength(largestSpreadSize) + 2 * configuration.padding)
    }

    /// Every spread's frame in content coordinates at `zoom`, in spread order (O(spreads)).
    public func spreadFrames(zoom: Double) -> [PDFRectangle] {
        let padding = configuration.padding
        let cross = crossExtent(zoom: zoom)
        let viewportAxis = axisLength(viewportSize)
        var position = configuration.continuous ? padding : 0
        var frames: [PDFRectangle] = []
        frames.reserveCapacity(spreadSizes.count)
        for size in spreadSizes {
            let axis = zoom * axisLength(size)
            let crossSize = zoom * crossLength(size)
            let start: Double
            if configuration.continuous {
                start = position
                position += axis + zoom * configuration.spreadSpacing
            } else {
                let slot = max(viewportAxis, axis + 2 * padding)
                start = position + (slot - axis) / 2
                position += slot
            }
            let crossStart = (cross - crossSize) / 2
            frames.append(
                isVertical
                    ? PDFRectangle(x: crossStart, y: start, width: crossSize, height: axis)
                    : PDFRectangle(x: start, y: crossStart, width: axis, height: crossSize))
        }
        return frames
    }

    /// The frame of spread `index` in content coordinates at `zoom` (zoom 1 gives the unzoomed layout).
    public func spreadFrame(_ index: Int, zoom: Double) -> PDFRectangle {
        let frames = spreadFrames(zoom: zoom)
        return frames.indices.contains(index) ? frames[index] : .zero
    }

    /// Every page's frame in content coordinates at `zoom`, given the spreads' frames at that zoom.
    public func pageFrames(spreadFrames: [PDFRectangle], zoom: Double) -> [PDFRectangle] {
        pageFramesInSpread.enumerated().map { page, local in
            let spread = spreadFrames[spreadOfPage[page]]
            return PDFRectangle(
                x: spread.x0 + zoom * local.x0, y: spread.y0 + zoom * local.y0,
                width: zoom * local.width, height: zoom * local.height)
        }
    }

    /// Every page's frame in content coordinates at `zoom`.
    public func pageFrames(zoom: Double) -> [PDFRectangle] {
        pageFrames(spreadFrames: spreadFrames(zoom: zoom), zoom: zoom)
    }

    /// The content size at `zoom`.
    public func contentSize(zoom: Double) -> PDFSize {
        let cross = crossExtent(zoom: zoom)
        let axis: Double
        if configuration.continuous {
            let lengths = spreadSizes.map(axisLength).reduce(0, +)
            let gaps = Double(max(0, spreadSizes.count - 1)) * configuration.spreadSpacing
            axis = zoom * (lengths + gaps) + 2 * configuration.padding
        } else {
            let viewportAxis = axisLength(viewportSize)
            axis = spreadSizes.map { max(viewportAxis, zoom * axisLength($0) + 2 * configuration.padding) }
                .reduce(0, +)
        }
        return isVertical ? PDFSize(width: cross, height: axis) : PDFSize(width: axis, height: cross)
    }

    /// The transform from page `page`'s PDF user space to content coordinates at `zoom`
    /// (``PageGeometry/pdfToPageTransform``, then the zoom, then the page frame's origin).
    public func pdfToContentTransform(page: Int, pageFrame: PDFRectangle, zoom: Double) -> PDFMatrix {
        pages[page].pdfToPageTransform
            .concatenating(.scale(zoom, zoom))
            .concatenating(.translation(pageFrame.x0, pageFrame.y0))
    }
}
