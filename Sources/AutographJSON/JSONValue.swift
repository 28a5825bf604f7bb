/// A JSON value (RFC 8259) without Foundation: the web API's requests and answers, the command-line
/// tool's `--json` output, form values as JSON.
public enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    /// Members in the order written (answers keep the order the API documents).
    case object([(String, JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.int(let a), .int(let b)): a == b
        case (.double(let a), .double(let b)): a == b
        case (.int(let a), .double(let b)), (.double(let b), .int(let a)): Double(a) == b
        case (.string(let a), .string(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a.map(\.0) == b.map(\.0) && a.map(\.1) == b.map(\.1)
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(serialized()) }

    /// The member `key` of an object (nil for other values or a missing key).
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }

    public var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    public var doubleValue: Double? {
        switch self {
        case .int(let value): Double(value)
        case .double(let value): value
        default: nil
        }
    }

    /// An integer, or a number with no fractional part.
    public var intValue: Int? {
        switch self {
        case .int(let value): value
        case .double(let value) where value.rounded() == value && abs(value) < 1e15: Int(value)
        default: nil
        }
    }

    public var arrayValue: [JSONValue]? {
        if case .array(let items) = self { return items }
        return nil
    }
}

// MARK: - Writing

extension JSONValue {
    /// An object with the keys of `members` sorted (stable output from a dictionary).
    public static func object(sortingKeys members: [String: JSONValue]) -> JSONValue {
        .object(members.keys.sorted().map { ($0, members[$0]!) })
    }

    /// The members of an object, in order; nil for other values.
    public var objectMembers: [(String, JSONValue)]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// `text` as a JSON string literal.
    public static func quoted(_ text: String) -> String {
        var output = ""
        writeString(text, to: &output)
        return output
    }

    /// The value as indented JSON text (two spaces a level; empty arrays and objects on one line).
    public var prettyText: String {
        var output = ""
        writePretty(to: &output, indent: 0)
        return output
    }

    private func writePretty(to output: inout String, indent: Int) {
        let padding = String(repeating: "  ", count: indent)
        let inner = padding + "  "
        switch self {
        case .array(let items) where !items.isEmpty:
            output += "[\n"
            for (index, item) in items.enumerated() {
                output += inner
                item.writePretty(to: &output, indent: indent + 1)
                output += index == items.count - 1 ? "\n" : ",\n"
            }
            output += padding + "]"
        case .object(let members) where !members.isEmpty:
            output += "{\n"
            for (index, (key, value)) in members.enumerated() {
                output += inner
                Self.writeString(key, to: &output)
                output += ": "
                value.writePretty(to: &output, indent: indent + 1)
                output += index == members.count - 1 ? "\n" : ",\n"
            }
            output += padding + "}"
        default:
            write(to: &output)
        }
    }

    /// The value as compact JSON text.
    public func serialized() -> String {
        var output = ""
        write(to: &output)
        return output
    }

    /// The value as UTF-8 bytes.
    public var bytes: [UInt8] { Array(serialized().utf8) }

    func write(to output: inout String) {
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .int(let value): output += String(value)
        case .double(let value): output += Self.format(value)
        case .string(let text): Self.writeString(text, to: &output)
        case .array(let items):
            output += "["
            for (index, item) in items.enumerated() {
                if index > 0 { output += "," }
                item.write(to: &output)
            }
            output += "]"
        case .object(let members):
            output += "{"
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { output += "," }
                Self.writeString(key, to: &output)
                output += ":"
                value.write(to: &output)
            }
            output += "}"
        }
    }

    /// Whole numbers without a fraction, others with Swift's shortest round-tripping form; NaN and
    /// infinities (not JSON) as null.
    static func format(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value.rounded() == value && abs(value) < 1e15 { return String(Int(value)) }
        return String(value)
    }

    static func writeString(_ text: String, to output: inout String) {
        output += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case "\u{2028}": output += "\\u2028"
            case "\u{2029}": output += "\\u2029"
            default:
                // C0 controls must be escaped; DEL and C1 are, so that no control character a
                // terminal or a log viewer acts on is ever written raw.
                if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
                    let hex = String(scalar.value, radix: 16)
                    output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        output += "\""
    }
}

// MARK: - Reading

extension JSONValue {
    /// Why a text is not JSON, with the byte offset.
    public struct ParseError: Error, Sendable, CustomStringConvertible {
        public var offset: Int
        public var message: String
        public var description: String { "invalid JSON at byte \(offset): \(message)" }
    }

    /// Parses JSON text (UTF-8); nesting deeper than `maxDepth` is refused, and so is a string (a
    /// key or a value) of more than `maxStringBytes` bytes as written — found before it is decoded.
    public static func parse(_ bytes: [UInt8], maxDepth: Int = 64, maxStringBytes: Int = .max) throws(ParseError)
        -> JSONValue
    {
        var parser = JSONParser(bytes: bytes, maxDepth: maxDepth)
        parser.maxStringBytes = maxStringBytes
        parser.skipSpace()
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.offset == bytes.count else { throw parser.error("text after the value") }
        return value
    }
}

