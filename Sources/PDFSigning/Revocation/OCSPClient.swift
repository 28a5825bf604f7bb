package import HTTPClient
import PDFCore

/// Asks a certificate's OCSP responder for its status over HTTP (RFC 6960 Appendix A.1): the
/// request is POSTed as `application/ocsp-request` to the responder the certificate names, and the
/// response is read and checked before it is returned — successful, signed by the issuer or its
/// delegated responder, about this certificate, current, and echoing the request's nonce.
///
/// ```swift
/// let response = try await OCSPClient().fetch(for: signer, issuer: intermediate)
/// if case .revoked(let time, let reason) = response.status(of: signer, issuer: intermediate) { … }
/// ```
///
/// TLS is verified, redirects are not followed, and the exchange is bounded in time and size.
public struct OCSPClient: Sendable {
    /// How long one exchange may take.
    public var timeout: Duration = .seconds(30)
    /// The largest response taken (a response with its responder's certificate is a few kilobytes).
    public var maxResponseSize = 1 << 20
    let transport: any HTTPTransport
    let now: @Sendable () -> Int

    /// A client over HTTP and HTTPS (libcurl), checking responses at the current time.
    public init() {
        self.init(transport: CurlTransport())
    }

    /// A client sending through `transport` (tests count or answer the requests), checking responses
    /// at the time `now` gives (seconds since 1970).
    package init(transport: any HTTPTransport, now: @escaping @Sendable () -> Int = { PDFDate.now().seconds }) {
        self.transport = transport
        self.now = now
    }

    /// Asks the first OCSP responder that `certificate` names (``Certificate/ocspURLs``) for its
    /// status, and returns the response once checked (``OCSPResponse/problem(for:issuer:at:nonce:)``
    /// at the current time, with the request's nonce).
    ///
    /// - Parameters:
    ///   - certificate: the certificate whose status is asked.
    ///   - issuer: the certificate of its issuer.
    /// - Returns: the response; ``OCSPResponse/status(of:issuer:)`` says what it says of `certificate`.
    /// - Throws: `.invalidArgument` when `certificate` names no OCSP responder or `issuer` is not its
    ///   issuer; `.signingFailed` (−129) when the responder cannot be reached, answers another HTTP
    ///   status than 2xx, or sends a response that cannot be read or relied on (the message says why).
    public func fetch(for certificate: Certificate, issuer: Certificate) async throws(SigningError) -> OCSPResponse {
        guard let url = certificate.ocspURLs.first else {
            throw SigningError(.invalidArgument, "\(certificate.subject) names no OCSP responder")
        }
        return try await fetch(for: certificate, issuer: issuer, from: url)
    }

    /// Asks the OCSP responder at `url` for the status of `certificate`, and returns the response
    /// once checked, as ``fetch(for:issuer:)``.
    ///
    /// - Parameters:
    ///   - certificate: the certificate whose status is asked.
    ///   - issuer: the certificate of its issuer.
    ///   - url: the responder's http or https URL.
    /// - Throws: `.invalidArgument` when `url` is not http or https or `issuer` is not the issuer of
    ///   `certificate`; `.signingFailed` (−129) as ``fetch(for:issuer:)``.
    public func fetch(
        for certificate: Certificate, issuer: Certificate, from url: String
    ) async throws(SigningError) -> OCSPResponse {
        guard HTTPClientRequest.isHTTP(url) else {
            throw SigningError(.invalidArgument, "the OCSP responder's URL must be http or https: \(url.prefix(200))")
        }
        let request = try OCSPRequest(certificate: certificate, issuer: issuer)
        var exchange = HTTPClientRequest(
            .post, url,
            headers: [("Content-Type", "application/ocsp-request"), ("Accept", "application/ocsp-response")],
            body: request.encoded)
        exchange.timeout = timeout
        exchange.maxResponseSize = maxResponseSize
        let body = try await transport.body(of: exchange, from: "the OCSP responder \(url)", failing: .signingFailed)
        let response: OCSPResponse
        do {
            response = try OCSPResponse(der: body)
        } catch {
            throw SigningError(.signingFailed, "the OCSP responder \(url) sent no OCSP response: \(error.message)")
        }
        if let problem = response.problem(for: certificate, issuer: issuer, at: now(), nonce: request.nonce) {
            throw SigningError(.signingFailed, "the OCSP response from \(url) cannot be relied on: \(problem)")
        }
        return response
    }
}
