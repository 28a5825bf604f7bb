public import PDFCore
import PDFForms

/// Validates the signatures of a document (ISO 32000-2 §12.8; ETSI EN 319 142-1 for PAdES): for
/// each signed signature field, the digest of the signed byte ranges, the CMS signature, the
/// signer's certificate path and what the byte ranges cover.
///
/// ```swift
/// let roots = Certificate.certificates(pem: rootPEM)
/// for status in SignatureValidator(document: document, trustRoots: roots).validate() {
///     print(status.fieldName, status.isValid, status.problems)
/// }
/// ```
///
/// Validation reads the same parsed document the viewer shows (ARCHITECTURE.md invariant 5) and
/// returns values, never throws (invariant 8): whatever is wrong with a signature — a malformed
/// `/ByteRange`, a missing or unreadable `/Contents`, a CMS in BER, an unknown algorithm — becomes
/// a ``SignatureStatus`` with problems. The byte ranges are hashed in one streaming pass over the
/// file (invariant 4), so memory does not grow with the document.
public struct SignatureValidator: Sendable {
    /// The document whose signatures are validated (possibly opened as of an earlier revision).
    public let document: PDFDocument
    /// The trust anchors the signers' certificates must chain to.
    public let trustRoots: [Certificate]
    /// The time (seconds since 1970) at which certificate paths are checked.
    public let validationTime: Int
    let trustStore: TrustStore

    /// A validator for `document`.
    ///
    /// - Parameters:
    ///   - document: the document, opened (with its password when encrypted).
    ///   - trustRoots: the trust anchors (root CA certificates); none makes every signer untrusted.
    ///   - validationTime: when certificate paths must be valid, in seconds since 1970; nil is now.
    public init(document: PDFDocument, trustRoots: [Certificate], validationTime: Int? = nil) {
        self.document = document
        self.trustRoots = trustRoots
        self.validationTime = validationTime ?? PDFDate.now().seconds
        self.trustStore = TrustStore(roots: trustRoots)
    }

    /// Validates every signed signature field (a `/FT /Sig` field whose `/V` is a dictionary,
    /// §12.7.5.5), with the certificates' statuses the document embeds
    /// (``RevocationChecking/embedded``; ``validate(revocation:source:)`` asks the network too).
    ///
    /// - Returns: one status per signature, in the order of their `/ByteRange`s in the file (the
    ///   oldest signature first); empty when the document has no signed field.
    public func validate() -> [SignatureStatus] {
        var statuses = validateSignatures()
        applyLongTermValidation(&statuses, checking: .embedded)
        return statuses
    }

    /// Every signature checked but for the certificates' statuses, oldest first.
    func validateSignatures() -> [SignatureStatus] {
        var checked: [(key: Int, status: SignatureStatus)] = []
        let (fields, reused) = signedFieldsAndReuse()
        let validated = fields.map { validate($0) }
        // A later signature counts as signing only when it verifies and signs its own revision.
        var signatures: [String: Int] = [:]
        for (status, _) in validated where status.digestIntact && status.signatureValid {
            if let revision = status.revision { signatures[status.fieldName] = revision }
        }
        let analyzer = ModificationAnalyzer(document: document, signatures: signatures)
        for (entry, (validatedStatus, key)) in zip(fields, validated) {
            var status = validatedStatus
            if let revision = status.revision {
                status.modifications = analyzer.report(forRevision: revision)
                if status.coverage < .entireRevision {
                    // Bytes of the signed revision left unsigned can say anything: a change like any other.
                    status.modifications?.changes.insert(
                        Modification(
                            object: entry.reference?.number, kind: .structure, pageIndex: nil, allowed: false,
                            reason: "the byte ranges \(Self.text(status.byteRange)) leave part of the signed revision "
                                + "unsigned (coverage \(status.coverage))",
                            revision: revision, level: .disallowed), at: 0)
                }
                readSignedVersion(entry, revision: revision, analyzer: analyzer, status: &status)
            }
            for name in reused[entry.reference?.number ?? -1] ?? [] {
                status.problems.append("the signature dictionary is also the value of field '\(name)'")
                status.modifications?.changes.append(
                    Modification(
                        object: entry.reference?.number, kind: .signature, pageIndex: nil, allowed: false,
                        reason: "field '\(name)' reuses this signature dictionary", revision: status.revision ?? 0,
                        level: .disallowed))
            }
            checked.append((key, status))
        }
        // A stable sort: fields with equal keys keep the form's order.
        let statuses = checked.enumerated().sorted { ($0.element.key, $0.offset) < ($1.element.key, $1.offset) }
            .map(\.element.status)
        return statuses
    }

