/// What a certificate's issuer (or its responder) says of the certificate at a time: good, revoked
/// or unknown (RFC 6960 §2.2, `CertStatus`).
public enum CertificateStatus: Hashable, Sendable {
    /// Not revoked, as far as the responder knows (which need not mean it was ever issued, RFC 6960 §2.2).
    case good
    /// Revoked at `time` (seconds since 1970), for `reason` when the responder gives one that RFC 5280
    /// §5.3.1 defines (RFC 6960 §4.2.1, `RevokedInfo`).
    case revoked(time: Int, reason: RevocationReason?)
    /// The responder does not know the certificate (RFC 6960 §2.2).
    case unknown

    /// Whether the status is ``revoked(time:reason:)``.
    public var isRevoked: Bool {
        if case .revoked = self { return true }
        return false
    }
}
