import PDFAuthoring
import PDFCore
import PDFViewer

/// A page of `width` × `height` points with its crop box at the origin.
func page(_ width: Double, _ height: Double, rotation: Int = 0) -> PageGeometry {
    PageGeometry(cropBox: PDFRectangle(x0: 0, y0: 0, x1: width, y1: height), rotation: rotation)
}

/// Whether two numbers agree to 1e-9 (relative to their size).
func close(_ lhs: Double, _ rhs: Double, tolerance: Double = 1e-9) -> Bool {
    abs(lhs - rhs) <= tolerance * max(1, abs(lhs), abs(rhs))
}

func close(_ lhs: PDFPoint, _ rhs: PDFPoint) -> Bool { close(lhs.x, rhs.x) && close(lhs.y, rhs.y) }

func close(_ lhs: PDFRectangle, _ rhs: PDFRectangle) -> Bool {
    close(lhs.x0, rhs.x0) && close(lhs.y0, rhs.y0) && close(lhs.x1, rhs.x1) && close(lhs.y1, rhs.y1)
}

func point(_ x: Double, _ y: Double) -> PDFPoint { PDFPoint(x: x, y: y) }

/// A stroke through `points` (no time, no pressure).
func stroke(_ points: PDFPoint...) -> InkStroke { InkStroke(points.map { InkPoint(x: $0.x, y: $0.y) }) }

func rect(_ x: Double, _ y: Double, _ width: Double, _ height: Double) -> PDFRectangle {
    PDFRectangle(x: x, y: y, width: width, height: height)
}

/// Passes a mutating call's result into `#expect` (which cannot mutate its operands).
func changed<T>(_ value: T) -> T { value }
