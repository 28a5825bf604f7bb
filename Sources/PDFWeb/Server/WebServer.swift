import PDFSession
import Synchronization

/// `autograph serve`'s HTTP server: the web viewer and the JSON API (docs/web-api.md) over a
/// ``WebBackend``, on libmicrohttpd.
///
/// Every request must carry the run's token (query `token`, `Authorization: Bearer`, or the
/// cookie `autograph_token` that `GET /?token=…` sets) and a `Host` header naming the address
/// bound (DNS rebinding); otherwise `403`.
///
/// ```swift
/// let server = WebServer(backend: backend)
/// let port = try server.start(host: "127.0.0.1", port: 0)
/// print("http://127.0.0.1:\(port)/?token=\(server.token)")
/// ```
public final class WebServer: Sendable {
    /// What a server allows and where its files come from.
    public struct Configuration: Sendable {
        /// The largest request body; beyond it `413` as soon as the bytes arrive (200 MB).
        public var uploadLimit = 200 * 1024 * 1024
        /// Serve the viewer's files from this directory instead of the embedded ones.
        public var webRoot: String?
        /// Seconds between `: keep-alive` comments on `/api/events`.
        public var keepAliveInterval: Double = 15
        /// The token (nil: 32 random bytes as hex, made per run).
        public var token: String?

        public init() {}
    }

    public let backend: WebBackend
    public let configuration: Configuration
    /// The secret every request carries.
    public let token: String
    private let daemon: MicroHTTPDDaemon
    private let allowedHosts = AllowedHosts()

    public init(backend: WebBackend, configuration: Configuration = Configuration()) {
        self.backend = backend
        self.configuration = configuration
        token = configuration.token ?? Self.randomToken()
        let router = WebRouter(backend: backend, assets: WebAssets(root: configuration.webRoot))
        let gate = Gate(token: token)
        let hosts = allowedHosts
        daemon = MicroHTTPDDaemon(
            uploadLimit: configuration.uploadLimit, keepAliveInterval: configuration.keepAliveInterval
        ) { request in
            await Self.respond(to: request, router: router, gate: gate, hosts: hosts.current)
        }
    }

    /// Listens on `host`:`port` (0: any free port) and returns the port bound.
    /// - Throws: `WebError` (500) when the address cannot be bound.
    @discardableResult
    public func start(host: String = "127.0.0.1", port: Int = 8410) throws(WebError) -> Int {
        let bound = try daemon.start(host: host, port: port)
        var hosts: Set<String> = [Self.hostPart(host) + ":\(bound)"]
        if ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host) {
            hosts.formUnion(["127.0.0.1:\(bound)", "localhost:\(bound)", "[::1]:\(bound)"])
        }
        allowedHosts.set(hosts)
        return bound
    }

    /// Ends the event streams, stops listening and waits for the connections to finish.
    public func stop() {
        backend.hub.finishAll()
        daemon.stop()
    }

    static func hostPart(_ host: String) -> String {
        host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
    }

    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in
            let byte = UInt8.random(in: 0...255, using: &generator)
            return (byte < 16 ? "0" : "") + String(byte, radix: 16)
        }.joined()
    }

    /// The checks every request passes, then the route.
    static func respond(to request: HTTPRequest, router: WebRouter, gate: Gate, hosts: Set<String>) async
        -> HTTPResponse
    {
        guard let host = request.headers["host"]?.lowercased(), hosts.contains(host) else {
            return .error(.forbidden("the Host header does not name this server"))
        }
        guard let presented = gate.presentedToken(request) else {
            return .error(.forbidden("the request does not carry this run's token"))
        }
        var response: HTTPResponse
        do {
            response = try await router.route(request)
        } catch {
            response = .error(error)
        }
        if presented == .query && request.path == "/" {
            response.headers.append(
                ("Set-Cookie", "\(Gate.cookie)=\(gate.token); HttpOnly; SameSite=Strict; Path=/"))
        }
        return response
    }
}

/// Checks the run's token in constant time.
struct Gate: Sendable {
    static let cookie = "autograph_token"
    let token: String

    enum Source: Equatable { case query, header, cookie }

    /// Where the right token was found, or nil.
    func presentedToken(_ request: HTTPRequest) -> Source? {
        if let value = request.query["token"], matches(value) { return .query }
        if let value = request.headers["authorization"], value.hasPrefix("Bearer "),
            matches(String(value.dropFirst(7)))
        {
            return .header
        }
        if let value = request.cookies[Self.cookie], matches(value) { return .cookie }
        return nil
    }

    /// Compares every byte whatever the first difference (the length is not secret).
    func matches(_ candidate: String) -> Bool {
        let expected = Array(token.utf8)
        let given = Array(candidate.utf8)
        guard expected.count == given.count else { return false }
        var difference: UInt8 = 0
        for index in expected.indices { difference |= expected[index] ^ given[index] }
        return difference == 0
    }
}

/// The `Host` values accepted: the address bound, known once listening.
final class AllowedHosts: Sendable {
    private let hosts = Mutex<Set<String>>([])
    var current: Set<String> { hosts.withLock { $0 } }
    func set(_ value: Set<String>) { hosts.withLock { $0 = value } }
}
