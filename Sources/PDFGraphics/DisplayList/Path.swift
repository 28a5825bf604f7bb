public import PDFCore

/// A path in user space: subpaths of lines and cubic Bézier curves (ISO 32000-2 §8.5.2).
public struct Path: Hashable, Sendable {
    /// One path construction operator (§8.5.2.1).
    public enum Element: Hashable, Sendable {
        /// `m`: begins a subpath at the point.
        case move(PDFPoint)
        /// `l`: a straight line to the point.
        case line(PDFPoint)
        /// `c`: a cubic Bézier curve through two control points to the third point.
        case curve(PDFPoint, PDFPoint, PDFPoint)
        /// `h`: closes the subpath with a line to its start.
        case close
    }

    /// The elements in drawing order.
    public var elements: [Element] = []

    /// A path of `elements`.
    public init(_ elements: [Element] = []) { self.elements = elements }

    /// Whether the path has no element.
    public var isEmpty: Bool { elements.isEmpty }

    /// Appends the `re` operator's closed subpath: `width` × `height` from (`x`, `y`).
    public mutating func rectangle(_ x: Double, _ y: Double, _ width: Double, _ height: Double) {
        elements += [
            .move(PDFPoint(x, y)), .line(PDFPoint(x + width, y)), .line(PDFPoint(x + width, y + height)),
            .line(PDFPoint(x, y + height)), .close,
        ]
    }

    /// The path with every point transformed.
    public func transformed(by matrix: PDFMatrix) -> Path {
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
    public var bounds: PDFRectangle? {
        var points: [PDFPoint] = []
        for element in elements {
            switch element {
            case .move(let p), .line(let p): points.append(p)
            case .curve(let p1, let p2, let p3): points += [p1, p2, p3]
            case .close: break
            }
        }
        guard let first = points.first else { return nil }
        var rect = PDFRectangle(x0: first.x, y0: first.y, x1: first.x, y1: first.y)
        for point in points.dropFirst() {
            rect = rect.union(PDFRectangle(x0: point.x, y0: point.y, x1: point.x, y1: point.y))
        }
        return rect
    }
}
