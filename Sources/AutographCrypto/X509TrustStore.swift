import COpenSSL

/// Trust anchors and path validation (RFC 5280 §6) through an OpenSSL `X509_STORE`.
///
/// Purposes are not checked (OpenSSL's purpose "any"); signatures, validity periods, basic
/// constraints, key usage of CA certificates and path length are. Revocation is not.
package final class X509TrustStore: @unchecked Sendable {
    // @unchecked: the store is filled in init and only read afterwards; OpenSSL locks its lookups.
    private let pointer: OpaquePointer

    /// A store trusting `roots`.
    /// - Throws: `CryptoError` (`.pathValidation`) when OpenSSL cannot make the store.
    package init(roots: [X509Certificate]) throws(CryptoError) {
        guard let pointer = X509_STORE_new() else { throw .drained(.pathValidation, "X509_STORE_new") }
        self.pointer = pointer
        for root in roots { X509_STORE_add_cert(pointer, root.pointer) }
        ErrorQueue.clear()  // Adding a duplicate leaves an error behind.
    }

    deinit { X509_STORE_free(pointer) }

    /// The outcome of a path validation.
    package enum Outcome {
        /// A valid path: the leaf first, the trust anchor last.
        case trusted([X509Certificate])
        /// No valid path: OpenSSL's verification error, the depth it concerns and that certificate.
        case untrusted(reason: String, depth: Int, certificate: X509Certificate?)
    }

    /// Builds a path from `leaf` through `intermediates` (untrusted, any order) to a root and checks
    /// it at `seconds` (nil: no validity periods are checked).
    /// - Throws: `CryptoError` (`.pathValidation`) when the validation cannot be set up; `function`
    ///   is `"X509_STORE_CTX_init"` when the context could not be initialised.
    package func verify(
        _ leaf: X509Certificate, intermediates: [X509Certificate], at seconds: Int?
    ) throws(CryptoError) -> Outcome {
        try CryptoOperation.begin(.pathValidation)
        let context = try StoreContext()
        let untrusted = try CertificateStack(intermediates)
        guard X509_STORE_CTX_init(context.pointer, pointer, leaf.pointer, untrusted.pointer) == 1 else {
            throw .drained(.pathValidation, "X509_STORE_CTX_init")
        }
        _ = X509_STORE_CTX_set_purpose(context.pointer, X509_PURPOSE_ANY)
        if let seconds {
            X509_STORE_CTX_set_time(context.pointer, 0, time_t(seconds))
        } else {
            X509_STORE_CTX_set_flags(context.pointer, UInt(X509_V_FLAG_NO_CHECK_TIME))
        }
        let result = X509_verify_cert(context.pointer)
        defer { ErrorQueue.clear() }
        guard result == 1 else {
            let code = X509_STORE_CTX_get_error(context.pointer)
            let depth = X509_STORE_CTX_get_error_depth(context.pointer)
            let reason = String(cString: X509_verify_cert_error_string(Int(code)))
            let current = X509_STORE_CTX_get_current_cert(context.pointer).flatMap(X509Certificate.init(borrowing:))
            return .untrusted(reason: reason, depth: Int(depth), certificate: current)
        }
        var chain: [X509Certificate] = []
        if let verified = X509_STORE_CTX_get0_chain(context.pointer) {
            for index in 0..<OPENSSL_sk_num(verified) {
                guard let element = OPENSSL_sk_value(verified, index),
                    let certificate = X509Certificate(borrowing: OpaquePointer(element))
                else { continue }
                chain.append(certificate)
            }
        }
        return .trusted(chain)
    }
}

/// An OpenSSL `X509_STORE_CTX`.
private final class StoreContext {
    let pointer: OpaquePointer

    init() throws(CryptoError) {
        guard let pointer = X509_STORE_CTX_new() else { throw .drained(.pathValidation, "X509_STORE_CTX_new") }
        self.pointer = pointer
    }

    deinit { X509_STORE_CTX_free(pointer) }
}

/// An OpenSSL `STACK_OF(X509)` that borrows its certificates (they outlive it).
final class CertificateStack {
    let pointer: OpaquePointer
    private let certificates: [X509Certificate]

    init(_ certificates: [X509Certificate]) throws(CryptoError) {
        guard let pointer = OPENSSL_sk_new_null() else { throw .drained(.pathValidation, "OPENSSL_sk_new_null") }
        self.pointer = pointer
        self.certificates = certificates
        for certificate in certificates { _ = OPENSSL_sk_push(pointer, UnsafeRawPointer(certificate.pointer)) }
    }

    deinit { OPENSSL_sk_free(pointer) }  // The certificates are not freed: the stack does not own them.
}
