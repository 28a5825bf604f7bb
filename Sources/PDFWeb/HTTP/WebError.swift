public import PDFSession

/// An error answered as JSON: its HTTP status, the API's code (`SessionError.Code`'s raw value or
/// `badRequest`, `forbidden`, `notFound`, `tooLarge`, `notImplemented`, `internal`) and the signo code.
public struct WebError: Error, Sendable, CustomStringConvertible {
    public var status: Int
    public var code: String
    public var signoCode: Int?
    public var message: String
    /// The request's member or parameter that is wrong, when one is.
    public var field: String?
    /// Headers the answer carries (`Allow` for 405, `Retry-After` for 503).
    public var headers: [(String, String)] = []

    public init(status: Int, code: String, message: String, signoCode: Int? = nil, field: String? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.signoCode = signoCode
        self.field = field
    }

    /// A session error with the status its code calls for: 409 when the phase does not allow the
    /// call or another session wrote the document since this one read it, 404 for an unknown
    /// document, 500 for the store and writing, 400 for bad input.
    public init(_ error: SessionError) {
        let status =
            switch error.code {
            case .invalidState, .documentChanged, .certificationViolated: 409
            case .documentNotFound: 404
            case .invalidStorageKey, .wrongStorageKey, .tamperedRecord, .storeUnavailable, .writeFailed, .signing: 500
            default: 400
            }
        self.init(status: status, code: error.code.rawValue, message: error.message, signoCode: error.signoCode)
    }

    public var description: String { "\(status) \(code): \(message)" }

    static func badRequest(_ message: String, member: String? = nil) -> WebError {
        WebError(status: 400, code: "badRequest", message: message, field: member)
    }
    static func forbidden(_ message: String) -> WebError { WebError(status: 403, code: "forbidden", message: message) }
    static func notFound(_ message: String) -> WebError { WebError(status: 404, code: "notFound", message: message) }
    /// 503 with `Retry-After`: the server refuses more work of this kind now (uploads, renders).
    static func busy(_ reason: String, retryAfter seconds: Int = 1) -> WebError {
        var error = WebError(status: 503, code: "busy", message: "the server is busy: \(reason); try again shortly")
        error.headers = [("Retry-After", String(seconds))]
        return error
    }
    static func tooLarge(_ limit: Int) -> WebError {
        WebError(status: 413, code: "tooLarge", message: "the body is larger than \(limit) bytes")
    }
    /// 405 with the methods the route allows.
    static func methodNotAllowed(_ method: String, _ path: String, allowed: [String]) -> WebError {
        var error = WebError(
            status: 405, code: "methodNotAllowed",
            message: "\(method) is not allowed on \(path) (allowed: \(allowed.joined(separator: ", ")))")
        error.headers = [("Allow", allowed.joined(separator: ", "))]
        return error
    }
}
