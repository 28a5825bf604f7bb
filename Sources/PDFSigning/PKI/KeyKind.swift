import AutographCrypto

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

    /// `RSA 2048`, `EC P-256`, `Ed25519`, or OpenSSL's name.
    public var description: String {
        switch self {
        case .rsa(let bits): "RSA \(bits)"
        case .ec(let curve): "EC \(curve)"
        case .ed25519: "Ed25519"
        case .other(let name): name
        }
    }

    /// The kind of a key of the crypto layer (RSASSA-PSS-only keys are RSA keys here).
    init(_ kind: AsymmetricKey.Kind) {
        switch kind {
        case .rsa(let bits), .rsaPSS(let bits): self = .rsa(bits: bits)
        case .ec(let curve): self = .ec(curve: curve)
        case .ed25519: self = .ed25519
        case .other(let name): self = .other(name)
        }
    }
}
