/// One HTTP request and the limits it is sent under. The defaults are safe for a request to a
/// service on the Internet: TLS verified, no redirect followed, 30 s in all, 10 MiB at most back.
package struct HTTPClientRequest: Sendable {
    /// The request methods the client sends.
    package enum Method: String, Sendable {
        case get = "GET"
        case head = "HEAD"
        case post = "POST"
        case put = "PUT"
        case delete = "DELETE"
    }

    /// The method.
    package var method: Method
    /// An `http` or `https` URL; any other scheme is refused (`unsupportedScheme`).
    package var url: String
    /// Header fields in order (a name and a value, neither with CR or LF).
    package var headers: [(name: String, value: String)]
    /// The body (POST, PUT; sent with `Content-Length`).
    package var body: [UInt8]
    /// The longest the whole exchange may take, connecting included (`timedOut` beyond).
    package var timeout: Duration = .seconds(30)
    /// The longest connecting may take (name resolution, TCP and TLS handshakes).
    package var connectTimeout: Duration = .seconds(10)
    /// The most bytes the response's body may have: the transfer is aborted beyond (`tooLarge`).
    package var maxResponseSize = 10 * 1024 * 1024
    /// How many redirects are followed (to `http` or `https` only); 0, the default, answers a
    /// redirect as it is, a 3xx response.
    package var maxRedirects = 0

    /// A request of `method` to `url`.
    package init(
        _ method: Method, _ url: String, headers: [(name: String, value: String)] = [], body: [UInt8] = []
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }

    /// The URL's scheme, lowercased (`https`), or nil when it has none.
    package static func scheme(of url: String) -> String? {
        guard let end = url.firstRange(of: "://") else { return nil }
        let scheme = url[..<end.lowerBound].lowercased()
        // RFC 3986 §3.1: a letter, then letters, digits, "+", "-" and ".".
        guard let first = scheme.unicodeScalars.first, ("a"..."z").contains(first),
            scheme.unicodeScalars.allSatisfy({
                ("a"..."z").contains($0) || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0)
            })
        else { return nil }
        return scheme
    }

    /// Whether `url` is an absolute `http` or `https` URL with a host.
    package static func isHTTP(_ url: String) -> Bool {
        guard let scheme = scheme(of: url), scheme == "http" || scheme == "https",
            let end = url.firstRange(of: "://")
        else { return false }
        let rest = url[end.upperBound...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        return !authority.isEmpty && !url.unicodeScalars.contains { $0.value < 0x21 || $0.value == 0x7F }
    }

    /// The URL as messages show it: without user information, query or fragment.
    var shownURL: String {
        var text = Substring(url)
        if let cut = text.firstIndex(where: { $0 == "?" || $0 == "#" }) { text = text[..<cut] }
        if let start = text.firstRange(of: "://") {
            let afterScheme = text[start.upperBound...]
            let authorityEnd = afterScheme.firstIndex(of: "/") ?? afterScheme.endIndex
            if let at = afterScheme[..<authorityEnd].lastIndex(of: "@") {
                text = text[..<start.upperBound] + text[text.index(after: at)...]
            }
        }
        return String(text)
    }
}

/// What came back: the final response's status, header fields and body.
package struct HTTPClientResponse: Sendable {
    /// The status code (200, 404 …).
    package var status: Int
    /// The header fields in order, as received (names as the server spelled them).
    package var headers: [(name: String, value: String)]
    /// The body, at most the request's `maxResponseSize` bytes.
    package var body: [UInt8]

    /// A response with `status`, `headers` and `body`.
    package init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// Whether the status is 2xx.
    package var isSuccess: Bool { (200..<300).contains(status) }

    /// The first header field named `name` (compared without case), or nil.
    package func header(_ name: String) -> String? {
        let wanted = name.lowercased()
        return headers.first { $0.name.lowercased() == wanted }?.value
    }
}
