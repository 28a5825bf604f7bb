import PDFCore
import PDFViewer
import Testing

/// Scrolling and zooming on the four-page document (`fourPageState`: spreads at 0–200, 220–420,
/// 440–640, 660–860 along the axis, 100 × 100 viewport, zoom 1).
@Suite struct ViewerNavigationTests {
    @Test(
        "scrollToSpread places the spread at the start, centre or end",
        arguments: [LayoutConfiguration.Direction.vertical, .horizontal],
        [
            // Spread 2 spans 440–640: start 440; centre 540 − 50 = 490; end 640 − 100 = 540.
            (2, SpreadScrollPosition.start, 440.0), (2, .center, 490), (2, .end, 540),
            // Spread 0 centred: 100 − 50; its end: 200 − 100.
            (0, .center, 50), (0, .end, 100),
            // Spread 3 starts at 660, its end 860 − 100 = 760 is the largest offset.
            (3, .start, 660), (3, .end, 760),
        ])
    func scrollToSpread(
        direction: LayoutConfiguration.Direction, target: (spread: Int, position: SpreadScrollPosition, offset: Double)
    ) {
        var state = fourPageState(direction: direction)
        state.scrollToSpread(target.spread, position: target.position)
        #expect(axis(state.contentOffset, direction) == target.offset)
    }

    @Test("In paging mode scrollToSpread goes to the spread's slot whatever the position")
    func scrollToSpreadPaging() {
        // 100 × 200 pages in a 100 × 250 viewport: slots of max(250, 200) = 250, spread 2's slot at 500.
        var state = ViewerState(
            layout: DocumentLayout(
                pages: Array(repeating: page(100, 200), count: 4),
                configuration: LayoutConfiguration(continuous: false, fit: .zoom(1)),
                viewportSize: PDFSize(width: 100, height: 250)))
        for position in [SpreadScrollPosition.start, .center, .end] {
            state.setContentOffset(.zero)
            state.scrollToSpread(2, position: position)
            #expect(state.contentOffset.y == 500)
            #expect(state.spreadIndex == 2)
        }
    }

    @Test("next/previous spread centre the neighbouring spread and stop at the ends")
    func nextAndPreviousSpread() {
        var state = fourPageState()
        #expect(!changed(state.previousSpread()))
        // From spread 0, the next is spread 1 (220–420) centred: 320 − 50 = 270.
        #expect(changed(state.nextSpread()))
        #expect(state.contentOffset.y == 270 && state.spreadIndex == 1)
        #expect(changed(state.previousSpread()))
        #expect(state.contentOffset.y == 50 && state.spreadIndex == 0)
        state.scrollToSpread(3)
        #expect(!changed(state.nextSpread()))
    }

    @Test("next/previous viewport move by one viewport, keep the zoom and clamp")
    func viewportPaging() {
        var state = fourPageState()
        state.setZoom(2)
        // At zoom 2 the content is 4·400 + 3·40 = 1720 high: the largest offset is 1620.
        for step in 1...16 {
            #expect(changed(state.nextViewport()))
            #expect(state.contentOffset.y == Double(step) * 100 && state.zoom == 2)
        }
        #expect(changed(state.nextViewport()))
        #expect(state.contentOffset.y == 1620)
        #expect(!changed(state.nextViewport()))
        #expect(changed(state.previousViewport()))
        #expect(state.contentOffset.y == 1520 && state.zoom == 2)
    }

    @Test("Disabled scrolling or zooming makes the calls no-ops")
    func disabledFlags() {
        var state = fourPageState()
        state.isScrollEnabled = false
        #expect(!changed(state.nextViewport()))
        #expect(!changed(state.scrollToSpread(2)))
        #expect(!changed(state.setContinuousSpreadIndex(2.5)))
        #expect(!changed(state.zoom(toPDFRect: PDFRectangle(x0: 0, y0: 0, x1: 10, y1: 10), onPage: 0)))
        #expect(state.contentOffset == .zero)
        state.isScrollEnabled = true
        state.isZoomEnabled = false
        #expect(!changed(state.setZoom(2)))
        #expect(!changed(state.zoom(to: 2, around: point(50, 50))))
        #expect(state.zoom == 1)
    }

    @Test("The zoom is clamped to [0.25, 8]", arguments: [(100.0, 8.0), (0.01, 0.25), (3, 3)])
    func zoomClamp(requested: Double, expected: Double) {
        var state = fourPageState()
        state.setZoom(requested)
        #expect(state.zoom == expected)
    }

    @Test("zoom(toPDFRect:) fits the rect and centres it")
    func zoomToPDFRect() {
        var state = fourPageState()
        // On page 1 (100 × 200, crop at the origin) the PDF rect [20 150 60 170] is, in the page
        // view box, x 20…60 and y 200 − 170 = 30 … 200 − 150 = 50: 40 × 20. Filling 100 × 100:
        // zoom min(100/40, 100/20) = 2.5.
        let pdfRect = PDFRectangle(x0: 20, y0: 150, x1: 60, y1: 170)
        #expect(changed(state.zoom(toPDFRect: pdfRect, onPage: 1)))
        #expect(state.zoom == 2.5)
        // At 2.5 the content is 250 wide (page x 0) and page 1 starts at 2.5 · 220 = 550. The rect's
        // centre (40, 40) is at content (100, 650): offset (50, 600).
        #expect(state.contentOffset == point(50, 600))
        // On screen the rect is x 2.5·20 − 50 = 0 … 100, y 550 + 75 − 600 = 25 … 75: it fits, centred.
        let onScreen = state.viewRect(fromPDF: pdfRect, page: 1)
        #expect(close(onScreen, rect(0, 25, 100, 50)))
        #expect(close(onScreen.center, point(50, 50)))
    }

    @Test("zoom(toPDFRect:) stops at maxZoom")
    func zoomToTinyRect() {
        var state = fourPageState()
        // A 1 × 1 rect would need zoom 100; maxZoom is 8. Its centre (50.5, 100.5) → view box
        // (50.5, 99.5) → content (8·50.5, 8·99.5) = (404, 796) → offset (354, 746).
        #expect(changed(state.zoom(toPDFRect: PDFRectangle(x0: 50, y0: 100, x1: 51, y1: 101), onPage: 0)))
        #expect(state.zoom == 8)
        #expect(state.contentOffset == point(354, 746))
    }

    @Test("zoom(to:around:) keeps the point under the finger still")
    func zoomAroundPoint() {
        var state = fourPageState()
        // View (50, 50) at zoom 1, offset 0 is page 0's view box point (50, 50) = PDF (50, 150).
        #expect(changed(state.zoom(to: 2, around: point(50, 50))))
        // At zoom 2 page 0 spans x 0…200: the point is at content (100, 100), so the offset is (50, 50).
        #expect(state.contentOffset == point(50, 50))
        #expect(close(state.viewPoint(fromPDF: point(50, 150), page: 0), point(50, 50)))
    }

    @Test("Resizing the viewport keeps the continuous index")
    func resizeKeepsIndex() {
        var state = fourPageState()
        state.setContinuousSpreadIndex(2.5)
        // Viewport 100 × 160: spread 2 centre 540 − 80 = 460.
        state.resizeViewport(to: PDFSize(width: 100, height: 160))
        #expect(state.contentOffset.y == 460)
        #expect(close(state.continuousSpreadIndex, 2.5))
    }
}
