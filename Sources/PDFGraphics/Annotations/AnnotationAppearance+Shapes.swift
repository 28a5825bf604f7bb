import PDFCore

extension AnnotationAppearance.Context {
    /// At most this many points a path (an ink stroke, a polygon's vertices).
    static let maxPointsPerPath = 10_000
    /// At most this many ink strokes.
    static let maxPaths = 1_000
    /// At most this many points in all of an annotation's strokes.
    static let maxPoints = 200_000

    /// Square and Circle (§12.5.6.8): the rectangle or the ellipse inside `/Rect` less `/RD`, inset
    /// by half the border so the stroke stays inside, stroked in `/C` and filled with `/IC`. A cloudy
    /// border (`/BE /S /C`) is drawn plain.
    mutating func drawSquareOrCircle(circle: Bool) -> Bool {
        guard let rect = reader.rect else { return false }
        let shape = reader.insetRect(rect)
        let width = applyBorder()
        let stroke = width > 0 && strokeColor()
        let fill = interiorColor()
        guard stroke || fill else { return false }
        let half = stroke ? width / 2 : 0
        let inner = PDFRectangle(x0: shape.x0 + half, y0: shape.y0 + half, x1: shape.x1 - half, y1: shape.y1 - half)
        guard inner.width > 0, inner.height > 0 else { return false }
        if circle { builder.ellipse(in: inner) } else { builder.rectangle(inner) }
        builder.paint(fill: fill, stroke: stroke)
        builder.include(rect)
        return true
    }

    /// Polygon and PolyLine (§12.5.6.9): `/Vertices` joined by straight lines, the polygon closed and
    /// filled with `/IC`, the polyline's ends drawn as its `/LE` asks.
    mutating func drawPolygon(closed: Bool) -> Bool {
        guard let points = reader.points(reader.resolved(.vertices), max: Self.maxPointsPerPath), points.count >= 2
        else { return false }
        let width = applyBorder()
        let stroke = width > 0 && strokeColor()
        let fill = closed && interiorColor()
        guard stroke || fill else { return false }
        builder.lineJoin(0)
        if closed {
            builder.polygon(points)
            builder.paint(fill: fill, stroke: stroke)
            return true
        }
        builder.move(points[0])
        for point in points.dropFirst() { builder.line(point) }
        builder.paint(fill: false, stroke: true)
        let endings = lineEndings()
        let fillEndings = interiorColor()
        drawEnding(endings.start, at: points[0], from: points[1], width: width, fill: fillEndings)
        drawEnding(
            endings.end, at: points[points.count - 1], from: points[points.count - 2], width: width, fill: fillEndings)
        return true
    }

    /// Ink (§12.5.6.13): each path of `/InkList` stroked in `/C` with round caps and joins, as MuPDF
    /// and pdf.js draw them; a path of one point is a dot.
    mutating func drawInk() -> Bool {
        guard let paths = reader.resolved(.inkList).arrayValue else { return false }
        let width = applyBorder()
        guard width > 0, strokeColor() else { return false }
        builder.lineCap(1)
        builder.lineJoin(1)
        var total = 0
        var drawn = false
        for path in paths.prefix(Self.maxPaths) where total < Self.maxPoints {
            let limit = min(Self.maxPointsPerPath, Self.maxPoints - total)
            guard let points = reader.points(path, max: limit), let first = points.first else { continue }
            total += points.count
            builder.move(first)
            if points.count == 1 { builder.line(first) }
            for point in points.dropFirst() { builder.line(point) }
            drawn = true
        }
        guard drawn else { return false }
        builder.paint(fill: false, stroke: true)
        return true
    }

