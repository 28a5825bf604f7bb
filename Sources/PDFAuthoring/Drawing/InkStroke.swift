public import PDFCore

/// One sampled point of handwriting or an ink note, as a pointer or stylus gives it.
public struct InkPoint: Hashable, Sendable, Codable {
    /// The horizontal coordinate, in the space the strokes were captured in: a signature's drawing area (fitted into
    /// its field when drawn), or the page's user space for an ink note.
    public var x: Double
    /// The vertical coordinate, in the same space as `x`; whether it grows up or down is the capturer's
    /// (``InkPathWriter/fitting(_:into:padding:strokeWidth:flipY:)`` flips it).
    public var y: Double
    /// Milliseconds since the capture started, when known.
    public var time: Double?
    /// Pen pressure from 0 to 1, when the device reports it.
    public var pressure: Double?

    /// A point at (`x`, `y`), with its time in milliseconds and pen pressure from 0 to 1 when known.
    public init(x: Double, y: Double, time: Double? = nil, pressure: Double? = nil) {
        self.x = x
        self.y = y
        self.time = time
        self.pressure = pressure
    }

    /// Reads `[x, y]` or `[x, y, t, pressure]` (the JSON form of strokes).
    public init?(_ numbers: [Double]) {
        guard numbers.count >= 2, numbers.allSatisfy(\.isFinite) else { return nil }
        self.init(
            x: numbers[0], y: numbers[1], time: numbers.count > 2 ? numbers[2] : nil,
            pressure: numbers.count > 3 ? max(0, min(1, numbers[3])) : nil)
    }

    /// Reads the JSON form, `[x, y]` or `[x, y, t, pressure]`, the pressure clamped to 0…1.
    /// - Throws: `DecodingError` when the array holds fewer than two numbers or one that is not finite.
    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        var numbers: [Double] = []
        while !container.isAtEnd { numbers.append(try container.decode(Double.self)) }
        guard let point = InkPoint(numbers) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "a point is [x, y] or [x, y, t, pressure]")
        }
        self = point
    }

    /// Writes the JSON form: `[x, y]`, `[x, y, t]` when only the time is known, `[x, y, t, pressure]` when the pressure
    /// is (with `t` 0 when the time is not).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(x)
        try container.encode(y)
        if time != nil || pressure != nil { try container.encode(time ?? 0) }
        if let pressure { try container.encode(pressure) }
    }
}

/// One continuous line of handwriting: the points between pen down and pen up.
public struct InkStroke: Hashable, Sendable, Codable {
    /// The points in the order they were drawn.
    public var points: [InkPoint]

    /// A stroke through `points`, in the order they were drawn.
    public init(_ points: [InkPoint]) { self.points = points }

    /// Reads the JSON form: an array of points, each in ``InkPoint``'s form.
    public init(from decoder: any Decoder) throws {
        points = try [InkPoint](from: decoder)
    }

    /// Writes the JSON form: an array of points, each in ``InkPoint``'s form.
    public func encode(to encoder: any Encoder) throws {
        try points.encode(to: encoder)
    }

    /// The length of the polyline through the points.
    public var length: Double {
        zip(points, points.dropFirst()).reduce(0) { total, pair in
            let dx = pair.1.x - pair.0.x
            let dy = pair.1.y - pair.0.y
            return total + (dx * dx + dy * dy).squareRoot()
        }
    }
}

extension [InkStroke] {
    /// The bounding box of every point, or nil without points.
    public var bounds: PDFRectangle? {
        let points = flatMap(\.points)
        guard let first = points.first else { return nil }
        var box = (first.x, first.y, first.x, first.y)
        for point in points {
            box = (
                Swift.min(box.0, point.x), Swift.min(box.1, point.y), Swift.max(box.2, point.x),
                Swift.max(box.3, point.y)
            )
        }
        return PDFRectangle(x0: box.0, y0: box.1, x1: box.2, y1: box.3)
    }

    /// The total length of all strokes.
    public var totalLength: Double { reduce(0) { $0 + $1.length } }

    /// The number of points in all strokes.
    public var pointCount: Int { reduce(0) { $0 + $1.points.count } }
}

extension [InkStroke] {
    /// The most points a capture or a note may hold: more is no handwriting, only work.
    public static let maximumPointCount = 100_000

    /// The most strokes a signature or a note may have (each with at least one point).
    public static let maximumStrokeCount = 10_000

    /// Nil when the strokes can be drawn: at most ``maximumStrokeCount`` strokes and
    /// ``maximumPointCount`` points, every coordinate
    /// finite and inside `bounds`, every time finite and not negative, every pressure from 0 to 1;
    /// else what is wrong, for the caller. Checked before any arithmetic on the points (a point at
    /// 1e308 would make the strokes' box infinite and every scale derived from it meaningless).
    public func problem(within bounds: PDFRectangle) -> String? {
        guard self.count <= Self.maximumStrokeCount else {
            return "the strokes are more than \(Self.maximumStrokeCount)"
        }
        var count = 0
        for stroke in self {
            count += stroke.points.count
            guard count <= Self.maximumPointCount else {
                return "the strokes hold more than \(Self.maximumPointCount) points"
            }
            for point in stroke.points {
                guard point.x.isFinite, point.y.isFinite, point.x >= bounds.x0, point.x <= bounds.x1,
                    point.y >= bounds.y0, point.y <= bounds.y1
                else {
                    return
                        "the point (\(point.x), \(point.y)) is outside \(bounds.x0)…\(bounds.x1) × \(bounds.y0)…\(bounds.y1)"
                }
                if let time = point.time, !(time.isFinite && time >= 0) {
                    return "a point's time must be a number of milliseconds from 0"
                }
                if let pressure = point.pressure, !(0...1).contains(pressure) {
                    return "a point's pressure must be from 0 to 1"
                }
            }
        }
        return nil
    }

    /// The area handwriting captured on a pad may cover, in the pad's units (pixels): far larger
    /// than any screen, far smaller than a number whose arithmetic overflows.
    public static let captureArea = PDFRectangle(x0: -100_000, y0: -100_000, x1: 100_000, y1: 100_000)
}
