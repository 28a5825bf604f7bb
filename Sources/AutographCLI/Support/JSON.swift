/// A JSON value and its pretty-printed text (keys sorted), so the CLI needs no Foundation.
enum JSON: Equatable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSON])
    case object([String: JSON])

    /// The value as indented JSON text (two spaces, keys sorted, `/` not escaped).
    var text: String {
        var output = ""
        write(to: &output, indent: 0)
        return output
    }

    private func write(to output: inout String, indent: Int) {
        let padding = String(repeating: "  ", count: indent)
        let inner = String(repeating: "  ", count: indent + 1)
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .int(let value): output += String(value)
        case .double(let value):
            output +=
                value.isFinite
                ? (value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : "\(value)") : "null"
        case .string(let value): JSON.quote(value, into: &output)
        case .array(let items):
            guard !items.isEmpty else {
                output += "[]"
                return
            }
            output += "[\n"
            for (index, item) in items.enumerated() {
                output += inner
                item.write(to: &output, indent: indent + 1)
                output += index == items.count - 1 ? "\n" : ",\n"
            }
            output += padding + "]"
        case .object(let members):
            guard !members.isEmpty else {
                output += "{}"
                return
            }
            output += "{\n"
            let keys = members.keys.sorted()
            for (index, key) in keys.enumerated() {
                output += inner
                JSON.quote(key, into: &output)
                output += ": "
                members[key]!.write(to: &output, indent: indent + 1)
                output += index == keys.count - 1 ? "\n" : ",\n"
            }
            output += padding + "}"
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

extension JSON {
    /// Parses JSON text (objects, arrays, strings, numbers, booleans, null).
    /// - Throws: `UsageError` naming the byte where the text stops being JSON.
    static func parse(_ text: String) throws(UsageError) -> JSON {
        var parser = Parser(bytes: Array(text.utf8))
        let value = try parser.value()
        parser.skipSpace()
        guard parser.position == parser.bytes.count else { throw parser.failure("text after the JSON value") }
        return value
    }

    subscript(key: String) -> JSON? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    var intValue: Int? {
        switch self {
        case .int(let value): value
        case .double(let value) where value == value.rounded(): Int(value)
        default: nil
        }
    }

    var arrayValue: [JSON]? {
        if case .array(let items) = self { return items }
        return nil
    }

    private struct Parser {
        let bytes: [UInt8]
        var position = 0

        mutating func skipSpace() {
            while position < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[position]) { position += 1 }
        }

        func failure(_ message: String) -> UsageError { UsageError("invalid JSON: \(message) at byte \(position)") }

        mutating func value() throws(UsageError) -> JSON {
            skipSpace()
            guard position < bytes.count else { throw failure("unexpected end") }
            switch bytes[position] {
            case UInt8(ascii: "{"):
                position += 1
                var members: [String: JSON] = [:]
                skipSpace()
                if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
                    position += 1
                    return .object(members)
                }
                while true {
                    skipSpace()
                    guard case .string(let key) = try value() else { throw failure("a key must be a string") }
                    skipSpace()
                    guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else {
                        throw failure("':' expected")
                    }
                    position += 1
                    members[key] = try value()
                    skipSpace()
                    guard position < bytes.count else { throw failure("unexpected end") }
                    if bytes[position] == UInt8(ascii: ",") {
                        position += 1
                        continue
                    }
                    guard bytes[position] == UInt8(ascii: "}") else { throw failure("',' or '}' expected") }
                    position += 1
                    return .object(members)
                }
            case UInt8(ascii: "["):
                position += 1
                var items: [JSON] = []
                skipSpace()
                if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
                    position += 1
                    return .array(items)
                }
                while true {
                    items.append(try value())
                    skipSpace()
                    guard position < bytes.count else { throw failure("unexpected end") }
                    if bytes[position] == UInt8(ascii: ",") {
                        position += 1
                        continue
                    }
                    guard bytes[position] == UInt8(ascii: "]") else { throw failure("',' or ']' expected") }
                    position += 1
                    return .array(items)
                }
            case UInt8(ascii: "\""):
                position += 1
                var raw: [UInt8] = []
                while position < bytes.count, bytes[position] != UInt8(ascii: "\"") {
                    if bytes[position] == UInt8(ascii: "\\"), position + 1 < bytes.count {
                        position += 1
                        switch bytes[position] {
                        case UInt8(ascii: "n"): raw.append(0x0A)
                        case UInt8(ascii: "t"): raw.append(0x09)
                        case UInt8(ascii: "r"): raw.append(0x0D)
                        case UInt8(ascii: "u"):
                            guard position + 4 < bytes.count,
                                let value = UInt32(
                                    String(decoding: bytes[(position + 1)...(position + 4)], as: UTF8.self), radix: 16),
                                let scalar = Unicode.Scalar(value)
                            else { throw failure("bad \\u escape") }
                            raw.append(contentsOf: Array(String(Character(scalar)).utf8))
                            position += 4
                        default: raw.append(bytes[position])
                        }
                    } else {
                        raw.append(bytes[position])
                    }
                    position += 1
                }
                guard position < bytes.count else { throw failure("unfinished string") }
                position += 1
                return .string(String(decoding: raw, as: UTF8.self))
            case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
                for (word, result) in [("true", JSON.bool(true)), ("false", .bool(false)), ("null", .null)]
                where bytes[position...].starts(with: word.utf8) {
                    position += word.utf8.count
                    return result
                }
                throw failure("unknown word")
            default:
                let start = position
                while position < bytes.count, "+-.eE0123456789".utf8.contains(bytes[position]) { position += 1 }
                let text = String(decoding: bytes[start..<position], as: UTF8.self)
                if let integer = Int(text) { return .int(integer) }
                if let double = Double(text) { return .double(double) }
                throw failure("a value was expected")
            }
        }
    }
}
