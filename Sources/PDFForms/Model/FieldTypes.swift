public import PDFAuthoring
import PDFCore

/// The kind of a terminal field (ISO 32000-2 §12.7.5): from `/FT` and the button and choice flags.
public enum FieldKind: String, Hashable, Sendable, CaseIterable {
    /// A text field (`/FT /Tx`, §12.7.5.3).
    case text
    /// A checkbox (`/FT /Btn` without the radio and push button flags, §12.7.5.2.3).
    case checkbox
    /// A radio button group (`/FT /Btn` with the radio flag, §12.7.5.2.4).
    case radio
    /// A push button (`/FT /Btn` with the push button flag, §12.7.5.2.2); it holds no value.
    case pushButton = "button"
    /// A combo box: a drop-down list, editable with the edit flag (`/FT /Ch` with the combo flag, §12.7.5.4).
    case comboBox = "combo"
    /// A list box (`/FT /Ch` without the combo flag, §12.7.5.4).
    case listBox = "list"
    /// A signature field (`/FT /Sig`, §12.7.5.5).
    case signature
    /// A field without a known `/FT`.
    case unknown

    init(type: PDFName?, flags: FieldFlags) {
        switch type?.string {
        case "Tx": self = .text
        case "Btn":
            if flags.contains(.pushButton) {
                self = .pushButton
            } else if flags.contains(.radio) {
                self = .radio
            } else {
                self = .checkbox
            }
        case "Ch": self = flags.contains(.combo) ? .comboBox : .listBox
        case "Sig": self = .signature
        default: self = .unknown
        }
    }

    /// True for kinds whose value a person sets (not push buttons, signatures or unknown fields).
    public var isFillable: Bool {
        switch self {
        case .text, .checkbox, .radio, .comboBox, .listBox: true
        case .pushButton, .signature, .unknown: false
        }
    }
}

/// The field flags `/Ff` (ISO 32000-2 Tables 226, 228, 230, 232).
public struct FieldFlags: OptionSet, Hashable, Sendable {
    /// The flag bits as stored in `/Ff` (bit 1 is `1 << 0`).
    public let rawValue: UInt32
    /// The flags of an `/Ff` value.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Bit 1: the value cannot be changed.
    public static let readOnly = FieldFlags(rawValue: 1 << 0)
    /// Bit 2: a value is needed when the form is submitted.
    public static let required = FieldFlags(rawValue: 1 << 1)
    /// Bit 3: the field is not exported when the form is submitted.
    public static let noExport = FieldFlags(rawValue: 1 << 2)
    // Text fields
    /// Bit 13: the text may span several lines.
    public static let multiline = FieldFlags(rawValue: 1 << 12)
    /// Bit 14: the text is a password, shown masked and not stored in the document.
    public static let password = FieldFlags(rawValue: 1 << 13)
    /// Bit 21: the text is a file's path whose contents are submitted.
    public static let fileSelect = FieldFlags(rawValue: 1 << 20)
    /// Bit 23: the text is not spell-checked.
    public static let doNotSpellCheck = FieldFlags(rawValue: 1 << 22)
    /// Bit 24: the text does not scroll beyond the field's rectangle.
    public static let doNotScroll = FieldFlags(rawValue: 1 << 23)
    /// Bit 25: the text is spread over `/MaxLen` equal cells (comb field).
    public static let comb = FieldFlags(rawValue: 1 << 24)
    /// Bit 26: the value is rich text (`/RV`).
    public static let richText = FieldFlags(rawValue: 1 << 25)
    // Buttons
    /// Bit 15: a radio group always has one button on; clicking the selected one does not turn it off.
    public static let noToggleToOff = FieldFlags(rawValue: 1 << 14)
    /// Bit 16: the button field is a radio group.
    public static let radio = FieldFlags(rawValue: 1 << 15)
    /// Bit 17: the button field is a push button.
    public static let pushButton = FieldFlags(rawValue: 1 << 16)
    /// Bit 26: radio buttons with the same on state turn on and off together.
    public static let radiosInUnison = FieldFlags(rawValue: 1 << 25)
    // Choice fields
    /// Bit 18: the choice field is a combo box (else a list box).
    public static let combo = FieldFlags(rawValue: 1 << 17)
    /// Bit 19: the combo box also accepts text typed in.
    public static let edit = FieldFlags(rawValue: 1 << 18)
    /// Bit 20: form authoring tools keep the options sorted; viewers show them in the document's order.
    public static let sort = FieldFlags(rawValue: 1 << 19)
    /// Bit 22: more than one option can be selected.
    public static let multiSelect = FieldFlags(rawValue: 1 << 21)
    /// Bit 27: the new value is committed as soon as a selection is made.
    public static let commitOnSelectionChange = FieldFlags(rawValue: 1 << 26)

