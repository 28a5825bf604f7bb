import AutographJSON
import PDFAuthoring
import PDFCore
import PDFSigning

/// Reads `--appearance APPEARANCE.json` and stroke files.
///
/// ```json
/// {"handwriting": [[[10, 20, 0, 0.5], [12, 24, 16, 0.6]]], "yAxisDown": true, "name": "Ada",
///  "showDate": true, "datePattern": "dd.MM.yyyy HH:mm", "description": "Approved",
///  "displayText": "Signed on the tablet", "displayTextPosition": "top", "graphic": "logo.png",
///  "markColor": "#0A1A73", "textColor": "#000000", "markFont": "Helvetica-Oblique", "textFont": "DejaVuSans.ttf",
///  "strokeWidth": 2, "border": true, "markFontSize": 48, "textFontSize": 28, "device": {"model": "Pen 3"}}
/// ```
enum AppearanceFile {
    static func read(_ path: String, utcOffsetMinutes: Int = 0) throws -> (SignatureAppearance, BiometricCapture?) {
        let json = try parseJSON(try readFile(path))
        var appearance = SignatureAppearance()
        var capture: BiometricCapture? = nil
        if let handwriting = json["handwriting"] {
            let strokes = try strokes(handwriting)
            let yAxisDown: Bool
            if case .bool(let value)? = json["yAxisDown"] { yAxisDown = value } else { yAxisDown = true }
            appearance.mark = .handwriting(strokes, yAxisDown: yAxisDown)
            var device: [String: String] = [:]
            if case .object(let members)? = json["device"] {
                for (key, value) in members { device[key] = value.stringValue ?? value.serialized() }
            }
            capture = BiometricCapture(strokes: strokes, device: device)
        } else if let name = json["name"]?.stringValue {
            appearance.mark = .name(name)
        } else if case .null? = json["name"] {
            appearance.mark = .none
        }
        if case .bool(let value)? = json["showDate"] { appearance.showsDate = value }
        if let pattern = json["datePattern"]?.stringValue { appearance.datePattern = DatePattern(pattern) }
        if let label = json["dateLabel"]?.stringValue { appearance.dateLabel = label }
        appearance.description = json["description"]?.stringValue
        appearance.displayText = json["displayText"]?.stringValue
        if let position = json["displayTextPosition"]?.stringValue {
            guard let value = SignatureAppearance.TextPosition(rawValue: position) else {
                throw UsageError("displayTextPosition is top or bottom")
            }
            appearance.displayTextPosition = value
        }
        if let graphic = json["graphic"]?.stringValue { appearance.graphic = try readFile(graphic) }
        if let color = json["markColor"]?.stringValue { appearance.markColor = try Self.color(color) }
        if let color = json["textColor"]?.stringValue { appearance.textColor = try Self.color(color) }
        if let font = json["markFont"]?.stringValue { appearance.markFont = Self.font(font) }
        if let font = json["textFont"]?.stringValue { appearance.textFont = Self.font(font) }
        if case .double(let width)? = json["strokeWidth"] { appearance.strokeWidth = width }
        if let width = json["strokeWidth"]?.intValue { appearance.strokeWidth = Double(width) }
        if case .bool(let value)? = json["border"] { appearance.drawsBorder = value }
        if let size = json["markFontSize"]?.doubleValue { appearance.markFontSize = size }
        if let size = json["textFontSize"]?.doubleValue { appearance.textFontSize = size }
        return (appearance, capture)
    }

    /// `[[[x, y], …], …]` or `[[[x, y, t, pressure], …], …]`.
    static func strokes(_ json: JSONValue) throws -> [InkStroke] {
        guard let list = json.arrayValue else { throw UsageError("strokes are an array of strokes") }
        return try list.map { stroke in
            guard let points = stroke.arrayValue else { throw UsageError("a stroke is an array of points") }
            return InkStroke(
                try points.map { point in
                    let numbers = point.arrayValue?.compactMap(\.doubleValue) ?? []
                    guard let value = InkPoint(numbers) else {
                        throw UsageError("a point is [x, y] or [x, y, t, pressure]")
                    }
                    return value
                })
        }
    }

    /// `#RRGGBB`.
    static func color(_ text: String) throws -> PDFColor {
        let digits = text.hasPrefix("#") ? String(text.dropFirst()) : text
        guard digits.count == 6, let value = Int(digits, radix: 16) else {
            throw UsageError("a colour is #RRGGBB, not \(text)")
        }
        return .rgb(Double(value >> 16 & 0xFF) / 255, Double(value >> 8 & 0xFF) / 255, Double(value & 0xFF) / 255)
    }

    static func font(_ text: String) -> SignatureAppearance.FontChoice {
        text.hasSuffix(".ttf") || text.hasSuffix(".otf") || text.hasSuffix(".ttc") ? .file(text) : .standard(text)
    }
}
