/// A point in a two-dimensional coordinate space: PDF user space (y up), a page's view box or a
/// viewer's content (y down), device pixels; the API that takes or returns it names the space.
public struct PDFPoint: Hashable, Sendable {
    /// The horizontal coordinate.
    public var x: Double
    /// The vertical coordinate (up in PDF user space, down in the viewer's spaces).
    public var y: Double

    /// A point from its coordinates.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// A point from its coordinates, unlabelled, as content-stream operands are read (`x y m`).
    public init(_ x: Double, _ y: Double) {
        self.init(x: x, y: y)
    }

    /// The origin.
    public static let zero = PDFPoint(x: 0, y: 0)
}

/// A width and a height, in the units of the space they measure.
public struct PDFSize: Hashable, Sendable {
    /// The horizontal extent.
    public var width: Double
    /// The vertical extent.
    public var height: Double

    /// A size from its components.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// No width and no height.
    public static let zero = PDFSize(width: 0, height: 0)
}
