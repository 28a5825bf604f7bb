/// Who may drive the server, decided for every request before any route runs.
///
/// The server holds a person's document and signs in their name, so another web page open in the
/// same browser — on another port of 127.0.0.1, on another site, in a frame — must not be able to
/// read or change anything. A request passes when:
/// 1. it is well formed: no repeated `Host`, `Origin`, credential or fetch-metadata header, no
///    control character in its path;
/// 2. its `Host` names the address bound (DNS rebinding);
/// 3. it comes from the server's own origin: an `Origin` header, when present, is the server's, and
///    `Sec-Fetch-Site`, when present, is `same-origin` or `none` (typed or bookmarked) — a top-level
///    navigation to the viewer page itself is the one exception;
/// 4. it carries a credential: `Authorization: Bearer TOKEN` (scripts, tests), the run's cookie
///    (the browser, after a sign-in link), or an unused sign-in link's code (`GET /?login=CODE`
///    only, answered with a redirect that sets the cookie and drops the code from the address —
///    also when the request carries the cookie as well; a used code with the cookie is only
///    redirected, without it refused). Only a `GET` spends a code: a `HEAD` (a mail scanner
///    trying the link) is answered as the `GET` would be but without the cookie, and the code
///    stays good. The API token never appears in a URL;
/// 5. a request that changes anything (every method but `GET` and `HEAD`) also carries
///    `X-Autograph: 1` — a header no form, image or cross-origin "simple" request can send — and,
///    when its credential is the cookie, an `Origin` or `Sec-Fetch-Site` that proves where it comes
///    from.
struct RequestPolicy: Sendable {
    /// The bearer token (the API's; never in a URL).
    let token: String
    /// The sign-in links' codes, each good for one use.
    let links: SignInLinks
    /// The cookie's name: one per run, so two servers on one host (cookies ignore ports) never
    /// overwrite each other's.
    let cookieName: String
    /// The cookie's value: a secret of its own, so the cookie never reveals the bearer token.
    let cookieSecret: String
    /// The one origin allowed to show the viewer in a frame (`--embed-origin`), or nil.
    let embedOrigin: String?

    enum Credential: Equatable {
        case bearer, cookie
        /// An unused sign-in link: redirect and set the cookie.
        case link
        /// A used (or unknown) link from a browser that holds the cookie: redirect only.
        case spentLink
        /// No credential, for the one public file (``RequestPolicy/embedScript``).
        case publicFile
        /// No credential: the browser back from the signer's trust service provider
        /// (``RequestPolicy/providerReturn``), whose unguessable, single-use `state` is the credential.
        case providerReturn
    }

    /// Headers that must come once: a second one would let a proxy and this server disagree.
    static let singleHeaders = [
        "host", "origin", "authorization", "cookie", "x-autograph", "sec-fetch-site", "sec-fetch-mode",
        "sec-fetch-dest", "content-type",
    ]

    /// The credential the request carries, or why it is refused. A sign-in link's code is spent
    /// only when `spend` is true and the request is a `GET`: the daemon checks each request from its
    /// head first (`spend: false`), then again once its body has arrived.
    func check(_ request: HTTPRequest, hosts: Set<String>, spend: Bool = true) -> Result<Credential, WebError> {
        if let repeated = Self.singleHeaders.first(where: request.repeatedHeaders.contains) {
            return .failure(.badRequest("the \(repeated) header is given more than once"))
        }
        if request.path.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            return .failure(.badRequest("the path holds a control character"))
        }
        guard let host = request.headers["host"]?.lowercased(), hosts.contains(host) else {
            return .failure(.forbidden("the Host header does not name this server"))
        }
        if request.isRead, request.path == Self.embedScript {
            // The embedding module is a public file (it holds no secret and reads nothing): the
            // host's page loads it, from any origin, without this server's credential.
            return .success(.publicFile)
        }
        if request.isRead, request.path == Self.providerReturn {
            // A top-level navigation from the provider's site: it carries no cookie of ours
            // (SameSite=Strict) and no Origin; the router acts only on a state it handed out.
            return .success(.providerReturn)
        }
        let origin = request.headers["origin"]
        if let origin, !hosts.contains(where: { "http://" + $0 == origin.lowercased() }) {
            return .failure(.forbidden("requests from \(origin) are refused: only the viewer's own pages may call"))
        }
        let site = request.headers["sec-fetch-site"]
        if let site, site != "same-origin", site != "none", !isNavigationToViewer(request) {
            return .failure(.forbidden("a \(site) request is refused: only the viewer's own pages may call"))
        }
        let credential: Credential
        let hasCookie = request.cookies[cookieName].map { Self.equal($0, cookieSecret) } ?? false
        if let code = request.query["login"], request.isRead, request.path == "/" || request.path == "/index.html" {
            // The link first, whatever else the request carries: a browser that already holds the
            // cookie (a link opened a second time) is redirected too, so no code stays in its
            // address bar or its page's URL.
            if (spend && request.method == "GET") ? links.consume(code) : links.isUnused(code) {
                credential = .link
            } else if hasCookie {
                credential = .spentLink
            } else {
                return .failure(
                    .forbidden(
                        "this sign-in link was used already (each opens the viewer in one browser, once): "
                            + "ask for a new one with POST /api/links and the API token, or restart autograph serve"))
            }
        } else if let value = request.headers["authorization"], value.hasPrefix("Bearer "),
            Self.equal(String(value.dropFirst(7)), token)
        {
            credential = .bearer
        } else if hasCookie {
            credential = .cookie
        } else {
            return .failure(.forbidden("the request does not carry this run's token"))
        }
        if !request.isRead {
            guard request.headers["x-autograph"] == "1" else {
                return .failure(.forbidden("a request that changes anything must carry the header X-Autograph: 1"))
            }
            if credential == .cookie, origin == nil, site != "same-origin" {
                return .failure(.forbidden("a request from a browser must say where it comes from (Origin)"))
            }
        }
        return .success(credential)
    }

    /// A person opening the viewer from elsewhere (a link in a mail, another site): a top-level
    /// navigation to the page, which reads nothing and changes nothing by itself.
    /// With an embedding origin, the same navigation into a frame of the host's page: the page's
    /// `frame-ancestors` then lets that origin alone show it.
    private func isNavigationToViewer(_ request: HTTPRequest) -> Bool {
        let destination = request.headers["sec-fetch-dest"]
        return request.isRead && (request.path == "/" || request.path == "/index.html")
            && request.headers["sec-fetch-mode"] == "navigate"
            && (destination == "document" || (embedOrigin != nil && destination == "iframe"))
    }

    /// Where the signer's trust service provider sends the browser back (`ProviderSigning`).
    static let providerReturn = "/provider-return"

    /// The path of the embedding module, the one file served without a credential.
    static let embedScript = "/embed/autograph-embed.js"

    /// The `Set-Cookie` value the link's redirect sends.
    var cookie: String { "\(cookieName)=\(cookieSecret); HttpOnly; SameSite=Strict; Path=/" }

    /// Compares every byte whatever the first difference (the length is not secret).
    static func equal(_ candidate: String, _ expected: String) -> Bool {
        let expected = Array(expected.utf8)
        let given = Array(candidate.utf8)
        guard expected.count == given.count else { return false }
        var difference: UInt8 = 0
        for index in expected.indices { difference |= expected[index] ^ given[index] }
        return difference == 0
    }
}

