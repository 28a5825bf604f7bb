public import PDFCore
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
    /// The "signature fields" button was pressed (signo `signatureInfoPressed`): true lets the viewer
    /// show its own list of signature fields; false means the app handles it.
    func signatureInfoPressed() async -> Bool
    /// The back button was pressed (signo `backButtonPressed`): the app usually closes the viewer.
    func backButtonPressed() async
    /// A viewer rectangle was confirmed (signo `viewerRectConfirmed:inPage:viewerRectId:`): `rect`
    /// in the PDF user space of page `pageIndex` (from 0, as every page number here: signo's
    /// `inPage:` is `pageIndex + 1`), or a zero `rect` and nil when the rectangle lies on no page.
    /// True hides the rectangle; false keeps it shown.
    func viewerRectConfirmed(rect: PDFRectangle, pageIndex: Int?, id: Int) async -> Bool
    /// A viewer rectangle was cancelled (signo `viewerRectCancelled:`).
    func viewerRectCancelled(id: Int) async
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
    /// Lets the viewer show its own list of signature fields.
    public func signatureInfoPressed() async -> Bool { true }
    /// Does nothing.
    public func backButtonPressed() async {}
    /// Hides the rectangle.
    public func viewerRectConfirmed(rect: PDFRectangle, pageIndex: Int?, id: Int) async -> Bool { true }
    /// Does nothing.
    public func viewerRectCancelled(id: Int) async {}
}
