package import HTTPClient
import PDFCore

/// Fetches CRLs over HTTP or HTTPS from the distribution points certificates name (RFC 5280
/// §4.2.1.13) and checks them before handing them over.
///
/// Each CRL is fetched with a GET (`Accept: application/pkix-crl`, RFC 2585 §4.2), read as DER or
/// as PEM (`-----BEGIN X509 CRL-----`) when a server sends that, and refused unless
/// ``CertificateRevocationList/problem(for:issuer:at:)`` finds nothing at the time it arrives. TLS is
/// verified; redirects are not followed unless ``maxRedirects`` allows them; the answer is bounded in
/// time and size.
///
/// ```swift
/// let crl = try await CRLClient().fetch(for: signer, issuer: intermediate)
/// let revoked = crl.entry(for: signer) != nil
/// ```
public struct CRLClient: Sendable {
    /// How long one exchange may take.
    public var timeout: Duration = .seconds(30)
    /// The largest CRL taken, in bytes (a large CA's CRL can be a few megabytes): 16 MiB.
    public var maxResponseSize = 16 << 20
    /// How many redirects are followed (to http or https only); none by default.
    public var maxRedirects = 0
    let transport: any HTTPTransport
    /// The time a fetched CRL must be current at, in seconds since 1970.
    let now: @Sendable () -> Int

    /// A client on libcurl, checking CRLs at the system's time.
    public init() {
        self.init(transport: CurlTransport())
    }

    /// A client sending through `transport` (tests count or answer the requests), checking CRLs
    /// at `now`'s time.
    package init(transport: any HTTPTransport, now: @escaping @Sendable () -> Int = { PDFDate.now().seconds }) {
        self.transport = transport
        self.now = now
    }

    /// The CRL of `certificate`'s issuer from the first of the certificate's http or https
    /// distribution points (``Certificate/crlDistributionPointURLs``) that gives a usable one.
    ///
    /// - Parameters:
    ///   - certificate: the certificate whose status is wanted.
    ///   - issuer: the certificate of its issuer, which must have signed the CRL.
    /// - Returns: the CRL, usable for `certificate` now
    ///   (``CertificateRevocationList/problem(for:issuer:at:)`` is nil).
    /// - Throws: `SigningError` `.revocationCheckFailed` (−129) when the certificate names no http or
    ///   https distribution point, or none gives a usable CRL: unreachable, another status than 2xx,
    ///   not a CRL, or a CRL with a problem (each is named in the message).
    public func fetch(
        for certificate: Certificate, issuer: Certificate
    ) async throws(SigningError) -> CertificateRevocationList {
        let urls = certificate.crlDistributionPointURLs
        guard !urls.isEmpty else {
            throw SigningError(
                .revocationCheckFailed, "\(certificate.subject) names no http or https CRL distribution point")
        }
        var failures: [String] = []
        for url in urls {
            do {
                return try await fetch(url, certificate: certificate, issuer: issuer)
            } catch {
                failures.append(error.message)
            }
        }
        throw SigningError(.revocationCheckFailed, failures.joined(separator: "; "))
    }

    /// The CRL at `url`, issued and signed by `issuer`.
    ///
    /// - Parameters:
    ///   - url: an http or https URL.
    ///   - issuer: the certificate of the CA whose CRL it must be.
    /// - Returns: the CRL, usable now (``CertificateRevocationList/problem(issuer:at:)`` is nil).
    /// - Throws: `SigningError` `.invalidArgument` when `url` is not http or https;
    ///   `.revocationCheckFailed` (−129) when it cannot be reached, answers another status than 2xx,
    ///   sends no CRL, or a CRL with a problem.
    public func fetch(_ url: String, issuer: Certificate) async throws(SigningError) -> CertificateRevocationList {
        guard HTTPClientRequest.isHTTP(url) else {
            throw SigningError(.invalidArgument, "a CRL's URL must be http or https: \(url.prefix(200))")
        }
        return try await fetch(url, certificate: nil, issuer: issuer)
    }

    private func fetch(
        _ url: String, certificate: Certificate?, issuer: Certificate
    ) async throws(SigningError) -> CertificateRevocationList {
        var request = HTTPClientRequest(.get, url, headers: [("Accept", "application/pkix-crl")])
        request.timeout = timeout
        request.maxResponseSize = maxResponseSize
        request.maxRedirects = maxRedirects
        let body = try await transport.body(
            of: request, from: "the CRL distribution point \(url)", failing: .revocationCheckFailed)
        let crl: CertificateRevocationList
        do {
            let isPEM = body.first { ![0x20, 0x09, 0x0D, 0x0A].contains($0) } == UInt8(ascii: "-")
            crl =
                isPEM
                ? try CertificateRevocationList(pem: body) : try CertificateRevocationList(der: body)
        } catch {
            throw SigningError(.revocationCheckFailed, "the answer from \(url) is not a CRL: \(error.message)")
        }
        let time = now()
        let problem =
            if let certificate {
                crl.problem(for: certificate, issuer: issuer, at: time)
            } else {
                crl.problem(issuer: issuer, at: time)
            }
        if let problem {
            throw SigningError(.revocationCheckFailed, "the CRL at \(url) is not usable: \(problem)")
        }
        return crl
    }
}
