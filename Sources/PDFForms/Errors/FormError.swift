public import PDFCore

/// The error thrown by `PDFForms`: a stable code, the field it concerns, and a one-line message.
public struct FormError: AutographError, Hashable {
    /// What went wrong, as a stable code.
    public enum Code: String, Hashable, Sendable, CaseIterable {
        /// No terminal field has that fully qualified name.
        case unknownField
        /// The field is read-only (`/Ff` bit 1).
        case readOnly
        /// The value is not one of the field's options or states.
        case invalidOption
        /// The text is longer than the field's `/MaxLen`.
        case tooLong
        /// The value does not suit the field's kind (text for a checkbox, several choices for a combo box …).
        case wrongKind
        /// The document asks viewers to make appearances (`/NeedAppearances true`) and the caller chose to refuse it (signo -137).
        case needAppearances
        /// No font can draw the text (no system font covers it).
        case fontUnavailable
        /// Form data (JSON, XFDF) cannot be read.
        case invalidData
        /// The document has no interactive form.
        case noForm
        /// Writing the filled document failed (the underlying `PDFError` is in the message).
        case writeFailed
    }

    /// What went wrong; equality and hashing compare this alone.
    public var code: Code
    /// The fully qualified name of the field, when the error concerns one.
    public var field: String?
    /// What went wrong, in one line for a person, without the field name that ``description`` adds.
    public var message: String
    /// The core error a failed write wraps.
    public var underlying: (any Error)?

    /// An error of the given kind, about the field with the fully qualified name `field` when there is one.
    public init(_ code: Code, field: String? = nil, _ message: String) {
        self.code = code
        self.field = field
        self.message = message
    }

    init(_ error: PDFError) {
        self.init(.writeFailed, error.description)
        underlying = error
    }

    /// The signoAPI error code: -137 for `/NeedAppearances`, -128 for a write failure, else -129.
    public var signoCode: Int {
        switch code {
        case .needAppearances: -137
        case .writeFailed: -128
        default: -129
        }
    }

    /// The code's raw value (`AutographError/codeName`).
    public var codeName: String { code.rawValue }

    /// ``signoCode``: every form error has one.
    public var seedCode: Int? { signoCode }

    /// What kind of failure the code is: a value or data the field or form does not take for most.
    public var category: ErrorCategory {
        switch code {
        case .unknownField, .noForm: .notFound
        case .readOnly: .forbidden
        case .invalidOption, .tooLong, .wrongKind, .invalidData: .badInput
        case .needAppearances: .conflict
        case .fontUnavailable: .unsupported
        case .writeFailed: .internal
        }
    }

    /// The message, after `field 'name': ` when the error concerns a field.
    public var description: String {
        field.map { "field '\($0)': \(message)" } ?? message
    }

    /// True when both errors have the same `code`, whatever their fields and messages.
    public static func == (lhs: FormError, rhs: FormError) -> Bool { lhs.code == rhs.code }
    /// Hashes the `code` alone, as `==` compares.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
