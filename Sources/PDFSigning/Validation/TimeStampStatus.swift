/// What a signature's time-stamp proves (RFC 3161 Appendix A; PAdES B-T, ETSI EN 319 142-1 §5.3):
/// that the signature value existed at ``time``.
public struct TimeStampStatus: Sendable {
    /// The time stamped, in seconds since 1970.
    public var time: Int
    /// The authority's signing certificate's subject, when the token carries it.
    public var authority: String?
    /// The token is sound and stamps this signature: the authority's signature over its `TSTInfo`,
    /// a certificate for time-stamping alone, valid at that time, and an imprint that is the hash
    /// of the signature value.
    public var intact: Bool
    /// Whether the authority's certificate chains to a trust root at the validation time.
    public var trust: TrustResult
    /// What is wrong, one sentence each.
    public var problems: [String] = []
    /// The authority's signing certificate, when the token carries it.
    public var authorityCertificate: Certificate?
    /// Every certificate the token carries (the authority's path, for long-term validation).
    public var authorityCertificates: [Certificate] = []

    /// The token is intact and its authority trusted: the signature's time is proven.
    public var isValid: Bool { intact && trust.isTrusted }
}

extension SignatureValidator {
    /// Checks the time-stamp token `bytes` (a SignerInfo's `id-aa-signatureTimeStampToken`) over
    /// `signatureValue`; the authority's path is checked at ``validationTime``.
    func checkTimeStamp(_ bytes: [UInt8], over signatureValue: [UInt8]) -> TimeStampStatus {
        let token: TimeStampToken
        do {
            token = try TimeStampToken(der: bytes)
        } catch {
            return TimeStampStatus(
                time: 0, authority: nil, intact: false, trust: .untrusted(reason: "not checked: unreadable token"),
                problems: ["the signature time-stamp cannot be read: \(error.message)"])
        }
        var status = TimeStampStatus(
            time: token.time, authority: token.authority, intact: false,
            trust: .untrusted(reason: "not checked"))
        status.authorityCertificate = token.signerCertificate
        status.authorityCertificates = token.certificates
        guard let algorithm = token.digestAlgorithm else {
            status.problems.append("the signature time-stamp's hash algorithm is not supported")
            return status
        }
        guard let imprint = try? algorithm.hash(signatureValue) else {
            status.problems.append("the signature value's \(algorithm) hash cannot be computed")
            return status
        }
        if let problem = token.problem(imprint: imprint, algorithm: algorithm) {
            status.problems.append("the signature time-stamp is not valid: \(problem)")
        } else {
            status.intact = true
        }
        status.trust = checkTrust(
            token.signerCertificate, intermediates: token.certificates, role: "time-stamp authority")
        return status
    }
}
