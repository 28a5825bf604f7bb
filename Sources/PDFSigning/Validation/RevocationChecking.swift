public import AutographJSON
import PDFCore

/// Where validation looks for the statuses of the certificates involved (`autograph verify
/// --revocation`).
public enum RevocationChecking: String, Sendable, CaseIterable {
    /// No status is asked: a revoked certificate goes unnoticed. The PAdES level is still read
    /// from what the `/DSS` holds.
    case off
    /// What the document embeds: its `/DSS` (PAdES B-LT), and the revocation information a CMS
    /// carries (its `crls` field and Adobe's `adbe-revocationInfoArchival` signed attribute).
    case embedded
    /// What the document embeds first, then the certificates' OCSP responders and CRL
    /// distribution points for what it lacks.
    case online
}

/// The status of one certificate of a signature's paths, as validation found it: what it is, where
/// it came from, and the time it had to cover.
public struct CertificateRevocation: Sendable {
    /// Where a status came from.
    public enum Source: String, Sendable {
        /// The document's `/DSS` (its latest revision's).
        case dss
        /// The signature's CMS (revocation information it carries).
        case cms
        /// Asked of the certificate's OCSP responder or CRL distribution point while validating.
        case online
    }

    /// Which path the certificate is on.
    public enum Path: String, Sendable {
        /// The signer's (for a document time-stamp, its authority's).
        case signer
        /// The authority of the signature's time-stamp.
        case timeStampAuthority
    }

    /// The certificate's subject, as text.
    public var subject: String
    /// Its serial number, in hexadecimal.
    public var serialNumber: String
    /// The path it is on.
    public var path: Path
    /// The time (seconds since 1970) the status had to cover: the signature time-stamp's for a
    /// time-stamped signature, else the validation time.
    public var time: Int
    /// The status found; nil when none that covers ``time`` could be had.
    public var status: CertificateStatus?
    /// Where ``status`` came from; nil with it.
    public var source: Source?
    /// Why no status could be had (or why what the document embeds did not serve); nil when one was.
    public var problem: String?
    /// Whether the certificate names an OCSP responder or a CRL distribution point.
    var namesStatusService = false

    /// `{subject, serial, path, time, status: good|revoked|unknown|null, revokedAt, reason, source, problem}`.
    public var json: JSONValue {
        var revokedAt: JSONValue = .null
        var reason: JSONValue = .null
        let statusText: JSONValue
        switch status {
        case nil: statusText = .null
        case .good?: statusText = .string("good")
        case .unknown?: statusText = .string("unknown")
        case .revoked(let time, let why)?:
            statusText = .string("revoked")
            revokedAt = .string(PDFDate(seconds: time).pdfString)
            reason = why.map { .string($0.description) } ?? .null
        }
        return .object(sortingKeys: [
            "subject": .string(subject), "serial": .string(serialNumber), "path": .string(path.rawValue),
            "time": .string(PDFDate(seconds: time).pdfString), "status": statusText, "revokedAt": revokedAt,
            "reason": reason,
            "source": source.map { .string($0.rawValue) } ?? .null, "problem": problem.map { .string($0) } ?? .null,
        ])
    }
}
