public import PDFCore

/// The error thrown by `PDFAnnotations`: a stable code, the signoAPI code where the seeds define
/// one, and a one-line message.
public struct AnnotationError: AutographError, Hashable {
    /// What went wrong, as a stable code.
    public enum Code: String, Hashable, Sendable, CaseIterable {
        /// The document is PDF/A-1 (notes would add transparency, which PDF/A-1 forbids).
        case pdfA1
        /// No field with that name, or not a field that takes a photo.
        case unknownField
        /// The field is read-only.
        case readOnly
        /// The image cannot be read.
        case invalidImage
        /// The page does not exist, or a value is out of range.
        case invalidArgument
        /// No font can draw the text.
        case fontUnavailable
        /// Writing failed.
        case writeFailed
    }

    /// What went wrong; equality and hashing compare this alone.
    public var code: Code
    /// What went wrong, in one line for a person.
    public var message: String
    /// The core error a failed write wraps.
    public var underlying: (any Error)?

    /// An error of the given kind with its message.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    init(_ error: PDFError) {
        self.init(.writeFailed, error.description)
        underlying = error
    }

    /// The signoAPI code: -128 for write failures; -150 (the seeds' "unknown error") otherwise, as
    /// the seeds define no code for a failed notes mode or photo.
    public var signoCode: Int {
        switch code {
        case .writeFailed: -128
        default: -150
        }
    }

    /// The code's raw value (`AutographError/codeName`).
    public var codeName: String { code.rawValue }

    /// ``signoCode``: every annotation error has one (-150 where the seeds define none).
    public var seedCode: Int? { signoCode }

    /// What kind of failure the code is.
    public var category: ErrorCategory {
        switch code {
        case .pdfA1: .conflict
        case .unknownField: .notFound
        case .readOnly: .forbidden
        case .invalidImage, .invalidArgument: .badInput
        case .fontUnavailable: .unsupported
        case .writeFailed: .internal
        }
    }

    /// The message.
    public var description: String { message }

    /// True when both errors have the same `code`, whatever their messages.
    public static func == (lhs: AnnotationError, rhs: AnnotationError) -> Bool { lhs.code == rhs.code }
    /// Hashes the `code` alone, as `==` compares.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
