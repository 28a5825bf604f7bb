import AutographJSON
import PDFCore

/// An HTTP request as the router sees it: the whole body collected, header names in lower case.
public struct HTTPRequest: Sendable {
    /// The method as sent: `GET`, `POST` …
    public var method: String
    /// The path, percent-decoded, without the query.
    public var path: String
    /// The query parameters, percent-decoded (the last of repeated names wins).
    public var query: [String: String]
    /// Header values by lower-case name.
    public var headers: [String: String]
    /// Cookies by name.
    public var cookies: [String: String]
    /// The whole body.
    public var body: [UInt8]
    /// Header names (lower case) the request gives more than once.
    public var repeatedHeaders: Set<String> = []
    /// The connection, watched while the request is answered (nil for requests made in process).
    public var client: ClientConnection?
    /// When the request was read whole: time budgets count from here, waiting included.
    public var received = ContinuousClock.now
    /// Set by the policy: the request carries the API token (not only a browser's cookie).
    var carriesAPIToken = false

    /// A request; each argument sets the property of the same name (for requests made in process and tests).
    public init(
        method: String, path: String, query: [String: String] = [:], headers: [String: String] = [:],
        cookies: [String: String] = [:], body: [UInt8] = [], repeatedHeaders: Set<String> = []
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.cookies = cookies
        self.body = body
        self.repeatedHeaders = repeatedHeaders
    }

    /// Whether the method only reads (`GET`, `HEAD`): every other one changes state.
    var isRead: Bool { method == "GET" || method == "HEAD" }

    /// The largest JSON body of an API call (1 MiB); calls that carry strokes or images take more.
    static let maxJSONBytes = 1 << 20
    /// The largest JSON body of a call that carries strokes (`InkStroke.maximumPointCount` points).
    static let maxStrokesJSONBytes = 8 << 20

    /// The longest string of a JSON body as written (512 KiB: a field's 64 KiB value with every
    /// character escaped): a longer one is refused while the body is parsed, before it is decoded.
    static let maxJSONStringBytes = 512 << 10

    /// The body as JSON (an empty body is `{}`); 413 past `maxBytes`, before it is parsed; 400 when
    /// it is not JSON or holds a string longer than `maxStringBytes`.
    func json(maxBytes: Int = HTTPRequest.maxJSONBytes, maxStringBytes: Int = HTTPRequest.maxJSONStringBytes)
        throws(WebError) -> JSONValue
    {
        guard body.count <= maxBytes else {
            throw WebError(
                .tooLarge, code: "tooLarge",
                message: "the JSON body has \(body.count) bytes; this call takes at most \(maxBytes)")
        }
        guard !body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) else { return .object([]) }
        do {
            return try JSONValue.parse(body, maxStringBytes: maxStringBytes)
        } catch {
            throw WebError.badRequest("the body is not JSON: \(error.description)")
        }
    }
}
