import AutographCrypto

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
        let algorithm: String
        switch kind {
        case .p256, .p384: algorithm = "EC"
        case .rsa(let bits):
            guard (2048...16384).contains(bits) else {
                throw SigningError(.invalidArgument, "an RSA key needs 2048 to 16384 bits, not \(bits)")
            }
            algorithm = "RSA"
        }
        let context = try signingStep(.unsupportedAlgorithm, "OpenSSL cannot make \(algorithm) keys") {
            let context = try PKeyContext(generating: algorithm)
            try context.beginKeyGeneration()
            return context
        }
        try signingStep(.unsupportedAlgorithm, "cannot configure a \(kind) key") {
            switch kind {
            case .p256: try context.setCurve("P-256")
            case .p384: try context.setCurve("P-384")
            case .rsa(let bits): try context.setRSABits(bits)
            }
        }
        let generated = try signingStep(.unsupportedAlgorithm, "generating a \(kind) key failed") {
            try context.generate()
        }
        return PrivateKey(wrapping: generated)
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
        if let password, password.isEmpty {
            throw SigningError(.invalidArgument, "an encrypted key needs a non-empty password")
        }
        return try signingStep(.signingFailed, "cannot write the \(kind) key as PKCS#8") {
            try key.pkcs8PEM(password: password.map { Array($0.utf8) })
        }
    }

    /// The public key as a DER `SubjectPublicKeyInfo` (RFC 5280 §4.1.2.7), as a certificate for
    /// this key would hold it.
    public var publicKeyDER: [UInt8] { key.subjectPublicKeyInfo }
}