    // MARK: Finding the signatures

    /// A signed field and its signature dictionary.
    struct SignedField {
        var name: String
        /// The signature dictionary's reference (nil when `/V` is a direct dictionary).
        var reference: PDFReference?
        var dictionary: PDFDictionary
        /// The bytes of the indirect object holding the signature dictionary (nil when it is inside
        /// an object stream).
        var objectRange: Range<Int>?
        /// `/V` is not an indirect reference; ISO 32000-2 Table 255 lets it be direct, readers
        /// rarely expect it.
        var isDirect: Bool
    }

    /// The signed signature fields, in the form's order, each signature dictionary once.
    func signedFields() -> [SignedField] { signedFieldsAndReuse().fields }

    /// The signed fields, and for a signature dictionary that several fields name, the other fields.
    func signedFieldsAndReuse() -> (fields: [SignedField], reused: [Int: [String]]) {
        guard let form = AcroForm(document: document) else { return ([], [:]) }
        var result: [SignedField] = []
        var reused: [Int: [String]] = [:]
        var seen: Set<PDFReference> = []
        for field in form.signatureFields where field.value == .signature(signed: true) {
            let holder = field.valueHolder.flatMap { document.object($0).dictionaryValue } ?? field.dictionary
            guard let value = holder[.v] ?? field.dictionary[.v] else { continue }
            if case .reference(var reference) = value {
                // Follow a reference to a reference, keeping the last one (whose object holds the dictionary).
                var object = document.indirectObject(reference)
                var hops = 0
                while case .reference(let next) = object.object, hops < 8 {
                    reference = next
                    object = document.indirectObject(next)
                    hops += 1
                }
                guard let dictionary = object.object.dictionaryValue else { continue }
                guard seen.insert(reference).inserted else {
                    reused[reference.number, default: []].append(field.name)
                    continue
                }
                result.append(
                    SignedField(
                        name: field.name, reference: reference, dictionary: dictionary, objectRange: object.range,
                        isDirect: false))
            } else if let dictionary = value.dictionaryValue {
                let range = field.valueHolder.flatMap { document.indirectObject($0).range }
                result.append(
                    SignedField(
                        name: field.name, reference: nil, dictionary: dictionary, objectRange: range, isDirect: true))
            }
        }
        return (result, reused)
    }

    /// What the signature dictionary claims (`/M`) is read as signed, in the signed revision, never
    /// from an unsigned update after it (which may rewrite the dictionary, or an object it names).
    func readSignedVersion(
        _ field: SignedField, revision: Int, analyzer: ModificationAnalyzer, status: inout SignatureStatus
    ) {
        guard revision < document.revisions.count - 1, let signedDocument = analyzer.revision(revision) else { return }
        let signed = field.reference.map { signedDocument.object($0).dictionaryValue } ?? field.dictionary
        let time = signed.flatMap { signedDocument.resolve($0, .m)?.stringValue }
            .flatMap { PDFDate(pdfString: $0.bytes) }
        if time?.seconds != status.claimedSigningTime?.seconds {
            status.claimedSigningTime = time
            status.problems.append("the signing time (/M) was rewritten after signing; the signed one is shown")
        }
        if let reference = field.reference,
            document.objectNumbers(updatedAfter: revision + 1).contains(reference.number)
        {
            status.problems.append(
                "the signature dictionary was rewritten after signing; what it says now is not signed")
        }
    }

    // MARK: Validating one signature

