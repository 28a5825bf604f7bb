public import PDFCore

/// Writes handwriting as path operators of a content stream (crisp at every zoom, never a bitmap): each stroke smoothed
/// into cubic Bézier curves (Catmull-Rom through the points), with a width that follows the pen
/// pressure when the device reported it.
public struct InkPathWriter: Sendable {
    /// The stroke width in points at full pressure (or for strokes without pressure).
    public var width: Double
    /// The colour of the strokes (both fill and stroke colours are set).
    public var color: PDFColor
    /// The thinnest a stroke gets at zero pressure, as a fraction of `width`.
    public var minimumWidthFraction: Double = 0.35

    /// A writer of strokes `width` points wide at full pressure, in `color`; black 1.5 pt strokes by default.
    public init(width: Double = 1.5, color: PDFColor = .black) {
        self.width = width
        self.color = color
    }

    /// The transform that fits `strokes` into `box` with `padding`, keeping their aspect ratio and
    /// centring them; `flipY` turns screen coordinates (y down) into PDF ones (y up).
    public static func fitting(
        _ strokes: [InkStroke], into box: PDFRectangle, padding: Double, strokeWidth: Double, flipY: Bool
    ) -> (scale: Double, translateX: Double, translateY: Double, flipY: Bool)? {
        guard let bounds = strokes.bounds else { return nil }
        let innerWidth = max(1e-6, box.width - 2 * padding - strokeWidth)
        let innerHeight = max(1e-6, box.height - 2 * padding - strokeWidth)
        let scale = min(innerWidth / max(bounds.width, 1e-6), innerHeight / max(bounds.height, 1e-6))
        let drawnWidth = bounds.width * scale
        let drawnHeight = bounds.height * scale
        let x = box.x0 + (box.width - drawnWidth) / 2 - bounds.x0 * scale
        let y =
            flipY
            ? box.y0 + (box.height - drawnHeight) / 2 + bounds.y1 * scale
            : box.y0 + (box.height - drawnHeight) / 2 - bounds.y0 * scale
        return (scale, x, y, flipY)
    }

    /// Appends the strokes to `content`, mapped by `transform` (`x' = x·s + tx`, `y' = ±y·s + ty`).
    public func draw(
        _ strokes: [InkStroke], into content: inout ContentStreamBuilder,
        transform: (scale: Double, translateX: Double, translateY: Double, flipY: Bool) = (1, 0, 0, false)
    ) {
        func map(_ point: InkPoint) -> (x: Double, y: Double) {
            (
                point.x * transform.scale + transform.translateX,
                (transform.flipY ? -point.y : point.y) * transform.scale + transform.translateY
            )
        }
        content.saveState()
        content.setFillColor(color)
        content.setStrokeColor(color)
        content.setLineCap(1)
        content.setLineJoin(1)
        for stroke in strokes where !stroke.points.isEmpty {
            let points = stroke.points.map(map)
            let pressures = stroke.points.map(\.pressure)
            if points.count == 1 || InkPathWriter.isDot(points) {
                // A tap: a round dot.
                let radius =
                    width * (pressures[0].map { minimumWidthFraction + (1 - minimumWidthFraction) * $0 } ?? 1) / 2
                circle(points[0], radius: max(radius, 0.1), into: &content)
                content.fill()
            } else if pressures.allSatisfy({ $0 != nil }) && Set(pressures.map { $0! }).count > 1 {
                outline(
                    points, widths: pressures.map { width * (minimumWidthFraction + (1 - minimumWidthFraction) * $0!) },
                    into: &content)
            } else {
                content.setLineWidth(width)
                InkPathWriter.curve(through: points, into: &content, start: true)
                content.stroke()
            }
        }
        content.restoreState()
    }

    private static func isDot(_ points: [(x: Double, y: Double)]) -> Bool {
        points.allSatisfy { abs($0.x - points[0].x) < 1e-6 && abs($0.y - points[0].y) < 1e-6 }
    }

    /// Catmull-Rom through `points` as cubic Béziers (tension ½: control points a sixth of the
    /// neighbours' difference away).
    static func curve(through points: [(x: Double, y: Double)], into content: inout ContentStreamBuilder, start: Bool) {
        guard let first = points.first else { return }
        if start { content.move(to: first.x, first.y) } else { content.line(to: first.x, first.y) }
        guard points.count > 1 else { return }
        for index in 0..<(points.count - 1) {
            let p0 = points[max(index - 1, 0)]
            let p1 = points[index]
            let p2 = points[index + 1]
            let p3 = points[min(index + 2, points.count - 1)]
            content.curve(
                p1.x + (p2.x - p0.x) / 6, p1.y + (p2.y - p0.y) / 6,
                p2.x - (p3.x - p1.x) / 6, p2.y - (p3.y - p1.y) / 6,
                p2.x, p2.y)
        }
    }

    /// A filled outline around the stroke: points offset along the normals by half the local width
    /// on each side, smoothed the same way, joined by round ends.
    private func outline(_ points: [(x: Double, y: Double)], widths: [Double], into content: inout ContentStreamBuilder)
    {
        var left: [(x: Double, y: Double)] = []
        var right: [(x: Double, y: Double)] = []
        for index in points.indices {
            let previous = points[max(index - 1, 0)]
            let next = points[min(index + 1, points.count - 1)]
            var dx = next.x - previous.x
            var dy = next.y - previous.y
            let length = (dx * dx + dy * dy).squareRoot()
            if length < 1e-9 {
                dx = 1
                dy = 0
            } else {
                dx /= length
                dy /= length
            }
            let half = widths[index] / 2
            left.append((points[index].x - dy * half, points[index].y + dx * half))
            right.append((points[index].x + dy * half, points[index].y - dx * half))
        }
        InkPathWriter.curve(through: left, into: &content, start: true)
        InkPathWriter.curve(through: right.reversed(), into: &content, start: false)
        content.closePath()
        content.fill()
        // Round ends, each filled on its own (a subpath of the other orientation would cut a hole).
        circle(points[0], radius: widths[0] / 2, into: &content)
        content.fill()
        circle(points[points.count - 1], radius: widths[widths.count - 1] / 2, into: &content)
        content.fill()
    }

    /// A circle as four Bézier arcs.
    private func circle(_ center: (x: Double, y: Double), radius: Double, into content: inout ContentStreamBuilder) {
        let k = 0.5523 * radius
        let (x, y) = center
        content.move(to: x + radius, y)
        content.curve(x + radius, y + k, x + k, y + radius, x, y + radius)
        content.curve(x - k, y + radius, x - radius, y + k, x - radius, y)
        content.curve(x - radius, y - k, x - k, y - radius, x, y - radius)
        content.curve(x + k, y - radius, x + radius, y - k, x + radius, y)
        content.closePath()
    }
}
