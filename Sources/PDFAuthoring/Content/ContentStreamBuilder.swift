public import PDFCore

/// Writes content stream operators (ISO 32000-2 §8.2, Annex A) with numbers formatted compactly.
///
/// ```swift
/// var content = ContentStreamBuilder()
/// content.saveState()
/// content.setFillGray(0.9)
/// content.rectangle(0, 0, 100, 20)
/// content.fill()
/// content.restoreState()
/// let stream = PDFStream(data: content.bytes, compress: true)
/// ```
public struct ContentStreamBuilder: Sendable {
    /// The operators written so far.
    public private(set) var bytes: [UInt8] = []

    /// An empty content stream.
    public init() {}

    /// Appends raw content (already valid operators).
    public mutating func append(raw text: String) {
        bytes.append(contentsOf: text.utf8)
        if bytes.last != 0x0A { bytes.append(0x0A) }
    }

    private mutating func op(_ operands: [Double], _ name: String) {
        var line = ""
        for operand in operands {
            line += PDFReal.format(operand, precision: 4)
            line += " "
        }
        line += name
        line += "\n"
        bytes.append(contentsOf: line.utf8)
    }

    // MARK: Graphics state (§8.4)

    /// `q`: saves the graphics state on the stack (§8.4.2).
    public mutating func saveState() { op([], "q") }
    /// `Q`: restores the graphics state last saved with ``saveState()``.
    public mutating func restoreState() { op([], "Q") }
    /// `cm`: concatenates a matrix `[a b c d e f]` to the current transformation.
    public mutating func concatenate(_ a: Double, _ b: Double, _ c: Double, _ d: Double, _ e: Double, _ f: Double) {
        op([a, b, c, d, e, f], "cm")
    }
    /// `w`: the line width, in user space units (§8.4.3.2).
    public mutating func setLineWidth(_ width: Double) { op([width], "w") }
    /// `d`: a dash pattern (empty for solid).
    public mutating func setDash(_ pattern: [Double], phase: Double = 0) {
        let array = "[" + pattern.map { PDFReal.format($0, precision: 4) }.joined(separator: " ") + "]"
        bytes.append(contentsOf: "\(array) \(PDFReal.format(phase, precision: 4)) d\n".utf8)
    }
    /// `J`: the line cap style: 0 butt, 1 round, 2 projecting square (§8.4.3.3).
    public mutating func setLineCap(_ cap: Int) { op([Double(cap)], "J") }
    /// `j`: the line join style: 0 miter, 1 round, 2 bevel (§8.4.3.4).
    public mutating func setLineJoin(_ join: Int) { op([Double(join)], "j") }
    /// `gs`: applies a named graphics state parameter dictionary.
    public mutating func setGraphicsState(_ name: PDFName) { name_op(name, "gs") }

    // MARK: Colour (§8.6)

    /// `g`, `rg` or `k`: the fill colour, in the device colour space of `color` (§8.6.8).
    public mutating func setFillColor(_ color: PDFColor) { colorOperator(color, stroke: false) }
    /// `G`, `RG` or `K`: the stroke colour, in the device colour space of `color` (§8.6.8).
    public mutating func setStrokeColor(_ color: PDFColor) { colorOperator(color, stroke: true) }
    /// `g`: a gray fill colour, from 0 (black) to 1 (white).
    public mutating func setFillGray(_ gray: Double) { op([gray], "g") }

    private mutating func colorOperator(_ color: PDFColor, stroke: Bool) {
        switch color {
        case .gray(let gray): op([gray], stroke ? "G" : "g")
        case .rgb(let red, let green, let blue): op([red, green, blue], stroke ? "RG" : "rg")
        case .cmyk(let cyan, let magenta, let yellow, let black):
            op([cyan, magenta, yellow, black], stroke ? "K" : "k")
        }
    }

    // MARK: Paths (§8.5)

    /// `m`: begins a new subpath at (`x`, `y`) in user space (§8.5.2).
    public mutating func move(to x: Double, _ y: Double) { op([x, y], "m") }
    /// `l`: a straight line from the current point to (`x`, `y`) (§8.5.2).
    public mutating func line(to x: Double, _ y: Double) { op([x, y], "l") }
    /// `c`: a cubic Bézier curve from the current point to (`x3`, `y3`), with control points (`x1`, `y1`) and (`x2`,
    /// `y2`) (§8.5.2.2).
    public mutating func curve(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, _ x3: Double, _ y3: Double) {
        op([x1, y1, x2, y2, x3, y3], "c")
    }
    /// `h`: closes the subpath with a straight line to its start (§8.5.2).
    public mutating func closePath() { op([], "h") }
    /// `re`: a rectangle as a closed subpath, from its lower-left corner (`x`, `y`) with the given width and height in
    /// user space (§8.5.2).
    public mutating func rectangle(_ x: Double, _ y: Double, _ width: Double, _ height: Double) {
        op([x, y, width, height], "re")
    }
    /// `S`: strokes the path (§8.5.3).
    public mutating func stroke() { op([], "S") }
    /// `f`: fills the path with the nonzero winding rule (§8.5.3.3.2).
    public mutating func fill() { op([], "f") }
    /// `f*`: fills the path with the even-odd rule (§8.5.3.3.3).
    public mutating func fillEvenOdd() { op([], "f*") }
    /// `B`: fills the path with the nonzero winding rule, then strokes it (§8.5.3).
    public mutating func fillAndStroke() { op([], "B") }
    /// `W n`: intersects the clipping path with the current path and ends it.
    public mutating func clip() { op([], "W n") }

