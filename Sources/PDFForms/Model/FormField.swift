public import PDFCore

/// A terminal field of an interactive form (ISO 32000-2 §12.7.4): a typed view over its dictionary
/// with inherited attributes applied (`/FT`, `/Ff`, `/V`, `/DV`, `/DA`, `/Q`, `/Opt`, `/MaxLen`).
public struct FormField: Sendable {
    /// The field dictionary's reference (nil for a direct dictionary).
    public let reference: PDFReference?
    /// The field dictionary as stored (without inherited entries).
    public let dictionary: PDFDictionary
    /// The fully qualified name: partial names of the field and its ancestors joined by periods (§12.7.4.2).
    public let name: String
    /// `/T`, the partial name (nil for an unnamed field).
    public let partialName: String?
    /// `/TU`, the name shown to people, when given.
    public let alternateName: String?
    /// The kind, from `/FT` (inherited) and the button and choice flags.
    public let kind: FieldKind
    /// `/Ff`, inherited.
    public let flags: FieldFlags
    /// `/V`, inherited, read by kind.
    public let value: FieldValue
    /// `/DV`, inherited, read by kind.
    public let defaultValue: FieldValue
    /// `/DA`, inherited (the form's `/DA` when no field gives one).
    public let defaultAppearance: String?
    /// `/Q`, inherited (the form's `/Q` when no field gives one).
    public let alignment: FieldAlignment
    /// `/MaxLen` of a text field.
    public let maxLength: Int?
    /// `/Opt` of a choice field, or the export values of a checkbox or radio group.
    public let options: [ChoiceOption]
    /// The widgets, in the order of `/Kids` (one for a field merged with its widget).
    public internal(set) var widgets: [Widget]
    /// Other fields with the same fully qualified name (invalid, but common): viewers treat them
    /// as one field, so their widgets are in ``widgets`` and a fill sets every one's value.
    public internal(set) var merged: [FormField] = []
    /// The references of the ancestors, nearest first (to write inherited values where they live).
    public let ancestors: [PDFReference]
    /// The dictionary that holds `/V` now (this field, or the ancestor it inherits the value from).
    public let valueHolder: PDFReference?

    /// True when `/Ff` sets read-only (bit 1).
    public var isReadOnly: Bool { flags.contains(.readOnly) }
    /// True when `/Ff` sets required (bit 2).
    public var isRequired: Bool { flags.contains(.required) }
    /// True when `/Ff` sets no-export (bit 3).
    public var isNoExport: Bool { flags.contains(.noExport) }

    /// True when a person can change the value: a fillable kind that is not read-only.
    public var isEditable: Bool { kind.isFillable && !isReadOnly }

    /// True when the field has no value a person entered (empty text, `Off`, no selection; an unsigned signature).
    public var isEmpty: Bool {
        switch value {
        case .none: true
        case .text(let text): text.isEmpty
        case .state(let state): state == "Off" || state.isEmpty
        case .choices(let choices): choices.isEmpty
        case .signature(let signed): !signed
        }
    }

    /// The "on" states a checkbox or radio group can take (every widget's, in order, without duplicates).
    public var states: [String] {
        var seen: Set<String> = []
        var result: [String] = []
        for widget in widgets {
            for state in widget.onStates where seen.insert(state).inserted { result.append(state) }
        }
        return result
    }

    /// The value for export: text, the export value of a button's state (`/Opt` when present), or the selections.
    public var exportValue: FieldValue {
        guard case .state(let state) = value, kind == .checkbox || kind == .radio, !options.isEmpty,
            let index = Int(state), options.indices.contains(index)
        else { return value }
        return .state(options[index].exportValue)
    }
}
