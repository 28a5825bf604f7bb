/// Why a certificate was revoked: the `CRLReason` of RFC 5280 §5.3.1, which OCSP reuses (RFC 6960
/// §4.2.1). Value 7 is not used.
public enum RevocationReason: Int, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// No reason given.
    case unspecified = 0
    /// The subject's private key is known or suspected to be compromised.
    case keyCompromise = 1
    /// The key of a CA that issued the certificate is compromised.
    case caCompromise = 2
    /// The subject's name or other information changed.
    case affiliationChanged = 3
    /// Another certificate replaces this one.
    case superseded = 4
    /// The certificate is no longer needed.
    case cessationOfOperation = 5
    /// The certificate is on hold (a revocation that may be lifted).
    case certificateHold = 6
    /// The certificate was taken off a CRL (delta CRLs only).
    case removeFromCRL = 8
    /// A privilege the certificate attests was withdrawn.
    case privilegeWithdrawn = 9
    /// The key of an attribute authority is compromised.
    case aaCompromise = 10

    /// The name RFC 5280 §5.3.1 gives the reason (`keyCompromise`, `cACompromise` …).
    public var description: String {
        switch self {
        case .unspecified: "unspecified"
        case .keyCompromise: "keyCompromise"
        case .caCompromise: "cACompromise"
        case .affiliationChanged: "affiliationChanged"
        case .superseded: "superseded"
        case .cessationOfOperation: "cessationOfOperation"
        case .certificateHold: "certificateHold"
        case .removeFromCRL: "removeFromCRL"
        case .privilegeWithdrawn: "privilegeWithdrawn"
        case .aaCompromise: "aACompromise"
        }
    }
}
