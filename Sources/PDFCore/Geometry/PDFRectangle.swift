/// An axis-aligned rectangle, normalised so that `x0 ≤ x1` and `y0 ≤ y1` (ISO 32000-2 §7.9.5).
///
/// One type serves every coordinate space: PDF user space, where `(x0, y0)` is the lower-left
/// corner, and the viewer's spaces (y down), where it is the top-left corner. The API that takes or
/// returns a rectangle names the space.
public struct PDFRectangle: Hashable, Sendable, CustomStringConvertible {
    /// The least x: the left edge.
    public var x0: Double
    /// The least y: the bottom edge in PDF user space, the top edge in a y-down space.
    public var y0: Double
    /// The greatest x: the right edge.
    public var x1: Double
    /// The greatest y: the top edge in PDF user space, the bottom edge in a y-down space.
    public var y1: Double

    /// A rectangle from two opposite corners, in any order.
    public init(x0: Double, y0: Double, x1: Double, y1: Double) {
        self.x0 = min(x0, x1)
        self.y0 = min(y0, y1)
        self.x1 = max(x0, x1)
        self.y1 = max(y0, y1)
    }

    /// A rectangle from its corner of least coordinates and its size (a negative size extends the
    /// other way).
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.init(x0: x, y0: y, x1: x + width, y1: y + height)
    }

    /// Reads `[llx lly urx ury]`; nil unless it holds four finite numbers.
    public init?(_ object: PDFObject?) {
        guard let items = object?.arrayValue, items.count == 4 else { return nil }
        let numbers = items.compactMap(\.numberValue)
        guard numbers.count == 4, numbers.allSatisfy(\.isFinite) else { return nil }
        self.init(x0: numbers[0], y0: numbers[1], x1: numbers[2], y1: numbers[3])
    }

    /// The smallest rectangle holding all `points`; ``zero`` for none.
    public init(boundingBoxOf points: [PDFPoint]) {
        guard let first = points.first else {
            self = .zero
            return
        }
        var (minX, minY, maxX, maxY) = (first.x, first.y, first.x, first.y)
        for point in points.dropFirst() {
            (minX, maxX) = (min(minX, point.x), max(maxX, point.x))
            (minY, maxY) = (min(minY, point.y), max(maxY, point.y))
        }
        self.init(x0: minX, y0: minY, x1: maxX, y1: maxY)
    }

    /// The empty rectangle at the origin.
    public static let zero = PDFRectangle(x0: 0, y0: 0, x1: 0, y1: 0)

    /// US Letter, the default media box of readers when a page has none.
    public static let letter = PDFRectangle(x0: 0, y0: 0, x1: 612, y1: 792)

    /// `x1 − x0`.
    public var width: Double { x1 - x0 }
    /// `y1 − y0`.
    public var height: Double { y1 - y0 }
    /// The size.
    public var size: PDFSize { PDFSize(width: width, height: height) }
    /// The corner of least coordinates.
    public var origin: PDFPoint { PDFPoint(x: x0, y: y0) }
    /// The x of the centre.
    public var midX: Double { x0 + width / 2 }
    /// The y of the centre.
    public var midY: Double { y0 + height / 2 }
    /// The centre point.
    public var center: PDFPoint { PDFPoint(x: midX, y: midY) }
    /// Whether the rectangle has no area.
    public var isEmpty: Bool { !(width > 0 && height > 0) }

    /// The four corners: `(x0, y0)`, `(x1, y0)`, `(x1, y1)`, `(x0, y1)` (lower left first in PDF
    /// user space, top left first in a y-down space).
    public var corners: [PDFPoint] {
        [PDFPoint(x: x0, y: y0), PDFPoint(x: x1, y: y0), PDFPoint(x: x1, y: y1), PDFPoint(x: x0, y: y1)]
    }

    /// The rectangle as a PDF array.
    public var object: PDFObject {
        .array([x0, y0, x1, y1].map { .real(PDFReal($0)) })
    }

    /// Whether `point` lies inside or on the edge.
    public func contains(_ point: PDFPoint) -> Bool {
        point.x >= x0 && point.x <= x1 && point.y >= y0 && point.y <= y1
    }

    /// Whether the two rectangles share an area larger than zero (touching edges do not count).
    public func intersects(_ other: PDFRectangle) -> Bool {
        max(x0, other.x0) < min(x1, other.x1) && max(y0, other.y0) < min(y1, other.y1)
    }

    /// The overlap of two rectangles, or nil when they are apart; rectangles that touch overlap in a
    /// rectangle without area, as clipping to a crop box needs.
    public func intersection(_ other: PDFRectangle) -> PDFRectangle? {
        let result = PDFRectangle(
            x0: max(x0, other.x0), y0: max(y0, other.y0), x1: min(x1, other.x1), y1: min(y1, other.y1))
        return max(x0, other.x0) <= min(x1, other.x1) && max(y0, other.y0) <= min(y1, other.y1) ? result : nil
    }

    /// The smallest rectangle holding both.
    public func union(_ other: PDFRectangle) -> PDFRectangle {
        PDFRectangle(x0: min(x0, other.x0), y0: min(y0, other.y0), x1: max(x1, other.x1), y1: max(y1, other.y1))
    }

    /// The rectangle moved by `dx`, `dy`.
    public func offsetBy(dx: Double, dy: Double) -> PDFRectangle {
        PDFRectangle(x0: x0 + dx, y0: y0 + dy, x1: x1 + dx, y1: y1 + dy)
    }

    /// The rectangle as PDF writes it: `[x0 y0 x1 y1]`.
    public var description: String {
        "[\(PDFReal.format(x0)) \(PDFReal.format(y0)) \(PDFReal.format(x1)) \(PDFReal.format(y1))]"
    }
}
