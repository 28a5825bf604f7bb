public import PDFCore

/// What validating one signature found (ISO 32000-2 §12.8.1, RFC 5652 §5.6; shaped like pyHanko's
/// `PdfSignatureStatus`): a value, never a thrown error — a damaged or hostile signature gives a
/// status with ``problems``.
///
/// The checks are independent: the digest of the signed byte ranges (``digestIntact``), the CMS
/// signature (``signatureValid``), the signer's certificate path (``trust``) and how much of the
/// file the byte ranges cover (``coverage``). ``isValid`` needs all four; ``isIntact`` all but
/// trust. ``verdict`` is the bottom line, telling a broken signature (``Verdict/invalid``) from an
/// intact one whose signer is not trusted (``Verdict/untrusted``).
public struct SignatureStatus: Sendable {
    /// How much of the file a signature's `/ByteRange` covers, from worst to best (pyHanko's
    /// `SignatureCoverageLevel`).
    public enum Coverage: Int, Comparable, Sendable, CustomStringConvertible {
        /// The ranges do not start at 0, leave a gap other than the `/Contents` string, overlap, or
        /// cannot be read.
        case unclear
        /// One contiguous block from the start of the file, minus `/Contents`, ending inside a revision.
        case contiguousFromStart
        /// Everything up to the end of a revision (its `%%EOF`), later updates excluded.
        case entireRevision
        /// The whole file.
        case entireFile

        /// Whether `lhs` covers less than `rhs`.
        public static func < (lhs: Coverage, rhs: Coverage) -> Bool { lhs.rawValue < rhs.rawValue }

        /// `unclear`, `contiguousFromStart`, `entireRevision` or `entireFile`.
        public var description: String {
            switch self {
            case .unclear: "unclear"
            case .contiguousFromStart: "contiguousFromStart"
            case .entireRevision: "entireRevision"
            case .entireFile: "entireFile"
            }
        }
    }

    /// The signature field's fully qualified name (§12.7.4.2).
    public var fieldName: String
    /// The signature dictionary (the field's `/V`), when it is an indirect object.
    public var signatureReference: PDFReference?
    /// The signer's certificate, as the CMS SignerInfo names it; nil when the CMS does not carry it.
    public var signerCertificate: Certificate?
    /// Every certificate the CMS carries (the signer's, intermediates, sometimes the root).
    public var certificates: [Certificate] = []
    /// `/M`, the signing time the signature dictionary claims (§12.8.1, Table 255); not proof of time.
    public var claimedSigningTime: PDFDate?
    /// The CMS signingTime attribute (RFC 5652 §11.3), seconds since 1970; PAdES signatures have none.
    public var cmsSigningTime: Int?
    /// `/SubFilter`, e.g. `ETSI.CAdES.detached`, `adbe.pkcs7.detached`, `adbe.pkcs7.sha1`, `ETSI.RFC3161`.
    public var subFilter: String?
    /// The SignerInfo's digest algorithm: `sha256`, `sha384`, `sha512`, `sha1`, `md5`, or the
    /// dotted identifier of another; nil when the CMS cannot be read.
    public var digestAlgorithm: String?
    /// `/ByteRange` as read: the integers of the array (four for a well-formed one); empty when absent.
    public var byteRange: [Int] = []
    /// The digest of the byte ranges equals what the CMS signed: the messageDigest attribute
    /// (`adbe.pkcs7.detached`, `ETSI.CAdES.detached`), the encapsulated SHA-1 digest
    /// (`adbe.pkcs7.sha1`) or the time-stamp's message imprint (`ETSI.RFC3161`).
    public var digestIntact = false
    /// The CMS signature is valid with the signer's certificate: over the signed attributes, or
    /// over the content digest when there are none (RFC 5652 §5.4).
    public var signatureValid = false
    /// Whether the signer's certificate chains to a trust root at the validation time; the reason
    /// (expiry included) when not.
    public var trust: TrustResult = .untrusted(reason: "not checked")
    /// How much of the file the byte ranges cover.
    public var coverage: Coverage = .unclear
    /// The revision the signature signs (0 = the original document, see `PDFDocument.revisions`):
    /// the one whose end the byte ranges reach; nil when the byte range cannot be read.
    public var revision: Int?
    /// How many incremental updates follow the signed revision (see ``modifications`` for what they change).
    public var laterRevisions = 0
    /// What the updates after the signed revision change, judged by the certification and the
    /// field locks in force; nil when the signed revision is unknown (an unreadable `/ByteRange`).
    public var modifications: ModificationReport?
    /// Why the signature could not be checked completely (an algorithm or `/SubFilter` this
    /// validator does not support), nil when it could; also listed in ``problems``.
    public var unsupported: String?
    /// The signature time-stamp (an unsigned attribute of the SignerInfo, PAdES B-T); nil when the
    /// signature has none.
    public var timeStamp: TimeStampStatus?
    /// What is wrong or unusual, one human-readable sentence each.
    public var problems: [String] = []