    /// The names of the flags that apply to `kind`, for listings (`readOnly`, `required`, `multiline` …).
    public func names(for kind: FieldKind) -> [String] {
        var result: [String] = []
        if contains(.readOnly) { result.append("readOnly") }
        if contains(.required) { result.append("required") }
        if contains(.noExport) { result.append("noExport") }
        switch kind {
        case .text:
            for (flag, name) in [
                (FieldFlags.multiline, "multiline"), (.password, "password"), (.fileSelect, "fileSelect"),
                (.doNotScroll, "doNotScroll"), (.comb, "comb"), (.richText, "richText"),
            ] where contains(flag) {
                result.append(name)
            }
        case .checkbox, .radio:
            if contains(.noToggleToOff) { result.append("noToggleToOff") }
            if contains(.radiosInUnison) { result.append("radiosInUnison") }
        case .comboBox, .listBox:
            for (flag, name) in [(FieldFlags.edit, "editable"), (.sort, "sort"), (.multiSelect, "multiSelect")]
            where contains(flag) {
                result.append(name)
            }
        default: break
        }
        return result
    }
}

/// The annotation flags `/F` of a widget (ISO 32000-2 Table 167).
public struct AnnotationFlags: OptionSet, Hashable, Sendable {
    /// The flag bits as stored in `/F` (bit 1 is `1 << 0`).
    public let rawValue: UInt32
    /// The flags of an `/F` value.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Bit 1: hide the annotation when its subtype has no handler (a widget always has one).
    public static let invisible = AnnotationFlags(rawValue: 1 << 0)
    /// Bit 2: neither shown nor printed.
    public static let hidden = AnnotationFlags(rawValue: 1 << 1)
    /// Bit 3: printed (without it a widget is shown but not printed).
    public static let print = AnnotationFlags(rawValue: 1 << 2)
    /// Bit 4: not scaled with the page's zoom.
    public static let noZoom = AnnotationFlags(rawValue: 1 << 3)
    /// Bit 5: not rotated with the page.
    public static let noRotate = AnnotationFlags(rawValue: 1 << 4)
    /// Bit 6: not shown on screen nor interacted with; printed only with `print`.
    public static let noView = AnnotationFlags(rawValue: 1 << 5)
    /// Bit 7: cannot be interacted with.
    public static let readOnly = AnnotationFlags(rawValue: 1 << 6)
    /// Bit 8: cannot be deleted or have its properties changed (its contents still can).
    public static let locked = AnnotationFlags(rawValue: 1 << 7)
    /// Bit 9: inverts `noView` on certain events, such as the pointer passing over it.
    public static let toggleNoView = AnnotationFlags(rawValue: 1 << 8)
    /// Bit 10: its contents (for a widget, its field's value) cannot be changed.
    public static let lockedContents = AnnotationFlags(rawValue: 1 << 9)
}

/// A field's value (ISO 32000-2 §12.7.5): what `/V` holds, read by kind.
public enum FieldValue: Hashable, Sendable, CustomStringConvertible {
    /// No value.
    case none
    /// A text field's text, or the selection of a combo box or single-selection list box.
    case text(String)
    /// A checkbox's or radio group's state name (`Off` when unchecked).
    case state(String)
    /// The selections of a multiple-selection list box.
    case choices([String])
    /// A signature field's value: signed or not.
    case signature(signed: Bool)

    /// The value as text: the text, the state name, the choices joined with `, `, `signed` or `unsigned`; empty for
    /// none.
    public var description: String {
        switch self {
        case .none: ""
        case .text(let text): text
        case .state(let state): state
        case .choices(let choices): choices.joined(separator: ", ")
        case .signature(let signed): signed ? "signed" : "unsigned"
        }
    }
}

/// One option of a choice field (`/Opt`, ISO 32000-2 Table 231): the value exported and the text shown.
public struct ChoiceOption: Hashable, Sendable {
    /// The value stored in `/V` when the option is chosen.
    public var exportValue: String
    /// The text shown for the option (the export value when `/Opt` gives only one).
    public var displayText: String
}

/// Where a variable text field aligns its text (`/Q`).
public typealias FieldAlignment = TextLayout.Alignment
