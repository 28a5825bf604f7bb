/// The error thrown by `PDFCore`: a stable code, a one-line message, and where it happened.
///
/// Errors compare equal by code, so tests and callers can match `error.code == .wrongPassword`
/// without caring about the message.
public struct PDFError: AutographError, Hashable {
    /// What went wrong, as a stable code.
    public enum Code: String, Hashable, Sendable, CaseIterable {
        /// The file could not be opened or mapped.
        case fileUnreadable
        /// The bytes are not a PDF (no header, no trailer and nothing recoverable).
        case notAPDF
        /// The document is damaged beyond what recovery can repair.
        case damaged
        /// A syntax error at an offset (only thrown in strict mode or where nothing can be recovered).
        case syntax
        /// The document is encrypted and no password opens it.
        case passwordRequired
        /// The password given opens neither as user nor as owner.
        case wrongPassword
        /// A feature the core does not handle (public-key security handler, unknown crypt method).
        case unsupported
        /// A limit in ``ParseOptions`` was reached (nesting, decoded size, object count).
        case limitExceeded
        /// A stream could not be decoded.
        case decodeFailed
        /// A reference cycle where the structure must be a tree (page tree, reference chain).
        case cycle
        /// An argument given by the caller is invalid.
        case invalidArgument
        /// Writing the output failed.
        case writeFailed
        /// The cross-reference information is unusable for writing.
        case xref
    }

    public var code: Code
    public var message: String
    /// The byte offset in the file where the problem was found, when known.
    public var offset: Int?
    /// The object being read, when known.
    public var object: PDFReference?
    /// Where in Autograph the error was raised (`#fileID:#line`).
    public var location: String

    public init(
        _ code: Code, _ message: String, offset: Int? = nil, object: PDFReference? = nil,
        fileID: StaticString = #fileID, line: Int = #line
    ) {
        self.code = code
        self.message = message
        self.offset = offset
        self.object = object
        self.location = "\(fileID):\(line)"
    }

    /// The signoAPI error code for this error (-120 load, -121 read, -122 password, -128 write, -145 xref).
    public var signoCode: Int {
        switch code {
        case .fileUnreadable, .notAPDF: -120
        case .passwordRequired, .wrongPassword: -122
        case .writeFailed: -128
        case .xref: -145
        case .damaged, .syntax, .unsupported, .limitExceeded, .decodeFailed, .cycle, .invalidArgument: -121
        }
    }

    /// The code's raw value (``AutographError/codeName``).
    public var codeName: String { code.rawValue }

    /// ``signoCode``: every core error has one.
    public var seedCode: Int? { signoCode }

    /// What kind of failure the code is: the document's fault for most, the file system's for a
    /// failed write; a file that cannot be opened is most often a path that names none.
    public var category: ErrorCategory {
        switch code {
        case .fileUnreadable: .notFound
        case .notAPDF, .damaged, .syntax, .passwordRequired, .wrongPassword, .decodeFailed, .cycle, .invalidArgument,
            .xref:
            .badInput
        case .unsupported: .unsupported
        case .limitExceeded: .tooLarge
        case .writeFailed: .internal
        }
    }

    public var description: String {
        var text = message
        if let object { text += " (object \(object.number) \(object.generation))" }
        if let offset { text += " at offset \(offset)" }
        return text
    }

    public static func == (lhs: PDFError, rhs: PDFError) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}

/// Damage that was repaired while reading: a code, what was done, and where (qpdf's warnings).
public struct PDFWarning: Hashable, Sendable, CustomStringConvertible {
    public enum Code: String, Hashable, Sendable {
        case headerMissing
        case startxrefInvalid
        case xrefInvalid
        case xrefEntryInvalid
        case xrefRebuilt
        case trailerInvalid
        case objectOffsetInvalid
        case objectInvalid
        case objectStreamInvalid
        case streamLengthInvalid
        case syntax
        case filterFailed
        case pageTreeInvalid
        case encryption
        case tooManyWarnings
    }

    public var code: Code
    public var message: String
    public var offset: Int?
    public var object: PDFReference?

    public init(_ code: Code, _ message: String, offset: Int? = nil, object: PDFReference? = nil) {
        self.code = code
        self.message = message
        self.offset = offset
        self.object = object
    }

    public var description: String {
        var text = message
        if let object { text += " (object \(object.number) \(object.generation))" }
        if let offset { text += " at offset \(offset)" }
        return text
    }
}
