public import PDFSession

/// An error answered as JSON: its HTTP status, the API's code (`SessionError.Code`'s raw value or
/// `badRequest`, `forbidden`, `notFound`, `tooLarge`, `notImplemented`, `internal`) and the signo code.
public struct WebError: Error, Sendable, CustomStringConvertible {
    public var status: Int
    public var code: String
    public var signoCode: Int?
    public var message: String

    public init(status: Int, code: String, message: String, signoCode: Int? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.signoCode = signoCode
    }

    /// A session error with the status its code calls for: 409 when the phase does not allow the
    /// call or another session wrote the document since this one read it, 404 for an unknown
    /// document, 500 for the store and writing, 400 for bad input.
    public init(_ error: SessionError) {
        let status =
            switch error.code {
            case .invalidState, .documentChanged: 409
            case .documentNotFound: 404
            case .invalidStorageKey, .wrongStorageKey, .tamperedRecord, .storeUnavailable, .writeFailed, .signing: 500
            default: 400
            }
        self.init(status: status, code: error.code.rawValue, message: error.message, signoCode: error.signoCode)
    }

    public var description: String { "\(status) \(code): \(message)" }

    static func badRequest(_ message: String) -> WebError {
        WebError(status: 400, code: "badRequest", message: message)
    }
    static func forbidden(_ message: String) -> WebError { WebError(status: 403, code: "forbidden", message: message) }
    static func notFound(_ message: String) -> WebError { WebError(status: 404, code: "notFound", message: message) }
    static func tooLarge(_ limit: Int) -> WebError {
        WebError(status: 413, code: "tooLarge", message: "the body is larger than \(limit) bytes")
    }
    static func methodNotAllowed(_ method: String, _ path: String) -> WebError {
        WebError(status: 405, code: "badRequest", message: "\(method) is not allowed on \(path)")
    }
}
