public import PDFAnnotations
public import PDFAuthoring
public import PDFCore
public import PDFSigning

/// How a document is signed (WYSIWYS `WYSSignatureConfiguration`): the visible signature, the
/// refusal watermark, the signature's attributes and who computes the CMS.
public struct SignatureConfiguration: Sendable {
    /// The visible signature: handwriting or the signer's name, the date, a description, a graphic.
    public var appearance = VisualSignatureConfiguration()
    /// WYSIWYS `WYSWatermarkAppearance`: drawn on every page of a refused document (the seed's
    /// defaults: no rotation, `yyyy-MM-dd HH:mm:ss`).
    public var watermark: WatermarkAppearance = {
        var watermark = WatermarkAppearance(title: "REFUSED")
        watermark.rotation = 0
        watermark.datePattern = DatePattern("yyyy-MM-dd HH:mm:ss")
        return watermark
    }()
    /// The signature dictionary's attributes: name, location, reason, reserved size, digest, `/SubFilter`.
    public var attributes = SignatureAttributes()
    /// Who turns the digest into a CMS; ``SigningMode/deferred`` by default.
    public var signing: SigningMode = .deferred
    /// signo's signature capture dialog (`STSignatureCaptureConfig`).
    public var capture = SignatureCaptureConfiguration()
    /// WYSIWYS `WYSSignatureAppearanceCreation`: the host's own rendering of the visible signature,
    /// asked with the appearance built from ``appearance`` and ``capture``; nil (the default) keeps it.
    public var appearanceProvider: (any SignatureAppearanceProvider)?
    /// The fields set read-only in the signed revision besides those the delegate returns.
    public var readOnlyFields: [String] = []
    /// Write changes that break the document's certification (DocMDP) or a field lock (FieldMDP):
    /// off by default, when such a change fails with `.certificationViolated` (signo -129) and
    /// nothing is stored; on for the deliberate case (the signature concerned then no longer
    /// validates as unchanged).
    public var allowsBreakingCertification = false
    /// Refuse forms that set `/NeedAppearances` (signo -137) instead of making their appearances.
    public var refusesNeedAppearances = false
    /// A signature started with `startSignature` (signo's flow) waits for the person to confirm a
    /// preview (`onConfirmationRequired`, then `confirmSignature()`), as WYSIWYS signatures do.
    /// Off by default, as in signo, where the delegate's `willConfirmSigning` is the confirmation
    /// and a port never calls `confirmSignature()`; the web viewer turns it on (what the person
    /// confirms is always a rendering of the bytes to be signed).
    public var previewsSignoSignatures = false
    /// signo's biometrics certificate (DER): when set, the captured handwriting (points, pressure,
    /// times) is stored encrypted to it in the signed revision; -131 when it cannot be read.
    public var biometricsCertificate: [UInt8]?
    /// The time-stamp authority that stamps every signature of the session (PAdES B-T): the
    /// signature value is stamped as soon as the CMS is there, whoever made it. A failing authority
    /// is −146 (`timestampFailed`): the signature fails as a signer's failure does and the document
    /// stays as it was (a CMS given to `embedSignature(_:)` may be given again).
    public var timeStampAuthority: (any TimeStampAuthority)?
    /// What completing a document (``DocumentSession/completeDocument()``) may fetch: with a
    /// policy, the status and issuers only of certificates whose path leads to its trust anchors
    /// or to the seal's own chain (the `.signer`'s certificates), and only from the destinations it
    /// allows (`RevocationFetchPolicy`) — what a service that takes documents from others needs;
    /// nil (the default) fetches whatever the certificates name, as a person's own command does.
    public var revocationFetchPolicy: RevocationFetchPolicy?

    /// The seeds' defaults: a deferred CMS, a name signature, the refusal watermark `REFUSED`.
    public init() {}

    /// The defaults, with the CMS made by `signer` in this process.
    public init(signer: any Signer) { signing = .signer(signer) }
}

/// Who turns the document digest into a CMS.
public enum SigningMode: Sendable {
    /// WYSIWYS: `documentPreparedForSignature(digest, reason)` is emitted and the app calls
    /// `embedSignature(cms)` — now, or later from any process with the document id. A delegate
    /// whose `computeDigitalSignature(digest:algorithm:)` returns a CMS is asked first, as a signo
    /// port expects; when it returns nil (the default) the session waits for `embedSignature`.
    case deferred
    /// signo: the delegate's `computeDigitalSignature(digest:)` returns the CMS (nil cancels).
    case delegate
    /// A signer of this process: a local key (`LocalKeySigner`) or a remote raw-signature service
    /// that receives only a digest (`RawSignatureSigner`).
    case signer(any Signer)
}

