import COpenSSL

/// The kind and size of a public or private key.
public enum KeyKind: Hashable, Sendable, CustomStringConvertible {
    /// An RSA key (RFC 8017) of `bits` modulus bits — rsaEncryption or an RSASSA-PSS-only key
    /// (RFC 4055 §1.2).
    case rsa(bits: Int)
    /// An elliptic-curve key (RFC 5480) on a named curve: the NIST name where there is one
    /// (`"P-256"`, `"P-384"`, `"P-521"`), else OpenSSL's name (`"brainpoolP256r1"` …).
    case ec(curve: String)
    /// An Ed25519 key (RFC 8410); it signs messages, not digests.
    case ed25519
    /// Another kind, named as OpenSSL names it (`"DSA"`, `"ED448"` …).
    case other(String)

    public var description: String {
        switch self {
        case .rsa(let bits): "RSA \(bits)"
        case .ec(let curve): "EC \(curve)"
        case .ed25519: "Ed25519"
        case .other(let name): name
        }
    }

    /// The kind of an `EVP_PKEY`.
    init(key: OpaquePointer) {
        switch EVP_PKEY_get_base_id(key) {
        case EVP_PKEY_RSA, EVP_PKEY_RSA_PSS:
            self = .rsa(bits: Int(EVP_PKEY_get_bits(key)))
        case EVP_PKEY_EC:
            var buffer = [CChar](repeating: 0, count: 80)
            var length = 0
            guard EVP_PKEY_get_group_name(key, &buffer, buffer.count, &length) == 1 else {
                OpenSSLErrors.clear()
                self = .ec(curve: "unknown")
                return
            }
            let name = String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let nid = OBJ_sn2nid(name)
            if nid != NID_undef, let nist = EC_curve_nid2nist(nid) {
                self = .ec(curve: String(cString: nist))
            } else {
                self = .ec(curve: name)
            }
        case EVP_PKEY_ED25519:
            self = .ed25519
        default:
            self = .other(EVP_PKEY_get0_type_name(key).map { String(cString: $0) } ?? "unknown")
        }
    }
}

/// Raw signatures over a precomputed digest through `EVP_PKEY_sign` / `EVP_PKEY_verify`.
enum RawSignature {
    /// Sets up a context after `EVP_PKEY_sign_init` or `EVP_PKEY_verify_init`: the digest named in
    /// the signature (so RSA PKCS#1 v1.5 writes a DigestInfo, RFC 8017 §9.2), the padding, and for
    /// RSA-PSS MGF1 with the same digest and `saltLength` (RFC 4055 §3.1; nil = digest length).
    ///
    /// - Returns: nil when configured, else why not (the key cannot use the scheme).
    static func configure(
        _ context: OpaquePointer, key: OpaquePointer, digest: DigestAlgorithm, scheme: SignatureScheme,
        saltLength: Int? = nil
    ) -> String? {
        configure(
            context, key: key, md: digest.messageDigest, digestName: digest.rawValue, scheme: scheme,
            saltLength: saltLength)
    }

    /// `configure` with any OpenSSL digest (SHA-1 is accepted here to verify old signatures, never to sign).
    static func configure(
        _ context: OpaquePointer, key: OpaquePointer, md: OpaquePointer?, digestName: String, scheme: SignatureScheme,
        saltLength: Int? = nil
    ) -> String? {
        let base = EVP_PKEY_get_base_id(key)
        let isRSA = base == EVP_PKEY_RSA || base == EVP_PKEY_RSA_PSS
        switch scheme {
        case .rsaPKCS1v15:
            guard base == EVP_PKEY_RSA else { return "RSA PKCS#1 v1.5 needs an RSA key, not \(KeyKind(key: key))" }
            guard EVP_PKEY_CTX_set_rsa_padding(context, RSA_PKCS1_PADDING) > 0 else { return "cannot set padding" }
        case .rsaPSS:
            guard isRSA else { return "RSA-PSS needs an RSA key, not \(KeyKind(key: key))" }
            guard EVP_PKEY_CTX_set_rsa_padding(context, RSA_PKCS1_PSS_PADDING) > 0,
                EVP_PKEY_CTX_set_rsa_mgf1_md(context, md) > 0
            else { return "cannot set PSS padding" }
        case .ecdsa:
            guard base == EVP_PKEY_EC else { return "ECDSA needs an EC key, not \(KeyKind(key: key))" }
        }
        guard EVP_PKEY_CTX_set_signature_md(context, md) > 0 else {
            return "cannot use \(digestName) with \(KeyKind(key: key))"
        }
        if scheme == .rsaPSS {
            let salt = saltLength.map { Int32(clamping: $0) } ?? RSA_PSS_SALTLEN_DIGEST
            guard EVP_PKEY_CTX_set_rsa_pss_saltlen(context, salt) > 0 else { return "cannot set the PSS salt length" }
        }
        return nil
    }

    /// Checks `signature` over `digest` with the public key in `key`.
    static func verify(
        key: OpaquePointer, signature: [UInt8], digest: [UInt8], digestAlgorithm: DigestAlgorithm,
        scheme: SignatureScheme, saltLength: Int? = nil
    ) -> Bool {
        defer { OpenSSLErrors.clear() }
        guard digest.count == digestAlgorithm.length, !signature.isEmpty,
            let context = EVP_PKEY_CTX_new(key, nil)
        else { return false }
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_verify_init(context) == 1,
            configure(context, key: key, digest: digestAlgorithm, scheme: scheme, saltLength: saltLength) == nil
        else { return false }
        return EVP_PKEY_verify(context, signature, signature.count, digest, digest.count) == 1
    }
}

extension RawSignature {
    /// Checks a signature over a SHA-1 digest (old signatures: `adbe.pkcs7.sha1`, SHA-1 CMS). Verifying only.
    static func verifySHA1(
        key: OpaquePointer, signature: [UInt8], digest: [UInt8], scheme: SignatureScheme, saltLength: Int? = nil
    ) -> Bool {
        defer { OpenSSLErrors.clear() }
        guard digest.count == 20, !signature.isEmpty, let context = EVP_PKEY_CTX_new(key, nil) else { return false }
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_verify_init(context) == 1,
            configure(context, key: key, md: EVP_sha1(), digestName: "sha1", scheme: scheme, saltLength: saltLength)
                == nil
        else { return false }
        return EVP_PKEY_verify(context, signature, signature.count, digest, digest.count) == 1
    }
}

extension DigestAlgorithm {
    /// OpenSSL's `EVP_MD` for the algorithm.
    var messageDigest: OpaquePointer? {
        switch self {
        case .sha256: EVP_sha256()
        case .sha384: EVP_sha384()
        case .sha512: EVP_sha512()
        }
    }
}
