import AutographJSON

/// A certificate revocation list (RFC 5280 §5): the certificates an issuer has revoked, signed by
/// the issuer, current from ``thisUpdate`` to ``nextUpdate``.
///
/// Reading a CRL checks only its form; ``problem(issuer:at:)`` says whether it can be used — its
/// issuer, its signature, its times, its extensions — and ``entry(for:)`` whether it lists a
/// certificate. Delta CRLs (RFC 5280 §5.2.4) are read but never used. Two CRLs are equal when their
/// DER is.
///
/// ```swift
/// let crl = try await CRLClient().fetch(for: signer, issuer: intermediate)
/// if let (time, reason) = crl.entry(for: signer) { print("revoked at \(time): \(reason?.description ?? "")") }
/// ```
public struct CertificateRevocationList: Hashable, Sendable {
    /// One revoked certificate of a CRL (RFC 5280 §5.1.2.6).
    public struct Entry: Hashable, Sendable {
        /// The certificate's serial number: the INTEGER's content octets without a redundant sign
        /// octet (RFC 5280 §5.1.2.6, `userCertificate`).
        public let serial: [UInt8]
        /// When the certificate was revoked (`revocationDate`), in seconds since 1970.
        public let time: Int
        /// Why, from the entry's reasonCode extension (RFC 5280 §5.3.1); nil when it has none.
        public let reason: RevocationReason?

        /// The serial number in upper-case hexadecimal, as `openssl crl -text` and
        /// ``Certificate/serialNumber`` write it (`03EA`).
        public var serialNumber: String { CertificateRevocationList.hex(serial) }
    }

    /// The CRL's DER (a `CertificateList`), as it goes into a document security store's `/CRLs`
    /// (ISO 32000-2 §12.8.4.3).
    public let encoded: [UInt8]
    /// The complete DER of the issuer Name (RFC 5280 §5.1.2.3).
    public let issuerDER: [UInt8]
    /// When this CRL was issued (`thisUpdate`, RFC 5280 §5.1.2.4), in seconds since 1970.
    public let thisUpdate: Int
    /// When the next CRL will be issued (`nextUpdate`, RFC 5280 §5.1.2.5), in seconds since 1970;
    /// nil when the CRL does not say.
    public let nextUpdate: Int?
    /// The revoked certificates, in the CRL's order (RFC 5280 §5.1.2.6).
    public let entries: [Entry]
    /// The cRLNumber extension (RFC 5280 §5.2.3) in upper-case hexadecimal; nil when absent.
    public let crlNumber: String?
    /// Whether this is a delta CRL: it has a deltaCRLIndicator extension (RFC 5280 §5.2.4).
    public let isDelta: Bool

    /// Where the `tbsCertList` is in ``encoded``: what the signature covers.
    let tbsRange: Range<Int>
    /// The `tbsCertList`'s `signature` field, which must equal ``signatureAlgorithm``.
    let tbsSignatureAlgorithm: AlgorithmIdentifier
    /// How the issuer signed (`signatureAlgorithm`, RFC 5280 §5.1.1.2).
    let signatureAlgorithm: AlgorithmIdentifier
    /// The `signatureValue` BIT STRING's octets and its unused bits (RFC 5280 §5.1.1.3).
    let signature: (bytes: [UInt8], unusedBits: Int)
    /// The critical extensions Autograph does not process, described (RFC 5280 §5.2, §5.3).
    let unhandledCriticalExtensions: [String]
    /// The issuingDistributionPoint extension (RFC 5280 §5.2.5), when there is one.
    let issuingDistributionPoint: IssuingDistributionPoint?

    /// What an issuingDistributionPoint extension says of a CRL's scope (RFC 5280 §5.2.5).
    struct IssuingDistributionPoint: Sendable {
        /// The URIs of its `distributionPoint`'s full name; nil when it names no distribution point.
        var names: [String]?
        /// `onlyContainsUserCerts`: end-entity certificates only.
        var onlyUserCertificates = false
        /// `onlyContainsCACerts`: CA certificates only.
        var onlyCACertificates = false
        /// `onlySomeReasons` is present: a partial CRL, for some reasons only.
        var onlySomeReasons = false
        /// `indirectCRL`: it may list certificates of other issuers.
        var indirect = false
        /// `onlyContainsAttributeCerts`: attribute certificates only, no public-key certificate.
        var onlyAttributeCertificates = false
    }

