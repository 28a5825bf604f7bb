import AutographJSON
import PDFCore

/// Field values as data: `{"name": "text" | true | ["a", "b"]}` in JSON, or XFDF (``XFDF``).
///
/// Values export by kind: text for text fields and single choices, `true`/`false` for checkboxes
/// whose on state is the usual one, the state name for radio groups (or `"Off"`), a list for
/// multiple selections. Signature and push button fields are not exported.
public struct FormValues: Sendable, Equatable {
    /// The values in order.
    public var entries: [(name: String, value: FormInput)]

    /// Values in the given order.
    public init(_ entries: [(name: String, value: FormInput)] = []) { self.entries = entries }

    /// True when both hold the same names with equal values, in the same order.
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
            text += "  " + JSONValue.quoted(entry.name) + ": "
            switch entry.value {
            case .text(let value): text += JSONValue.quoted(value)
            case .bool(let value): text += value ? "true" : "false"
            case .list(let items): text += "[" + items.map(JSONValue.quoted).joined(separator: ", ") + "]"
            }
            text += index == entries.count - 1 ? "\n" : ",\n"
        }
        return text + "}\n"
    }

    /// Reads a JSON object of values: strings, booleans, numbers (as written by JSON's shortest
    /// form), lists of strings; `null` skips a field.
    /// - Throws: `.invalidData` with the offset of the problem.
    public init(json: String) throws(FormError) {
        let value: JSONValue
        do {
            value = try JSONValue.parse(Array(json.utf8))
        } catch {
            throw FormError(.invalidData, "JSON: \(error.description)")
        }
        guard let members = value.objectMembers else {
            throw FormError(.invalidData, "JSON: the values must be an object of field names")
        }
        var entries: [(name: String, value: FormInput)] = []
        for (name, item) in members {
            switch item {
            case .null: continue
            case .string(let text): entries.append((name, .text(text)))
            case .bool(let flag): entries.append((name, .bool(flag)))
            case .int, .double: entries.append((name, .text(item.serialized())))
            case .array(let items):
                let texts = items.compactMap(\.stringValue)
                guard texts.count == items.count else {
                    throw FormError(.invalidData, "JSON: the list of \"\(name)\" must hold strings")
                }
                entries.append((name, .list(texts)))
            case .object: throw FormError(.invalidData, "JSON: the value of \"\(name)\" is an object")
            }
        }
        self.entries = entries
    }
}