    /// Creates a status for the field `fieldName` with nothing checked yet (every check false).
    public init(fieldName: String) {
        self.fieldName = fieldName
    }

    /// True when the signature is intact, valid, trusted and covers at least its whole revision.
    public var isValid: Bool {
        digestIntact && signatureValid && trust.isTrusted && coverage >= .entireRevision
    }

    /// True when the signature itself holds, whoever signed: the signed bytes are unchanged
    /// (``digestIntact``), the CMS signature verifies (``signatureValid``) and the byte ranges
    /// cover at least the whole signed revision. pyHanko's `INTACT`; trust is another question.
    public var isIntact: Bool {
        digestIntact && signatureValid && coverage >= .entireRevision
    }

    /// True when a certificate of the signer's path was revoked by the best signature time
    /// (``revocation``, as of ``bestSignatureTime``): pyHanko's `REVOKED`, never merely untrusted.
    public var signerRevoked: Bool {
        revocation.contains { entry in
            guard entry.path == .signer, case .revoked(let time, _)? = entry.status else { return false }
            return time <= entry.time
        }
    }

    /// The bottom line: the signature and what happened to the document since. From best to worst:
    /// ``valid``, ``validWithAllowedChanges``, ``untrusted``, ``modified``, ``invalid``.
    public enum Verdict: String, Sendable, CaseIterable {
        /// Valid and trusted, and nothing shown changed since.
        case valid
        /// Valid and trusted, and changed since only in ways the certification and locks permit.
        case validWithAllowedChanges
        /// Signed, but the signer is not trusted: the signature is intact (``isIntact``) and nothing
        /// changed since that is not permitted, but the signer's certificate does not chain to a
        /// trust root at the validation time (unknown root, expired, a status that could not be had
        /// online; the reason is ``trustReason``). pyHanko's `INTACT:UNTRUSTED`; pdfsig's
        /// "Signature is Valid" with "Certificate issuer isn't Trusted".
        case untrusted
        /// Intact as signed, but the document was changed since in a way nothing permits (whether
        /// the signer is trusted or not: see ``trust``).
        case modified
        /// Broken: the signed bytes changed, the CMS signature does not verify, the byte ranges
        /// do not cover the signed revision, or a certificate of the signer's path was revoked by
        /// the time of signing (``signerRevoked``).
        case invalid
    }

    /// ``Verdict/invalid`` unless ``isIntact`` (and not ``signerRevoked``); then ``Verdict/modified``
    /// when a later change is not permitted, ``Verdict/untrusted`` when the signer is not trusted,
    /// else whether later changes are allowed.
    public var verdict: Verdict {
        guard isIntact, !signerRevoked, let modifications else { return .invalid }
        if modifications.level == .disallowed { return .modified }
        guard trust.isTrusted else { return .untrusted }
        return modifications.level == ModificationLevel.none ? .valid : .validWithAllowedChanges
    }

    /// True when the verdict is ``Verdict/valid`` or ``Verdict/validWithAllowedChanges``.
    public var isValidAsShown: Bool { verdict == .valid || verdict == .validWithAllowedChanges }

    /// Whether the document's `/DSS` gives a status (an OCSP response or a CRL) for every
    /// certificate of the signer's and the time-stamp authority's paths but the roots (PAdES B-LT).
    public var validationMaterialComplete = false
    /// Whether a valid document time-stamp of a later revision covers that material (PAdES B-LTA).
    public var archived = false
    /// Where the certificates' statuses were looked for; nil before they were.
    public var revocationChecking: RevocationChecking?
    /// The status of each certificate of the signer's path and of its time-stamp authority's but
    /// the roots, each with where it came from; empty with ``RevocationChecking/off``.
    public var revocation: [CertificateRevocation] = []
    /// The time the signature is proven to have existed and its certificates' statuses had to
    /// cover, in seconds since 1970: its time-stamp's when that is valid (a document time-stamp's
    /// own), else the validation time — never the claimed `/M`.
    public var bestSignatureTime: Int?
    /// The revocation information the CMS carries.
    var cmsRevocation = RevocationMaterial()

    /// The PAdES baseline level the signature reaches (ETSI EN 319 142-1 §6): `B-B`; `B-T` with a
    /// valid signature time-stamp; `B-LT` when the `/DSS` also holds the validation material of
    /// every certificate involved; `B-LTA` when a valid document time-stamp covers it. Nil for what
    /// is not a PAdES signature (`adbe.pkcs7.*`, a document time-stamp) or a signature that is not valid.
    public var level: String? {
        guard subFilter == "ETSI.CAdES.detached", digestIntact, signatureValid else { return nil }
        guard timeStamp?.isValid == true else { return "B-B" }
        guard validationMaterialComplete else { return "B-T" }
        return archived ? "B-LTA" : "B-LT"
    }

    /// The reason the signer is not trusted, nil when trusted.
    public var trustReason: String? {
        if case .untrusted(let reason) = trust { return reason }
        return nil
    }
}
