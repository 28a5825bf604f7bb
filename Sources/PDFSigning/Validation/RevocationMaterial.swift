import PDFCore

/// Revocation information at hand while validating: certificates, OCSP responses and CRLs, read
/// (an item that cannot be read is left out), from a `/DSS`, a CMS or the network.
struct RevocationMaterial: Sendable {
    var certificates: [Certificate] = []
    var ocspResponses: [OCSPResponse] = []
    var crls: [CertificateRevocationList] = []
    /// Why no status could be fetched for a certificate (by its DER), for what was asked online.
    var failures: [[UInt8]: String] = [:]

    init() {}

    /// The `/DSS` of `document` (see `DSSContents` for its bounds); nil when it has none.
    init?(dssOf document: PDFDocument) {
        guard let dss = DSSContents.dictionary(of: document) else { return nil }
        var budget = DSSContents.maxBytes
        func items(_ key: PDFName) -> [[UInt8]] {
            DSSContents.items(key, in: dss, of: document, budget: &budget).map(\.bytes)
        }
        self.init(ValidationMaterial(certificates: items(.certs), ocspResponses: items(.ocsps), crls: items(.crls)))
    }

    /// Material in DER, as a `/DSS` or a revocation source gives it.
    init(_ material: ValidationMaterial) {
        certificates = material.certificates.compactMap { try? Certificate(der: $0) }
        ocspResponses = material.ocspResponses.compactMap { try? OCSPResponse(der: $0) }
        crls = material.crls.compactMap { try? CertificateRevocationList(der: $0) }
    }

    /// What a CMS carries besides its certificates: its `crls` field (RFC 5652 §10.2.1: CRLs, and
    /// OCSP responses as `id-ri-ocsp-response`, RFC 5940 §4.1) and the first SignerInfo's
    /// `adbe-revocationInfoArchival` signed attribute (ISO 32000-2 §12.8.3.3.2: `[0]` CRLs, `[1]`
    /// OCSP responses), which signers of `adbe.pkcs7.detached` signatures embed.
    init(cms signedData: CMSSignedData) {
        var material = ValidationMaterial()
        for choice in signedData.revocationInfo {
            var reader = DERReader(choice)
            guard let node = try? reader.readNode() else { continue }
            if node.tag == .sequence {
                material.crls.append(choice)
            } else if node.tag == .context(1), let response = try? Self.otherRevocationInfo(node) {
                material.ocspResponses.append(response)
            }
        }
        for value in signedData.signerInfos.first?.signedAttribute(.revocationInfoArchival)?.values ?? [] {
            guard let (crls, responses) = try? Self.revocationInfoArchival(value) else { continue }
            material.crls += crls
            material.ocspResponses += responses
        }
        self.init(material)
    }

    /// Adds `other`'s items.
    mutating func add(_ other: RevocationMaterial) {
        certificates += other.certificates
        ocspResponses += other.ocspResponses
        crls += other.crls
        failures.merge(other.failures) { first, _ in first }
    }

