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

    public mutating func saveState() { op([], "q") }
    public mutating func restoreState() { op([], "Q") }
    /// `cm`: concatenates a matrix `[a b c d e f]` to the current transformation.
    public mutating func concatenate(_ a: Double, _ b: Double, _ c: Double, _ d: Double, _ e: Double, _ f: Double) {
        op([a, b, c, d, e, f], "cm")
    }
    public mutating func setLineWidth(_ width: Double) { op([width], "w") }
    /// `d`: a dash pattern (empty for solid).
    public mutating func setDash(_ pattern: [Double], phase: Double = 0) {
        let array = "[" + pattern.map { PDFReal.format($0, precision: 4) }.joined(separator: " ") + "]"
        bytes.append(contentsOf: "\(array) \(PDFReal.format(phase, precision: 4)) d\n".utf8)
    }
    public mutating func setLineCap(_ cap: Int) { op([Double(cap)], "J") }
    public mutating func setLineJoin(_ join: Int) { op([Double(join)], "j") }
    /// `gs`: applies a named graphics state parameter dictionary.
    public mutating func setGraphicsState(_ name: PDFName) { name_op(name, "gs") }

    // MARK: Colour (§8.6)

    public mutating func setFillColor(_ color: PDFColor) { colorOperator(color, stroke: false) }
    public mutating func setStrokeColor(_ color: PDFColor) { colorOperator(color, stroke: true) }
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

    public mutating func move(to x: Double, _ y: Double) { op([x, y], "m") }
    public mutating func line(to x: Double, _ y: Double) { op([x, y], "l") }
    public mutating func curve(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, _ x3: Double, _ y3: Double) {
        op([x1, y1, x2, y2, x3, y3], "c")
    }
    public mutating func closePath() { op([], "h") }
    public mutating func rectangle(_ x: Double, _ y: Double, _ width: Double, _ height: Double) {
        op([x, y, width, height], "re")
    }
    public mutating func stroke() { op([], "S") }
    public mutating func fill() { op([], "f") }
    public mutating func fillEvenOdd() { op([], "f*") }
    public mutating func fillAndStroke() { op([], "B") }
    /// `W n`: intersects the clipping path with the current path and ends it.
    public mutating func clip() { op([], "W n") }

    // MARK: Text (§9.4)

    public mutating func beginText() { op([], "BT") }
    public mutating func endText() { op([], "ET") }
    /// `Tf`: selects font resource `name` at `size`.
    public mutating func setFont(_ name: PDFName, size: Double) {
        bytes.append(contentsOf: (nameText(name) + " ").utf8)
        op([size], "Tf")
    }
    public mutating func moveText(_ x: Double, _ y: Double) { op([x, y], "Td") }
    public mutating func setTextMatrix(_ a: Double, _ b: Double, _ c: Double, _ d: Double, _ e: Double, _ f: Double) {
        op([a, b, c, d, e, f], "Tm")
    }
    public mutating func setCharacterSpacing(_ spacing: Double) { op([spacing], "Tc") }
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
    case gray(Double)
    case rgb(Double, Double, Double)
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

    public static let black = PDFColor.gray(0)
    public static let white = PDFColor.gray(1)
}