/// The visible signature (WYSIWYS `WYSSignatureAppearance`).
public struct VisualSignatureConfiguration: Sendable, Codable, Equatable {
    /// The person draws their signature, or picks one of those saved (none saved: draw; one: used;
    /// several: choose).
    public var handwrittenSignatureEnabled = false
    /// The text shown as the signature when handwriting is off (nil: the certificate's name, else the username).
    public var signerName: String?
    /// The font of the signer's name when handwriting is off; Helvetica-BoldOblique by default.
    public var signerNameFont: SignatureAppearance.FontChoice = .standard("Helvetica-BoldOblique")
    /// WYSIWYS default `yyyy-MM-dd HH:mm`.
    public var dateTimePattern = DatePattern("yyyy-MM-dd HH:mm")
    /// The font of the text lines: the display text, the date and the description.
    public var dateFont: SignatureAppearance.FontChoice = .standard("Helvetica")
    /// The largest size of the signer's name (WYSIWYS `signerNameFont`'s 48): points on a signature
    /// 512 points wide, scaled to the field (see `SignatureAppearance.markFontSize`).
    public var signerNameFontSize: Double = 48
    /// The largest size of the text lines (WYSIWYS `dateFont`'s 28), in the same units.
    public var dateFontSize: Double = 28
    /// Drawn with the date, in ``dateFont``.
    public var signatureDescription: String?
    /// A PNG or JPEG drawn at the bottom of the signature.
    public var signatureGraphic: [UInt8]?
    /// Sign with a new invisible field: no positioning and no preview (nothing visible changes).
    public var invisibleSignature = false
    /// The size proposed for a signature the person positions, in points.
    public var proposedWidth: Double = 200
    /// The height proposed for a signature the person positions, in points.
    public var proposedHeight: Double = 70

    /// The seeds' defaults: the signer's name in Helvetica-BoldOblique, the text in Helvetica, a proposed size of
    /// 200 × 70 pt.
    public init() {}
}

/// Which fields a signature locks (``SignatureAttributes/fieldLock``).
public enum SignatureFieldLock: String, Sendable, Codable, Equatable, CaseIterable {
    /// None.
    case none
    /// The form fields holding a value when it is signed (`/Action /Include`): what the person
    /// filled stays as signed, while the fields left empty stay open for the next signer.
    case filled
    /// Every field of the document (`/Action /All`), later signature fields included.
    case all
}

/// The signature dictionary's attributes (WYSIWYS `WYSSignatureAttributes`).
public struct SignatureAttributes: Sendable, Codable, Equatable {
    /// `/Name` (default: the username).
    public var signatureName: String?
    /// `/Location`: where the signing took place (nil: none).
    public var signatureLocation: String?
    /// `/Reason` (default: `acceptedReason` or `refusedReason`, by the person's decision).
    public var signatureReason: String?
    /// `/Reason` of a signature that accepts the document, when ``signatureReason`` is nil.
    public var acceptedReason = "accepted"
    /// `/Reason` of the invisible signature that refuses the document, when ``signatureReason`` is nil.
    public var refusedReason = "refused"
    /// The bytes reserved for the CMS (WYSIWYS default 32768); a larger CMS is error -136.
    public var estimatedSignatureSize = 32_768
    /// The digest of the signed byte ranges and attributes; SHA-256 by default.
    public var digestAlgorithm: DigestAlgorithm = .sha256
    /// `/SubFilter`; PAdES (`ETSI.CAdES.detached`) by default.
    public var subFilter: SignatureRequest.SubFilter = .cadesDetached
    /// The fields each signature locks (FieldMDP, ISO 32000-1 §12.8.2.4), so that what it signed
    /// cannot change afterwards without a validator saying so (and this session refusing it, -129);
    /// nil locks none, as the seeds do.
    public var fieldLock: SignatureFieldLock?

    /// The seeds' defaults: accepted/refused reasons, 32,768 bytes for the CMS, SHA-256, PAdES.
    public init() {}
}

/// signo `STSignatureCaptureConfig`: the text shown with the signature, its colour and the ink's.
public struct SignatureCaptureConfiguration: Sendable, Codable, Equatable {
    /// Text shown in the dialog and in the signature (nil: none).
    public var displayText: String?
    /// The colour of the text lines (display text, date, description); black by default.
    public var textColor: PDFColor = .black
    /// The colour of the handwriting; dark blue by default.
    public var signatureColor: PDFColor = .rgb(0.05, 0.1, 0.45)
    /// Where the capture dialog opens, in the viewer's points from its top-left corner (signo
    /// `position`); nil: centred.
    public var position: PDFRectangle?

    /// No display text, black text, dark blue ink.
    public init() {}
}
