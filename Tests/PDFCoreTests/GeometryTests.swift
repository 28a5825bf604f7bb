import PDFCore
import Testing

@Suite("Points, rectangles and matrices")
struct GeometryTests {
    @Test("concatenation applies the left matrix first, as PDF's cm does")
    func concatenation() {
        let scale = PDFMatrix.scale(2, 3)
        let move = PDFMatrix.translation(10, 20)
        #expect(scale.concatenating(move).apply(PDFPoint(1, 1)) == PDFPoint(x: 12, y: 23))
        #expect(move.concatenating(scale).apply(PDFPoint(1, 1)) == PDFPoint(x: 22, y: 63))
        #expect(move.applyLinear(PDFPoint(1, 1)) == PDFPoint(1, 1))
        #expect(scale.coefficients == [2, 0, 0, 3, 0, 0])
    }

    @Test("the inverse undoes the matrix; a singular or non-finite matrix has none")
    func inverse() throws {
        let matrix = PDFMatrix(2, 1, -1, 3, 5, -7)
        let inverse = try #require(matrix.inverted())
        let point = matrix.concatenating(inverse).apply(PDFPoint(3.5, -2))
        #expect(abs(point.x - 3.5) < 1e-12 && abs(point.y + 2) < 1e-12)
        #expect(PDFMatrix(1, 2, 2, 4, 0, 0).inverted() == nil)
        #expect(PDFMatrix(.infinity, 0, 0, 1, 0, 0).inverted() == nil)
        #expect(PDFMatrix([1, 0, 0, 1, .nan, 0]) == nil)
        #expect(PDFMatrix([1, 0, 0, 1, 0]) == nil)
    }

    @Test("a rotated rectangle's bounding box")
    func rotatedBounds() {
        let rotated = PDFMatrix.rotation(Double.pi / 2).apply(PDFRectangle(x0: 0, y0: 0, x1: 10, y1: 20))
        #expect(abs(rotated.x0 + 20) < 1e-9 && abs(rotated.x1) < 1e-9 && abs(rotated.y1 - 10) < 1e-9)
    }

    @Test("a rectangle is normalised however it is made: corners in any order, origin and size, points")
    func construction() {
        let expected = PDFRectangle(x0: 1, y0: 2, x1: 4, y1: 8)
        #expect(PDFRectangle(x0: 4, y0: 8, x1: 1, y1: 2) == expected)
        #expect(PDFRectangle(x: 1, y: 2, width: 3, height: 6) == expected)
        #expect(PDFRectangle(x: 4, y: 8, width: -3, height: -6) == expected)
        #expect(PDFRectangle(boundingBoxOf: [PDFPoint(4, 2), PDFPoint(1, 8), PDFPoint(2, 5)]) == expected)
        #expect(PDFRectangle(boundingBoxOf: []) == .zero)
        #expect(PDFRectangle(expected.object) == expected)
        #expect(PDFRectangle(.array([.integer(1), .integer(2), .integer(3)])) == nil)
        #expect(expected.corners == [PDFPoint(1, 2), PDFPoint(4, 2), PDFPoint(4, 8), PDFPoint(1, 8)])
        #expect(expected.size == PDFSize(width: 3, height: 6) && expected.center == PDFPoint(2.5, 5))
        #expect(expected.description == "[1 2 4 8]")
    }

    @Test("touching rectangles intersect in a line but do not share an area")
    func overlap() {
        let left = PDFRectangle(x0: 0, y0: 0, x1: 1, y1: 1)
        let touching = PDFRectangle(x0: 1, y0: 0, x1: 2, y1: 1)
        #expect(left.intersection(touching) == PDFRectangle(x0: 1, y0: 0, x1: 1, y1: 1))
        #expect(left.intersection(touching)?.isEmpty == true)
        #expect(!left.intersects(touching))
        #expect(left.intersects(PDFRectangle(x0: 0.5, y0: 0.5, x1: 2, y1: 2)))
        #expect(left.intersection(PDFRectangle(x0: 2, y0: 2, x1: 3, y1: 3)) == nil)
        #expect(left.union(touching) == PDFRectangle(x0: 0, y0: 0, x1: 2, y1: 1))
        #expect(left.offsetBy(dx: 1, dy: -1) == PDFRectangle(x0: 1, y0: -1, x1: 2, y1: 0))
        #expect(left.contains(PDFPoint(1, 1)) && !left.contains(PDFPoint(1.01, 1)))
    }
}
