import AutographJSON
package import HTTPClient

/// Something that stamps a hash with a trusted time (RFC 3161): a time-stamp authority over
/// HTTP (``HTTPTimeStampAuthority``), or any other source of tokens.
public protocol TimeStampAuthority: Sendable {
    /// A token for `request`, checked against it (signature, purpose, imprint, nonce).
    /// - Throws: `.timestampFailed` (−146) when no valid token comes back.
    func timeStamp(_ request: TimeStampRequest) async throws(SigningError) -> TimeStampToken
}

/// A time-stamp authority reached over HTTP or HTTPS (RFC 3161 §3.4): the request is POSTed as
/// `application/timestamp-query`, the answer read as `application/timestamp-reply`. Credentials go
/// in HTTP basic authentication or as a bearer token; TLS is verified, redirects are not followed,
/// and the answer is bounded in time and size.
public struct HTTPTimeStampAuthority: TimeStampAuthority {
    /// The authority's URL (http or https).
    public let url: String
    /// HTTP basic authentication, when the authority asks for it.
    public var username: String?
    /// The password for ``username``.
    public var password: String?
    /// A bearer token (`Authorization: Bearer …`), when the authority takes one instead.
    public var bearerToken: String?
    /// How long one exchange may take.
    public var timeout: Duration = .seconds(30)
    /// The largest answer taken (a token with a certificate chain is a few kilobytes).
    public var maxResponseSize = 1 << 20
    let transport: any HTTPTransport

    /// An authority at `url`.
    /// - Throws: `.invalidArgument` when `url` is not an http or https URL.
    public init(url: String) throws(SigningError) {
        try self.init(url: url, transport: CurlTransport())
    }

    /// An authority at `url` reached through `transport` (tests count the requests).
    package init(url: String, transport: any HTTPTransport) throws(SigningError) {
        guard HTTPClientRequest.isHTTP(url) else {
            throw SigningError(
                .invalidArgument, "the time-stamp authority's URL must be http or https: \(url.prefix(200))")
        }
        self.url = url
        self.transport = transport
    }

    /// POSTs `request` and returns the granted token, checked against it.
    /// - Throws: `.timestampFailed` (−146) when the authority cannot be reached, answers another
    ///   HTTP status than 2xx, refuses (its status and text are in the message), or sends a token
    ///   that does not check.
    public func timeStamp(_ request: TimeStampRequest) async throws(SigningError) -> TimeStampToken {
        var headers: [(name: String, value: String)] = [
            ("Content-Type", "application/timestamp-query"), ("Accept", "application/timestamp-reply"),
        ]
        if let bearerToken {
            headers.append(("Authorization", "Bearer " + bearerToken))
        } else if let username {
            let credentials = Array((username + ":" + (password ?? "")).utf8)
            headers.append(("Authorization", "Basic " + Base64.encode(credentials)))
        }
        var exchange = HTTPClientRequest(.post, url, headers: headers, body: request.encoded)
        exchange.timeout = timeout
        exchange.maxResponseSize = maxResponseSize
        let body = try await transport.body(
            of: exchange, from: "the time-stamp authority \(url)", failing: .timestampFailed)
        return try TimeStampResponse(der: body).token(answering: request)
    }
}
