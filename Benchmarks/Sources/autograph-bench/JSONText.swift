/// A JSON value to write (the verify steps' verdicts file), without Foundation's encoder; `raw`
/// embeds text that is already JSON (a tool's own JSON output) as it is.
indirect enum JSONText {
    case null
    case bool(Bool)
    case integer(Int)
    /// Written with 6 decimals (seconds).
    case number(Double)
    case string(String)
    case array([JSONText])
    /// Keys in the order given.
    case object([(String, JSONText)])
    case raw(String)

    /// A string, or null.
    static func optional(_ text: String?) -> JSONText { text.map { .string($0) } ?? .null }

    /// A tool's output that should be one JSON array or object: `raw` when it looks like one, else a string.
    static func embedded(_ text: String) -> JSONText {
        let trimmed = text.trimmingWhitespace
        guard let first = trimmed.first, let last = trimmed.last,
            (first == "[" && last == "]") || (first == "{" && last == "}")
        else { return trimmed.isEmpty ? .null : .string(trimmed) }
        return .raw(trimmed)
    }

    /// The value as indented JSON text.
    func text(indent: Int = 0) -> String {
        var output = ""
        write(into: &output, indent: indent)
        return output
    }

    private func write(into output: inout String, indent: Int) {
        let inner = String(repeating: " ", count: indent + 2)
        let outer = String(repeating: " ", count: indent)
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .integer(let value): output += String(value)
        case .number(let value): output += value.isFinite ? Format.fixed(value, 6) : "null"
        case .string(let value): JSONText.quote(value, into: &output)
        case .raw(let value): output += value
        case .array(let values):
            guard !values.isEmpty else {
                output += "[]"
                return
            }
            output += "[\n"
            for (position, value) in values.enumerated() {
                output += inner
                value.write(into: &output, indent: indent + 2)
                output += position == values.count - 1 ? "\n" : ",\n"
            }
            output += outer + "]"
        case .object(let members):
            guard !members.isEmpty else {
                output += "{}"
                return
            }
            output += "{\n"
            for (position, (key, value)) in members.enumerated() {
                output += inner
                JSONText.quote(key, into: &output)
                output += ": "
                value.write(into: &output, indent: indent + 2)
                output += position == members.count - 1 ? "\n" : ",\n"
            }
            output += outer + "}"
        }
    }

    private static func quote(_ text: String, into output: inout String) {
        output += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces, tabs and line breaks.
    var trimmingWhitespace: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }
        guard let start = firstIndex(where: { !isSpace($0) }), let end = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[start...end])
    }
}
