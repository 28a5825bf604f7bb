package import HTTPClient
import PDFCore
import Synchronization

/// Certificates' statuses fetched from the addresses they give: the issuer's OCSP responder first
/// (a response checked: signed by the issuer or its delegated responder, covering the
/// certificate, current, with our nonce), its CRL when that fails (checked likewise). The material
/// is what a validator needs later: the response or the CRL, and a delegated responder's
/// certificate.
public struct OnlineRevocationSource: RevocationSource {
    let ocsp: OCSPClient
    let crl: CRLClient
    let transport: any HTTPTransport
    /// With a policy, the certificates a path must lead to before it is asked about.
    public let fetchAnchors: [Certificate]?
    /// The CRLs fetched so far, by address.
    private let lists = FetchedLists()

    /// A source over HTTP (libcurl), TLS verified, bounded in time and size, fetching whatever the
    /// certificates name: for a person's own command (`autograph extend`, `verify`).
    public init() {
        self.init(ocsp: OCSPClient(), crl: CRLClient(), transport: CurlTransport())
    }

    /// A source for a service: it is asked only about certificates whose path leads to the
    /// policy's trust anchors, and fetches only where the policy allows (``RevocationFetchPolicy``).
    public init(policy: RevocationFetchPolicy) {
        let transport = CurlTransport(policy: policy.transportPolicy)
        self.init(
            ocsp: OCSPClient(transport: transport), crl: CRLClient(transport: transport), transport: transport,
            fetchAnchors: policy.trustAnchors)
    }

    /// A source with clients of the caller's (tests count their requests).
    package init(
        ocsp: OCSPClient, crl: CRLClient, transport: any HTTPTransport, fetchAnchors: [Certificate]? = nil
    ) {
        self.ocsp = ocsp
        self.crl = crl
        self.transport = transport
        self.fetchAnchors = fetchAnchors
    }

    /// The issuer at the certificate's first caIssuers address that answers with it (DER or PEM).
    /// Each address is fetched once for the source's life (a root named by several paths is one download).
    public func issuer(of certificate: Certificate) async -> Certificate? {
        for url in certificate.caIssuersURLs where HTTPClientRequest.isHTTP(url) {
            let found: [Certificate]
            if let known = lists.issuers.withLock({ $0[url] }) {
                found = known
            } else {
                var request = HTTPClientRequest(.get, url)
                request.timeout = .seconds(30)
                request.maxResponseSize = 1 << 20
                guard let response = try? await transport.send(request), response.isSuccess else { continue }
                found =
                    (try? Certificate(der: response.body)).map { [$0] } ?? Certificate.certificates(pem: response.body)
                lists.issuers.withLock { $0[url] = found }
            }
            if let issuer = found.first(where: { $0.subjectDER == certificate.issuerDER }) { return issuer }
        }
        return nil
    }

    /// The certificate's status from its OCSP responder, else from its issuer's CRL.
    public func material(for certificate: Certificate, issuer: Certificate) async -> (
        ValidationMaterial, problem: String?
    ) {
        var reasons: [String] = []
        if !certificate.ocspURLs.isEmpty {
            do {
                let response = try await ocsp.fetch(for: certificate, issuer: issuer)
                return (
                    ValidationMaterial(
                        certificates: response.certificates.map(\.derBytes), ocspResponses: [response.encoded]),
                    nil
                )
            } catch {
                reasons.append("OCSP: \(error.message)")
            }
        }
        for url in certificate.crlDistributionPointURLs {
            // One CRL serves every certificate of its issuer: fetched once for all of them.
            if let list = lists.entries.withLock({ $0[url] }),
                list.problem(for: certificate, issuer: issuer, at: PDFDate.now().seconds) == nil
            {
                return (ValidationMaterial(crls: [list.encoded]), nil)
            }
            do {
                let list = try await crl.fetch(url, issuer: issuer)
                if let problem = list.problem(for: certificate, issuer: issuer, at: nil) {
                    reasons.append("CRL at \(url): \(problem)")
                    continue
                }
                lists.entries.withLock { $0[url] = list }
                return (ValidationMaterial(crls: [list.encoded]), nil)
            } catch {
                reasons.append("CRL: \(error.message)")
            }
        }
        if reasons.isEmpty { reasons.append("the certificate names no OCSP responder and no CRL") }
        return (ValidationMaterial(), "no status: " + reasons.joined(separator: "; "))
    }
}

/// The CRLs and the issuers' certificates a source fetched, by address (a class: the source is a
/// value shared by its copies).
private final class FetchedLists: Sendable {
    let entries = Mutex<[String: CertificateRevocationList]>([:])
    let issuers = Mutex<[String: [Certificate]]>([:])
}