    /// Reads a DER-encoded CRL.
    ///
    /// - Parameter der: exactly one `CertificateList` (RFC 5280 §5.1).
    /// - Throws: `SigningError` `.malformedData` when it is not one: a field missing or of the wrong
    ///   type, a version other than v1 or v2, an extension twice, an unknown reason code, or bytes
    ///   after it.
    public init(der: [UInt8]) throws(SigningError) {
        var reader = DERReader(der)
        let fields = try reader.readSequence { (list) throws(SigningError) -> Fields in
            let tbs = try list.readNode(.sequence)
            let algorithm = try AlgorithmIdentifier(from: &list)
            let signature = try list.readBitString()
            var fields = try Fields(tbs: tbs)
            fields.signatureAlgorithm = algorithm
            fields.signature = (Array(signature.bytes), signature.unusedBits)
            return fields
        }
        try reader.finish()
        encoded = der
        tbsRange = fields.tbsRange
        tbsSignatureAlgorithm = fields.tbsSignatureAlgorithm
        signatureAlgorithm = fields.signatureAlgorithm
        signature = fields.signature
        issuerDER = fields.issuer
        thisUpdate = fields.thisUpdate
        nextUpdate = fields.nextUpdate
        entries = fields.entries
        crlNumber = fields.number
        isDelta = fields.isDelta
        unhandledCriticalExtensions = fields.unhandled
        issuingDistributionPoint = fields.issuingDistributionPoint
    }

    /// Reads a PEM-encoded CRL: the first `-----BEGIN X509 CRL-----` block (RFC 7468 §6).
    ///
    /// - Throws: `SigningError` `.malformedData` when there is no such block or what it holds is not
    ///   a CRL.
    public init(pem: [UInt8]) throws(SigningError) {
        guard let der = Self.pemContent(pem, label: "X509 CRL") else {
            throw SigningError(.malformedData, "no -----BEGIN X509 CRL----- block")
        }
        try self.init(der: der)
    }

    /// True when both have the same DER.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.encoded == rhs.encoded }
    /// Hashes the DER, as `==` compares.
    public func hash(into hasher: inout Hasher) { hasher.combine(encoded) }

    // MARK: Reading

    /// The fields of a `CertificateList` (RFC 5280 §5.1).
    private struct Fields {
        var tbsRange: Range<Int>
        var tbsSignatureAlgorithm: AlgorithmIdentifier
        var signatureAlgorithm = AlgorithmIdentifier(.sha256)
        var signature: (bytes: [UInt8], unusedBits: Int) = ([], 0)
        var issuer: [UInt8]
        var thisUpdate: Int
        var nextUpdate: Int?
        var entries: [Entry] = []
        var number: String?
        var isDelta = false
        var unhandled: [String] = []
        var issuingDistributionPoint: IssuingDistributionPoint?

        /// id-ce-authorityKeyIdentifier (RFC 5280 §4.2.1.1, §5.2.1).
        private static let authorityKeyIdentifier: ObjectIdentifier = "2.5.29.35"

        /// Reads the `TBSCertList` (RFC 5280 §5.1.2).
        init(tbs node: DERNode) throws(SigningError) {
            tbsRange = node.encodedRange
            var tbs = try node.contentReader()
            if tbs.peekTag() == .integer {
                let version = try tbs.readInt()
                guard version == 0 || version == 1 else {
                    throw SigningError(.malformedData, "CRL: version \(version + 1) is not v1 or v2")
                }
            }
            tbsSignatureAlgorithm = try AlgorithmIdentifier(from: &tbs)
            issuer = Array(try tbs.readNode(.sequence).encoded)
            thisUpdate = try tbs.readTime()
            if let tag = tbs.peekTag(), tag == .utcTime || tag == .generalizedTime {
                nextUpdate = try tbs.readTime()
            }
            if tbs.peekTag() == .sequence {
                var entries: [Entry] = []
                var unhandled: [String] = []
                try tbs.readSequence { (revoked) throws(SigningError) in
                    while !revoked.isAtEnd { entries.append(try Self.entry(&revoked, unhandled: &unhandled)) }
                }
                self.entries = entries
                self.unhandled = unhandled
            }
            if tbs.peekTag() == .context(0) {
                try tbs.readExplicit(0) { (explicit) throws(SigningError) in
                    try Self.readExtensions(&explicit) { (identifier, critical, value) throws(SigningError) in
                        try readCRLExtension(identifier, critical: critical, value: value)
                    }
                }
            }
            try tbs.finish()
        }

