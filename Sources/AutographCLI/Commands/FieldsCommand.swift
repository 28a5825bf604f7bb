import AutographJSON
import PDFCore
import PDFForms

/// `autograph fields`: the terminal fields of a form.
enum FieldsCommand: Command {
    static let spec = CommandSpec(
        name: "fields",
        summary: "List the form's terminal fields: name, type, value, options, flags, widgets",
        usage: "autograph fields FILE [--password P] [--json]",
        positionals: 1...1,
        options: [
            .init(name: "password", valueName: "P", help: "user or owner password of an encrypted document"),
            .init(name: "json", help: "print a JSON array instead of text"),
        ],
        details: """
            Types: text, checkbox, radio, combo, list, button, signature. Values: text for text and
            single choices, the state name for checkboxes and radio groups (Off when unchecked), an
            array for multiple selections, true/false for signature fields (signed or not). A widget's
            page is counted from 1 in the text ("page 2") and from 0 in JSON, as in every JSON output.
            Distinct fields with the same fully qualified name (invalid, but common) are one field, as
            Acrobat treats them: listed once with all their widgets, "merged" giving how many (1 for a
            field of its own), and filled together.
            """)

    static func run(_ arguments: Arguments, console: Console) async throws -> ExitCode {
        let document = try openDocument(arguments)
        guard let form = AcroForm(document: document) else {
            if arguments.has("json") { console.print("[]") } else { console.print("no interactive form") }
            return report(document.warnings, console: console)
        }
        if arguments.has("json") {
            console.print(JSONValue.array(form.fields.map(json)).prettyText)
        } else {
            for field in form.fields {
                var line =
                    "\(Console.inline(field.name)) [\(field.kind.rawValue)] = \(Console.inline("\(field.value)"))"
                let flags = field.flags.names(for: field.kind)
                if !flags.isEmpty { line += "  (" + flags.joined(separator: ", ") + ")" }
                if !field.options.isEmpty, field.kind == .comboBox || field.kind == .listBox {
                    line +=
                        "  options: " + field.options.map { Console.inline($0.displayText) }.joined(separator: " | ")
                }
                let pages = Set(field.widgets.compactMap(\.pageIndex)).sorted().map { String($0 + 1) }
                if !pages.isEmpty { line += "  page " + pages.joined(separator: ",") }
                if !field.merged.isEmpty { line += "  (\(field.merged.count + 1) fields of this name, merged)" }
                console.print(line)
            }
            console.print(
                "\(form.fields.count) fields, \(form.editableFields.count) editable, "
                    + "\(form.signatureFields.count) signature, \(form.missingRequiredFields.count) required and empty")
        }
        for warning in form.warnings { console.error("warning: \(warning)") }
        return report(document.warnings, console: console)
    }

    static func json(_ field: FormField) -> JSONValue {
        let value: JSONValue
        switch field.value {
        case .none: value = .null
        case .text(let text): value = .string(text)
        case .state(let state): value = .string(state)
        case .choices(let choices): value = .array(choices.map { .string($0) })
        case .signature(let signed): value = .bool(signed)
        }
        var object: [String: JSONValue] = [
            "name": .string(field.name), "type": .string(field.kind.rawValue), "value": value,
            // Fields sharing the name, made one (1 for a field of its own).
            "merged": .int(field.merged.count + 1),
            "readOnly": .bool(field.isReadOnly), "required": .bool(field.isRequired),
            "flags": .array(field.flags.names(for: field.kind).map { .string($0) }),
            "widgets": .array(
                field.widgets.map { widget in
                    .object(sortingKeys: [
                        "page": widget.pageIndex.map { .int($0) } ?? .null,
                        "rect": .array(
                            [widget.rect.x0, widget.rect.y0, widget.rect.x1, widget.rect.y1].map { .double($0) }),
                        "hidden": .bool(!widget.isVisible),
                        "print": .bool(widget.flags.contains(.print)),
                        "rotation": .int(widget.rotation),
                    ])
                }),
        ]
        switch field.kind {
        case .comboBox, .listBox:
            object["options"] = .array(field.options.map { .string($0.exportValue) })
        case .checkbox, .radio:
            object["options"] = .array(field.states.map { .string($0) })
        default:
            object["options"] = .array([])
        }
        if let maxLength = field.maxLength { object["maxLength"] = .int(maxLength) }
        return .object(sortingKeys: object)
    }
}
