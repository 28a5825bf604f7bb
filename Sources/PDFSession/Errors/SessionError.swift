public import PDFAnnotations
public import PDFCore
public import PDFForms
public import PDFSigning

/// The error thrown by `PDFSession`: a stable code, the signoAPI code (-120 … -150) it stands for,
/// and a one-line message. Errors from the layers below keep their signo code.
public struct SessionError: AutographError, Hashable {
    /// What went wrong, as a stable code.
    public enum Code: String, Hashable, Sendable, Codable, CaseIterable {
        /// The storage key is not 64 bytes long.
        case invalidStorageKey
        /// The store was created with another storage key or username: nothing it holds can be read.
        case wrongStorageKey
        /// A stored record failed authentication: it was altered, truncated or moved.
        case tamperedRecord
        /// The store's database cannot be opened, read or written.
        case storeUnavailable
        /// No document in progress has this id.
        case documentNotFound
        /// Another session (in this process or another) wrote the document in progress after this
        /// one read it; nothing was written (-128). Reopen the document to go on from its new state.
        case documentChanged
        /// The document cannot be loaded (-120).
        case documentUnloadable
        /// The document cannot be read (-121).
        case documentUnreadable
        /// The document is encrypted and needs a password (-122).
        case passwordRequired
        /// The call is not possible now: signing on a read-only (`show`) document, confirming
        /// when nothing waits for a confirmation, editing after accept or refuse.
        case invalidState
        /// The field does not exist or cannot take this value (-130 for signature fields).
        case invalidField
        /// A step of signing failed; `signoCode` is the code of the step (-123 … -147).
        case signing
        /// Notes or photo fields failed; `signoCode` says how.
        case annotation
        /// A form value could not be set.
        case form
        /// The person or the delegate cancelled.
        case cancelled
        /// An argument is out of range.
        case invalidArgument
        /// Writing failed (-128).
        case writeFailed
        /// The change would break the document's certification or a field lock; nothing was stored (-129).
        case certificationViolated
        /// A document in progress has this id and holds work (edits, signatures) that opening
        /// other bytes under it would throw away; nothing was changed.
        case documentExists
        /// A signature that accepts the document was asked for (accept, the sign button, a
        /// signature field, a host or the HTTP API) while required fields (`/Ff` bit 2) are still
        /// empty; nothing started, and `missingRequiredFormField` named them. No signoAPI code says
        /// this (WYSIWYS has only the event), so the code is Autograph's own; its signo code is
        /// -129, "error when signing the document", as for ``certificationViolated``.
        case requiredFieldsEmpty
    }

    /// What went wrong, as a stable code; equality and hashing compare it with ``signoCode``.
    public var code: Code
    /// What went wrong, in one line for a person.
    public var message: String
    /// The signoAPI error code (STSignoInfoDelegate, -120 … -150).
    public var signoCode: Int
    /// The error of the layer below (core, forms, signing, annotations) this one wraps.
    public var underlying: (any Error)?

    /// An error of the given kind; `signoCode` nil gives the code's usual signo code.
    public init(_ code: Code, _ message: String, signoCode: Int? = nil) {
        self.code = code
        self.message = message
        self.signoCode = signoCode ?? Self.defaultSignoCode(code)
    }

    /// Wraps a signing error, keeping its signo code; the person's own input (a capture too short, a page or rectangle
    /// out of range) becomes ``Code-swift.enum/invalidArgument``.
    public init(_ error: SigningError) {
        let code: Code =
            switch error.code {
            case .documentUnreadable: .documentUnreadable
            case .passwordRequired: .passwordRequired
            case .writeFailed: .writeFailed
            case .invalidFieldName: .invalidField
            case .cancelled: .cancelled
            // The caller's input, not a failure of signing: a capture too short (-132), a page or
            // rectangle that does not exist.
            case .captureTooShort, .invalidArgument: .invalidArgument
            default: .signing
            }
        self.init(code, error.message, signoCode: error.signoCode)
        underlying = error
    }

    /// Wraps an annotation error (notes, photos, watermark), keeping its signo code.
    public init(_ error: AnnotationError) {
        self.init(error.code == .writeFailed ? .writeFailed : .annotation, error.message, signoCode: error.signoCode)
        underlying = error
    }

    /// Wraps a form error, keeping its signo code and the field it names.
    public init(_ error: FormError) {
        self.init(error.code == .writeFailed ? .writeFailed : .form, error.description, signoCode: error.signoCode)
        underlying = error
    }

    /// Wraps a core error: not a PDF (-120), damaged (-121), encrypted (-122), xref (-145).
    public init(_ error: PDFError) {
        let code: Code =
            switch error.code {
            case .passwordRequired, .wrongPassword: .passwordRequired
            case .writeFailed: .writeFailed
            case .fileUnreadable, .notAPDF: .documentUnloadable
            default: .documentUnreadable
            }
        self.init(code, error.description, signoCode: error.signoCode)
        underlying = error
    }

    /// The error of a signature asked for while required fields are empty
    /// (``Code-swift.enum/requiredFieldsEmpty``, -129): the message names the first five of `names`
    /// (each cut to 60 characters: a document's names are no one's to choose here).
    public static func requiredFieldsEmpty(_ names: [String]) -> SessionError {
        let shown = names.prefix(5).map { $0.count > 60 ? String($0.prefix(60)) + "…" : $0 }
        let more = names.count > shown.count ? " and \(names.count - shown.count) more" : ""
        return SessionError(
            .requiredFieldsEmpty,
            "fill in the required fields first: \(shown.joined(separator: ", "))\(more)")
    }

    static func defaultSignoCode(_ code: Code) -> Int {
        switch code {
        case .documentUnloadable, .documentNotFound: -120
        case .documentUnreadable: -121
        case .passwordRequired: -122
        case .writeFailed, .storeUnavailable, .documentChanged: -128
        case .signing, .certificationViolated, .requiredFieldsEmpty: -129
        case .invalidField: -130
        default: -150
        }
    }

    /// The code's raw value (`AutographError/codeName`).
    public var codeName: String { code.rawValue }

    /// ``signoCode``: every session error has one.
    public var seedCode: Int? { signoCode }

    /// What kind of failure the code is. The store and its storage key are the server's own
    /// configuration, not the caller's input, so their failures are internal; a cancelled signing
    /// is `ErrorCategory/cancelled`. A wrapped error's own category is not looked at: the session's
    /// code already says what the failure means to its caller (a signing step that failed is
    /// internal whatever the signer's error was).
    public var category: ErrorCategory {
        switch code {
        case .invalidState, .documentChanged, .certificationViolated, .documentExists, .requiredFieldsEmpty: .conflict
        case .documentNotFound: .notFound
        case .invalidStorageKey, .wrongStorageKey, .tamperedRecord, .storeUnavailable, .writeFailed, .signing:
            .internal
        case .documentUnloadable, .documentUnreadable, .passwordRequired, .invalidField, .annotation, .form,
            .invalidArgument:
            .badInput
        case .cancelled: .cancelled
        }
    }

    /// The message.
    public var description: String { message }

    /// True when both errors have the same code and signo code, whatever their messages.
    public static func == (lhs: SessionError, rhs: SessionError) -> Bool {
        lhs.code == rhs.code && lhs.signoCode == rhs.signoCode
    }
    /// Hashes the code and the signo code, as `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(signoCode)
    }
}
