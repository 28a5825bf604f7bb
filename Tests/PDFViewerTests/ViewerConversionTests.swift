import PDFCore
import PDFViewer
import Testing

@Suite struct ViewerConversionTests {
    /// Crop box [10 20 110 220]: 100 wide, 200 high, not at the origin.
    static let cropBox = PDFRectangle(x0: 10, y0: 20, x1: 110, y1: 220)

    @Test(
        "PDF corners land on the right view-box corners for each rotation",
        arguments: [
            // (rotation, displayed size, images of lower-left, lower-right, upper-right, upper-left).
            // 0°: the y flip: the upper-left corner is the view's origin.
            (0, 100.0, 200.0, [point(0, 200), point(100, 200), point(100, 0), point(0, 0)]),
            // 90° clockwise: the lower-left corner goes to the top left, the upper-left to the top right.
            (90, 200, 100, [point(0, 0), point(0, 100), point(200, 100), point(200, 0)]),
            // 180°: the lower-right corner goes to the top left.
            (180, 100, 200, [point(100, 0), point(0, 0), point(0, 200), point(100, 200)]),
            // 270° (90° counter-clockwise): the upper-right corner goes to the top left.
            (270, 200, 100, [point(200, 100), point(200, 0), point(0, 0), point(0, 100)]),
        ])
    func cornersForRotation(rotation: Int, width: Double, height: Double, expected: [PDFPoint]) {
        let geometry = PageGeometry(cropBox: Self.cropBox, rotation: rotation)
        #expect(geometry.displaySize == (width, height))
        let corners = [point(10, 20), point(110, 20), point(110, 220), point(10, 220)]
        for (corner, image) in zip(corners, expected) {
            #expect(close(geometry.pagePoint(fromPDF: corner), image))
            #expect(close(geometry.pdfPoint(fromPage: image), corner))
        }
    }

    @Test(
        "An interior point and a rectangle for each rotation",
        arguments: [
            // PDF (30, 70) is 20 right of x0 and 50 above y0 (150 below y1, 80 left of x1).
            // Rect [20 30 60 40]: 10…50 right of x0, 10…20 above y0.
            (0, point(20, 150), rect(10, 180, 40, 10)),
            // 90°: view x = distance above y0, view y = distance right of x0.
            (90, point(50, 20), rect(10, 10, 10, 40)),
            // 180°: view x = distance left of x1, view y = distance above y0.
            (180, point(80, 50), rect(50, 10, 40, 10)),
            // 270°: view x = distance below y1, view y = distance left of x1.
            (270, point(150, 80), rect(180, 50, 10, 40)),
        ])
    func interiorPointAndRect(rotation: Int, expectedPoint: PDFPoint, expectedRect: PDFRectangle) {
        let geometry = PageGeometry(cropBox: Self.cropBox, rotation: rotation)
        #expect(close(geometry.pagePoint(fromPDF: point(30, 70)), expectedPoint))
        let pdfRect = PDFRectangle(x0: 20, y0: 30, x1: 60, y1: 40)
        #expect(close(geometry.pageRect(fromPDF: pdfRect), expectedRect))
        #expect(close(geometry.pdfRect(fromPage: expectedRect), pdfRect))
    }

    @Test("UserUnit 2 doubles every distance")
    func userUnit() {
        let geometry = PageGeometry(cropBox: PDFRectangle(x0: 0, y0: 0, x1: 100, y1: 50), userUnit: 2)
        // (25, 10): x 2·25 = 50, y 2·(50 − 10) = 80.
        #expect(close(geometry.pagePoint(fromPDF: point(25, 10)), point(50, 80)))
        #expect(close(geometry.pagePoint(fromPDF: point(100, 50)), point(200, 0)))
        #expect(close(geometry.pdfPoint(fromPage: point(200, 100)), point(100, 0)))
    }

