import COpenSSL

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

/// Trust anchors and path validation (RFC 5280 §6) through an OpenSSL `X509_STORE`.
///
/// Purposes are not checked (OpenSSL's purpose "any"): document-signing certificates rarely carry
/// the TLS or e-mail extended key usages. Signatures, validity periods, basic constraints, key usage
/// of CA certificates and path length are checked. Revocation is not (that is the validator's task,
/// with the DSS's CRLs and OCSP responses).
public final class TrustStore: @unchecked Sendable {
    // @unchecked: the store is filled in init and only read afterwards; OpenSSL locks its lookups.
    private let store: OpaquePointer
    /// The trust anchors.
    public let roots: [Certificate]

    /// A store trusting `roots` (usually self-signed root CA certificates).
    public init(roots: [Certificate]) {
        store = X509_STORE_new()
        self.roots = roots
        for root in roots { X509_STORE_add_cert(store, root.x509) }
        OpenSSLErrors.clear()  // Adding a duplicate leaves an error behind.
    }

    deinit { X509_STORE_free(store) }

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
        OpenSSLErrors.clear()
        guard let context = X509_STORE_CTX_new() else { return .untrusted(reason: "out of memory") }
        defer { X509_STORE_CTX_free(context) }
        guard let untrusted = OPENSSL_sk_new_null() else { return .untrusted(reason: "out of memory") }
        defer { OPENSSL_sk_free(untrusted) }  // The stack does not own the certificates.
        for certificate in intermediates {
            _ = OPENSSL_sk_push(untrusted, UnsafeRawPointer(certificate.x509))
        }
        guard X509_STORE_CTX_init(context, store, leaf.x509, untrusted) == 1 else {
            return .untrusted(reason: OpenSSLErrors.error(.invalidArgument, "cannot set up verification").message)
        }
        _ = X509_STORE_CTX_set_purpose(context, X509_PURPOSE_ANY)
        if let seconds {
            X509_STORE_CTX_set_time(context, 0, time_t(seconds))
        } else {
            X509_STORE_CTX_set_flags(context, UInt(X509_V_FLAG_NO_CHECK_TIME))
        }
        let result = X509_verify_cert(context)
        defer { OpenSSLErrors.clear() }
        guard result == 1 else {
            let code = X509_STORE_CTX_get_error(context)
            let depth = X509_STORE_CTX_get_error_depth(context)
            var reason = String(cString: X509_verify_cert_error_string(Int(code)))
            if let current = X509_STORE_CTX_get_current_cert(context) {
                X509_up_ref(current)
                if let certificate = try? Certificate(taking: current) {
                    reason += " (depth \(depth): \(certificate.subject))"
                }
            }
            return .untrusted(reason: reason)
        }
        var chain: [Certificate] = []
        if let verified = X509_STORE_CTX_get0_chain(context) {
            for index in 0..<OPENSSL_sk_num(verified) {
                guard let element = OPENSSL_sk_value(verified, index) else { continue }
                let x509 = OpaquePointer(element)
                X509_up_ref(x509)
                if let certificate = try? Certificate(taking: x509) { chain.append(certificate) }
            }
        }
        return .trusted(chain: chain)
    }
}
