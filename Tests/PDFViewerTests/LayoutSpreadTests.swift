import PDFCore
import PDFViewer
import Testing

@Suite struct LayoutSpreadTests {
    @Test(
        "Pages group into spreads: single, pairs, and a cover alone",
        arguments: [
            (5, LayoutConfiguration.Spreads.single, [[0], [1], [2], [3], [4]]),
            (5, .double(firstPageAlone: false), [[0, 1], [2, 3], [4]]),
            (5, .double(firstPageAlone: true), [[0], [1, 2], [3, 4]]),
            (4, .double(firstPageAlone: true), [[0], [1, 2], [3]]),
            (1, .double(firstPageAlone: false), [[0]]),
            (0, .single, []),
        ])
    func spreadGrouping(pageCount: Int, spreads: LayoutConfiguration.Spreads, expected: [[Int]]) {
        let layout = DocumentLayout(
            pages: Array(repeating: page(100, 100), count: pageCount),
            configuration: LayoutConfiguration(spreads: spreads), viewportSize: PDFSize(width: 500, height: 500))
        #expect(layout.spreads == expected)
        #expect(layout.spreadCount == expected.count)
    }

    @Test("Two pages of a spread sit side by side, vertically centred")
    func doubleSpreadCentresPagesVertically() {
        // 100 × 200 and 120 × 100: the spread is 220 wide and 200 high; the second page starts at
        // x = 100 and is centred: y = (200 − 100) / 2 = 50.
        let layout = DocumentLayout(
            pages: [page(100, 200), page(120, 100)],
            configuration: LayoutConfiguration(spreads: .double(firstPageAlone: false)),
            viewportSize: PDFSize(width: 500, height: 500))
        #expect(layout.spreadSizes == [PDFSize(width: 220, height: 200)])
        #expect(layout.pageFramesInSpread == [rect(0, 0, 100, 200), rect(100, 50, 120, 100)])
    }

