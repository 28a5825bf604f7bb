import PDFCore
import PDFViewer
import Testing

@Suite struct LayoutDescriptionTests {
    @Test("Frames and pdfToView matrices for an upright and a rotated page at fit width")
    func mixedPages() {
        // Page 0: [0 0 100 200] upright; page 1: [10 20 110 220] rotated 90° → displayed 200 × 100.
        // Fit width in 400 × 300 with no padding: the widest spread is 200 → zoom 2. Cross extent
        // max(400, 2·200) = 400: page 0 at x (400 − 200)/2 = 100, y 0, 200 × 400; page 1 at x 0,
        // y 400 + 2·16 = 432, 400 × 200. Height 2·(200 + 100 + 16) = 632.
        let description = LayoutDescription(
            pages: [
                page(100, 200), PageGeometry(cropBox: PDFRectangle(x0: 10, y0: 20, x1: 110, y1: 220), rotation: 90),
            ],
            configuration: LayoutConfiguration(), viewportSize: PDFSize(width: 400, height: 300))
        #expect(description.zoom == 2)
        #expect(description.contentWidth == 400 && description.contentHeight == 632)
        #expect(description.spreads.map(\.pages) == [[0], [1]])
        #expect(description.spreads.map(\.frame) == [[100, 0, 200, 400], [0, 432, 400, 200]])
        #expect(description.pages.map(\.frame) == [[100, 0, 200, 400], [0, 432, 400, 200]])
        // Page 0: x → 100 + 2x, y → 2·(200 − y) = 400 − 2y: [2 0 0 −2 100 400].
        // Page 1: view box (y − 20, x − 10) × 2 + (0, 432): x' = 2y − 40, y' = 2x + 412: [0 2 2 0 −40 412].
        #expect(description.pages.map(\.pdfToView) == [[2, 0, 0, -2, 100, 400], [0, 2, 2, 0, -40, 412]])
    }

    @Test("Two-page spreads with a cover, and the zoom override clamped")
    func spreadsWithCover() {
        let pages = Array(repeating: page(100, 200), count: 3)
        let configuration = LayoutConfiguration(spreads: .double(firstPageAlone: true))
        // The pair is 200 wide: zoom 400 / 200 = 2. Cover at x 100, 200 × 400; pair at y 400 + 32 = 432.
        let fitted = LayoutDescription(
            pages: pages, configuration: configuration, viewportSize: PDFSize(width: 400, height: 300))
        #expect(fitted.spreads.map(\.pages) == [[0], [1, 2]])
        #expect(fitted.spreads.map(\.frame) == [[100, 0, 200, 400], [0, 432, 400, 400]])
        #expect(fitted.pages.map(\.frame) == [[100, 0, 200, 400], [0, 432, 200, 400], [200, 432, 200, 400]])
        #expect(fitted.contentHeight == 2 * (400 + 16))
        let zoomed = LayoutDescription(
            pages: pages, configuration: configuration, viewportSize: PDFSize(width: 400, height: 300), zoom: 100)
        #expect(zoomed.zoom == 8)
    }
}