    /// `certificate`'s status by this material as it stood at `time` (seconds since 1970): from an
    /// OCSP response that covers it, else from its issuer's CRL. A response or a CRL counts when its
    /// signature checks and it covers `time`: issued after it, or current then (`time` before its
    /// nextUpdate); one saying "revoked" always counts. Nil, with why, when none does.
    func status(of certificate: Certificate, issuer: Certificate, at time: Int) -> (
        status: CertificateStatus?, problem: String?
    ) {
        var stale: [String] = []
        // The cheap match first (CertID, issuer Name), the signature checks only for what matches:
        // a /DSS of thousands of items costs one comparison each.
        for response in ocspResponses {
            guard let single = response.singleResponse(for: certificate, issuer: issuer), single.status != .unknown,
                response.problem(for: certificate, issuer: issuer, at: nil) == nil
            else { continue }
            if single.status.isRevoked
                || Self.covers(time, thisUpdate: single.thisUpdate, nextUpdate: single.nextUpdate)
            {
                return (single.status, nil)
            }
            stale.append("an OCSP response of \(Self.text(single.thisUpdate))")
        }
        for list in crls where list.issuerDER == issuer.subjectDER {
            guard list.problem(for: certificate, issuer: issuer, at: nil) == nil else { continue }
            if let (revoked, reason) = list.entry(for: certificate) {
                return (.revoked(time: revoked, reason: reason), nil)
            }
            if Self.covers(time, thisUpdate: list.thisUpdate, nextUpdate: list.nextUpdate) { return (.good, nil) }
            stale.append(
                "a CRL of \(Self.text(list.thisUpdate))"
                    + (list.nextUpdate.map { " (next one due \(Self.text($0)))" } ?? " (no next update)"))
        }
        guard !stale.isEmpty else { return (nil, nil) }
        return (nil, stale.joined(separator: " and ") + " say nothing of \(Self.text(time))")
    }

    /// Whether a status issued at `thisUpdate` and current until `nextUpdate` tells the status at
    /// `time`: it was issued after `time`, or `time` is before its nextUpdate (5 minutes' tolerance).
    static func covers(_ time: Int, thisUpdate: Int, nextUpdate: Int?) -> Bool {
        let skew = OCSPResponse.clockSkew
        return thisUpdate >= time - skew || (nextUpdate.map { $0 >= time - skew } ?? false)
    }

    static func text(_ time: Int) -> String { PDFDate(seconds: time).displayString }

    /// `OtherRevocationInfoFormat ::= SEQUENCE { otherRevInfoFormat OID, otherRevInfo ANY }` as
    /// `[1] IMPLICIT`: the OCSP response of an `id-ri-ocsp-response` one.
    private static func otherRevocationInfo(_ node: DERNode) throws(SigningError) -> [UInt8] {
        var reader = try node.contentReader()
        guard try reader.readObjectIdentifier() == .ocspResponseRevocationInfo else {
            throw SigningError(.malformedData, "not an OCSP response")
        }
        return Array(try reader.readNode().encoded)
    }

    /// `RevocationInfoArchival ::= SEQUENCE { crl [0] EXPLICIT SEQUENCE OF CRL OPTIONAL, ocsp [1]
    /// EXPLICIT SEQUENCE OF OCSPResponse OPTIONAL, otherRevInfo [2] EXPLICIT … OPTIONAL }`.
    static func revocationInfoArchival(
        _ value: [UInt8]
    ) throws(SigningError) -> (crls: [[UInt8]], responses: [[UInt8]]) {
        func items(_ reader: inout DERReader) throws(SigningError) -> [[UInt8]] {
            try reader.readSequence { (list) throws(SigningError) in
                var items: [[UInt8]] = []
                while !list.isAtEnd { items.append(Array(try list.readNode().encoded)) }
                return items
            }
        }
        var reader = DERReader(value)
        return try reader.readSequence { (archival) throws(SigningError) in
            let crls = try archival.readOptionalExplicit(0) { (reader) throws(SigningError) in try items(&reader) }
            let responses = try archival.readOptionalExplicit(1) { (reader) throws(SigningError) in
                try items(&reader)
            }
            while !archival.isAtEnd { _ = try archival.readNode() }
            return (crls ?? [], responses ?? [])
        }
    }
}

extension ObjectIdentifier {
    /// Adobe's `adbe-revocationInfoArchival` signed attribute (ISO 32000-2 §12.8.3.3.2).
    static let revocationInfoArchival: ObjectIdentifier = "1.2.840.113583.1.1.8"
    /// `id-ri-ocsp-response` (RFC 5940 §4.1): an OCSP response in a CMS's RevocationInfoChoices.
    static let ocspResponseRevocationInfo: ObjectIdentifier = "1.3.6.1.5.5.7.16.2"
}