    /// Page 0: 100 × 200 upright; page 1: crop [10 20 110 220] rotated 90° (displayed 200 × 100).
    /// Vertical, spacing 20, zoom 1, viewport 200 × 100: cross extent 200, page 0 at x = 50, y 0…200;
    /// page 1 at x = 0, y 220…320; content 320 high, so offsets up to 220. Scrolled to offset (0, 200).
    static func mixedState() -> ViewerState {
        var state = ViewerState(
            layout: DocumentLayout(
                pages: [page(100, 200), PageGeometry(cropBox: cropBox, rotation: 90)],
                configuration: LayoutConfiguration(spreadSpacing: 20, fit: .zoom(1)),
                viewportSize: PDFSize(width: 200, height: 100)))
        state.setContentOffset(point(0, 200))
        return state
    }

    @Test("View ↔ page ↔ PDF through the layout and offset")
    func viewConversions() throws {
        let state = Self.mixedState()
        #expect(state.pageFrames == [rect(50, 0, 100, 200), rect(0, 220, 200, 100)])
        // PDF (60, 70) on page 1 → view box (70 − 20, 60 − 10) = (50, 50) → content (50, 270) →
        // view (50, 70).
        #expect(close(state.viewPoint(fromPDF: point(60, 70), page: 1), point(50, 70)))
        #expect(close(state.pagePoint(fromView: point(50, 70), page: 1), point(50, 50)))
        #expect(close(state.pdfPoint(fromView: point(50, 70), page: 1), point(60, 70)))
        let hit = try #require(state.page(atViewPoint: point(50, 70)))
        #expect(hit.page == 1 && close(hit.pdfPoint, point(60, 70)))
        // View y 10 is content 210: in the gap between the pages.
        #expect(state.page(atViewPoint: point(50, 10)) == nil)
        // Page 0, view (60, −100) = content (60, 100) = view box (10, 100) = PDF (10, 100).
        #expect(close(state.pdfPoint(fromView: point(60, -100), page: 0), point(10, 100)))
        // The PDF rect [20 30 60 40] on page 1 is view box (10, 10, 10, 40) → view (10, 30, 10, 40).
        let pdfRect = PDFRectangle(x0: 20, y0: 30, x1: 60, y1: 40)
        #expect(close(state.viewRect(fromPDF: pdfRect, page: 1), rect(10, 30, 10, 40)))
        #expect(close(state.pdfRect(fromView: rect(10, 30, 10, 40), page: 1), pdfRect))
        #expect(close(state.pageRect(fromView: rect(10, 30, 10, 40), page: 1), rect(10, 10, 10, 40)))
        // The transform agrees with the point conversion.
        #expect(close(state.pdfToViewTransform(page: 1).apply(point(60, 70)), point(50, 70)))
        #expect(close(state.viewToPDFTransform(page: 1).apply(point(50, 70)), point(60, 70)))
    }

    @Test("Visible spreads and pages follow the offset")
    func visibility() {
        var state = Self.mixedState()
        // Offset 200: visible y 200…300 touches page 0 only at its edge (no area): page 1 only.
        #expect(state.visiblePages == [1] && state.visibleSpreads == [1])
        // Offset 150: y 150…250 overlaps both.
        state.setContentOffset(point(0, 150))
        #expect(state.visiblePages == [0, 1])
    }

    @Test(
        "Hit testing returns the topmost target under the point",
        arguments: [
            // PDF (60, 70) on page 1 is view (50, 70) (see above); inside A and B: B is later, on top.
            (point(50, 70), "B"),
            // PDF (75, 85) on page 1 → view box (65, 65) → view (65, 85): inside A only.
            (point(65, 85), "A"),
            // PDF (100, 150) on page 1 → view box (130, 90) → view (130, 90): on the page, no target.
            (point(130, 90), nil),
            // The gap.
            (point(50, 10), nil),
        ])
    func hitTesting(viewPoint: PDFPoint, expected: String?) {
        let state = Self.mixedState()
        let targets = [
            HitTarget(id: "A", page: 1, rect: PDFRectangle(x0: 50, y0: 60, x1: 80, y1: 90)),
            HitTarget(id: "B", page: 1, rect: PDFRectangle(x0: 55, y0: 65, x1: 70, y1: 75)),
            // Same rectangle on page 0: never hit through page 1.
            HitTarget(id: "C", page: 0, rect: PDFRectangle(x0: 50, y0: 60, x1: 80, y1: 90)),
        ]
        #expect(state.hitTest(targets, atViewPoint: viewPoint)?.id == expected)
    }
}
