import PDFCore

/// Reads the entries of an annotation dictionary that an appearance is drawn from, distrusting
/// every number: a value that is not finite or lies beyond ±``limit`` is refused, arrays are cut to
/// the counts an appearance needs, widths and opacities are clamped.
struct AnnotationReader {
    let dictionary: PDFDictionary
    let document: PDFDocument

    /// The largest coordinate accepted (a page is at most 14,400 units wide, §14.11.2; UserUnit aside).
    static let limit = 1_000_000.0
    /// The widest border drawn.
    static let maxBorderWidth = 200.0

    func resolved(_ key: PDFName) -> PDFObject { document.resolve(dictionary[key] ?? .null) }

    /// A finite number within ±``limit``, or nil.
    func number(_ object: PDFObject) -> Double? {
        guard let value = document.resolve(object).numberValue, value.isFinite, abs(value) <= Self.limit else {
            return nil
        }
        return value
    }

    func number(_ key: PDFName) -> Double? { number(resolved(key)) }

    /// The numbers of an array, at most `max` of them; nil when one is not a usable number.
    func numbers(_ object: PDFObject, max: Int) -> [Double]? {
        guard let items = document.resolve(object).arrayValue else { return nil }
        var values: [Double] = []
        values.reserveCapacity(Swift.min(items.count, max))
        for item in items.prefix(max) {
            guard let value = number(item) else { return nil }
            values.append(value)
        }
        return values
    }

    func numbers(_ key: PDFName, max: Int) -> [Double]? { numbers(resolved(key), max: max) }

    /// Pairs of numbers as points, at most `max` points (an odd last number is dropped).
    func points(_ object: PDFObject, max: Int) -> [PDFPoint]? {
        guard let values = numbers(object, max: max * 2) else { return nil }
        return stride(from: 0, to: values.count - 1, by: 2).map { PDFPoint(values[$0], values[$0 + 1]) }
    }

    /// `/Rect`, normalized; nil unless four usable numbers.
    var rect: PDFRectangle? {
        guard let values = numbers(.rect, max: 4), values.count == 4 else { return nil }
        return PDFRectangle(x0: values[0], y0: values[1], x1: values[2], y1: values[3])
    }

    /// A colour array: 0 components (transparent), 1 (grey), 3 (RGB) or 4 (CMYK), each clamped to
    /// 0…1; nil when absent or of another length.
    func color(_ key: PDFName) -> [Double]? {
        guard let values = numbers(key, max: 5), [0, 1, 3, 4].contains(values.count) else { return nil }
        return values.map { Swift.max(0, Swift.min(1, $0)) }
    }

    /// `/CA`, the constant opacity of the whole annotation (§12.5.6.2), 1 by default.
    var opacity: Double {
        guard let value = number(.ca) else { return 1 }
        return Swift.max(0, Swift.min(1, value))
    }

    /// The border: `/BS` width and dash (§12.5.4), else the `/Border` array (§12.5.2), else 1 point
    /// solid. A negative or unusable width is the default.
    var border: (width: Double, dash: [Double]) {
        var width = 1.0
        var dash: [Double] = []
        if let style = resolved(.bs).dictionaryValue {
            let styleReader = AnnotationReader(dictionary: style, document: document)
            if let value = styleReader.number(.w), value >= 0 { width = value }
            if styleReader.resolved(.s).nameValue?.string == "D" {
                dash = styleReader.numbers(.d, max: 16) ?? [3]
                if dash.isEmpty { dash = [3] }
            }
        } else if let array = resolved(.border).arrayValue, array.count >= 3 {
            if let value = number(array[2]), value >= 0 { width = value }
            if array.count >= 4, let pattern = numbers(array[3], max: 16) { dash = pattern }
        }
        dash = dash.map { Swift.min(abs($0), 1000) }
        if dash.allSatisfy({ $0 == 0 }) { dash = [] }
        return (Swift.min(width, Self.maxBorderWidth), dash)
    }

    /// `/RD`: the insets of the drawn shape from `/Rect` (left, top, right, bottom), none when
    /// absent, negative or leaving nothing (§12.5.6.8).
    func insetRect(_ rect: PDFRectangle) -> PDFRectangle {
        guard let values = numbers(.rd, max: 4), values.count == 4, values.allSatisfy({ $0 >= 0 }),
            values[0] + values[2] < rect.width, values[1] + values[3] < rect.height
        else { return rect }
        return PDFRectangle(
            x0: rect.x0 + values[0], y0: rect.y0 + values[3], x1: rect.x1 - values[2], y1: rect.y1 - values[1])
    }

    /// A name entry's string.
    func name(_ key: PDFName) -> String? { resolved(key).nameValue?.string }

    /// A text string entry, at most `max` characters.
    func text(_ key: PDFName, max: Int) -> String? {
        guard let string = resolved(key).stringValue else { return nil }
        // At most four bytes a character are read: a huge string is not decoded whole.
        let text = PDFString(bytes: Array(string.bytes.prefix(max * 4))).text
        return String(text.prefix(max))
    }
}
