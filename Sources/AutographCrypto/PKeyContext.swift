import COpenSSL

/// How a raw signature over a digest is made: RSA PKCS#1 v1.5 (RFC 8017 §8.2), RSA-PSS with MGF1
/// over the same digest (RFC 8017 §8.1, RFC 4055 §3.1), or ECDSA (a DER `ECDSA-Sig-Value`, RFC 3279
/// §2.2.3).
package enum RawSignatureScheme: Hashable, Sendable {
    case rsaPKCS1v15, rsaPSS, ecdsa
}

/// An OpenSSL `EVP_PKEY_CTX`: one signing, verification, key generation or derivation.
///
/// The steps are separate calls so each module can word each failure as it always has.
package final class PKeyContext {
    let pointer: OpaquePointer
    let operation: CryptoOperation
    /// The key the context works with (nil for key generation and derivation).
    let key: AsymmetricKey?

    private init(_ pointer: OpaquePointer, _ operation: CryptoOperation, key: AsymmetricKey?) {
        self.pointer = pointer
        self.operation = operation
        self.key = key
    }

    deinit { EVP_PKEY_CTX_free(pointer) }

    /// A context for `key` (signing or verifying).
    /// - Throws: `CryptoError` (`operation`) when OpenSSL cannot make one.
    package convenience init(key: AsymmetricKey, _ operation: CryptoOperation) throws(CryptoError) {
        try CryptoOperation.begin(operation)
        guard let pointer = EVP_PKEY_CTX_new(key.pointer, nil) else { throw .drained(operation, "EVP_PKEY_CTX_new") }
        self.init(pointer, operation, key: key)
    }

    /// A context for the algorithm named `algorithm` ("EC", "RSA"), to generate a key.
    /// - Throws: `CryptoError` (`.keyGeneration`) when OpenSSL has no such algorithm.
    package convenience init(generating algorithm: String) throws(CryptoError) {
        try CryptoOperation.begin(.keyGeneration)
        guard let pointer = EVP_PKEY_CTX_new_from_name(nil, algorithm, nil) else {
            throw .drained(.keyGeneration, "EVP_PKEY_CTX_new_from_name")
        }
        self.init(pointer, .keyGeneration, key: nil)
    }

    /// A context for the algorithm with the legacy id `id` (`EVP_PKEY_HKDF`).
    convenience init(id: Int32, _ operation: CryptoOperation) throws(CryptoError) {
        guard let pointer = EVP_PKEY_CTX_new_id(id, nil) else { throw .drained(operation, "EVP_PKEY_CTX_new_id") }
        self.init(pointer, operation, key: nil)
    }

    // MARK: Signing

    /// `EVP_PKEY_sign_init`: fails for a key that cannot sign digests (Ed25519 signs messages only).
    package func beginSigning() throws(CryptoError) {
        guard EVP_PKEY_sign_init(pointer) == 1 else { throw .drained(operation, "EVP_PKEY_sign_init") }
    }

    /// Sets the digest named in the signature (so RSA PKCS#1 v1.5 writes a DigestInfo, RFC 8017
    /// §9.2), the padding, and for RSA-PSS MGF1 with the same digest and `saltLength` (nil = the
    /// digest's length), after `beginSigning` or `beginVerifying`.
    /// - Throws: `CryptoError` whose `reason` says why the key cannot use the scheme.
    package func configure(
        scheme: RawSignatureScheme, digest: MessageDigest, saltLength: Int? = nil
    ) throws(CryptoError) {
        guard let key else { preconditionFailure("a signature context without a key") }
        let base = EVP_PKEY_get_base_id(key.pointer)
        let md = digest.algorithm
        func refuse(_ reason: String) -> CryptoError {
            CryptoError(operation, function: "configure", reason: reason, queue: ErrorQueue.drain())
        }
        switch scheme {
        case .rsaPKCS1v15:
            guard base == EVP_PKEY_RSA else { throw refuse("RSA PKCS#1 v1.5 needs an RSA key, not \(key.kind)") }
            guard EVP_PKEY_CTX_set_rsa_padding(pointer, RSA_PKCS1_PADDING) > 0 else {
                throw refuse("cannot set padding")
            }
        case .rsaPSS:
            guard base == EVP_PKEY_RSA || base == EVP_PKEY_RSA_PSS else {
                throw refuse("RSA-PSS needs an RSA key, not \(key.kind)")
            }
            guard EVP_PKEY_CTX_set_rsa_padding(pointer, RSA_PKCS1_PSS_PADDING) > 0,
                EVP_PKEY_CTX_set_rsa_mgf1_md(pointer, md) > 0
            else { throw refuse("cannot set PSS padding") }
        case .ecdsa:
            guard base == EVP_PKEY_EC else { throw refuse("ECDSA needs an EC key, not \(key.kind)") }
        }
        guard EVP_PKEY_CTX_set_signature_md(pointer, md) > 0 else {
            throw refuse("cannot use \(digest.rawValue) with \(key.kind)")
        }
        if scheme == .rsaPSS {
            let salt = saltLength.map { Int32(clamping: $0) } ?? RSA_PSS_SALTLEN_DIGEST
            guard EVP_PKEY_CTX_set_rsa_pss_saltlen(pointer, salt) > 0 else {
                throw refuse("cannot set the PSS salt length")
            }
        }
    }

    /// The largest signature of `digest` this context can make.
    package func signatureSize(of digest: [UInt8]) throws(CryptoError) -> Int {
        var length = 0
        guard EVP_PKEY_sign(pointer, nil, &length, digest, digest.count) == 1, length > 0 else {
            throw .drained(operation, "EVP_PKEY_sign")
        }
        return length
    }

    /// Signs `digest`; `size` is `signatureSize(of:)`.
    package func sign(_ digest: [UInt8], size: Int) throws(CryptoError) -> [UInt8] {
        var signature = [UInt8](repeating: 0, count: size)
        var length = size
        guard EVP_PKEY_sign(pointer, &signature, &length, digest, digest.count) == 1 else {
            throw .drained(operation, "EVP_PKEY_sign")
        }
        signature.removeSubrange(length...)
        return signature
    }

    // MARK: Key generation

    /// `EVP_PKEY_keygen_init`.
    package func beginKeyGeneration() throws(CryptoError) {
        guard EVP_PKEY_keygen_init(pointer) == 1 else { throw .drained(operation, "EVP_PKEY_keygen_init") }
    }

    /// Names the curve of an EC key to generate ("P-256"): the named-curve form (RFC 5480 §2.1.1).
    package func setCurve(_ name: String) throws(CryptoError) {
        guard EVP_PKEY_CTX_set_group_name(pointer, name) > 0 else {
            throw .drained(operation, "EVP_PKEY_CTX_set_group_name")
        }
    }

    /// Sets the modulus size of an RSA key to generate (the public exponent stays 65537).
    package func setRSABits(_ bits: Int) throws(CryptoError) {
        guard EVP_PKEY_CTX_set_rsa_keygen_bits(pointer, Int32(clamping: bits)) > 0 else {
            throw .drained(operation, "EVP_PKEY_CTX_set_rsa_keygen_bits")
        }
    }

    /// Generates the key pair (from OpenSSL's random generator).
    package func generate() throws(CryptoError) -> AsymmetricKey {
        var generated: OpaquePointer? = nil
        guard EVP_PKEY_generate(pointer, &generated) == 1, let generated else {
            throw .drained(operation, "EVP_PKEY_generate")
        }
        return AsymmetricKey(taking: generated)
    }
}

extension AsymmetricKey {
    /// Checks `signature` over the precomputed `digest` (made with `algorithm`) with this public key.
    ///
    /// - Returns: true only when the signature is valid; a digest of the wrong length, a key that
    ///   cannot use `scheme` or any OpenSSL failure gives false (the error queue is emptied).
    package func verify(
        signature: [UInt8], digest: [UInt8], algorithm: MessageDigest, scheme: RawSignatureScheme,
        saltLength: Int? = nil
    ) -> Bool {
        defer { ErrorQueue.clear() }
        guard digest.count == algorithm.length, !signature.isEmpty,
            let context = try? PKeyContext(key: self, .verification),
            EVP_PKEY_verify_init(context.pointer) == 1,
            (try? context.configure(scheme: scheme, digest: algorithm, saltLength: saltLength)) != nil
        else { return false }
        return EVP_PKEY_verify(context.pointer, signature, signature.count, digest, digest.count) == 1
    }
}
