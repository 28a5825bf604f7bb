import PDFCore
import PDFViewer
import Testing

@Suite struct PageGeometryTests {
    @Test(arguments: [
        (0, 200.0, 100.0), (90, 100.0, 200.0), (180, 200.0, 100.0), (270, 100.0, 200.0), (-90, 100.0, 200.0),
    ])
    func displaySizeFollowsRotation(rotation: Int, width: Double, height: Double) {
        let page = PageGeometry(cropBox: PDFRectangle(x0: 10, y0: 10, x1: 210, y1: 110), rotation: rotation)
        #expect(page.displaySize.width == width && page.displaySize.height == height)
    }

    @Test func userUnitScalesTheDisplayedSize() {
        let page = PageGeometry(cropBox: PDFRectangle(x0: 0, y0: 0, x1: 100, y1: 50), userUnit: 2)
        #expect(page.displaySize.width == 200 && page.displaySize.height == 100)
    }
}
