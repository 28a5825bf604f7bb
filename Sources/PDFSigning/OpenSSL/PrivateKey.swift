import COpenSSL

/// A private key (RSA, EC or another kind OpenSSL reads), owning an OpenSSL `EVP_PKEY`.
///
/// It signs precomputed digests — what a CMS SignerInfo needs (RFC 5652 §5.5) — so it never sees
/// the document.
public final class PrivateKey: @unchecked Sendable {
    // @unchecked: the EVP_PKEY is never changed after init; each operation makes its own context.
    let key: OpaquePointer

    /// The key's kind and size.
    public let kind: KeyKind

    /// Reads a PEM private key: PKCS#8 `PRIVATE KEY` (RFC 5208 §5), encrypted PKCS#8
    /// `ENCRYPTED PRIVATE KEY` (RFC 5958 §3, RFC 7468 §11), or a traditional `RSA PRIVATE KEY` /
    /// `EC PRIVATE KEY` (RFC 8017 Appendix A.1.2, RFC 5915), also with OpenSSL's `Proc-Type: 4,ENCRYPTED`.
    ///
    /// - Parameters:
    ///   - pem: the PEM text; the first private key in it is read.
    ///   - password: the password of an encrypted key (ignored for a plain one).
    /// - Throws: `SigningError` `.wrongKeyContainerPassword` (-125) when the key is encrypted and the
    ///   password is wrong or missing; `.keyContainerUnreadable` (-124) when there is no key to read.
    public init(pem: [UInt8], password: String?) throws(SigningError) {
        OpenSSLErrors.clear()
        let passwordBytes: [CChar]? = password.map { Array($0.utf8CString) }
        let parsed = withMemoryBIO(pem) { bio in
            if let passwordBytes {
                return passwordBytes.withUnsafeBufferPointer { buffer in
                    PEM_read_bio_PrivateKey(
                        bio, nil, passwordCallback, UnsafeMutableRawPointer(mutating: buffer.baseAddress))
                }
            }
            return PEM_read_bio_PrivateKey(bio, nil, passwordCallback, nil)
        }
        guard let parsed else {
            let errors = OpenSSLErrors.drain()
            let text = String(decoding: pem.prefix(64 * 1024), as: UTF8.self)
            if text.contains("ENCRYPTED PRIVATE KEY") || text.contains("Proc-Type: 4,ENCRYPTED") {
                let message = password == nil ? "the private key is encrypted: a password is needed" : "wrong password"
                throw OpenSSLErrors.error(.wrongKeyContainerPassword, message, errors)
            }
            throw OpenSSLErrors.error(.keyContainerUnreadable, "no readable PEM private key", errors)
        }
        self.key = parsed
        self.kind = KeyKind(key: parsed)
    }

    /// Wraps an `EVP_PKEY` whose reference this object takes over.
    init(taking key: OpaquePointer) {
        self.key = key
        self.kind = KeyKind(key: key)
    }

    deinit { EVP_PKEY_free(key) }

    /// The scheme this key signs with unless told otherwise: RSA PKCS#1 v1.5 for RSA keys (RSA-PSS for
    /// RSASSA-PSS-only keys), ECDSA for EC keys.
    public var defaultScheme: SignatureScheme {
        switch EVP_PKEY_get_base_id(key) {
        case EVP_PKEY_RSA_PSS: .rsaPSS
        case EVP_PKEY_EC: .ecdsa
        default: .rsaPKCS1v15
        }
    }

    /// Signs a precomputed digest (`EVP_PKEY_sign` with the digest named, so RSA PKCS#1 v1.5 wraps it
    /// in a DigestInfo, RFC 8017 §9.2).
    ///
    /// - Parameters:
    ///   - digest: the hash to sign, `digestAlgorithm.length` bytes.
    ///   - digestAlgorithm: the hash that made `digest`.
    ///   - scheme: RSA PKCS#1 v1.5 (RFC 8017 §8.2), RSA-PSS with MGF1 over the same digest and salt =
    ///     digest length (RFC 8017 §8.1, RFC 4055 §3.1), or ECDSA (a DER `ECDSA-Sig-Value`, RFC 3279
    ///     §2.2.3).
    /// - Returns: the raw signature.
    /// - Throws: `SigningError` `.invalidArgument` when the digest's length is wrong,
    ///   `.unsupportedAlgorithm` when this key cannot sign with `scheme` (Ed25519 signs messages only),
    ///   `.signingFailed` when OpenSSL fails.
    public func sign(
        digest: [UInt8], digestAlgorithm: DigestAlgorithm, scheme: SignatureScheme
    ) throws(SigningError) -> [UInt8] {
        guard digest.count == digestAlgorithm.length else {
            throw SigningError(
                .invalidArgument,
                "a \(digestAlgorithm.rawValue) digest has \(digestAlgorithm.length) bytes, not \(digest.count)")
        }
        OpenSSLErrors.clear()
        guard let context = EVP_PKEY_CTX_new(key, nil) else {
            throw OpenSSLErrors.error(.signingFailed, "cannot make a signing context")
        }
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_sign_init(context) == 1 else {
            throw OpenSSLErrors.error(.unsupportedAlgorithm, "a \(kind) key cannot sign digests")
        }
        if let problem = RawSignature.configure(context, key: key, digest: digestAlgorithm, scheme: scheme) {
            throw OpenSSLErrors.error(.unsupportedAlgorithm, problem)
        }
        var length = 0
        guard EVP_PKEY_sign(context, nil, &length, digest, digest.count) == 1, length > 0 else {
            throw OpenSSLErrors.error(.signingFailed, "cannot size the signature")
        }
        var signature = [UInt8](repeating: 0, count: length)
        guard EVP_PKEY_sign(context, &signature, &length, digest, digest.count) == 1 else {
            throw OpenSSLErrors.error(.signingFailed, "\(kind) signing failed")
        }
        signature.removeSubrange(length...)
        return signature
    }

    /// Whether this is the private key of `certificate`'s public key.
    public func matches(_ certificate: Certificate) -> Bool {
        defer { OpenSSLErrors.clear() }
        guard let publicKey = X509_get0_pubkey(certificate.x509) else { return false }
        return EVP_PKEY_eq(publicKey, key) == 1
    }
}

/// OpenSSL's `pem_password_cb`: copies the NUL-terminated password at `context` into `buffer`; with
/// no password it returns -1, so an encrypted key fails instead of prompting on the terminal.
private let passwordCallback:
    @convention(c) (UnsafeMutablePointer<CChar>?, Int32, Int32, UnsafeMutableRawPointer?) ->
        Int32 = { buffer, size, _, context in
            guard let buffer, let context else { return -1 }
            let password = context.assumingMemoryBound(to: CChar.self)
            let length = min(Int(strlen(password)), Int(size))
            buffer.update(from: password, count: length)
            return Int32(length)
        }