    @Test("A cover page stands alone and is centred across the axis")
    func coverPageIsCentred() {
        // Pages 100 × 200; cover spread 100 wide, then a 200-wide pair. Viewport 300 wide, zoom 1,
        // padding 0: cross extent max(300, 200) = 300, cover x = (300 − 100) / 2 = 100, pair x = 50;
        // pair y = 200 + 16.
        let layout = DocumentLayout(
            pages: Array(repeating: page(100, 200), count: 3),
            configuration: LayoutConfiguration(spreads: .double(firstPageAlone: true), fit: .zoom(1)),
            viewportSize: PDFSize(width: 300, height: 300))
        #expect(layout.spreadFrames(zoom: 1) == [rect(100, 0, 100, 200), rect(50, 216, 200, 200)])
        #expect(
            layout.pageFrames(zoom: 1) == [rect(100, 0, 100, 200), rect(50, 216, 100, 200), rect(150, 216, 100, 200)])
    }

    /// Three 100 × 200 pages (200 × 100 when horizontal), spacing 16, padding 10, in a 300 × 400
    /// viewport (400 × 300 when horizontal).
    static func threePages(
        direction: LayoutConfiguration.Direction, continuous: Bool = true
    ) -> DocumentLayout {
        let vertical = direction == .vertical
        return DocumentLayout(
            pages: Array(repeating: vertical ? page(100, 200) : page(200, 100), count: 3),
            configuration: LayoutConfiguration(
                continuous: continuous, direction: direction, spreadSpacing: 16, fit: .zoom(1), padding: 10),
            viewportSize: vertical ? PDFSize(width: 300, height: 400) : PDFSize(width: 400, height: 300))
    }

    /// Swaps x/y and width/height for the horizontal variant.
    static func oriented(_ frame: PDFRectangle, _ direction: LayoutConfiguration.Direction) -> PDFRectangle {
        direction == .vertical ? frame : rect(frame.y0, frame.x0, frame.height, frame.width)
    }

    @Test(
        "Continuous frames at zoom 1 and 2 in both directions",
        arguments: [
            LayoutConfiguration.Direction.vertical, .horizontal,
        ])
    func continuousFrames(direction: LayoutConfiguration.Direction) {
        let layout = Self.threePages(direction: direction)
        // Zoom 1: cross extent max(300, 100 + 2·10) = 300 → cross origin (300 − 100) / 2 = 100.
        // Along the axis: 10, 10 + 200 + 16 = 226, 226 + 216 = 442. Length 3·200 + 2·16 + 2·10 = 652.
        let zoom1 = [rect(100, 10, 100, 200), rect(100, 226, 100, 200), rect(100, 442, 100, 200)]
        #expect(layout.spreadFrames(zoom: 1) == zoom1.map { Self.oriented($0, direction) })
        let size1 = layout.contentSize(zoom: 1)
        #expect((direction == .vertical ? [size1.width, size1.height] : [size1.height, size1.width]) == [300, 652])
        // Zoom 2: cross extent max(300, 200 + 20) = 300 → origin (300 − 200) / 2 = 50; spreads 400 long,
        // spacing 32: 10, 442, 874. Length 2·(600 + 32) + 20 = 1284.
        let zoom2 = [rect(50, 10, 200, 400), rect(50, 442, 200, 400), rect(50, 874, 200, 400)]
        #expect(layout.spreadFrames(zoom: 2) == zoom2.map { Self.oriented($0, direction) })
        let size2 = layout.contentSize(zoom: 2)
        #expect((direction == .vertical ? [size2.width, size2.height] : [size2.height, size2.width]) == [300, 1284])
    }

    @Test(
        "Paging mode gives each spread a viewport-long slot and centres it",
        arguments: [
            LayoutConfiguration.Direction.vertical, .horizontal,
        ])
    func pagingFrames(direction: LayoutConfiguration.Direction) {
        let layout = Self.threePages(direction: direction, continuous: false)
        // Zoom 1: slot max(400, 200 + 20) = 400; spread at slot start + (400 − 200) / 2 = 100, 500, 900.
        let zoom1 = [rect(100, 100, 100, 200), rect(100, 500, 100, 200), rect(100, 900, 100, 200)]
        #expect(layout.spreadFrames(zoom: 1) == zoom1.map { Self.oriented($0, direction) })
        #expect(layout.contentSize(zoom: 1) == Self.oriented(rect(0, 0, 300, 1200), direction).size)
        // Zoom 2: the spread is 400 long, slot max(400, 420) = 420; spread at + 10: 10, 430, 850.
        let zoom2 = [rect(50, 10, 200, 400), rect(50, 430, 200, 400), rect(50, 850, 200, 400)]
        #expect(layout.spreadFrames(zoom: 2) == zoom2.map { Self.oriented($0, direction) })
        #expect(layout.contentSize(zoom: 2) == Self.oriented(rect(0, 0, 300, 1260), direction).size)
    }

    @Test(
        "Fit width and fit page zooms, clamped to the zoom range",
        arguments: [
            // Widest spread 150, viewport 320 − 2·10 = 300 wide → 300 / 150 = 2.
            ([page(100, 200), page(150, 100)], LayoutConfiguration.Spreads.single, LayoutConfiguration.Fit.width, 2.0),
            // Fit page also needs (320 − 20) / 200 = 1.5 for the 200-high page: min(2, 1.5).
            ([page(100, 200), page(150, 100)], .single, .page, 1.5),
            // A pair of 100-wide pages is 200 wide: 300 / 200.
            ([page(100, 200), page(100, 200)], .double(firstPageAlone: false), .width, 1.5),
            // 300 / 10000 = 0.03 → clamped to minZoom 0.25.
            ([page(10000, 100)], .single, .width, 0.25),
            // 300 / 10 = 30 → clamped to maxZoom 8.
            ([page(10, 10)], .single, .page, 8),
            ([page(10, 10)], .single, .zoom(3), 3),
            ([page(10, 10)], .single, .zoom(20), 8),
        ])
    func fitZoom(
        pages: [PageGeometry], spreads: LayoutConfiguration.Spreads, fit: LayoutConfiguration.Fit, zoom: Double
    ) {
        let layout = DocumentLayout(
            pages: pages, configuration: LayoutConfiguration(spreads: spreads, fit: fit, padding: 10),
            viewportSize: PDFSize(width: 320, height: 320))
        #expect(layout.fitZoom == zoom)
    }
}
