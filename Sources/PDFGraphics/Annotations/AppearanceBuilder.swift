import PDFCore

/// Writes the content stream of a generated annotation appearance, in default user space, and
/// keeps the bounds of what it draws (every point, widened by the widest stroke), which become the
/// form's `/BBox`.
///
/// Coordinates are written with at most three decimals; callers pass only finite numbers that
/// ``AnnotationReader`` accepted, so nothing here can grow without bound.
struct AppearanceBuilder {
    private(set) var bytes: [UInt8] = []
    /// The points drawn so far, nil before the first.
    private(set) var pointBounds: PDFRectangle? = nil
    /// The widest line width set so far.
    private(set) var widestLine = 0.0
    /// Extra room around the points: line endings, text.
    var margin = 0.0

    /// The area drawn: the points, widened by the strokes (a miter can reach five widths out).
    var bounds: PDFRectangle? {
        guard let box = pointBounds else { return nil }
        let pad = widestLine * 5 + margin + 1
        return PDFRectangle(x0: box.x0 - pad, y0: box.y0 - pad, x1: box.x1 + pad, y1: box.y1 + pad)
    }

    // MARK: Writing

    mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
        bytes.append(0x0A)
    }

    static func format(_ value: Double) -> String { PDFReal.format(value, precision: 3) }

    private mutating func operation(_ numbers: [Double], _ name: String) {
        append((numbers.map(Self.format) + [name]).joined(separator: " "))
    }

    /// Counts `point` in the bounds without drawing it.
    mutating func include(_ point: PDFPoint) {
        let x = point.x
        let y = point.y
        guard let box = pointBounds else {
            pointBounds = PDFRectangle(x0: x, y0: y, x1: x, y1: y)
            return
        }
        pointBounds = PDFRectangle(x0: min(box.x0, x), y0: min(box.y0, y), x1: max(box.x1, x), y1: max(box.y1, y))
    }

    mutating func include(_ rect: PDFRectangle) {
        include(PDFPoint(rect.x0, rect.y0))
        include(PDFPoint(rect.x1, rect.y1))
    }

    // MARK: Graphics state

    mutating func save() { append("q") }
    mutating func restore() { append("Q") }

    mutating func lineWidth(_ width: Double) {
        widestLine = max(widestLine, width)
        operation([width], "w")
    }

    /// `J`: 0 butt, 1 round, 2 square.
    mutating func lineCap(_ cap: Int) { append("\(cap) J") }
    /// `j`: 0 miter, 1 round, 2 bevel.
    mutating func lineJoin(_ join: Int) { append("\(join) j") }

    mutating func dash(_ lengths: [Double]) {
        append("[" + lengths.map(Self.format).joined(separator: " ") + "] 0 d")
    }

    /// Sets the stroking or non-stroking colour from 1 (grey), 3 (RGB) or 4 (CMYK) components; false
    /// for no colour (an empty array: transparent).
    @discardableResult
    mutating func color(_ components: [Double], stroking: Bool) -> Bool {
        switch components.count {
        case 1: operation(components, stroking ? "G" : "g")
        case 3: operation(components, stroking ? "RG" : "rg")
        case 4: operation(components, stroking ? "K" : "k")
        default: return false
        }
        return true
    }

    mutating func graphicsState(_ name: String) { append("/\(name) gs") }

    // MARK: Paths

    mutating func move(_ point: PDFPoint) {
        include(point)
        operation([point.x, point.y], "m")
    }

    mutating func line(_ point: PDFPoint) {
        include(point)
        operation([point.x, point.y], "l")
    }

    mutating func curve(_ c1: PDFPoint, _ c2: PDFPoint, _ end: PDFPoint) {
        include(c1)
        include(c2)
        include(end)
        operation([c1.x, c1.y, c2.x, c2.y, end.x, end.y], "c")
    }

    mutating func close() { append("h") }

    mutating func rectangle(_ rect: PDFRectangle) {
        include(rect)
        operation([rect.x0, rect.y0, rect.width, rect.height], "re")
    }

    /// A polygon through `points`, closed.
    mutating func polygon(_ points: [PDFPoint]) {
        guard let first = points.first else { return }
        move(first)
        for point in points.dropFirst() { line(point) }
        close()
    }

    /// An ellipse inscribed in `rect`, as four Bézier arcs (the control points at 0.5523 of the radii).
    mutating func ellipse(in rect: PDFRectangle) {
        let k = 0.55228475
        let (cx, cy) = ((rect.x0 + rect.x1) / 2, (rect.y0 + rect.y1) / 2)
        let (rx, ry) = (rect.width / 2, rect.height / 2)
        move(PDFPoint(cx + rx, cy))
        curve(PDFPoint(cx + rx, cy + k * ry), PDFPoint(cx + k * rx, cy + ry), PDFPoint(cx, cy + ry))
        curve(PDFPoint(cx - k * rx, cy + ry), PDFPoint(cx - rx, cy + k * ry), PDFPoint(cx - rx, cy))
        curve(PDFPoint(cx - rx, cy - k * ry), PDFPoint(cx - k * rx, cy - ry), PDFPoint(cx, cy - ry))
        curve(PDFPoint(cx + k * rx, cy - ry), PDFPoint(cx + rx, cy - k * ry), PDFPoint(cx + rx, cy))
        close()
    }

    /// A rectangle with corners rounded by `radius`.
    mutating func roundedRectangle(_ rect: PDFRectangle, radius: Double) {
        let r = max(0, min(radius, rect.width / 2, rect.height / 2))
        guard r > 0 else { return rectangle(rect) }
        let k = r * (1 - 0.55228475)
        move(PDFPoint(rect.x0 + r, rect.y0))
        line(PDFPoint(rect.x1 - r, rect.y0))
        curve(PDFPoint(rect.x1 - k, rect.y0), PDFPoint(rect.x1, rect.y0 + k), PDFPoint(rect.x1, rect.y0 + r))
        line(PDFPoint(rect.x1, rect.y1 - r))
        curve(PDFPoint(rect.x1, rect.y1 - k), PDFPoint(rect.x1 - k, rect.y1), PDFPoint(rect.x1 - r, rect.y1))
        line(PDFPoint(rect.x0 + r, rect.y1))
        curve(PDFPoint(rect.x0 + k, rect.y1), PDFPoint(rect.x0, rect.y1 - k), PDFPoint(rect.x0, rect.y1 - r))
        line(PDFPoint(rect.x0, rect.y0 + r))
        curve(PDFPoint(rect.x0, rect.y0 + k), PDFPoint(rect.x0 + k, rect.y0), PDFPoint(rect.x0 + r, rect.y0))
        close()
    }

    /// Paints the path: filled and stroked (`B`), filled (`f`), stroked (`S`) or dropped (`n`).
    mutating func paint(fill: Bool, stroke: Bool) {
        switch (fill, stroke) {
        case (true, true): append("B")
        case (true, false): append("f")
        case (false, true): append("S")
        case (false, false): append("n")
        }
    }

    // MARK: Text

    /// One line of text: `BT`, the font, the matrix, the string, `ET`.
    mutating func text(
        _ encoded: [UInt8], font: String, size: Double, matrix: PDFMatrix, horizontalScaling: Double = 100
    ) {
        append("BT")
        append("/\(font) \(Self.format(size)) Tf")
        if horizontalScaling != 100 { operation([horizontalScaling], "Tz") }
        operation([matrix.a, matrix.b, matrix.c, matrix.d, matrix.e, matrix.f], "Tm")
        var literal = "<"
        let digits = Array("0123456789ABCDEF".utf8)
        var hex: [UInt8] = []
        hex.reserveCapacity(encoded.count * 2)
        for byte in encoded {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 0x0F)])
        }
        literal += String(decoding: hex, as: UTF8.self) + "> Tj"
        append(literal)
        append("ET")
    }
}
