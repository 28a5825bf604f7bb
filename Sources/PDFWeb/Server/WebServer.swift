import PDFSession
public import PDFSigning
import Synchronization

/// `autograph serve`'s HTTP server: the web viewer and the JSON API (docs/web-api.md) over a
/// ``WebBackend``, on libmicrohttpd.
///
/// Every request passes `RequestPolicy` first: the run's token (`Authorization: Bearer`, or the
/// cookie that a one-use sign-in link sets), the server's own `Host` and origin, and `X-Autograph: 1` on
/// every request that changes anything; otherwise `403`. Every answer carries `SecurityHeaders`.
///
/// ```swift
/// let server = WebServer(backend: backend)
/// let port = try server.start(host: "127.0.0.1", port: 0)
/// print("open http://127.0.0.1:\(port)\(server.signInLink())")
/// ```
public final class WebServer: Sendable {
    /// What a server allows and where its files come from.
    public struct Configuration: Sendable {
        /// The largest request body; beyond it `413` as soon as the bytes arrive (200 MB).
        public var uploadLimit = 200 * 1024 * 1024
        /// Uploads (bodies over 64 KB, or of unknown length) received at once; beyond, `503` at once.
        public var concurrentUploads = 4
        /// The bytes of every request body held at once; beyond, `503` (320 MB).
        public var uploadBytesInFlight = 320 * 1024 * 1024
        /// The most pixels an uploaded image may declare, checked before it is decoded.
        public var maxImagePixels = 50_000_000
        /// The most pixels of one tile (a whole page at a scale, or a region of it).
        public var maxTilePixels = 25_000_000
        /// How long one tile (or one page's text for search) may take, from its arrival — waiting for
        /// a rendering thread included — before it is given up (`503`).
        public var renderTimeLimit: Duration = .seconds(4)
        /// The most display items (drawing operations kept for replay) a page may have: the memory
        /// of one page's drawing.
        public var maxDisplayItems = 4_000_000
        /// The display items (and glyphs of extracted text) kept for the pages drawn last.
        public var cachedDisplayItems = 1_000_000
        /// How long a tile may wait for a rendering thread before it is answered `503`.
        public var maxTileWait: Duration = .seconds(4)
        /// Serve the viewer's files from this directory instead of the embedded ones.
        public var webRoot: String?
        /// Seconds between `: keep-alive` comments on `/api/events`.
        public var keepAliveInterval: Double = 15
        /// The token (nil: 32 random bytes as hex, made per run).
        public var token: String?
        /// The roots the signature panel (`GET /api/validation`) trusts signers' certificates to.
        public var trustRoots: [Certificate] = []
        /// Roots the panel trusts only because this server made them (`autograph serve`'s demo
        /// identity): a signature under one is valid in the panel, marked `"trustedBy": "demo"`,
        /// since nothing else trusts it.
        public var demoTrustRoots: [Certificate] = []
        /// Requests under way at once, each on a thread of its own; beyond, `503` with `Retry-After` (256).
        public var maxConnections = 256
        /// Connections whose request head has not arrived whole yet (they hold no thread); beyond,
        /// the oldest of them is closed (512).
        public var maxWaitingConnections = 512
        /// Connections from one client address at once: of those waiting for their head (beyond,
        /// that address's oldest is closed) and of the requests under way (beyond, `503`); 0: no
        /// limit. Behind a reverse proxy every connection comes from the proxy's
        /// address: set 0 there, or at least the proxy's own connections to this server (64).
        public var connectionsPerAddress = 64
        /// How long after a connection opens its whole request head must have arrived, whatever
        /// trickles meanwhile: beyond, `408` and closed, or closed without an answer when nothing
        /// came (5 s).
        public var headerTimeout: Duration = .seconds(5)
        /// How long a request's body or answer may move no byte before its connection is closed;
        /// an event stream waits two keep-alive intervals (10 s).
        public var idleTimeout: Duration = .seconds(10)
        /// The largest request head, its request line and header lines; beyond, `431` (16 KB).
        public var maxHeadBytes = 16 * 1024
        /// The longest request target (path and query); beyond, `414` (8 KB).
        public var maxTargetBytes = 8 * 1024
        /// Header lines, cookies and query parameters of one request, counted together; beyond, `431` (200).
        public var maxHeadFields = 200
        /// libmicrohttpd's memory for one connection (`MHD_OPTION_CONNECTION_MEMORY_LIMIT`, 128 KB);
        /// never less than the head limits need: 4 × ``maxHeadBytes`` + 64 bytes a field + 16 KB.
        public var connectionMemory = 128 * 1024
        /// Event streams (`GET /api/events`) one credential (the bearer token; the browser's cookie)
        /// holds at once; a new one ends the oldest (4).
        public var eventStreamsPerCredential = 4
        /// The one origin (`https://app.example.com`, as ``EmbedOrigin/parse(_:)`` writes it) whose
        /// pages may show the viewer in a frame and drive it (`Web/embed/autograph-embed.js`); nil:
        /// no page may frame it. The viewer posts its messages to this origin only, and takes
        /// messages from it only.
        public var embedOrigin: String?

