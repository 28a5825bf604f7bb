import PDFCore

extension AnnotationAppearance.Context {
    /// At most this many quadrilaterals a text markup annotation.
    static let maxQuads = 5_000
    /// At most this many zigzag segments in all of a Squiggly annotation.
    static let maxSquiggles = 50_000

    /// One quadrilateral of `/QuadPoints`, its corners named as on a line of text.
    struct Quad {
        var upperLeft: PDFPoint
        var upperRight: PDFPoint
        var lowerLeft: PDFPoint
        var lowerRight: PDFPoint

        /// The corners in the order viewers write them (upper left, upper right, lower left, lower
        /// right: Acrobat's, against the counterclockwise order of ISO 32000-2 §12.5.6.10), or in that
        /// counterclockwise order (lower left, lower right, upper right, upper left), told apart as
        /// pdf.js does, by which of the two reads as a quadrilateral rather than a bow tie.
        init(_ p: [PDFPoint]) {
            func area(_ points: [PDFPoint]) -> Double {
                var sum = 0.0
                for index in points.indices {
                    let (a, b) = (points[index], points[(index + 1) % points.count])
                    sum += a.x * b.y - b.x * a.y
                }
                return abs(sum) / 2
            }
            if area([p[0], p[1], p[2], p[3]]) > area([p[0], p[1], p[3], p[2]]) {
                (lowerLeft, lowerRight, upperRight, upperLeft) = (p[0], p[1], p[2], p[3])
            } else {
                (upperLeft, upperRight, lowerLeft, lowerRight) = (p[0], p[1], p[2], p[3])
            }
        }

        /// The distance between the upper and the lower edge, at the left end.
        var height: Double {
            let (dx, dy) = (upperLeft.x - lowerLeft.x, upperLeft.y - lowerLeft.y)
            return (dx * dx + dy * dy).squareRoot()
        }

        /// The unit vector along the text (lower left to lower right), and the one up from it.
        var axes: (along: PDFPoint, up: PDFPoint)? {
            let (dx, dy) = (lowerRight.x - lowerLeft.x, lowerRight.y - lowerLeft.y)
            let length = (dx * dx + dy * dy).squareRoot()
            let (ux, uy) = (upperLeft.x - lowerLeft.x, upperLeft.y - lowerLeft.y)
            let height = (ux * ux + uy * uy).squareRoot()
            guard length > 0, height > 0 else { return nil }
            return (PDFPoint(dx / length, dy / length), PDFPoint(ux / height, uy / height))
        }
    }

    /// Highlight, Underline, StrikeOut and Squiggly (§12.5.6.10) over each quadrilateral of
    /// `/QuadPoints`, in `/C` (a highlight is yellow without one): the highlight filled with rounded
    /// ends and multiplied onto the text, the others stroked one point wide as poppler draws them (the
    /// underline on the lower edge, the strike-out through the middle, the squiggle along the lower
    /// sixth).
    mutating func drawTextMarkup(_ subtype: String) -> Bool {
        guard let values = reader.numbers(.quadPoints, max: Self.maxQuads * 8), values.count >= 8 else { return false }
        let quads = stride(from: 0, through: values.count - 8, by: 8).map { start in
            Quad((0..<4).map { PDFPoint(values[start + 2 * $0], values[start + 2 * $0 + 1]) })
        }
        let highlight = subtype == "Highlight"
        guard builder.color(reader.color(.c) ?? (highlight ? [1, 1, 0] : [0]), stroking: !highlight) else {
            return false
        }
        if !highlight { builder.lineWidth(1) }
        var squiggles = 0
        var drawn = false
        for quad in quads {
            guard let (along, up) = quad.axes else { continue }
            let height = quad.height
            func point(_ base: PDFPoint, _ a: Double, _ u: Double) -> PDFPoint {
                PDFPoint(base.x + along.x * a + up.x * u, base.y + along.y * a + up.y * u)
            }
            switch subtype {
            case "Highlight":
                let bulge = height / 4
                builder.move(quad.lowerLeft)
                builder.curve(
                    point(quad.lowerLeft, -bulge, bulge), point(quad.upperLeft, -bulge, -bulge), quad.upperLeft)
                builder.line(quad.upperRight)
                builder.curve(
                    point(quad.upperRight, bulge, -bulge), point(quad.lowerRight, bulge, bulge), quad.lowerRight)
                builder.close()
            case "Underline":
                builder.move(quad.lowerLeft)
                builder.line(quad.lowerRight)
            case "StrikeOut":
                builder.move(midpoint(quad.lowerLeft, quad.upperLeft))
                builder.line(midpoint(quad.lowerRight, quad.upperRight))
            default:
                // A zigzag between the lower edge and a sixth of the height above it, a step of two points
                // (wider when the budget of segments would run out).
                let (dx, dy) = (quad.lowerRight.x - quad.lowerLeft.x, quad.lowerRight.y - quad.lowerLeft.y)
                let length = (dx * dx + dy * dy).squareRoot()
                let remaining = Self.maxSquiggles - squiggles
                guard remaining > 0 else { continue }
                let step = max(2, length / Double(remaining))
                let amplitude = height / 6
                var x = 0.0
                var raised = true
                builder.move(point(quad.lowerLeft, 0, amplitude))
                while x < length {
                    x = min(length, x + step)
                    raised.toggle()
                    builder.line(point(quad.lowerLeft, x, raised ? amplitude : 0))
                    squiggles += 1
                }
            }
            drawn = true
        }
        guard drawn else { return false }
        builder.paint(fill: highlight, stroke: !highlight)
        return true
    }

    private func midpoint(_ a: PDFPoint, _ b: PDFPoint) -> PDFPoint { PDFPoint((a.x + b.x) / 2, (a.y + b.y) / 2) }
}
