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

    /// What went wrong; equality and hashing compare this alone.
    public var code: Code
    /// What went wrong, in one line for a person, without the offset and object that ``description`` adds.
    public var message: String
    /// The byte offset in the file where the problem was found, when known.
    public var offset: Int?
    /// The object being read, when known.
    public var object: PDFReference?
    /// Where in Autograph the error was raised (`#fileID:#line`).
    public var location: String

    /// An error with a code and a message, and where in the file it was found.
    ///
    /// `fileID` and `line` record where in Autograph it was raised (``location``); leave them to their
    /// defaults.
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

    /// The message followed by the object (`(object 12 0)`) and the byte offset (`at offset 4711`) when known.
    public var description: String {
        var text = message
        if let object { text += " (object \(object.number) \(object.generation))" }
        if let offset { text += " at offset \(offset)" }
        return text
    }

    /// True when both errors have the same `code`, whatever their messages and locations.
    public static func == (lhs: PDFError, rhs: PDFError) -> Bool { lhs.code == rhs.code }
    /// Hashes the `code` alone, as `==` compares.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}

/// Damage that was repaired while reading: a code, what was done, and where (qpdf's warnings).
public struct PDFWarning: Hashable, Sendable, CustomStringConvertible {
    /// The kind of damage that was repaired.
    public enum Code: String, Hashable, Sendable {
        /// No `%PDF-` header, or bytes before it (offsets are then read relative to the header).
        case headerMissing
        /// `startxref` is missing or does not point at a cross-reference section.
        case startxrefInvalid
        /// A cross-reference section is unusable or inconsistent: a broken `/Prev` chain or loop, an unreadable
        /// `/XRefStm`, a stream without `/Type /XRef`, offsets relative to a displaced header, a catalog not where the
        /// section says.
        case xrefInvalid
        /// A cross-reference entry or subsection is malformed and was read another way (a table starting at 1 read as
        /// starting at 0).
        case xrefEntryInvalid
        /// The cross-reference index was rebuilt by scanning the file for `n g obj`.
        case xrefRebuilt
        /// The trailer dictionary is unusable. Not raised by this version: a bad trailer leads to ``xrefInvalid`` or
        /// ``xrefRebuilt``.
        case trailerInvalid
        /// No object was found at the offset the cross-reference gives; it was searched for elsewhere.
        case objectOffsetInvalid
        /// An object is empty, not of the generation referred to, or part of a reference chain that is cyclic or too
        /// long; read as null.
        case objectInvalid
        /// An object stream is not a stream, unreadable, or lacks an object the cross-reference places in it.
        case objectStreamInvalid
        /// A stream's `/Length` is missing or wrong; the data was measured up to `endstream`.
        case streamLengthInvalid
        /// A syntax error repaired while reading an object: an unbalanced bracket or dictionary, an unknown token read
        /// as null, a bad `#` escape, a missing `endobj`.
        case syntax
        /// A stream filter failed. Not raised by this version: decoding errors are thrown as
        /// ``PDFError/Code-swift.enum/decodeFailed`` when the data is asked for.
        case filterFailed
        /// The page tree is damaged: a kid that is not a dictionary, a loop, a tree too deep or too large, or a
        /// `/Pages` that is not the root; the damage is skipped.
        case pageTreeInvalid
        /// An object could not be decrypted (its key could not be derived) and reads as null, or
        /// `/Encrypt /Length` is not the key length that opened the document.
        case encryption
        /// The last warning kept: the count of further warnings dropped at ``ParseOptions/maxWarnings``.
        case tooManyWarnings
    }

    /// The kind of damage.
    public var code: Code
    /// What was found and what was done, in one line.
    public var message: String
    /// The byte offset in the file where the damage was found, when known.
    public var offset: Int?
    /// The object being read, when known.
    public var object: PDFReference?

    /// A warning of the given kind with what was done, and where the damage was found when known.
    public init(_ code: Code, _ message: String, offset: Int? = nil, object: PDFReference? = nil) {
        self.code = code
        self.message = message
        self.offset = offset
        self.object = object
    }

    /// The message followed by the object (`(object 12 0)`) and the byte offset (`at offset 4711`) when known.
    public var description: String {
        var text = message
        if let object { text += " (object \(object.number) \(object.generation))" }
        if let offset { text += " at offset \(offset)" }
        return text
    }
}
