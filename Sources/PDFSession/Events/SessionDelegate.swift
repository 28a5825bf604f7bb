public import PDFSigning

/// The decisions an app returns during a session (signo `STSignoInfoDelegate`'s methods with a
/// completion or a return value). Every method has the seeds' default, so an app implements only
/// what it decides; a session without a delegate behaves as if every method were the default.
public protocol SessionDelegate: AnyObject, Sendable {
    /// Before capturing a signature for `field` (signo `willStartSigning:completion:`): false cancels.
    func willStartSigning(field: String) async -> Bool
    /// Capture started (signo `signingProcessStarted:`): the fields to make read-only in the signed
    /// revision. Nothing changes if the person cancels.
    func signingProcessStarted(field: String) async -> [String]
    /// The signature was captured (signo `willConfirmSigning:completion:`): false discards it and
    /// leaves the document unchanged.
    func willConfirmSigning(field: String) async -> Bool
    /// The CMS for a digest (signo `computeDigitalSignature:completion:`), used with
    /// `SigningMode.delegate`: a detached CMS whose messageDigest is `digest`; nil cancels.
    func computeDigitalSignature(digest: [UInt8], algorithm: DigestAlgorithm) async -> [UInt8]?
    /// The save button was pressed and the document saved (signo `documentSaved`): true greys the button out.
    func documentSaved() async -> Bool
}

extension SessionDelegate {
    /// Lets every signature start.
    public func willStartSigning(field: String) async -> Bool { true }
    /// Makes no field read-only.
    public func signingProcessStarted(field: String) async -> [String] { [] }
    /// Keeps every captured signature.
    public func willConfirmSigning(field: String) async -> Bool { true }
    /// Returns no CMS, which cancels: an app that uses `SigningMode.delegate` implements this.
    public func computeDigitalSignature(digest: [UInt8], algorithm: DigestAlgorithm) async -> [UInt8]? { nil }
    /// Greys the save button out.
    public func documentSaved() async -> Bool { true }
}
