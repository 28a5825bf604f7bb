import AutographJSON
import PDFAuthoring
import PDFCore

/// Numbers from a request, checked before any conversion or arithmetic: finite, whole where a whole
/// number is meant, and in the range their meaning allows. Anything else is `400` naming the field,
/// so no number from outside can reach an `Int(…)` that traps or a `+ 1` that overflows.
enum CheckedInput {
    /// The query parameter `name` as a finite number in `range`; nil when absent.
    static func number(_ query: [String: String], _ name: String, in range: ClosedRange<Double>) throws(WebError)
        -> Double?
    {
        guard let text = query[name] else { return nil }
        guard let value = Double(text), value.isFinite else {
            throw WebError.badRequest("\(name) must be a number", member: name)
        }
        guard range.contains(value) else { throw outOfRange(name, range.lowerBound, range.upperBound) }
        return value
    }

    /// The query parameter `name` as a whole number in `range`; nil when absent.
    static func integer(_ query: [String: String], _ name: String, in range: ClosedRange<Int>) throws(WebError)
        -> Int?
    {
        guard let text = query[name] else { return nil }
        return try integer(Double(text), name, in: range)
    }

    /// A JSON member as a whole number in `range`; nil when absent.
    static func integer(_ body: JSONValue, _ name: String, in range: ClosedRange<Int>) throws(WebError) -> Int? {
        guard let member = body[name], member != .null else { return nil }
        if case .int(let value) = member {
            guard range.contains(value) else {
                throw outOfRange(name, Double(range.lowerBound), Double(range.upperBound))
            }
            return value
        }
        return try integer(member.doubleValue, name, in: range)
    }

    /// A JSON member that must be there, as a whole number in `range`.
    static func requiredInteger(_ body: JSONValue, _ name: String, in range: ClosedRange<Int>) throws(WebError)
        -> Int
    {
        guard let value = try integer(body, name, in: range) else {
            throw WebError.badRequest("\"\(name)\" is missing", member: name)
        }
        return value
    }

    /// A page index (from 0) of a document of `pageCount` pages, from the JSON member `name`.
    static func pageIndex(_ body: JSONValue, _ name: String = "page", pageCount: Int) throws(WebError) -> Int {
        guard let member = body[name], member != .null else {
            throw WebError.badRequest("\"\(name)\" is missing", member: name)
        }
        guard let number = member.doubleValue, number.isFinite, number.rounded() == number else {
            throw WebError.badRequest("\"\(name)\" must be a whole number", member: name)
        }
        guard pageCount > 0, number >= 0, number < Double(pageCount) else {
            // The number as given (1e300 has no Int to name it by).
            throw WebError.badRequest(
                "\"\(name)\": page index \(member.serialized()) does not exist: "
                    + PageIndexCheck.validIndices(pageCount: pageCount), member: name)
        }
        return Int(number)
    }

    /// `[x0, y0, x1, y1]` in PDF user space with `x0 < x1`, `y0 < y1`, inside `bounds` (a page's crop
    /// box; half a point of rounding allowed).
    static func rectangle(_ body: JSONValue, _ name: String = "rect", within bounds: PDFRectangle) throws(WebError)
        -> PDFRectangle
    {
        guard let items = body[name]?.arrayValue, items.count == 4 else {
            throw WebError.badRequest("\"\(name)\" must be [x0, y0, x1, y1]", member: name)
        }
        let numbers = items.compactMap(\.doubleValue)
        guard numbers.count == 4, numbers.allSatisfy(\.isFinite) else {
            throw WebError.badRequest("\"\(name)\" must hold four finite numbers", member: name)
        }
        let rect = PDFRectangle(x0: numbers[0], y0: numbers[1], x1: numbers[2], y1: numbers[3])
        guard rect.x0 < rect.x1, rect.y0 < rect.y1 else {
            throw WebError.badRequest("\"\(name)\" must have x0 < x1 and y0 < y1", member: name)
        }
        guard rect.x0 >= bounds.x0 - 0.5, rect.y0 >= bounds.y0 - 0.5, rect.x1 <= bounds.x1 + 0.5,
            rect.y1 <= bounds.y1 + 0.5
        else { throw WebError.badRequest("\"\(name)\" \(rect) is not inside the page \(bounds)", member: name) }
        return rect
    }

