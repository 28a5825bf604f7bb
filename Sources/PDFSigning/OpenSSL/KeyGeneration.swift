import COpenSSL

/// The kind of key `PrivateKey.generate(_:)` makes.
public enum GeneratedKeyKind: Hashable, Sendable {
    /// An ECDSA key on NIST P-256 (secp256r1, RFC 5480 §2.1.1.1).
    case p256
    /// An ECDSA key on NIST P-384 (secp384r1).
    case p384
    /// An RSA key (RFC 8017) with a modulus of `bits` bits (2048 … 16384) and public exponent 65537.
    case rsa(bits: Int)
}

extension PrivateKey {
    /// Generates a new key pair from OpenSSL's random generator (`EVP_PKEY_keygen`).
    ///
    /// EC keys use the named-curve form (RFC 5480 §2.1.1), so certificates and PKCS#8 files name
    /// the curve instead of spelling out its parameters.
    ///
    /// - Parameter kind: the curve or the RSA size.
    /// - Returns: the new private key (its public key is `publicKeyDER`).
    /// - Throws: `SigningError` `.invalidArgument` for an RSA size outside 2048 … 16384 bits,
    ///   `.unsupportedAlgorithm` when OpenSSL cannot make the key.
    public static func generate(_ kind: GeneratedKeyKind) throws(SigningError) -> PrivateKey {
        OpenSSLErrors.clear()
        let algorithm: String
        switch kind {
        case .p256, .p384: algorithm = "EC"
        case .rsa(let bits):
            guard (2048...16384).contains(bits) else {
                throw SigningError(.invalidArgument, "an RSA key needs 2048 to 16384 bits, not \(bits)")
            }
            algorithm = "RSA"
        }
        guard let context = EVP_PKEY_CTX_new_from_name(nil, algorithm, nil) else {
            throw OpenSSLErrors.error(.unsupportedAlgorithm, "OpenSSL cannot make \(algorithm) keys")
        }
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_keygen_init(context) == 1 else {
            throw OpenSSLErrors.error(.unsupportedAlgorithm, "OpenSSL cannot make \(algorithm) keys")
        }
        let configured: Bool
        switch kind {
        case .p256: configured = EVP_PKEY_CTX_set_group_name(context, "P-256") > 0
        case .p384: configured = EVP_PKEY_CTX_set_group_name(context, "P-384") > 0
        case .rsa(let bits): configured = EVP_PKEY_CTX_set_rsa_keygen_bits(context, Int32(bits)) > 0
        }
        guard configured else { throw OpenSSLErrors.error(.unsupportedAlgorithm, "cannot configure a \(kind) key") }
        var generated: OpaquePointer? = nil
        guard EVP_PKEY_generate(context, &generated) == 1, let generated else {
            throw OpenSSLErrors.error(.unsupportedAlgorithm, "generating a \(kind) key failed")
        }
        return PrivateKey(taking: generated)
    }

    /// The key as PEM PKCS#8: `PRIVATE KEY` (RFC 5208 §5, RFC 7468 §10), or with a password
    /// `ENCRYPTED PRIVATE KEY` (RFC 5958 §3, RFC 7468 §11) — PBES2 with PBKDF2-HMAC-SHA-256 and
    /// AES-256-CBC (RFC 8018 §6.2), as `openssl pkcs8 -topk8 -v2 aes-256-cbc` writes it.
    ///
    /// `PrivateKey(pem:password:)` reads it back.
    ///
    /// - Parameter password: encrypts the key when given (it must not be empty).
    /// - Throws: `SigningError` `.invalidArgument` for an empty password, `.signingFailed` when
    ///   OpenSSL cannot encode the key.
    public func pem(password: String? = nil) throws(SigningError) -> [UInt8] {
        OpenSSLErrors.clear()
        var written: Int32 = 0
        let output: [UInt8]
        if let password {
            var passwordBytes = Array(password.utf8)
            guard !passwordBytes.isEmpty else {
                throw SigningError(.invalidArgument, "an encrypted key needs a non-empty password")
            }
            defer { for index in passwordBytes.indices { passwordBytes[index] = 0 } }
            output = readingMemoryBIO { bio in
                written = passwordBytes.withUnsafeMutableBufferPointer { buffer in
                    buffer.withMemoryRebound(to: CChar.self) { characters in
                        PEM_write_bio_PKCS8PrivateKey(
                            bio, key, EVP_aes_256_cbc(), characters.baseAddress, Int32(characters.count), nil, nil)
                    }
                }
            }
        } else {
            output = readingMemoryBIO { bio in
                written = PEM_write_bio_PKCS8PrivateKey(bio, key, nil, nil, 0, nil, nil)
            }
        }
        guard written == 1, !output.isEmpty else {
            throw OpenSSLErrors.error(.signingFailed, "cannot write the \(kind) key as PKCS#8")
        }
        return output
    }

    /// The public key as a DER `SubjectPublicKeyInfo` (RFC 5280 §4.1.2.7), as a certificate for
    /// this key would hold it.
    public var publicKeyDER: [UInt8] {
        defer { OpenSSLErrors.clear() }
        let length = i2d_PUBKEY(key, nil)
        guard length > 0 else { return [] }
        var output = [UInt8](repeating: 0, count: Int(length))
        let written = output.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var cursor: UnsafeMutablePointer<UInt8>? = buffer.baseAddress
            return i2d_PUBKEY(key, &cursor)
        }
        return written == length ? output : []
    }
}
