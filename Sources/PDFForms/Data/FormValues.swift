/// Field values as data: `{"name": "text" | true | ["a", "b"]}` in JSON, or XFDF (``XFDF``).
///
/// Values export by kind: text for text fields and single choices, `true`/`false` for checkboxes
/// whose on state is the usual one, the state name for radio groups (or `"Off"`), a list for
/// multiple selections. Signature and push button fields are not exported.
public struct FormValues: Sendable, Equatable {
    /// The values in order.
    public var entries: [(name: String, value: FormInput)]

    public init(_ entries: [(name: String, value: FormInput)] = []) { self.entries = entries }

    public static func == (lhs: FormValues, rhs: FormValues) -> Bool {
        lhs.entries.count == rhs.entries.count
            && zip(lhs.entries, rhs.entries).allSatisfy { $0.name == $1.name && $0.value == $1.value }
    }

    /// The values of every fillable field of `form` (and no-export fields only when asked).
    public init(form: AcroForm, includingNoExport: Bool = false) {
        var entries: [(name: String, value: FormInput)] = []
        for field in form.fields where field.kind.isFillable && (includingNoExport || !field.isNoExport) {
            switch (field.kind, field.value) {
            case (.checkbox, .state(let state)):
                let states = field.states
                // A checkbox with a single on state exports as a boolean.
                if states.count <= 1 {
                    entries.append((field.name, .bool(state != "Off")))
                } else {
                    entries.append((field.name, .text(state)))
                }
            case (_, .state(let state)): entries.append((field.name, .text(state)))
            case (.listBox, .text(let text)) where field.flags.contains(.multiSelect):
                entries.append((field.name, .list([text])))
            case (_, .text(let text)): entries.append((field.name, .text(text)))
            case (_, .choices(let choices)): entries.append((field.name, .list(choices)))
            case (.checkbox, .none): entries.append((field.name, .bool(false)))
            case (_, .none): entries.append((field.name, .text(field.kind == .radio ? "Off" : "")))
            case (_, .signature): break
            }
        }
        self.entries = entries
    }

    // MARK: JSON

    /// The values as a JSON object, keys in field order, two-space indented.
    public var json: String {
        var text = "{\n"
        for (index, entry) in entries.enumerated() {
            text += "  " + JSONText.quote(entry.name) + ": "
            switch entry.value {
            case .text(let value): text += JSONText.quote(value)
            case .bool(let value): text += value ? "true" : "false"
            case .list(let items): text += "[" + items.map(JSONText.quote).joined(separator: ", ") + "]"
            }
            text += index == entries.count - 1 ? "\n" : ",\n"
        }
        return text + "}\n"
    }

    /// Reads a JSON object of values.
    /// - Throws: `.invalidData` with the offset of the problem.
    public init(json: String) throws(FormError) {
        var reader = JSONText(Array(json.utf8))
        self.entries = try reader.readValues()
    }
}

/// The little JSON the values need: an object of strings, booleans, nulls, numbers and arrays of strings.
struct JSONText {
    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    static func quote(_ text: String) -> String {
        var output = "\""
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
        return output + "\""
    }

    mutating func readValues() throws(FormError) -> [(name: String, value: FormInput)] {
        try expect(UInt8(ascii: "{"))
        var entries: [(name: String, value: FormInput)] = []
        skipSpace()
        if peek() == UInt8(ascii: "}") {
            position += 1
            return entries
        }
        while true {
            skipSpace()
            let name = try readString()
            try expect(UInt8(ascii: ":"))
            skipSpace()
            if let value = try readValue() { entries.append((name, value)) }
            skipSpace()
            if peek() == UInt8(ascii: ",") {
                position += 1
                continue
            }
            try expect(UInt8(ascii: "}"))
            skipSpace()
            guard position == bytes.count else { throw failure("text after the object") }
            return entries
        }
    }

    private mutating func readValue() throws(FormError) -> FormInput? {
        switch peek() {
        case UInt8(ascii: "\""): return .text(try readString())
        case UInt8(ascii: "["):
            position += 1
            var items: [String] = []
            skipSpace()
            if peek() == UInt8(ascii: "]") {
                position += 1
                return .list(items)
            }
            while true {
                skipSpace()
                guard case .text(let item)? = try readValue() else { throw failure("lists hold strings") }
                items.append(item)
                skipSpace()
                if peek() == UInt8(ascii: ",") {
                    position += 1
                    continue
                }
                try expect(UInt8(ascii: "]"))
                return .list(items)
            }
        case UInt8(ascii: "t"): try word("true"); return .bool(true)
        case UInt8(ascii: "f"): try word("false"); return .bool(false)
        case UInt8(ascii: "n"): try word("null"); return nil
        case let byte? where byte == UInt8(ascii: "-") || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")):
            let start = position
            while let byte = peek(), "+-.eE0123456789".utf8.contains(byte) { position += 1 }
            return .text(String(decoding: bytes[start..<position], as: UTF8.self))
        default: throw failure("a value was expected")
        }
    }

    private mutating func readString() throws(FormError) -> String {
        try expect(UInt8(ascii: "\""))
        var scalars = String.UnicodeScalarView()
        var raw: [UInt8] = []
        func flush() {
            scalars.append(contentsOf: String(decoding: raw, as: UTF8.self).unicodeScalars)
            raw.removeAll()
        }
        while let byte = peek() {
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                flush()
                return String(scalars)
            case UInt8(ascii: "\\"):
                flush()
                guard let escaped = peek() else { throw failure("unfinished escape") }
                position += 1
                switch escaped {
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "u"):
                    var unit = try readHex4()
                    if (0xD800...0xDBFF).contains(unit), peek() == UInt8(ascii: "\\") {
                        position += 2
                        let low = try readHex4()
                        unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                    }
                    scalars.append(Unicode.Scalar(unit) ?? "\u{FFFD}")
                default: scalars.append(Unicode.Scalar(escaped))
                }
            default:
                raw.append(byte)
            }
        }
        throw failure("unfinished string")
    }

    private mutating func readHex4() throws(FormError) -> UInt32 {
        guard position + 4 <= bytes.count,
            let value = UInt32(String(decoding: bytes[position..<(position + 4)], as: UTF8.self), radix: 16)
        else { throw failure("bad \\u escape") }
        position += 4
        return value
    }

    private mutating func word(_ text: String) throws(FormError) {
        for byte in text.utf8 {
            guard peek() == byte else { throw failure("'\(text)' expected") }
            position += 1
        }
    }

    private mutating func expect(_ byte: UInt8) throws(FormError) {
        skipSpace()
        guard peek() == byte else { throw failure("'\(Character(Unicode.Scalar(byte)))' expected") }
        position += 1
    }

    private func peek() -> UInt8? { position < bytes.count ? bytes[position] : nil }

    private mutating func skipSpace() {
        while let byte = peek(), byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { position += 1 }
    }

    private func failure(_ message: String) -> FormError {
        FormError(.invalidData, "JSON: \(message) at byte \(position)")
    }
}