        /// The defaults listed with each property.
        public init() {}
    }

    /// The session behind the API.
    public let backend: WebBackend
    /// What the server allows and where its files come from.
    public let configuration: Configuration
    /// The secret every request carries.
    public let token: String
    private let daemon: MicroHTTPDDaemon
    private let allowedHosts = AllowedHosts()
    let policy: RequestPolicy
    private let router: WebRouter

    /// A server of `backend`, not yet listening (see ``start(host:port:)``); the token is made now when the
    /// configuration gives none.
    public init(backend: WebBackend, configuration: Configuration = Configuration()) {
        self.backend = backend
        self.configuration = configuration
        token = configuration.token ?? Self.randomHex(32)
        let links = SignInLinks()
        let policy = RequestPolicy(
            token: token, links: links, cookieName: "autograph-" + Self.randomHex(6),
            cookieSecret: Self.randomHex(32), embedOrigin: configuration.embedOrigin)
        self.policy = policy
        let router = WebRouter(
            backend: backend, assets: WebAssets(root: configuration.webRoot, frameAncestor: configuration.embedOrigin),
            configuration: configuration,
            links: links)
        self.router = router
        let hosts = allowedHosts
        let streams = configuration.eventStreamsPerCredential
        daemon = MicroHTTPDDaemon(
            limits: .init(
                bodyBytes: configuration.uploadLimit, concurrentBodies: configuration.concurrentUploads,
                totalBytes: configuration.uploadBytesInFlight),
            connections: Self.connectionLimits(configuration),
            keepAliveInterval: configuration.keepAliveInterval,
            admission: { request in Self.admit(request, policy: policy, hosts: hosts.current) }
        ) { request in
            await Self.respond(
                to: request, router: router, policy: policy, hosts: hosts.current, streamsPerCredential: streams)
        }
    }