    /// Line (§12.5.6.7): `/L` stroked in `/C` with the `/LE` endings (closed ones filled with `/IC`),
    /// moved off the points by leader lines when `/LL` is not zero.
    mutating func drawLine() -> Bool {
        guard let values = reader.numbers(.l, max: 4), values.count == 4 else { return false }
        var start = PDFPoint(values[0], values[1])
        var end = PDFPoint(values[2], values[3])
        let (dx, dy) = (end.x - start.x, end.y - start.y)
        let length = (dx * dx + dy * dy).squareRoot()
        guard length > 0 else { return false }
        let width = applyBorder()
        guard width > 0, strokeColor() else { return false }
        let fill = interiorColor()
        // Leader lines: perpendicular to the line, to its left for a positive /LL, as poppler draws them.
        let leader = reader.number(.ll) ?? 0
        if leader != 0 {
            let extensionLength = max(0, reader.number(.lle) ?? 0)
            let offset = max(0, reader.number(.llo) ?? 0)
            let sign: Double = leader > 0 ? 1 : -1
            let normal = PDFPoint(-dy / length * sign, dx / length * sign)
            let shift = offset + abs(leader)
            for point in [start, end] {
                builder.move(PDFPoint(point.x + normal.x * offset, point.y + normal.y * offset))
                let reach = shift + extensionLength
                builder.line(PDFPoint(point.x + normal.x * reach, point.y + normal.y * reach))
            }
            start = PDFPoint(start.x + normal.x * shift, start.y + normal.y * shift)
            end = PDFPoint(end.x + normal.x * shift, end.y + normal.y * shift)
        }
        builder.move(start)
        builder.line(end)
        builder.paint(fill: false, stroke: true)
        let endings = lineEndings()
        drawEnding(endings.start, at: start, from: end, width: width, fill: fill)
        drawEnding(endings.end, at: end, from: start, width: width, fill: fill)
        return true
    }

    /// `/LE`: the names of the two line endings, `None` when absent.
    func lineEndings() -> (start: String, end: String) {
        let names = reader.resolved(.le).arrayValue?.prefix(2).map { reader.document.resolve($0).nameValue?.string }
        return (names?.first.flatMap { $0 } ?? "None", names?.dropFirst().first.flatMap { $0 } ?? "None")
    }

    /// One line ending (§12.5.6.7, Table 179) at `tip`, for the segment that comes from `from`: its size
    /// six times the line width, as poppler draws them, at most half the segment.
    mutating func drawEnding(_ name: String, at tip: PDFPoint, from: PDFPoint, width: Double, fill: Bool) {
        let (dx, dy) = (tip.x - from.x, tip.y - from.y)
        let length = (dx * dx + dy * dy).squareRoot()
        guard length > 0, name != "None" else { return }
        let size = min(6 * width, length / 2)
        guard size > 0 else { return }
        // u points out of the line at this end, v across it.
        let u = PDFPoint(dx / length, dy / length)
        let v = PDFPoint(-u.y, u.x)
        func at(_ along: Double, _ across: Double) -> PDFPoint {
            PDFPoint(tip.x + u.x * along + v.x * across, tip.y + u.y * along + v.y * across)
        }
        builder.margin = max(builder.margin, size)
        let spread = size * 0.57735  // tan 30°
        switch name {
        case "OpenArrow", "ROpenArrow":
            let back = name == "OpenArrow" ? -size : size
            builder.move(at(back, spread))
            builder.line(tip)
            builder.line(at(back, -spread))
            builder.paint(fill: false, stroke: true)
        case "ClosedArrow", "RClosedArrow":
            let back = name == "ClosedArrow" ? -size : size
            builder.polygon([at(back, spread), tip, at(back, -spread)])
            builder.paint(fill: fill, stroke: true)
        case "Square":
            let half = size / 2
            builder.polygon([at(-half, -half), at(half, -half), at(half, half), at(-half, half)])
            builder.paint(fill: fill, stroke: true)
        case "Circle":
            let r = size / 2
            let k = r * 0.55228475
            builder.move(at(r, 0))
            builder.curve(at(r, k), at(k, r), at(0, r))
            builder.curve(at(-k, r), at(-r, k), at(-r, 0))
            builder.curve(at(-r, -k), at(-k, -r), at(0, -r))
            builder.curve(at(k, -r), at(r, -k), at(r, 0))
            builder.close()
            builder.paint(fill: fill, stroke: true)
        case "Diamond":
            let half = size / 2
            builder.polygon([at(half, 0), at(0, half), at(-half, 0), at(0, -half)])
            builder.paint(fill: fill, stroke: true)
        case "Butt":
            builder.move(at(0, size / 2))
            builder.line(at(0, -size / 2))
            builder.paint(fill: false, stroke: true)
        case "Slash":
            // 30° clockwise from the perpendicular (§12.5.6.7): 60° from the line's direction.
            let (c, s) = (0.5, 0.8660254)
            let line = PDFPoint(-u.x, -u.y)  // the line's direction at the end points inward; any sign works
            let direction = PDFPoint(line.x * c - line.y * s, line.x * s + line.y * c)
            let half = size / 2
            builder.move(PDFPoint(tip.x + direction.x * half, tip.y + direction.y * half))
            builder.line(PDFPoint(tip.x - direction.x * half, tip.y - direction.y * half))
            builder.paint(fill: false, stroke: true)
        default:
            break
        }
    }
}