    // MARK: Text (§9.4)

    /// `BT`: begins a text object, with the text matrix set to the identity (§9.4.1).
    public mutating func beginText() { op([], "BT") }
    /// `ET`: ends a text object (§9.4.1).
    public mutating func endText() { op([], "ET") }
    /// `Tf`: selects font resource `name` at `size`.
    public mutating func setFont(_ name: PDFName, size: Double) {
        bytes.append(contentsOf: (nameText(name) + " ").utf8)
        op([size], "Tf")
    }
    /// `Td`: moves to the start of the next line, offset by (`x`, `y`) in unscaled text space units from the start of
    /// the current one (§9.4.2).
    public mutating func moveText(_ x: Double, _ y: Double) { op([x, y], "Td") }
    /// `Tm`: sets the text matrix and the text line matrix to `[a b c d e f]` (§9.4.2).
    public mutating func setTextMatrix(_ a: Double, _ b: Double, _ c: Double, _ d: Double, _ e: Double, _ f: Double) {
        op([a, b, c, d, e, f], "Tm")
    }
    /// `Tc`: the character spacing, in unscaled text space units added to each glyph's advance (§9.3.2).
    public mutating func setCharacterSpacing(_ spacing: Double) { op([spacing], "Tc") }
    /// `Ts`: the text rise, in unscaled text space units: the baseline moved up (positive) or down (§9.3.7).
    public mutating func setTextRise(_ rise: Double) { op([rise], "Ts") }
    /// `Tr`: the text rendering mode (0 fill, 3 invisible …).
    public mutating func setTextRenderingMode(_ mode: Int) { op([Double(mode)], "Tr") }
    /// `Tj` with the bytes of an encoded string.
    public mutating func showText(_ encoded: [UInt8]) {
        var serializer = PDFSerializer()
        serializer.writeString(PDFString(bytes: encoded, isHex: encoded.contains { $0 < 0x20 || $0 > 0x7E }))
        bytes.append(contentsOf: serializer.output)
        bytes.append(contentsOf: " Tj\n".utf8)
    }

    // MARK: XObjects and marked content (§8.8, §14.6)

    /// `Do`: paints the XObject resource `name`.
    public mutating func drawXObject(_ name: PDFName) { name_op(name, "Do") }
    /// `BMC`: begins a marked-content sequence (`/Tx BMC` around variable text, §12.7.4.3).
    public mutating func beginMarkedContent(_ tag: PDFName) { name_op(tag, "BMC") }
    /// `EMC`: ends the marked-content sequence begun by ``beginMarkedContent(_:)`` (§14.6).
    public mutating func endMarkedContent() { op([], "EMC") }

    private mutating func name_op(_ name: PDFName, _ operator: String) {
        bytes.append(contentsOf: (nameText(name) + " " + `operator` + "\n").utf8)
    }

    private func nameText(_ name: PDFName) -> String {
        var serializer = PDFSerializer()
        serializer.writeName(name)
        return String(decoding: serializer.output, as: UTF8.self)
    }
}

/// A colour in one of the device colour spaces (ISO 32000-2 §8.6.4).
public enum PDFColor: Hashable, Sendable, Codable {
    /// A `/DeviceGray` colour: 0 black to 1 white.
    case gray(Double)
    /// A `/DeviceRGB` colour: red, green and blue, each from 0 to 1.
    case rgb(Double, Double, Double)
    /// A `/DeviceCMYK` colour: cyan, magenta, yellow and black, each from 0 to 1.
    case cmyk(Double, Double, Double, Double)

    /// A colour from the numbers of a `/MK /BC` or `/BG` array: 1 gray, 3 RGB, 4 CMYK; nil for 0 (transparent).
    public init?(components: [Double]) {
        switch components.count {
        case 1: self = .gray(components[0])
        case 3: self = .rgb(components[0], components[1], components[2])
        case 4: self = .cmyk(components[0], components[1], components[2], components[3])
        default: return nil
        }
    }

    /// Black, as `/DeviceGray` 0.
    public static let black = PDFColor.gray(0)
    /// White, as `/DeviceGray` 1.
    public static let white = PDFColor.gray(1)
}
