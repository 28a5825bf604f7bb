import PDFCore

/// The error thrown by `PDFAnnotations`: a stable code, the signoAPI code where the seeds define
/// one, and a one-line message.
public struct AnnotationError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Code: String, Hashable, Sendable {
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

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    init(_ error: PDFError) { self.init(.writeFailed, error.description) }

    /// The signoAPI code: -128 for write failures; -150 (the seeds' "unknown error") otherwise, as
    /// the seeds define no code for a failed notes mode or photo.
    public var signoCode: Int {
        switch code {
        case .writeFailed: -128
        default: -150
        }
    }

    public var description: String { message }

    public static func == (lhs: AnnotationError, rhs: AnnotationError) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