        /// Takes one CRL extension (RFC 5280 §5.2) into the fields.
        private mutating func readCRLExtension(
            _ identifier: ObjectIdentifier, critical: Bool, value: ArraySlice<UInt8>
        ) throws(SigningError) {
            var reader = DERReader(value)
            switch identifier {
            case .crlNumber:
                number = CertificateRevocationList.hex(CertificateRevocationList.canonical(try reader.readInteger()))
            case .deltaCRLIndicator:
                _ = try reader.readInteger()  // the BaseCRLNumber
                isDelta = true
            case .issuingDistributionPoint:
                issuingDistributionPoint = try Self.issuingDistributionPoint(&reader)
            case Self.authorityKeyIdentifier:
                _ = try reader.readNode(.sequence)  // only helps to find the issuer's key
            default:
                if critical { unhandled.append("the critical CRL extension \(identifier)") }
                return
            }
            try reader.finish()
        }

        /// Reads one `revokedCertificates` entry (RFC 5280 §5.1.2.6, §5.3).
        private static func entry(_ reader: inout DERReader, unhandled: inout [String]) throws(SigningError) -> Entry {
            try reader.readSequence { (entry) throws(SigningError) -> Entry in
                let serial = CertificateRevocationList.canonical(try entry.readInteger())
                let time = try entry.readTime()
                var reason: RevocationReason?
                if !entry.isAtEnd {
                    try readExtensions(&entry) { (identifier, critical, value) throws(SigningError) in
                        var reader = DERReader(value)
                        switch identifier {
                        case .crlReasonCode:
                            let code = try reader.readEnumerated()
                            guard let known = RevocationReason(rawValue: code) else {
                                throw SigningError(.malformedData, "CRL: unknown reason code \(code)")
                            }
                            reason = known
                        case .invalidityDate:
                            _ = try reader.readTime()
                        case .holdInstructionCode:
                            _ = try reader.readObjectIdentifier()
                        default:
                            if critical {
                                let serialNumber = CertificateRevocationList.hex(serial)
                                unhandled.append(
                                    "the critical CRL entry extension \(identifier) (serial \(serialNumber))")
                            }
                            return
                        }
                        try reader.finish()
                    }
                }
                return Entry(serial: Array(serial), time: time, reason: reason)
            }
        }

        /// Reads `Extensions ::= SEQUENCE SIZE (1..MAX) OF Extension` (RFC 5280 §4.1), handing each
        /// extension's identifier, criticality and extnValue octets to `body`.
        ///
        /// - Throws: `.malformedData` when one is malformed or appears twice.
        private static func readExtensions(
            _ reader: inout DERReader,
            _ body: (ObjectIdentifier, Bool, ArraySlice<UInt8>) throws(SigningError) -> Void
        ) throws(SigningError) {
            try reader.readSequence { (list) throws(SigningError) in
                var seen: Set<ObjectIdentifier> = []
                while !list.isAtEnd {
                    try list.readSequence { (field) throws(SigningError) in
                        let identifier = try field.readObjectIdentifier()
                        let critical = field.peekTag() == .boolean ? try field.readBoolean() : false
                        let value = try field.readOctetString()
                        guard seen.insert(identifier).inserted else {
                            throw SigningError(.malformedData, "CRL: the extension \(identifier) appears twice")
                        }
                        try body(identifier, critical, value)
                    }
                }
            }
        }