/// The headers every answer carries: no framing, no sniffing, no referrer, nothing cached, and a
/// content security policy that lets the viewer load only its own files.
enum SecurityHeaders {
    /// `Content-Security-Policy` with the hashes of the inline scripts a page may run; `frameAncestor`
    /// is the one origin that may show the page in a frame (none: no frame anywhere).
    static func contentSecurityPolicy(scriptHashes: [String] = [], frameAncestor: String? = nil) -> String {
        let scripts = (["'self'"] + scriptHashes.map { "'sha256-\($0)'" }).joined(separator: " ")
        return "default-src 'self'; script-src \(scripts); style-src 'self'; img-src 'self' blob: data:; "
            + "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors "
            + (frameAncestor ?? "'none'")
    }

    /// Adds the headers the response does not set itself. A framable response (the viewer's page,
    /// with an embedding origin) sets its own `frame-ancestors` and gets no `X-Frame-Options`.
    static func apply(to response: inout HTTPResponse, framable: Bool = false) {
        func add(_ name: String, _ value: String) {
            if response.header(name) == nil { response.headers.append((name, value)) }
        }
        add("Content-Security-Policy", contentSecurityPolicy())
        if !framable { add("X-Frame-Options", "DENY") }
        add("X-Content-Type-Options", "nosniff")
        add("Referrer-Policy", "no-referrer")
        add("Cross-Origin-Opener-Policy", "same-origin")
        add("Cross-Origin-Resource-Policy", "same-origin")  // the embedding module sets cross-origin
        add("Cache-Control", "no-store")
    }
}

/// The origin given to `--embed-origin`: `http` or `https`, a host name or address, and a port.
public enum EmbedOrigin {
    /// `text` written canonically (lower case, no default port, no trailing slash), or nil when it
    /// is not an origin: a path, a query, credentials, a wildcard or another scheme.
    public static func parse(_ text: String) -> String? {
        var rest = Substring(text.lowercased())
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        let scheme: String
        if rest.hasPrefix("https://") {
            scheme = "https"
        } else if rest.hasPrefix("http://") {
            scheme = "http"
        } else {
            return nil
        }
        rest = rest.dropFirst(scheme.count + 3)
        var host = rest
        var port: Int?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { return nil }
            host = rest[...close]
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":"), let number = Int(after.dropFirst()) else { return nil }
                port = number
            }
            guard host.dropFirst().dropLast().allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else {
                return nil
            }
        } else {
            let parts = rest.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count <= 2 else { return nil }
            host = parts[0]
            if parts.count == 2 {
                guard let number = Int(parts[1]), !parts[1].hasPrefix("+") else { return nil }
                port = number
            }
            let allowed = host.allSatisfy { ($0.isASCII && ($0.isLetter || $0.isNumber)) || $0 == "-" || $0 == "." }
            guard allowed, !host.hasPrefix("."), !host.hasSuffix("."), !host.contains("..") else { return nil }
        }
        guard host.count >= 1, host.count <= 253 else { return nil }
        if let port {
            guard (1...65535).contains(port) else { return nil }
            if (scheme == "http" && port == 80) || (scheme == "https" && port == 443) { return "\(scheme)://\(host)" }
            return "\(scheme)://\(host):\(port)"
        }
        return "\(scheme)://\(host)"
    }
}
