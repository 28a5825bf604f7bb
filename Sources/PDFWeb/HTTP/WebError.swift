public import PDFCore

/// An error answered as JSON: its HTTP status, the API's code (`SessionError.Code`'s raw value, any
/// other `AutographError`'s `codeName`, or the web layer's own: `badRequest`, `forbidden`,
/// `notFound`, `methodNotAllowed`, `tooLarge`, `busy`, `cancelled`, `internal` …) and the signo code.
///
/// ``init(_:)`` is the one place any error becomes a status, a code and a message; ``HTTPResponse/error(_:)``
/// is the one place that answer becomes the JSON body.
public struct WebError: AutographError {
    /// The HTTP status the answer has.
    public var status: Int
    /// The API's machine-readable code (the JSON body's `code`): an error's `AutographError.codeName`, or the web
    /// layer's own.
    public var code: String
    /// The seed SDK's numeric code, when the error carries one.
    public var signoCode: Int?
    /// What went wrong, in one line for a person (the JSON body's `message`).
    public var message: String
    /// The request's member or parameter that is wrong, when one is.
    public var field: String?
    /// Headers the answer carries (`Allow` for 405, `Retry-After` for 503).
    public var headers: [(String, String)] = []
    /// What kind of failure it is: ``status`` is its `ErrorCategory/httpStatus` unless a more
    /// precise one was given.
    public var category: ErrorCategory
    /// The error this answer was made from, when it was not made here.
    public var underlying: (any Error)?

    /// An error of the web layer of `category`, answered with the category's status
    /// (`ErrorCategory/httpStatus`) unless `status` gives a more precise one (405, 499).
    public init(
        _ category: ErrorCategory, code: String, message: String, signoCode: Int? = nil, field: String? = nil,
        status: Int? = nil
    ) {
        self.category = category
        self.status = status ?? category.httpStatus
        self.code = code
        self.message = message
        self.signoCode = signoCode
        self.field = field
    }

    /// The answer to any error: the one place an error becomes an HTTP status and the API's code.
    ///
    /// A `WebError` is answered as it is. Any other `AutographError` gets the status of its
    /// category, its `codeName` as the code, its message and its seed code: for a `SessionError`,
    /// 409 when the phase does not allow the call or another session wrote the document since this
    /// one read it, 404 for an unknown document, 500 for the store, writing and signing, 400 for
    /// bad input. An error of no known kind is a 500 `internal` keeping the error's text.
    public init(_ error: any Error) {
        if let error = error as? WebError {
            self = error
        } else if let error = error as? any AutographError {
            self.init(error.category, code: error.codeName, message: error.message, signoCode: error.seedCode)
            underlying = error
        } else {
            self.init(.internal, code: ErrorCategory.internal.rawValue, message: "\(error)")
            underlying = error
        }
    }

    /// The status, the code and the message, as in `403 forbidden: …`.
    public var description: String { "\(status) \(code): \(message)" }

    /// ``code``.
    public var codeName: String { code }

    /// ``signoCode``, where the error carries one.
    public var seedCode: Int? { signoCode }

    static func badRequest(_ message: String, member: String? = nil) -> WebError {
        WebError(.usage, code: "badRequest", message: message, field: member)
    }
    static func forbidden(_ message: String) -> WebError { WebError(.forbidden, code: "forbidden", message: message) }
    static func notFound(_ message: String) -> WebError { WebError(.notFound, code: "notFound", message: message) }
    /// A 500 `internal`: the server itself failed (libmicrohttpd missing or not listening).
    static func `internal`(_ message: String) -> WebError { WebError(.internal, code: "internal", message: message) }
    /// 499 (nginx's "client closed request"): the answer nobody reads, kept apart from a cancelled
    /// signing's 400.
    static var clientGone: WebError {
        WebError(.cancelled, code: "cancelled", message: "the client left", status: 499)
    }
    /// 503 with `Retry-After`: the server refuses more work of this kind now (uploads, renders).
    static func busy(_ reason: String, retryAfter seconds: Int = 1) -> WebError {
        var error = WebError(
            .unavailable, code: "busy", message: "the server is busy: \(reason); try again shortly")
        error.headers = [("Retry-After", String(seconds))]
        return error
    }
    static func tooLarge(_ limit: Int) -> WebError {
        WebError(.tooLarge, code: "tooLarge", message: "the body is larger than \(limit) bytes")
    }
    /// 405 with the methods the route allows.
    static func methodNotAllowed(_ method: String, _ path: String, allowed: [String]) -> WebError {
        var error = WebError(
            .usage, code: "methodNotAllowed",
            message: "\(method) is not allowed on \(path) (allowed: \(allowed.joined(separator: ", ")))", status: 405)
        error.headers = [("Allow", allowed.joined(separator: ", "))]
        return error
    }
}

extension ErrorCategory {
    /// The HTTP status an error of this category is answered with (RFC 9110 §15): the one table
    /// from kinds of failure to statuses.
    ///
    /// A cancelled signing is a 400 (the body's code says why), as the API has answered it since it
    /// began; a client that left gets ``WebError/clientGone``'s 499 instead.
    public var httpStatus: Int {
        switch self {
        case .usage, .badInput, .cancelled: 400
        case .forbidden: 403
        case .notFound: 404
        case .conflict: 409
        case .tooLarge: 413
        case .internal: 500
        case .unsupported: 501
        case .unavailable: 503
        }
    }
}
