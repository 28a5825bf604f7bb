/// The digest algorithms of signatures (SHA-2; ISO 32000-2 §12.8.3.3 and ETSI EN 319 142-1).
public enum DigestAlgorithm: String, Hashable, Sendable, Codable, CaseIterable {
    case sha256, sha384, sha512

    /// The digest length in bytes.
    public var length: Int {
        switch self {
        case .sha256: 32
        case .sha384: 48
        case .sha512: 64
        }
    }
}

/// How the signer's key signs: RSA PKCS#1 v1.5, RSA-PSS (salt = digest length, MGF1 with the same
/// digest), or ECDSA.
public enum SignatureScheme: String, Hashable, Sendable, Codable {
    case rsaPKCS1v15
    case rsaPSS
    case ecdsa
}