struct JSONParser {
    let bytes: [UInt8]
    let maxDepth: Int
    var maxStringBytes = Int.max
    var offset = 0

    init(bytes: [UInt8], maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    func error(_ message: String) -> JSONValue.ParseError { JSONValue.ParseError(offset: offset, message: message) }

    mutating func skipSpace() {
        while offset < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[offset]) { offset += 1 }
    }

    mutating func value(depth: Int) throws(JSONValue.ParseError) -> JSONValue {
        guard depth <= maxDepth else { throw error("nested too deeply") }
        guard offset < bytes.count else { throw error("unexpected end") }
        switch bytes[offset] {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        default: return try number()
        }
    }

    mutating func literal(_ word: String, _ value: JSONValue) throws(JSONValue.ParseError) -> JSONValue {
        let expected = Array(word.utf8)
        guard offset + expected.count <= bytes.count, Array(bytes[offset..<(offset + expected.count)]) == expected
        else { throw error("unknown literal") }
        offset += expected.count
        return value
    }

    mutating func object(depth: Int) throws(JSONValue.ParseError) -> JSONValue {
        offset += 1
        var members: [(String, JSONValue)] = []
        skipSpace()
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "}") {
            offset += 1
            return .object(members)
        }
        while true {
            skipSpace()
            guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else { throw error("expected a key") }
            let key = try string()
            skipSpace()
            guard offset < bytes.count, bytes[offset] == UInt8(ascii: ":") else { throw error("expected ':'") }
            offset += 1
            skipSpace()
            members.append((key, try value(depth: depth + 1)))
            skipSpace()
            guard offset < bytes.count else { throw error("unexpected end") }
            if bytes[offset] == UInt8(ascii: ",") {
                offset += 1
            } else if bytes[offset] == UInt8(ascii: "}") {
                offset += 1
                return .object(members)
            } else {
                throw error("expected ',' or '}'")
            }
        }
    }

    mutating func array(depth: Int) throws(JSONValue.ParseError) -> JSONValue {
        offset += 1
        var items: [JSONValue] = []
        skipSpace()
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "]") {
            offset += 1
            return .array(items)
        }
        while true {
            skipSpace()
            items.append(try value(depth: depth + 1))
            skipSpace()
            guard offset < bytes.count else { throw error("unexpected end") }
            if bytes[offset] == UInt8(ascii: ",") {
                offset += 1
            } else if bytes[offset] == UInt8(ascii: "]") {
                offset += 1
                return .array(items)
            } else {
                throw error("expected ',' or ']'")
            }
        }
    }

    mutating func string() throws(JSONValue.ParseError) -> String {
        offset += 1
        let start = offset
        if maxStringBytes < Int.max {
            // Where the string ends, found before anything is decoded: a longer one is refused at once.
            var end = offset
            while end < bytes.count, bytes[end] != UInt8(ascii: "\""), end - start <= maxStringBytes {
                end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1
            }
            guard end - start <= maxStringBytes else {
                throw error("a string of more than \(maxStringBytes) bytes")
            }
        }
        var scalars = String.UnicodeScalarView()
        var run = offset
        func flush(_ end: Int) {
            scalars.append(contentsOf: String(decoding: bytes[run..<end], as: UTF8.self).unicodeScalars)
        }
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\"") {
                flush(offset)
                offset += 1
                return String(scalars)
            }
            if byte < 0x20 { throw error("control character in a string") }
            if byte == UInt8(ascii: "\\") {
                flush(offset)
                offset += 1
                guard offset < bytes.count else { break }
                let escape = bytes[offset]
                offset += 1
                switch escape {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{8}")
                case UInt8(ascii: "f"): scalars.append("\u{C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    var code = try hex4()
                    if (0xD800..<0xDC00).contains(code), offset + 1 < bytes.count, bytes[offset] == UInt8(ascii: "\\"),
                        bytes[offset + 1] == UInt8(ascii: "u")
                    {
                        offset += 2
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw error("unpaired surrogate") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    scalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
                default: throw error("unknown escape")
                }
                run = offset
                continue
            }
            offset += 1
        }
        throw error("unterminated string")
    }

    mutating func hex4() throws(JSONValue.ParseError) -> UInt32 {
        guard offset + 4 <= bytes.count,
            let code = UInt32(String(decoding: bytes[offset..<(offset + 4)], as: UTF8.self), radix: 16)
        else { throw error("bad \\u escape") }
        offset += 4
        return code
    }

    mutating func number() throws(JSONValue.ParseError) -> JSONValue {
        let start = offset
        var isInteger = true
        while offset < bytes.count {
            let byte = bytes[offset]
            if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") {
                offset += 1
            } else if byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
                || byte == UInt8(ascii: "+")
            {
                isInteger = false
                offset += 1
            } else {
                break
            }
        }
        let text = String(decoding: bytes[start..<offset], as: UTF8.self)
        guard !text.isEmpty else { throw error("unexpected character") }
        if isInteger, let value = Int(text) { return .int(value) }
        guard let value = Double(text), value.isFinite else { throw error("bad number \(text)") }
        return .double(value)
    }
}
