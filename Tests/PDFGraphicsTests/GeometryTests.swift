import PDFGraphics
import Testing

@Suite("Matrices, rectangles and paths")
struct GeometryTests {
    @Test("concatenation applies the left matrix first, as PDF's cm does")
    func concatenation() {
        let scale = Matrix.scale(2, 3)
        let move = Matrix.translation(10, 20)
        #expect(scale.concatenating(move).apply(Point(1, 1)) == Point(12, 23))
        #expect(move.concatenating(scale).apply(Point(1, 1)) == Point(22, 63))
    }

    @Test("the inverse undoes the matrix; a singular matrix has none")
    func inverse() throws {
        let matrix = Matrix(2, 1, -1, 3, 5, -7)
        let inverse = try #require(matrix.inverted)
        let point = matrix.concatenating(inverse).apply(Point(3.5, -2))
        #expect(abs(point.x - 3.5) < 1e-12 && abs(point.y + 2) < 1e-12)
        #expect(Matrix(1, 2, 2, 4, 0, 0).inverted == nil)
    }

    @Test("a rotated rectangle's bounds and a path's bounds")
    func bounds() throws {
        let rotated = Matrix.rotation(Double.pi / 2).apply(Rect(x0: 0, y0: 0, x1: 10, y1: 20))
        #expect(abs(rotated.x0 + 20) < 1e-9 && abs(rotated.x1) < 1e-9 && abs(rotated.y1 - 10) < 1e-9)
        var path = Path()
        path.rectangle(1, 2, 3, 4)
        #expect(path.bounds == Rect(x0: 1, y0: 2, x1: 4, y1: 6))
        #expect(path.transformed(by: .translation(1, 1)).bounds == Rect(x0: 2, y0: 3, x1: 5, y1: 7))
        #expect(Rect(x0: 0, y0: 0, x1: 1, y1: 1).intersection(Rect(x0: 2, y0: 2, x1: 3, y1: 3)) == nil)
    }
}
