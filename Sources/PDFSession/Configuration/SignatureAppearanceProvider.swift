public import PDFCore
public import PDFSigning

/// The host's own rendering of the visible signature (WYSIWYS `WYSSignatureAppearanceCreation`):
/// asked each time the session builds the appearance it will place — when it prepares the signed
/// revision, and for ``DocumentSession/appearancePreview(width:height:scale:)`` — with the appearance
/// the session built from ``VisualSignatureConfiguration`` and ``SignatureCaptureConfiguration``.
///
/// ```swift
/// struct Stamp: SignatureAppearanceProvider {
///     func signatureAppearance(for request: SignatureAppearanceRequest) async -> SignatureAppearance? {
///         var appearance = request.proposed
///         appearance.displayText = "Approved by ACME Corp."
///         return appearance
///     }
/// }
/// var configuration = SignatureConfiguration(signer: signer)
/// configuration.appearanceProvider = Stamp()
/// ```
public protocol SignatureAppearanceProvider: Sendable {
    /// The appearance to draw for `request`, or nil to keep ``SignatureAppearanceRequest/proposed``.
    ///
    /// What comes back is checked (`SignatureAppearance.validate()` and bounded handwriting); an
    /// appearance that fails is a `SessionError` `.invalidArgument` (signo -132 for handwriting too
    /// short, -150 otherwise) and nothing is prepared.
    func signatureAppearance(for request: SignatureAppearanceRequest) async -> SignatureAppearance?
}

/// What the session asks a ``SignatureAppearanceProvider`` for: the signature, the box it fills and
/// the appearance the session would draw there itself.
public struct SignatureAppearanceRequest: Sendable, Equatable {
    /// The existing signature field signed; nil for a new field the person places.
    public var fieldName: String?
    /// Why the document is signed (``SigningWorkflow/Purpose/accept`` for a preview outside signing).
    public var purpose: SigningWorkflow.Purpose
    /// The box the appearance fills, in points, upright as a reader sees it (a field on a page
    /// rotated by a quarter turn has its rectangle's width and height swapped).
    public var size: PDFSize
    /// The appearance the session built from the configuration and the person's capture (their
    /// handwriting, typed name or saved signature; the signer's name when there is none).
    public var proposed: SignatureAppearance

    /// A request; each argument sets the property of the same name.
    public init(fieldName: String?, purpose: SigningWorkflow.Purpose, size: PDFSize, proposed: SignatureAppearance) {
        self.fieldName = fieldName
        self.purpose = purpose
        self.size = size
        self.proposed = proposed
    }
}
