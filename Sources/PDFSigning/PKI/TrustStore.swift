import AutographCrypto

/// The outcome of building and checking a certificate path (RFC 5280 §6).
public enum TrustResult: Hashable, Sendable {
    /// A valid path: the leaf first, the trust anchor last.
    case trusted(chain: [Certificate])
    /// No valid path; `reason` is OpenSSL's verification error and the certificate it concerns.
    case untrusted(reason: String)

    /// Whether the result is `.trusted`.
    public var isTrusted: Bool {
        if case .trusted = self { return true }
        return false
    }
}

/// Trust anchors and path validation (RFC 5280 §6) through AutographCrypto's `X509TrustStore`.
///
/// Purposes are not checked (OpenSSL's purpose "any"): document-signing certificates rarely carry
/// the TLS or e-mail extended key usages. Signatures, validity periods, basic constraints, key usage
/// of CA certificates and path length are checked. Revocation is not (that is the validator's task,
/// with the DSS's CRLs and OCSP responses).
public final class TrustStore: Sendable {
    /// The store in the crypto layer; the error when OpenSSL could not make one (out of memory),
    /// which every `verify` then reports, since `init(roots:)` does not throw.
    private let store: Result<X509TrustStore, CryptoError>
    /// The trust anchors.
    public let roots: [Certificate]

    /// A store trusting `roots` (usually self-signed root CA certificates).
    public init(roots: [Certificate]) {
        store = Result { () throws(CryptoError) in try X509TrustStore(roots: roots.map(\.x509)) }
        self.roots = roots
    }

    /// Builds a path from `leaf` through `intermediates` (untrusted, in any order) to one of the
    /// roots and checks it.
    ///
    /// - Parameters:
    ///   - leaf: the certificate to check (a signer's).
    ///   - intermediates: certificates that may complete the path (from the CMS or the DSS).
    ///   - seconds: the time (seconds since 1970) at which every certificate of the path must be
    ///     valid; nil checks no validity period (RFC 5280 §6.1.3 (a)(2) skipped).
    /// - Returns: `.trusted` with the path, or `.untrusted` with the reason.
    public func verify(_ leaf: Certificate, intermediates: [Certificate] = [], at seconds: Int?) -> TrustResult {
        let outcome: X509TrustStore.Outcome
        do {
            outcome = try store.get().verify(leaf.x509, intermediates: intermediates.map(\.x509), at: seconds)
        } catch {
            guard error.function == "X509_STORE_CTX_init" || error.isInjected else {
                return .untrusted(reason: "out of memory")
            }
            return .untrusted(reason: error.annotating("cannot set up verification"))
        }
        switch outcome {
        case .trusted(let chain):
            return .trusted(chain: chain.compactMap { try? Certificate(wrapping: $0) })
        case .untrusted(var reason, let depth, let current):
            if let current, let certificate = try? Certificate(wrapping: current) {
                reason += " (depth \(depth): \(certificate.subject))"
            }
            return .untrusted(reason: reason)
        }
    }
}