    /// `[[{"x", "y", "t"?, "p"?}, …], …]` with every point finite and inside `area` (the capture
    /// pad's or the page's), times from 0, pressures from 0 to 1, at most
    /// `[InkStroke].maximumPointCount` points.
    static func strokes(_ body: JSONValue, _ name: String = "strokes", within area: PDFRectangle) throws(WebError)
        -> [InkStroke]
    {
        guard let list = body[name]?.arrayValue else {
            throw WebError.badRequest("\"\(name)\" must be lists of {\"x\", \"y\"} points", member: name)
        }
        guard list.count <= [InkStroke].maximumStrokeCount else {
            throw WebError.badRequest(
                "\"\(name)\" holds more than \([InkStroke].maximumStrokeCount) strokes", member: name)
        }
        var strokes: [InkStroke] = []
        var count = 0
        for item in list {
            guard let points = item.arrayValue else {
                throw WebError.badRequest("\"\(name)\" must be lists of {\"x\", \"y\"} points", member: name)
            }
            count += points.count
            guard count <= [InkStroke].maximumPointCount else {
                throw WebError.badRequest(
                    "\"\(name)\" holds more than \([InkStroke].maximumPointCount) points", member: name)
            }
            var stroke: [InkPoint] = []
            stroke.reserveCapacity(points.count)
            for point in points {
                guard let x = point["x"]?.doubleValue, let y = point["y"]?.doubleValue else {
                    throw WebError.badRequest("every point of \"\(name)\" needs numbers \"x\" and \"y\"", member: name)
                }
                let time = point["t"].flatMap { $0 == .null ? nil : $0 }
                let pressure = point["p"].flatMap { $0 == .null ? nil : $0 }
                guard time == nil || time?.doubleValue != nil, pressure == nil || pressure?.doubleValue != nil else {
                    throw WebError.badRequest("\"t\" and \"p\" of \"\(name)\" must be numbers", member: name)
                }
                stroke.append(InkPoint(x: x, y: y, time: time?.doubleValue, pressure: pressure?.doubleValue))
            }
            strokes.append(InkStroke(stroke))
        }
        if let problem = strokes.problem(within: area) {
            throw WebError.badRequest("\"\(name)\": \(problem)", member: name)
        }
        return strokes
    }

    // MARK: - Strings

    /// Which characters a text may hold besides printable ones.
    enum Lines {
        /// None: a name, an id, a display text on one line.
        case none
        /// Line feeds, carriage returns and tabs: a multiline field's value.
        case allowed
    }

    /// The longest name of a field or a signature field (UTF-8 bytes).
    static let maxNameBytes = 1024
    /// The longest text value of a field that sets no `/MaxLen` (UTF-8 bytes).
    static let maxValueBytes = 64 * 1024
    /// The most items of a list (a list box's values, photo field names).
    static let maxListItems = 1000

    /// The JSON member `name` as a string of at most `maxBytes` UTF-8 bytes without control
    /// characters (but the line breaks `lines` allows); nil when absent or null. The length is
    /// checked before anything else is done with the text.
    static func text(
        _ body: JSONValue, _ name: String, maxBytes: Int, lines: Lines = .none, required: Bool = false
    ) throws(WebError) -> String? {
        guard let member = body[name], member != .null else {
            if required { throw WebError.badRequest("\"\(name)\" is missing", member: name) }
            return nil
        }
        guard case .string(let text) = member else {
            throw WebError.badRequest("\"\(name)\" must be a string", member: name)
        }
        return try checked(text, name, maxBytes: maxBytes, lines: lines)
    }

    /// `text` (named `name` in the error) if it has at most `maxBytes` UTF-8 bytes and no control
    /// character but the line breaks `lines` allows.
    static func checked(_ text: String, _ name: String, maxBytes: Int, lines: Lines = .none) throws(WebError)
        -> String
    {
        guard text.utf8.count <= maxBytes else {
            throw WebError.badRequest(
                "\"\(name)\" has \(text.utf8.count) bytes; at most \(maxBytes) are allowed", member: name)
        }
        let control = text.unicodeScalars.first { scalar in
            guard scalar.properties.generalCategory == .control else { return false }
            return lines == .none || !(scalar == "\n" || scalar == "\r" || scalar == "\t")
        }
        if let control {
            throw WebError.badRequest(
                "\"\(name)\" holds the control character U+\(String(control.value, radix: 16, uppercase: true))",
                member: name)
        }
        return text
    }

    private static func integer(_ value: Double?, _ name: String, in range: ClosedRange<Int>) throws(WebError) -> Int {
        guard let value, value.isFinite, value.rounded() == value else {
            throw WebError.badRequest("\(name) must be a whole number", member: name)
        }
        // Beyond ±2⁶³ no Int holds it (and Int(value) would trap): refused before converting.
        guard abs(value) < 0x1p63 else { throw outOfRange(name, Double(range.lowerBound), Double(range.upperBound)) }
        guard range.contains(Int(value)) else {
            throw outOfRange(name, Double(range.lowerBound), Double(range.upperBound))
        }
        return Int(value)
    }

    private static func outOfRange(_ name: String, _ lower: Double, _ upper: Double) -> WebError {
        WebError.badRequest(
            "\(name) must be from \(JSONValue.double(lower).serialized()) to \(JSONValue.double(upper).serialized())",
            member: name)
    }
}
