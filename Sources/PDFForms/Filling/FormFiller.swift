public import PDFAuthoring
public import PDFCore

/// Fills a form: values are checked against each field (kind, read-only, options, `/MaxLen`) as
/// they are set, and saved with appearances made by Autograph as one incremental update.
///
/// ```swift
/// guard let form = AcroForm(document: document) else { … }
/// var filler = FormFiller(form: form)
/// try filler.set("name", to: .text("Ada Lovelace"))
/// try filler.set("agree", to: .bool(true))
/// try filler.write(to: "filled.pdf")
/// ```
///
/// Every error names the field; when ``setValues(_:)`` fails, none of its values is kept.
public struct FormFiller {
    /// What to do with a document whose form sets `/NeedAppearances true`.
    public enum NeedAppearancesPolicy: Sendable {
        /// Make real appearances for every field and clear the flag (the default).
        case generate
        /// Refuse to save, as signoAPI does (error -137).
        case refuse
    }

    /// How the filled document is saved.
    public struct Options: Sendable {
        /// What to do when the form sets `/NeedAppearances true`; ``NeedAppearancesPolicy/generate`` by default.
        public var needAppearances: NeedAppearancesPolicy = .generate
        /// A font for text the field's own font cannot draw; by default a system font is found.
        public var font: (any PDFFont)?
        /// Whether the update's `/ID` is derived from its content, and where its random bytes come from.
        public var write: WriteOptions = .default

        /// Options; each argument sets the property of the same name.
        public init(
            needAppearances: NeedAppearancesPolicy = .generate, font: (any PDFFont)? = nil,
            write: WriteOptions = .default
        ) {
            self.needAppearances = needAppearances
            self.font = font
            self.write = write
        }
    }

    /// The form being filled.
    public let form: AcroForm
    /// How the filled document is saved.
    public var options: Options
    /// The values set so far, by field name, in the order they were first set.
    public private(set) var values: [(name: String, value: FieldValue)] = []

    /// A filler of `form` with no value set yet.
    public init(form: AcroForm, options: Options = Options()) {
        self.form = form
        self.options = options
    }

    /// Sets one field.
    /// - Throws: `FormError` `.unknownField`, `.readOnly`, `.wrongKind`, `.invalidOption`, `.tooLong`.
    public mutating func set(_ name: String, to input: FormInput) throws(FormError) {
        let field = try field(name)
        let value = try FormFiller.validate(input, for: field)
        // A read-only field may be "set" to the value it has (an import of exported values).
        if field.isReadOnly {
            guard value == field.value else { throw FormError(.readOnly, field: field.name, "the field is read-only") }
            return
        }
        if let index = values.firstIndex(where: { $0.name == name }) {
            values[index].value = value
        } else {
            values.append((name, value))
        }
    }

    /// Sets several fields; if one fails, none is set.
    public mutating func setValues(_ inputs: [(name: String, value: FormInput)]) throws(FormError) {
        var copy = self
        for (name, input) in inputs { try copy.set(name, to: input) }
        self = copy
    }

    private func field(_ name: String) throws(FormError) -> FormField {
        guard let field = form.field(named: name) else {
            throw FormError(.unknownField, field: name, "no such field")
        }
        return field
    }

    /// The value `input` gives `field`, or the reason it cannot (read-only is checked by the caller).
    static func validate(_ input: FormInput, for field: FormField) throws(FormError) -> FieldValue {
        guard field.kind.isFillable else {
            throw FormError(.wrongKind, field: field.name, "a \(field.kind.rawValue) field has no value to fill")
        }
        switch field.kind {
        case .text:
            let text: String
            switch input {
            case .text(let value): text = value
            case .list(let items) where items.count == 1: text = items[0]
            default: throw FormError(.wrongKind, field: field.name, "a text field takes text, not \(input)")
            }
            if let maxLength = field.maxLength, maxLength > 0, text.count > maxLength {
                throw FormError(.tooLong, field: field.name, "\(text.count) characters, at most \(maxLength) allowed")
            }
            return .text(text)
        case .checkbox, .radio:
            let states = field.states.isEmpty ? ["Yes"] : field.states
            switch input {
            case .bool(let on):
                guard on else { return .state("Off") }
                guard field.kind == .checkbox || states.count == 1 else {
                    throw FormError(
                        .wrongKind, field: field.name,
                        "a radio group takes the name of a choice: \(states.joined(separator: ", "))")
                }
                return .state(states[0])
            case .text(let text):
                if text == "Off" || states.contains(text) { return .state(text) }
                // An export value from /Opt names the state by its index (§12.7.5.2.3).
                if let index = field.options.firstIndex(where: { $0.exportValue == text }),
                    states.contains(String(index))
                {
                    return .state(String(index))
                }
                throw FormError(
                    .invalidOption, field: field.name,
                    "'\(text)' is not one of \(states.joined(separator: ", ")) (or Off)")
            case .list:
                throw FormError(
                    .wrongKind, field: field.name, "a \(field.kind.rawValue) takes true, false or a state name")
            }
        case .comboBox, .listBox:
            var selections: [String]
            switch input {
            case .text(let text): selections = [text]
            case .list(let items): selections = items
            case .bool: throw FormError(.wrongKind, field: field.name, "a choice field takes text or a list")
            }
            // No selection (or an empty one) clears the field.
            selections.removeAll { $0.isEmpty }
            if selections.isEmpty { return .none }
            if selections.count > 1, !(field.kind == .listBox && field.flags.contains(.multiSelect)) {
                throw FormError(.wrongKind, field: field.name, "only one choice is allowed")
            }
            let editable = field.kind == .comboBox && field.flags.contains(.edit)
            selections = try selections.map { selection throws(FormError) -> String in
                if let option = field.options.first(where: { $0.exportValue == selection }) {
                    return option.exportValue
                }
                if let option = field.options.first(where: { $0.displayText == selection }) {
                    return option.exportValue
                }
                if editable || field.options.isEmpty { return selection }
                throw FormError(
                    .invalidOption, field: field.name,
                    "'\(selection)' is not an option (\(field.options.map(\.exportValue).joined(separator: ", ")))")
            }
            if field.kind == .listBox && field.flags.contains(.multiSelect) && selections.count != 1 {
                return .choices(selections)
            }
            return selections.first.map { .text($0) } ?? .none
        case .pushButton, .signature, .unknown:
            throw FormError(.wrongKind, field: field.name, "a \(field.kind.rawValue) field has no value to fill")
        }
    }
}
