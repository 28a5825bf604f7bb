/// Why a certificate was revoked: the CRLReason of a CRL entry's reasonCode extension (RFC 5280
/// §5.3.1), also an OCSP response's revocationReason (RFC 6960 §4.2.1).
public enum CRLReason: Int, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// unspecified (0): no reason given.
    case unspecified = 0
    /// keyCompromise (1): the subject's private key is known or suspected to be compromised.
    case keyCompromise = 1
    /// cACompromise (2): a CA's private key is known or suspected to be compromised.
    case caCompromise = 2
    /// affiliationChanged (3): the subject's name or other information changed.
    case affiliationChanged = 3
    /// superseded (4): the certificate was replaced.
    case superseded = 4
    /// cessationOfOperation (5): the certificate is no longer needed.
    case cessationOfOperation = 5
    /// certificateHold (6): the certificate is suspended, and may be released later.
    case certificateHold = 6
    /// removeFromCRL (8): a delta CRL's word that an entry left the base CRL (RFC 5280 §5.2.4).
    case removeFromCRL = 8
    /// privilegeWithdrawn (9): a privilege the certificate asserts was withdrawn.
    case privilegeWithdrawn = 9
    /// aACompromise (10): an attribute authority's key is known or suspected to be compromised.
    case aaCompromise = 10

    /// The ASN.1 name, as RFC 5280 spells it (`keyCompromise`).
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
