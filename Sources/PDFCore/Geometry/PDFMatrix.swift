#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An affine transformation `[a b c d e f]` (ISO 32000-2 §8.3.4): a point (x, y) maps to
/// (a·x + c·y + e, b·x + d·y + f). Matrices compose left to right, as in PDF:
/// `m1.concatenating(m2)` applies `m1` first.
public struct PDFMatrix: Hashable, Sendable {
    /// The x scale (and the cosine part of a rotation).
    public var a: Double
    /// The y shear: how much x adds to y.
    public var b: Double
    /// The x shear: how much y adds to x.
    public var c: Double
    /// The y scale.
    public var d: Double
    /// The x translation.
    public var e: Double
    /// The y translation.
    public var f: Double

    /// A matrix from its six coefficients.
    public init(_ a: Double, _ b: Double, _ c: Double, _ d: Double, _ e: Double, _ f: Double) {
        (self.a, self.b, self.c, self.d, self.e, self.f) = (a, b, c, d, e, f)
    }

    /// A matrix from a six-number array; nil when the array is not six finite numbers.
    public init?(_ numbers: [Double]) {
        guard numbers.count == 6, numbers.allSatisfy(\.isFinite) else { return nil }
        self.init(numbers[0], numbers[1], numbers[2], numbers[3], numbers[4], numbers[5])
    }

    /// A matrix from a PDF array object (`/Matrix`, `cm` operands), resolving indirect numbers.
    public init?(_ object: PDFObject?, document: PDFDocument) {
        guard let items = object.flatMap({ document.resolve($0).arrayValue }) else { return nil }
        self.init(items.compactMap { document.resolve($0).numberValue })
    }

    /// The identity.
    public static let identity = PDFMatrix(1, 0, 0, 1, 0, 0)

    /// A translation by (`x`, `y`).
    public static func translation(_ x: Double, _ y: Double) -> PDFMatrix { PDFMatrix(1, 0, 0, 1, x, y) }
    /// A scaling by `x` and `y`.
    public static func scale(_ x: Double, _ y: Double) -> PDFMatrix { PDFMatrix(x, 0, 0, y, 0, 0) }
    /// Counter-clockwise by `radians`.
    public static func rotation(_ radians: Double) -> PDFMatrix {
        let (s, c) = (sin(radians), cos(radians))
        return PDFMatrix(c, s, -s, c, 0, 0)
    }

    /// The six coefficients `[a, b, c, d, e, f]`.
    public var coefficients: [Double] { [a, b, c, d, e, f] }

    /// `self` then `other`.
    public func concatenating(_ other: PDFMatrix) -> PDFMatrix {
        PDFMatrix(
            a * other.a + b * other.c, a * other.b + b * other.d,
            c * other.a + d * other.c, c * other.b + d * other.d,
            e * other.a + f * other.c + other.e, e * other.b + f * other.d + other.f)
    }

    /// The image of `point`.
    public func apply(_ point: PDFPoint) -> PDFPoint {
        PDFPoint(a * point.x + c * point.y + e, b * point.x + d * point.y + f)
    }

    /// The image of a vector: the linear part only, for distances, directions and deltas.
    public func applyLinear(_ point: PDFPoint) -> PDFPoint {
        PDFPoint(a * point.x + c * point.y, b * point.x + d * point.y)
    }

    /// The bounding box of the image of `rect`'s four corners.
    public func apply(_ rect: PDFRectangle) -> PDFRectangle {
        PDFRectangle(boundingBoxOf: rect.corners.map(apply))
    }

    /// `a·d − b·c`.
    public var determinant: Double { a * d - b * c }

    /// The inverse, or nil for a singular matrix.
    public func inverted() -> PDFMatrix? {
        let det = determinant
        guard det != 0, det.isFinite else { return nil }
        return PDFMatrix(d / det, -b / det, -c / det, a / det, (c * f - d * e) / det, (b * e - a * f) / det)
    }

    /// How much the matrix scales lengths on average (the square root of |det|).
    public var expansion: Double { abs(determinant).squareRoot() }
}