    /// Validates one signature; also returns its sort key (where its unsigned gap or its
    /// dictionary is in the file).
    func validate(_ field: SignedField) -> (SignatureStatus, Int) {
        var status = SignatureStatus(fieldName: field.name)
        status.signatureReference = field.reference
        let dictionary = field.dictionary
        status.subFilter = document.resolve(dictionary, .subFilter)?.nameValue?.string
        if let time = document.resolve(dictionary, .m)?.stringValue {
            status.claimedSigningTime = PDFDate(pdfString: time.bytes)
            if status.claimedSigningTime == nil { status.problems.append("/M is not a PDF date") }
        }
        if field.isDirect {
            status.problems.append("the signature dictionary is a direct object inside the field")
        }
        if let type = document.resolve(dictionary, .type)?.nameValue, type != .sig, type != .docTimeStamp {
            status.problems.append("the signature dictionary's /Type is /\(type.string), not /Sig")
        }

        // The byte ranges, the /Contents string and what they cover.
        let byteRange = readByteRange(dictionary, into: &status)
        var sortKey = field.objectRange?.lowerBound ?? Int.max
        if status.byteRange.count >= 2, status.byteRange[1] >= 0 { sortKey = status.byteRange[1] }
        let gapIsContents = byteRange.map { checkGap($0, field: field, status: &status) } ?? false
        assessCoverage(byteRange, gapIsContents: gapIsContents, status: &status)

        // The CMS in /Contents.
        guard let contentsObject = dictionary[.contents] else {
            status.problems.append("the signature dictionary has no /Contents")
            return (status, sortKey)
        }
        if case .reference = contentsObject {
            status.problems.append("/Contents is an indirect object (it must be a direct string)")
        }
        guard let contents = document.resolve(contentsObject).stringValue?.bytes else {
            status.problems.append("/Contents is not a string")
            return (status, sortKey)
        }
        if contents.allSatisfy({ $0 == 0 }) {
            status.problems.append("/Contents holds only zeros: the field was prepared but never signed")
            return (status, sortKey)
        }
        if status.subFilter == "adbe.x509.rsa_sha1" {
            // /Contents is a bare PKCS#1 signature (an OCTET STRING) with the certificates in /Cert.
            unsupported("/SubFilter adbe.x509.rsa_sha1 (a bare RSA signature, not a CMS)", &status)
            status.digestAlgorithm = "sha1"
            status.trust = .untrusted(reason: "not checked: adbe.x509.rsa_sha1 is not supported")
            return (status, sortKey)
        }
        guard let signedData = readCMS(contents, status: &status) else {
            status.trust = .untrusted(reason: "not checked: the CMS cannot be read")
            return (status, sortKey)
        }
        status.certificates = signedData.certificates
        status.cmsRevocation = RevocationMaterial(cms: signedData)
        checkIntegrity(signedData, ranges: byteRange?.ranges, status: &status)
        status.trust = checkTrust(status.signerCertificate, intermediates: signedData.certificates)
        if status.subFilter == "ETSI.RFC3161", let token = try? TimeStampToken(der: signedData.encoded) {
            // A document time-stamp: its time is the token's; its checks are the signature's own.
            status.timeStamp = TimeStampStatus(
                time: token.time, authority: token.authority, intact: status.digestIntact && status.signatureValid,
                trust: status.trust)
        } else if let signer = signedData.signerInfos.first, let token = signer.timeStampToken {
            let timeStamp = checkTimeStamp(token, over: signer.signature)
            status.problems += timeStamp.problems
            if case .untrusted(let reason) = timeStamp.trust, timeStamp.intact {
                status.problems.append("the signature time-stamp's authority is not trusted: \(reason)")
            }
            status.timeStamp = timeStamp
        }
        return (status, sortKey)
    }

    /// Records that something could not be checked because it is not supported.
    func unsupported(_ what: String, _ status: inout SignatureStatus) {
        if status.unsupported == nil { status.unsupported = what }
        status.problems.append("unsupported: \(what)")
    }

    // MARK: Trust

    /// Builds and checks the path from `signer` to a trust root at ``validationTime``; when it fails
    /// because a certificate is outside its validity, the reason says when it expired.
    func checkTrust(_ signer: Certificate?, intermediates: [Certificate], role: String = "signer") -> TrustResult {
        guard let signer else { return .untrusted(reason: "the CMS does not carry the \(role)'s certificate") }
        let result = trustStore.verify(signer, intermediates: intermediates, at: validationTime)
        guard case .untrusted(var reason) = result else { return result }
        if trustRoots.isEmpty { reason = "no trust roots were given: " + reason }
        if validationTime > signer.notAfter {
            reason =
                "the \(role)'s certificate expired on \(PDFDate(seconds: signer.notAfter).displayString) (\(reason))"
        } else if validationTime < signer.notBefore {
            reason =
                "the \(role)'s certificate is not valid before \(PDFDate(seconds: signer.notBefore).displayString) "
                + "(\(reason))"
        } else if let expired = intermediates.first(where: { validationTime > $0.notAfter && $0 != signer }),
            reason.contains("expired")
        {
            reason =
                "the certificate \(expired.subject) expired on \(PDFDate(seconds: expired.notAfter).displayString) "
                + "(\(reason))"
        }
        return .untrusted(reason: reason)
    }
}
