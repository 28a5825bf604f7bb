public import PDFCore

/// What to sign and how: the field, the signature dictionary's entries, the digest, the space to
/// reserve, certification and field locking (ISO 32000-2 §12.8, ETSI EN 319 142-1 PAdES).
public struct SignatureRequest: Sendable, Codable {
    /// Where the signature goes.
    public enum Placement: Sendable, Codable, Equatable {
        /// The existing empty signature field named ``SignatureRequest/fieldName``.
        case existingField
        /// A new field without appearance (a zero-size widget on the first page).
        case invisible
        /// A new field shown on page `page` (from 0) at `rect` in PDF user space.
        case visible(page: Int, rect: PDFRectangle)
    }

    /// `/SubFilter` (§12.8.3): the CAdES form of PAdES, or the older PKCS#7 detached form.
    public enum SubFilter: String, Sendable, Codable {
        /// `ETSI.CAdES.detached`: a PAdES baseline signature (ETSI EN 319 142-1, §12.8.3.4).
        case cadesDetached = "ETSI.CAdES.detached"
        /// `adbe.pkcs7.detached`: the older detached PKCS#7 form (§12.8.3.3), for validators that predate PAdES.
        case pkcs7Detached = "adbe.pkcs7.detached"
        /// `ETSI.RFC3161`: a document time-stamp (ETSI EN 319 142-1 §5.4, ISO 32000-2 §12.8.5), whose
        /// `/Contents` is a time-stamp token over the byte ranges; made by `DocumentTimestamper`.
        case rfc3161 = "ETSI.RFC3161"
    }

    /// The permissions of a certification signature (`/DocMDP /P`, §12.8.2.2): the level the
    /// validator reads back.
    public typealias Certification = CertificationLevel

    /// Fields that the signature locks (`/Lock`, FieldMDP, §12.8.2.4).
    public enum FieldLock: Sendable, Codable, Hashable {
        /// Every field of the document (`/Action /All`).
        case all
        /// The fields named, by fully qualified name (`/Action /Include`).
        case include([String])
        /// Every field but those named (`/Action /Exclude`).
        case exclude([String])
    }

    /// The name of the field to sign or create; nil creates `Signature1`, `Signature2` … (the first unused).
    public var fieldName: String?
    /// Where the signature goes; a new invisible field by default.
    public var placement: Placement
    /// `/SubFilter`; PAdES (`ETSI.CAdES.detached`) by default.
    public var subFilter: SubFilter = .cadesDetached
    /// `/Name`: the signer's name (by default the certificate's common name, when known).
    public var name: String?
    /// `/Location`: where the signing took place, as the signer gives it.
    public var location: String?
    /// `/Reason`: why the document is signed, as the signer gives it.
    public var reason: String?
    /// `/ContactInfo`: how to reach the signer, as the signer gives it.
    public var contactInfo: String?
    /// `/M` and the date shown in the appearance.
    public var signingTime: PDFDate = .now()
    /// The digest of the signed byte ranges and of the signed attributes; SHA-256 by default.
    public var digestAlgorithm: DigestAlgorithm = .sha256
    /// The bytes reserved for the CMS; nil estimates them from the signer.
    public var contentsSize: Int?
    /// Makes this a certification signature (only as the document's first signature).
    public var certification: Certification?
    /// Fields locked by the signature.
    public var lockFields: FieldLock?
    /// Fields set read-only in the signed revision (signo `signingProcessStarted`).
    public var readOnlyFields: [String] = []
    /// How a visible signature looks; nil shows the signer's name, the date, and the reason and
    /// location as the description.
    public var appearance: SignatureAppearance?
    /// Handwriting and device data to store encrypted in the signed revision (signo biometrics).
    public var biometrics: BiometricCapture?
    /// The DER certificate the biometric data is encrypted to (signo's biometrics certificate).
    public var biometricsCertificate: [UInt8]?

    /// A request to sign the field `fieldName` (nil: a new `SignatureN`) placed as `placement` says; every other
    /// property has its default.
    public init(fieldName: String? = nil, placement: Placement = .invisible) {
        self.fieldName = fieldName
        self.placement = placement
    }
}

extension PDFRectangle: Codable {
    /// Reads the JSON form `[x0, y0, x1, y1]`, normalised.
    /// - Throws: `DecodingError` when the array holds fewer than four numbers.
    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        let x0 = try container.decode(Double.self)
        let y0 = try container.decode(Double.self)
        let x1 = try container.decode(Double.self)
        let y1 = try container.decode(Double.self)
        self.init(x0: x0, y0: y0, x1: x1, y1: y1)
    }

    /// Writes the JSON form `[x0, y0, x1, y1]`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(x0)
        try container.encode(y0)
        try container.encode(x1)
        try container.encode(y1)
    }
}

/// A document prepared for signing: the signature's place in the file and the digest to sign.
/// `Codable`, so the digest can go to a backend and the CMS come back later, in another process,
/// to be embedded (WYSIWYS `embedSignature:documentId:`).
public struct PreparedSignature: Sendable, Codable, Equatable {
    /// The caller's identity for the document (WYSIWYS document id), when given.
    public var documentID: String?
    /// The fully qualified name of the signature field.
    public var fieldName: String
    /// `/ByteRange`: [0, a, b, c] — everything but the `/Contents` value.
    public var byteRange: [Int]
    /// The offset of the `<` of the `/Contents` value, and the number of hex digits it holds.
    public var contentsOffset: Int
    /// The number of hex digits between `<` and `>`: twice the bytes reserved (``capacity``).
    public var contentsHexLength: Int
    /// The algorithm ``digest`` was computed with.
    public var digestAlgorithm: DigestAlgorithm
    /// The digest of the two byte ranges: what the CMS's messageDigest must be.
    public var digest: [UInt8]
    /// The size of the prepared file.
    public var fileSize: Int
    /// `/SubFilter` of the signature dictionary.
    public var subFilter: SignatureRequest.SubFilter

    /// A prepared signature; each argument sets the property of the same name.
    public init(
        documentID: String?, fieldName: String, byteRange: [Int], contentsOffset: Int, contentsHexLength: Int,
        digestAlgorithm: DigestAlgorithm, digest: [UInt8], fileSize: Int, subFilter: SignatureRequest.SubFilter
    ) {
        self.documentID = documentID
        self.fieldName = fieldName
        self.byteRange = byteRange
        self.contentsOffset = contentsOffset
        self.contentsHexLength = contentsHexLength
        self.digestAlgorithm = digestAlgorithm
        self.digest = digest
        self.fileSize = fileSize
        self.subFilter = subFilter
    }

    /// The largest CMS, in bytes, the reserved space holds.
    public var capacity: Int { contentsHexLength / 2 }

    /// The digest in lower-case hex.
    public var digestHex: String {
        digest.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }
}
