import PDFCore
import PDFGraphics
import Testing

@Suite("Paths")
struct PathTests {
    @Test("a path's bounds, before and after a transformation")
    func bounds() {
        var path = Path()
        path.rectangle(1, 2, 3, 4)
        #expect(path.bounds == PDFRectangle(x0: 1, y0: 2, x1: 4, y1: 6))
        #expect(path.transformed(by: .translation(1, 1)).bounds == PDFRectangle(x0: 2, y0: 3, x1: 5, y1: 7))
        #expect(Path().bounds == nil)
    }
}
