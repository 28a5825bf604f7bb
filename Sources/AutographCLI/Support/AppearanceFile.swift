import AutographJSON
import PDFAuthoring
import PDFCore
import PDFSigning

/// Reads `--appearance APPEARANCE.json` (docs/appearance.md) and stroke files.
///
/// ```json
/// {"handwriting": [[[10, 20, 0, 0.5], [12, 24, 16, 0.6]]], "yAxisDown": true, "name": "Ada",
///  "showDate": true, "datePattern": "dd.MM.yyyy HH:mm", "description": "Approved",
///  "displayText": "Signed on the tablet", "displayTextPosition": "top", "graphic": "logo.png",
///  "markColor": "#0A1A73", "textColor": "#000000", "markFont": "Helvetica-Oblique", "textFont": "DejaVuSans.ttf",
///  "strokeWidth": 2, "border": true, "markFontSize": 48, "textFontSize": 28, "device": {"model": "Pen 3"}}
/// ```
///
/// The web API's names for the same things (`POST /api/configuration`'s `appearance` and `capture`)
/// are taken too: `signerName`, `dateTimePattern`, `signatureDescription`, `signatureColor`,
/// `signerNameFontSize`, `dateFontSize`. An unknown key, a key given under both its names, or a value
/// of the wrong type or out of range is a usage error naming the key.
enum AppearanceFile {
    /// Each key and the web API's name for it (nil where the web API has none).
    static let keys: [(name: String, webName: String?)] = [
        ("handwriting", nil), ("yAxisDown", nil), ("device", nil), ("name", "signerName"), ("showDate", nil),
        ("datePattern", "dateTimePattern"), ("dateLabel", nil), ("description", "signatureDescription"),
        ("displayText", nil), ("displayTextPosition", nil), ("graphic", nil), ("markColor", "signatureColor"),
        ("textColor", nil), ("markFont", nil), ("textFont", nil), ("strokeWidth", nil), ("border", nil),
        ("markFontSize", "signerNameFontSize"), ("textFontSize", "dateFontSize"),
    ]

    static func read(_ path: String) throws -> (SignatureAppearance, BiometricCapture?) {
        let json = try parseJSON(try readFile(path))
        guard case .object(let members) = json else { throw UsageError("\(path) must hold a JSON object") }
        // One value per key, under either of its names.
        var values: [String: JSONValue] = [:]
        var given: [String: String] = [:]
        for (key, value) in members {
            guard let entry = keys.first(where: { $0.name == key || $0.webName == key }) else {
                let known = keys.map(\.name).joined(separator: ", ")
                throw UsageError("unknown key '\(Console.inline(String(key.prefix(80))))' in \(path) (keys: \(known))")
            }
            guard values[entry.name] == nil else {
                throw UsageError(
                    "\(path) gives '\(entry.name)' twice" + (entry.webName.map { " (or as '\($0)')" } ?? ""))
            }
            values[entry.name] = value
            given[entry.name] = key
        }
        let file = Values(path: path, values: values, given: given)
        var appearance = SignatureAppearance()
        var capture: BiometricCapture? = nil
        if let handwriting = values["handwriting"] {
            let strokes = try strokes(handwriting)
            appearance.mark = .handwriting(strokes, yAxisDown: try file.bool("yAxisDown") ?? true)
            var device: [String: String] = [:]
            if let members = try file.object("device") {
                for (key, value) in members { device[key] = value.stringValue ?? value.serialized() }
            }
            capture = BiometricCapture(strokes: strokes, device: device)
        } else {
            for key in ["yAxisDown", "device"] where values[key] != nil {
                throw UsageError("'\(key)' in \(path) goes with 'handwriting'")
            }
            if case .null? = values["name"] {
                appearance.mark = .none
            } else if let name = try file.string("name") {
                appearance.mark = .name(name)
            }
        }
        if let value = try file.bool("showDate") { appearance.showsDate = value }
        if let pattern = try file.string("datePattern") { appearance.datePattern = DatePattern(pattern) }
        if let label = try file.string("dateLabel") { appearance.dateLabel = label }
        appearance.description = try file.string("description")
        appearance.displayText = try file.string("displayText")
        if let position = try file.string("displayTextPosition") {
            guard let value = SignatureAppearance.TextPosition(rawValue: position) else {
                throw UsageError("'displayTextPosition' in \(path) is \"top\" or \"bottom\"")
            }
            appearance.displayTextPosition = value
        }
        if let graphic = try file.string("graphic") { appearance.graphic = try readFile(graphic) }
        if let color = try file.string("markColor") { appearance.markColor = try Self.color(color) }
        if let color = try file.string("textColor") { appearance.textColor = try Self.color(color) }
        if let font = try file.string("markFont") { appearance.markFont = Self.font(font) }
        if let font = try file.string("textFont") { appearance.textFont = Self.font(font) }
        if let width = try file.number("strokeWidth", in: 0.1...100) { appearance.strokeWidth = width }
        if let value = try file.bool("border") { appearance.drawsBorder = value }
        if let size = try file.number("markFontSize", in: 1...500) { appearance.markFontSize = size }
        if let size = try file.number("textFontSize", in: 1...500) { appearance.textFontSize = size }
        return (appearance, capture)
    }

    /// The values of an appearance file by key, read with their type checked.
    struct Values {
        let path: String
        let values: [String: JSONValue]
        /// The name each key was given under (its own, or the web API's).
        let given: [String: String]

        /// The error for `key`'s value, named as the file gave it.
        func wrong(_ key: String, _ wanted: String) -> UsageError {
            UsageError("'\(given[key] ?? key)' in \(path) must be \(wanted)")
        }

        func bool(_ key: String) throws -> Bool? {
            guard let value = values[key] else { return nil }
            guard let bool = value.boolValue else { throw wrong(key, "true or false") }
            return bool
        }

        /// A string; JSON null is the same as leaving the key out.
        func string(_ key: String) throws -> String? {
            guard let value = values[key], value != .null else { return nil }
            guard let text = value.stringValue else { throw wrong(key, "a string") }
            guard text.utf8.count <= 4096 else { throw wrong(key, "at most 4096 bytes long") }
            return text
        }

        func number(_ key: String, in range: ClosedRange<Double>) throws -> Double? {
            guard let value = values[key] else { return nil }
            guard let number = value.doubleValue, number.isFinite, range.contains(number) else {
                throw wrong(
                    key,
                    "a number from \(PDFReal.format(range.lowerBound, precision: 2)) to "
                        + PDFReal.format(range.upperBound, precision: 2))
            }
            return number
        }

        func object(_ key: String) throws -> [(String, JSONValue)]? {
            guard let value = values[key] else { return nil }
            guard case .object(let members) = value else { throw wrong(key, "an object") }
            return members
        }
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
