import PDFAuthoring
import PDFCore

/// A field's default appearance string `/DA` (ISO 32000-2 §12.7.4.3): the font resource name and
/// size, and the text colour, e.g. `/Helv 0 Tf 0 g`.
struct DefaultAppearance: Equatable {
    /// The font resource name (`/Helv`), looked up in `/DR /Font`.
    var fontName: PDFName?
    /// The font size; 0 means "auto": fit the field.
    var fontSize: Double
    var color: PDFColor

    init(fontName: PDFName? = nil, fontSize: Double = 0, color: PDFColor = .black) {
        self.fontName = fontName
        self.fontSize = fontSize
        self.color = color
    }

    /// Parses the operators of a `/DA` string; unknown operators are ignored, missing parts default
    /// (no font, auto size, black).
    init(_ text: String?) {
        self.init()
        guard let text else { return }
        let bytes = Array(text.utf8)
        var operands: [PDFObject] = []
        bytes.withUnsafeBytes { buffer in
            var lexer = Lexer(buffer)
            while true {
                switch lexer.next() {
                case .end: return
                case .integer(let value): operands.append(.integer(value))
                case .real(let value): operands.append(.real(value))
                case .name(let name): operands.append(.name(name))
                case .keyword(let keyword):
                    apply(keyword.description, operands)
                    operands.removeAll()
                default: operands.removeAll()
                }
            }
        }
    }

    private mutating func apply(_ operator: String, _ operands: [PDFObject]) {
        let numbers = operands.compactMap(\.numberValue)
        switch `operator` {
        case "Tf":
            if operands.count >= 2, let name = operands[operands.count - 2].nameValue {
                fontName = name
                fontSize = max(0, operands[operands.count - 1].numberValue ?? 0)
            }
        case "g": if numbers.count == 1 { color = .gray(numbers[0]) }
        case "rg": if numbers.count == 3 { color = .rgb(numbers[0], numbers[1], numbers[2]) }
        case "k": if numbers.count == 4 { color = .cmyk(numbers[0], numbers[1], numbers[2], numbers[3]) }
        default: break
        }
    }

    /// The `/DA` text for these values.
    var text: String {
        var parts: [String] = []
        if let fontName { parts.append("/\(fontName.string) \(PDFReal.format(fontSize)) Tf") }
        switch color {
        case .gray(let gray): parts.append("\(PDFReal.format(gray)) g")
        case .rgb(let red, let green, let blue):
            parts.append("\(PDFReal.format(red)) \(PDFReal.format(green)) \(PDFReal.format(blue)) rg")
        case .cmyk(let c, let m, let y, let k):
            parts.append("\(PDFReal.format(c)) \(PDFReal.format(m)) \(PDFReal.format(y)) \(PDFReal.format(k)) k")
        }
        return parts.joined(separator: " ")
    }
}