        /// Reads an `IssuingDistributionPoint` (RFC 5280 §5.2.5).
        private static func issuingDistributionPoint(
            _ reader: inout DERReader
        ) throws(SigningError) -> IssuingDistributionPoint {
            try reader.readSequence { (fields) throws(SigningError) -> IssuingDistributionPoint in
                var point = IssuingDistributionPoint()
                point.names = try fields.readOptionalExplicit(0) { (name) throws(SigningError) in
                    try Certificate.distributionPointURIs(&name)
                }
                point.onlyUserCertificates = try flag(&fields, 1)
                point.onlyCACertificates = try flag(&fields, 2)
                point.onlySomeReasons = try fields.readOptionalNode(.context(3, constructed: false)) != nil
                point.indirect = try flag(&fields, 4)
                point.onlyAttributeCertificates = try flag(&fields, 5)
                return point
            }
        }

        /// Reads `[number] IMPLICIT BOOLEAN DEFAULT FALSE`.
        private static func flag(_ reader: inout DERReader, _ number: UInt32) throws(SigningError) -> Bool {
            guard let node = try reader.readOptionalNode(.context(number, constructed: false)) else { return false }
            guard node.content.count == 1, let value = node.content.first else {
                throw SigningError(.malformedData, "CRL: [\(number)] is not a BOOLEAN")
            }
            return value != 0
        }
    }

    // MARK: Helpers

    /// An INTEGER's content octets without redundant leading sign octets (X.690 §8.3.2 makes DER
    /// minimal; older issuers wrote more), so equal numbers have equal octets.
    static func canonical(_ content: some Collection<UInt8>) -> ArraySlice<UInt8> {
        var octets = ArraySlice(content)
        while octets.count > 1 {
            let first = octets[octets.startIndex]
            let second = octets[octets.startIndex + 1]
            guard (first == 0x00 && second & 0x80 == 0) || (first == 0xFF && second & 0x80 != 0) else { break }
            octets = octets.dropFirst()
        }
        return octets
    }

    /// Upper-case hexadecimal of a positive INTEGER's content, its sign octet 00 removed (as
    /// OpenSSL prints serial numbers).
    static func hex(_ content: some Collection<UInt8>) -> String {
        var octets = ArraySlice(content)
        if octets.count > 1, octets.first == 0 { octets = octets.dropFirst() }
        return Hex.uppercase(octets)
    }

    /// The DER inside the first PEM block labelled `label` (RFC 7468 §2); nil when there is none.
    static func pemContent(_ text: [UInt8], label: String) -> [UInt8]? {
        let begin = Array("-----BEGIN \(label)-----".utf8)
        let end = Array("-----END \(label)-----".utf8)
        guard let start = firstRange(of: begin, in: text[...]),
            let stop = firstRange(of: end, in: text[start.upperBound...])
        else { return nil }
        let body = text[start.upperBound..<stop.lowerBound]
        let allowed = body.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "="),
                0x20, 0x09, 0x0D, 0x0A:
                true
            default: false
            }
        }
        return allowed ? Base64.decode(Array(body)) : nil
    }

    private static func firstRange(of needle: [UInt8], in haystack: ArraySlice<UInt8>) -> Range<Int>? {
        guard needle.count <= haystack.count else { return nil }
        var index = haystack.startIndex
        while index + needle.count <= haystack.endIndex {
            if haystack[index..<index + needle.count].elementsEqual(needle) { return index..<index + needle.count }
            index += 1
        }
        return nil
    }
}

extension ObjectIdentifier {
    /// id-ce-cRLNumber (RFC 5280 §5.2.3).
    package static let crlNumber: ObjectIdentifier = "2.5.29.20"
    /// id-ce-deltaCRLIndicator (RFC 5280 §5.2.4).
    package static let deltaCRLIndicator: ObjectIdentifier = "2.5.29.27"
    /// id-ce-issuingDistributionPoint (RFC 5280 §5.2.5).
    package static let issuingDistributionPoint: ObjectIdentifier = "2.5.29.28"
    /// id-ce-cRLReasons, a CRL entry's reasonCode (RFC 5280 §5.3.1).
    package static let crlReasonCode: ObjectIdentifier = "2.5.29.21"
    /// id-ce-invalidityDate (RFC 5280 §5.3.2).
    package static let invalidityDate: ObjectIdentifier = "2.5.29.24"
    /// id-ce-holdInstructionCode (RFC 5280 §5.3, RFC 3280 §5.3.2).
    package static let holdInstructionCode: ObjectIdentifier = "2.5.29.23"
}
