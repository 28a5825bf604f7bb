import AutographCrypto

/// A private key (RSA, EC or another kind OpenSSL reads), over AutographCrypto's `AsymmetricKey`.
///
/// It signs precomputed digests — what a CMS SignerInfo needs (RFC 5652 §5.5) — so it never sees
/// the document.
public final class PrivateKey: Sendable {
    /// The key in the crypto layer.
    let key: AsymmetricKey

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
        do {
            key = try AsymmetricKey(privateKeyPEM: pem, password: password)
        } catch {
            let text = String(decoding: pem.prefix(64 * 1024), as: UTF8.self)
            if text.contains("ENCRYPTED PRIVATE KEY") || text.contains("Proc-Type: 4,ENCRYPTED") {
                let message = password == nil ? "the private key is encrypted: a password is needed" : "wrong password"
                throw SigningError(.wrongKeyContainerPassword, message, crypto: error)
            }
            throw SigningError(.keyContainerUnreadable, "no readable PEM private key", crypto: error)
        }
        kind = KeyKind(key.kind)
    }

    /// Wraps a key of the crypto layer.
    init(wrapping key: AsymmetricKey) {
        self.key = key
        self.kind = KeyKind(key.kind)
    }

    /// The scheme this key signs with unless told otherwise: RSA PKCS#1 v1.5 for RSA keys (RSA-PSS for
    /// RSASSA-PSS-only keys), ECDSA for EC keys.
    public var defaultScheme: SignatureScheme {
        switch key.kind {
        case .rsaPSS: .rsaPSS
        case .ec: .ecdsa
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
        let context = try signingStep(.signingFailed, "cannot make a signing context") {
            try PKeyContext(key: key, .signing)
        }
        try signingStep(.unsupportedAlgorithm, "a \(kind) key cannot sign digests") { try context.beginSigning() }
        do {
            try context.configure(scheme: scheme.rawScheme, digest: digestAlgorithm.messageDigest)
        } catch {
            throw SigningError(.unsupportedAlgorithm, error.reason ?? "cannot configure signing", crypto: error)
        }
        let size = try signingStep(.signingFailed, "cannot size the signature") {
            try context.signatureSize(of: digest)
        }
        return try signingStep(.signingFailed, "\(kind) signing failed") { try context.sign(digest, size: size) }
    }

    /// Whether this is the private key of `certificate`'s public key.
    public func matches(_ certificate: Certificate) -> Bool {
        guard let publicKey = certificate.x509.publicKey else { return false }
        return key.hasSamePublicKey(as: publicKey)
    }
}

extension SignatureScheme {
    /// The AutographCrypto scheme.
    var rawScheme: RawSignatureScheme {
        switch self {
        case .rsaPKCS1v15: .rsaPKCS1v15
        case .rsaPSS: .rsaPSS
        case .ecdsa: .ecdsa
        }
    }
}
