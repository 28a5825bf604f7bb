import PDFCore
import PDFViewer
import Testing

@Suite struct EmptySpaceTests {
    static let page = PDFRectangle(x0: 0, y0: 0, x1: 600, y1: 800)
    static let size = PDFSize(width: 200, height: 70)

    @Test("nothing in the way: the box is centred on the place wanted")
    func freePage() throws {
        let box = try #require(
            EmptySpace.rectangle(of: Self.size, in: Self.page, avoiding: [], near: PDFPoint(x: 300, y: 115), steps: 50))
        #expect(abs(box.midX - 300) <= 6 && abs(box.midY - 115) <= 8)
        #expect(box.width == 200 && box.height == 70)
    }

    @Test("text where it is wanted: the nearest free place, meeting no obstacle, inside the area")
    func avoidsObstacles() throws {
        // Lines of text across the lower part of the page.
        let lines = (0..<10).map { PDFRectangle(x0: 40, y0: 60 + Double($0) * 20, x1: 560, y1: 74 + Double($0) * 20) }
        let box = try #require(
            EmptySpace.rectangle(of: Self.size, in: Self.page, avoiding: lines, near: PDFPoint(x: 300, y: 115)))
        #expect(!lines.contains { $0.intersects(box) })
        #expect(box.x0 >= 0 && box.y0 >= 0 && box.x1 <= 600 && box.y1 <= 800)
        // Above the lines (the nearest free band), not far up the page.
        #expect(box.y0 >= 254 + 4 && box.y0 < 300, "\(box)")
    }

    @Test("no place: nil, as for a box larger than the area, numbers not finite, or too many obstacles")
    func noPlace() {
        let near = PDFPoint(x: 300, y: 400)
        #expect(EmptySpace.rectangle(of: Self.size, in: Self.page, avoiding: [Self.page], near: near) == nil)
        #expect(
            EmptySpace.rectangle(of: PDFSize(width: 700, height: 10), in: Self.page, avoiding: [], near: near) == nil)
        #expect(
            EmptySpace.rectangle(of: Self.size, in: Self.page, avoiding: [], near: PDFPoint(x: .nan, y: 0)) == nil)
        let many = Array(repeating: PDFRectangle(x0: 0, y0: 0, x1: 1, y1: 1), count: EmptySpace.maxObstacles + 1)
        #expect(EmptySpace.rectangle(of: Self.size, in: Self.page, avoiding: many, near: near) == nil)
    }
}
