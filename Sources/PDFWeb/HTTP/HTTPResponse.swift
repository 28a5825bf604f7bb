public import AutographJSON
import PDFCore

/// An answer: a status, headers and either bytes or a stream of Server-Sent Events.
public struct HTTPResponse: Sendable {
    /// What the answer carries after its headers.
    public enum Body: Sendable {
        /// The whole body, as bytes.
        case bytes([UInt8])
        /// `text/event-stream`: chunks taken from the subscription until the client goes away.
        case events(EventSubscription)
    }

    /// The HTTP status code.
    public var status: Int
    /// The headers, in order (a name may repeat).
    public var headers: [(String, String)]
    /// What follows the headers.
    public var body: Body

    /// An answer of `status` with `headers` and `body`; by default an empty `200`.
    public init(status: Int = 200, headers: [(String, String)] = [], body: Body = .bytes([])) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// An answer of `bytes` as `contentType`, followed by `headers`.
    public init(status: Int = 200, contentType: String, bytes: [UInt8], headers: [(String, String)] = []) {
        self.init(status: status, headers: [("Content-Type", contentType)] + headers, body: .bytes(bytes))
    }

    /// JSON, never cached.
    public static func json(_ value: JSONValue, status: Int = 200) -> HTTPResponse {
        HTTPResponse(
            status: status, contentType: "application/json; charset=utf-8", bytes: value.bytes,
            headers: [("Cache-Control", "no-store")])
    }

    /// An error as the API documents it: `{"error": {"code", "signoCode"?, "message", "field"?}}`
    /// with the error's status and headers; the only place an error body is written. Any other
    /// error becomes a `WebError` first, through ``WebError/init(_:)``.
    public static func error(_ error: WebError) -> HTTPResponse {
        var members: [(String, JSONValue)] = [("code", .string(error.code))]
        if let signo = error.signoCode { members.append(("signoCode", .int(signo))) }
        members.append(("message", .string(error.message)))
        if let field = error.field { members.append(("field", .string(field))) }
        var response = json(.object([("error", .object(members))]), status: error.status)
        response.headers += error.headers
        return response
    }

    /// The value of the first header named `name` (case-insensitive).
    public func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }
}
