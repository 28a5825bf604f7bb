public import PDFAuthoring
import PDFCore

/// The kind of a terminal field (ISO 32000-2 §12.7.5): from `/FT` and the button and choice flags.
public enum FieldKind: String, Hashable, Sendable, CaseIterable {
    case text
    case checkbox
    case radio
    case pushButton = "button"
    case comboBox = "combo"
    case listBox = "list"
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
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let readOnly = FieldFlags(rawValue: 1 << 0)
    public static let required = FieldFlags(rawValue: 1 << 1)
    public static let noExport = FieldFlags(rawValue: 1 << 2)
    // Text fields
    public static let multiline = FieldFlags(rawValue: 1 << 12)
    public static let password = FieldFlags(rawValue: 1 << 13)
    public static let fileSelect = FieldFlags(rawValue: 1 << 20)
    public static let doNotSpellCheck = FieldFlags(rawValue: 1 << 22)
    public static let doNotScroll = FieldFlags(rawValue: 1 << 23)
    public static let comb = FieldFlags(rawValue: 1 << 24)
    public static let richText = FieldFlags(rawValue: 1 << 25)
    // Buttons
    public static let noToggleToOff = FieldFlags(rawValue: 1 << 14)
    public static let radio = FieldFlags(rawValue: 1 << 15)
    public static let pushButton = FieldFlags(rawValue: 1 << 16)
    public static let radiosInUnison = FieldFlags(rawValue: 1 << 25)
    // Choice fields
    public static let combo = FieldFlags(rawValue: 1 << 17)
    public static let edit = FieldFlags(rawValue: 1 << 18)
    public static let sort = FieldFlags(rawValue: 1 << 19)
    public static let multiSelect = FieldFlags(rawValue: 1 << 21)
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
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let invisible = AnnotationFlags(rawValue: 1 << 0)
    public static let hidden = AnnotationFlags(rawValue: 1 << 1)
    public static let print = AnnotationFlags(rawValue: 1 << 2)
    public static let noZoom = AnnotationFlags(rawValue: 1 << 3)
    public static let noRotate = AnnotationFlags(rawValue: 1 << 4)
    public static let noView = AnnotationFlags(rawValue: 1 << 5)
    public static let readOnly = AnnotationFlags(rawValue: 1 << 6)
    public static let locked = AnnotationFlags(rawValue: 1 << 7)
    public static let toggleNoView = AnnotationFlags(rawValue: 1 << 8)
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
    public var exportValue: String
    public var displayText: String
}

/// Where a variable text field aligns its text (`/Q`).
public typealias FieldAlignment = TextLayout.Alignment
