/// A point in a viewer coordinate space (the page view box, the layout's content, the viewport) or in
/// PDF user space; the API that takes it says which.
///
/// The viewer's own types carry a `Viewer` prefix so they never collide with `PDFGraphics.Point`
/// in a module that imports both.
public struct ViewerPoint: Hashable, Sendable {
    public var x: Double
    public var y: Double

    /// A point from its coordinates.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The origin.
    public static let zero = ViewerPoint(x: 0, y: 0)
}

/// A width and a height.
public struct ViewerSize: Hashable, Sendable {
    public var width: Double
    public var height: Double

    /// A size from its components.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
}

/// An axis-aligned rectangle with its origin at the top left (y grows downwards in every viewer space).
public struct ViewerRect: Hashable, Sendable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    /// A rectangle from its origin and size.
    public init(x: Double, y: Double, width: Double, height: Double) {
        (self.x, self.y, self.width, self.height) = (x, y, width, height)
    }

    /// The empty rectangle at the origin.
    public static let zero = ViewerRect(x: 0, y: 0, width: 0, height: 0)

    /// The smallest rectangle holding all `points`; `.zero` for none.
    public init(boundingBoxOf points: [ViewerPoint]) {
        guard let first = points.first else {
            self = .zero
            return
        }
        var (minX, minY, maxX, maxY) = (first.x, first.y, first.x, first.y)
        for point in points.dropFirst() {
            (minX, maxX) = (min(minX, point.x), max(maxX, point.x))
            (minY, maxY) = (min(minY, point.y), max(maxY, point.y))
        }
        self.init(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    public var minX: Double { x }
    public var minY: Double { y }
    public var maxX: Double { x + width }
    public var maxY: Double { y + height }
    public var midX: Double { x + width / 2 }
    public var midY: Double { y + height / 2 }
    /// The centre point.
    public var center: ViewerPoint { ViewerPoint(x: midX, y: midY) }
    /// The origin (top-left corner).
    public var origin: ViewerPoint { ViewerPoint(x: x, y: y) }
    /// The size.
    public var size: ViewerSize { ViewerSize(width: width, height: height) }
    /// The four corners: top left, top right, bottom right, bottom left.
    public var corners: [ViewerPoint] {
        [
            ViewerPoint(x: minX, y: minY), ViewerPoint(x: maxX, y: minY),
            ViewerPoint(x: maxX, y: maxY), ViewerPoint(x: minX, y: maxY),
        ]
    }

    /// Whether `point` lies inside or on the edge.
    public func contains(_ point: ViewerPoint) -> Bool {
        point.x >= minX && point.x <= maxX && point.y >= minY && point.y <= maxY
    }

    /// Whether the two rectangles share an area larger than zero.
    public func intersects(_ other: ViewerRect) -> Bool {
        max(minX, other.minX) < min(maxX, other.maxX) && max(minY, other.minY) < min(maxY, other.maxY)
    }

    /// The overlap, or nil when the rectangles share no area.
    public func intersection(_ other: ViewerRect) -> ViewerRect? {
        guard intersects(other) else { return nil }
        let left = max(minX, other.minX)
        let top = max(minY, other.minY)
        return ViewerRect(x: left, y: top, width: min(maxX, other.maxX) - left, height: min(maxY, other.maxY) - top)
    }

    /// The rectangle moved by `dx`, `dy`.
    public func offsetBy(dx: Double, dy: Double) -> ViewerRect {
        ViewerRect(x: x + dx, y: y + dy, width: width, height: height)
    }
}

/// An affine transformation `[a b c d e f]` in the PDF convention (ISO 32000-2 §8.3.4): a point
/// (x, y) maps to (a·x + c·y + e, b·x + d·y + f); `m1.concatenating(m2)` applies `m1` first.
public struct ViewerTransform: Hashable, Sendable {
    public var a, b, c, d, e, f: Double

    /// A transform from its six coefficients.
    public init(_ a: Double, _ b: Double, _ c: Double, _ d: Double, _ e: Double, _ f: Double) {
        (self.a, self.b, self.c, self.d, self.e, self.f) = (a, b, c, d, e, f)
    }

    /// The identity.
    public static let identity = ViewerTransform(1, 0, 0, 1, 0, 0)

    /// A translation by (`x`, `y`).
    public static func translation(_ x: Double, _ y: Double) -> ViewerTransform { ViewerTransform(1, 0, 0, 1, x, y) }

    /// A scaling by `x` and `y`.
    public static func scale(_ x: Double, _ y: Double) -> ViewerTransform { ViewerTransform(x, 0, 0, y, 0, 0) }

    /// The six coefficients `[a, b, c, d, e, f]`.
    public var coefficients: [Double] { [a, b, c, d, e, f] }

    /// `self` then `other`.
    public func concatenating(_ other: ViewerTransform) -> ViewerTransform {
        ViewerTransform(
            a * other.a + b * other.c, a * other.b + b * other.d,
            c * other.a + d * other.c, c * other.b + d * other.d,
            e * other.a + f * other.c + other.e, e * other.b + f * other.d + other.f)
    }

    /// The inverse, or nil when the transform is singular.
    public func inverted() -> ViewerTransform? {
        let determinant = a * d - b * c
        guard determinant != 0, determinant.isFinite else { return nil }
        return ViewerTransform(
            d / determinant, -b / determinant, -c / determinant, a / determinant,
            (c * f - d * e) / determinant, (b * e - a * f) / determinant)
    }

    /// The image of `point`.
    public func apply(_ point: ViewerPoint) -> ViewerPoint {
        ViewerPoint(x: a * point.x + c * point.y + e, y: b * point.x + d * point.y + f)
    }

    /// The image of a vector (the linear part only: for deltas and sizes).
    public func applyLinear(_ vector: ViewerPoint) -> ViewerPoint {
        ViewerPoint(x: a * vector.x + c * vector.y, y: b * vector.x + d * vector.y)
    }

    /// The bounding box of the image of `rect`'s four corners.
    public func apply(_ rect: ViewerRect) -> ViewerRect {
        ViewerRect(boundingBoxOf: rect.corners.map(apply))
    }
}