    /// The daemon's connection limits from `configuration`.
    static func connectionLimits(_ configuration: Configuration) -> MicroHTTPDDaemon.ConnectionLimits {
        let head = RequestHead.Limits(
            headBytes: max(1024, configuration.maxHeadBytes),
            targetBytes: max(256, min(configuration.maxTargetBytes, configuration.maxHeadBytes)),
            fields: max(8, configuration.maxHeadFields))
        let needed = 4 * head.headBytes + 64 * head.fields + 16 * 1024
        return MicroHTTPDDaemon.ConnectionLimits(
            requests: max(1, configuration.maxConnections),
            gate: ConnectionGate.Limits(
                headerTimeout: max(.milliseconds(100), configuration.headerTimeout),
                waiting: max(1, configuration.maxWaitingConnections),
                perAddress: max(0, configuration.connectionsPerAddress), head: head),
            idleTimeout: max(.seconds(1), configuration.idleTimeout),
            memory: max(needed, configuration.connectionMemory))
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

    /// A new sign-in link's path and query (`/?login=CODE`): it opens the viewer in one browser,
    /// once (the browser then holds the run's cookie). Print it with the address bound.
    public func signInLink() -> String { "/?login=" + policy.links.make() }

    /// Answers `request` as if it had come over HTTP to the address bound (the policy's checks, the
    /// route, the security headers): for fuzzing the whole server in process.
    package func handle(_ request: HTTPRequest) async -> HTTPResponse {
        await Self.respond(
            to: request, router: router, policy: policy, hosts: allowedHosts.current,
            streamsPerCredential: configuration.eventStreamsPerCredential)
    }

    /// Ends the event streams, stops listening and waits for the connections to finish.
    public func stop() {
        backend.hub.finishAll()
        daemon.stop()
    }

    static func hostPart(_ host: String) -> String {
        host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
    }

    static func randomHex(_ count: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in
            let byte = UInt8.random(in: 0...255, using: &generator)
            return (byte < 16 ? "0" : "") + String(byte, radix: 16)
        }.joined()
    }

    /// The policy's checks on a request's head, before its body is read (a sign-in link is not
    /// spent here): the refusal, with the security headers, or nil.
    static func admit(_ request: HTTPRequest, policy: RequestPolicy, hosts: Set<String>) -> HTTPResponse? {
        guard case .failure(let error) = policy.check(request, hosts: hosts, spend: false) else { return nil }
        var response = HTTPResponse.error(error)
        SecurityHeaders.apply(to: &response)
        return response
    }

    /// The policy's checks, then the route; every answer gets the security headers. An event
    /// stream counts among its credential's `streamsPerCredential`.
    static func respond(
        to request: HTTPRequest, router: WebRouter, policy: RequestPolicy, hosts: Set<String>,
        streamsPerCredential: Int
    ) async -> HTTPResponse {
        var response: HTTPResponse
        switch policy.check(request, hosts: hosts) {
        case .failure(let error):
            response = .error(error)
        case .success(.link) where request.method != "GET":
            // A HEAD (a mail scanner trying the link): the GET's answer without its credential,
            // the code left unspent for the person.
            response = HTTPResponse(status: 303, headers: [("Location", "/")])
        case .success(.link):
            // The code leaves the address before anything is drawn (and is spent): the browser
            // keeps the cookie, and every later URL only the bare path.
            response = HTTPResponse(status: 303, headers: [("Location", "/"), ("Set-Cookie", policy.cookie)])
        case .success(.spentLink):
            response = HTTPResponse(status: 303, headers: [("Location", "/")])
        case .success(.publicFile):
            do {
                response = try router.assets.response(for: String(RequestPolicy.embedScript.dropFirst()))
            } catch {
                response = .error(error)
            }
            response.headers += [
                ("Cross-Origin-Resource-Policy", "cross-origin"), ("Access-Control-Allow-Origin", "*"),
            ]
        case .success(.providerReturn):
            response = await router.providerReturn(request)
        case .success(let credential):
            var request = request
            request.carriesAPIToken = credential == .bearer
            do {
                response = try await router.route(request)
            } catch {
                response = .error(error)
            }
            if case .events(let subscription) = response.body {
                router.backend.hub.limit(
                    subscription, credential: credential == .bearer ? "bearer" : "cookie", to: streamsPerCredential)
            }
        }
        let page = request.path == "/" || request.path == "/index.html"
        SecurityHeaders.apply(to: &response, framable: policy.embedOrigin != nil && page)
        return response
    }
}

/// The `Host` values accepted: the address bound, known once listening.
final class AllowedHosts: Sendable {
    private let hosts = Mutex<Set<String>>([])
    var current: Set<String> { hosts.withLock { $0 } }
    func set(_ value: Set<String>) { hosts.withLock { $0 = value } }
}
