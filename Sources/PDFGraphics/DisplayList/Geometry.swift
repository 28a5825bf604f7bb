public import PDFCore

/// A point in some PDF coordinate space.
public struct Point: Hashable, Sendable {
    public var x: Double
    public var y: Double

    public init(_ x: Double, _ y: Double) {
        self.x = x
        self.y = y
    }
}

/// An affine transformation `[a b c d e f]` (ISO 32000-2 §8.3.4): a point (x, y) maps to
/// (a·x + c·y + e, b·x + d·y + f). Matrices compose left to right, as in PDF:
/// `m1.concatenating(m2)` applies `m1` first.
public struct Matrix: Hashable, Sendable {
    public var a, b, c, d, e, f: Double

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

    public static let identity = Matrix(1, 0, 0, 1, 0, 0)

    public static func translation(_ x: Double, _ y: Double) -> Matrix { Matrix(1, 0, 0, 1, x, y) }
    public static func scale(_ x: Double, _ y: Double) -> Matrix { Matrix(x, 0, 0, y, 0, 0) }
    /// Counter-clockwise by `radians`.
    public static func rotation(_ radians: Double) -> Matrix {
        let (s, c) = (sin(radians), cos(radians))
        return Matrix(c, s, -s, c, 0, 0)
    }

    /// `self` then `other`.
    public func concatenating(_ other: Matrix) -> Matrix {
        Matrix(
            a * other.a + b * other.c, a * other.b + b * other.d,
            c * other.a + d * other.c, c * other.b + d * other.d,
            e * other.a + f * other.c + other.e, e * other.b + f * other.d + other.f)
    }

    public func apply(_ point: Point) -> Point {
        Point(a * point.x + c * point.y + e, b * point.x + d * point.y + f)
    }

    /// Applies the linear part only (for distances and directions).
    public func applyLinear(_ point: Point) -> Point {
        Point(a * point.x + c * point.y, b * point.x + d * point.y)
    }

    public var determinant: Double { a * d - b * c }

    /// The inverse, or nil for a singular matrix.
    public var inverted: Matrix? {
        let det = determinant
        guard det != 0, det.isFinite else { return nil }
        return Matrix(
            d / det, -b / det, -c / det, a / det, (c * f - d * e) / det, (b * e - a * f) / det)
    }

    /// How much the matrix scales lengths on average (the square root of |det|).
    public var expansion: Double { abs(determinant).squareRoot() }

    /// The bounding box of `rect` after transformation.
    public func apply(_ rect: Rect) -> Rect {
        let corners = [
            apply(Point(rect.x0, rect.y0)), apply(Point(rect.x1, rect.y0)), apply(Point(rect.x0, rect.y1)),
            apply(Point(rect.x1, rect.y1)),
        ]
        return Rect(
            x0: corners.map(\.x).min()!, y0: corners.map(\.y).min()!, x1: corners.map(\.x).max()!,
            y1: corners.map(\.y).max()!)
    }
}

/// An axis-aligned rectangle with x0 ≤ x1 and y0 ≤ y1.
public struct Rect: Hashable, Sendable {
    public var x0, y0, x1, y1: Double

    public init(x0: Double, y0: Double, x1: Double, y1: Double) {
        (self.x0, self.y0, self.x1, self.y1) = (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))
    }

    public init(_ rectangle: PDFRectangle) {
        self.init(x0: rectangle.x0, y0: rectangle.y0, x1: rectangle.x1, y1: rectangle.y1)
    }

    public var width: Double { x1 - x0 }
    public var height: Double { y1 - y0 }
    public var isEmpty: Bool { !(width > 0 && height > 0) }

    public func intersection(_ other: Rect) -> Rect? {
        let result = Rect(x0: max(x0, other.x0), y0: max(y0, other.y0), x1: min(x1, other.x1), y1: min(y1, other.y1))
        return max(x0, other.x0) <= min(x1, other.x1) && max(y0, other.y0) <= min(y1, other.y1) ? result : nil
    }

    public func union(_ other: Rect) -> Rect {
        Rect(x0: min(x0, other.x0), y0: min(y0, other.y0), x1: max(x1, other.x1), y1: max(y1, other.y1))
    }
}

/// A path in user space: subpaths of lines and cubic Bézier curves (ISO 32000-2 §8.5.2).
public struct Path: Hashable, Sendable {
    public enum Element: Hashable, Sendable {
        case move(Point)
        case line(Point)
        case curve(Point, Point, Point)
        case close
    }

    public var elements: [Element] = []

    public init(_ elements: [Element] = []) { self.elements = elements }

    public var isEmpty: Bool { elements.isEmpty }

    public mutating func rectangle(_ x: Double, _ y: Double, _ width: Double, _ height: Double) {
        elements += [
            .move(Point(x, y)), .line(Point(x + width, y)), .line(Point(x + width, y + height)),
            .line(Point(x, y + height)), .close,
        ]
    }

    /// The path with every point transformed.
    public func transformed(by matrix: Matrix) -> Path {
        Path(
            elements.map { element in
                switch element {
                case .move(let p): .move(matrix.apply(p))
                case .line(let p): .line(matrix.apply(p))
                case .curve(let p1, let p2, let p3): .curve(matrix.apply(p1), matrix.apply(p2), matrix.apply(p3))
                case .close: .close
                }
            })
    }

    /// The bounding box of the points (control points included), or nil for an empty path.
    public var bounds: Rect? {
        var points: [Point] = []
        for element in elements {
            switch element {
            case .move(let p), .line(let p): points.append(p)
            case .curve(let p1, let p2, let p3): points += [p1, p2, p3]
            case .close: break
            }
        }
        guard let first = points.first else { return nil }
        var rect = Rect(x0: first.x, y0: first.y, x1: first.x, y1: first.y)
        for point in points.dropFirst() { rect = rect.union(Rect(x0: point.x, y0: point.y, x1: point.x, y1: point.y)) }
        return rect
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
