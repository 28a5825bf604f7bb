public import PDFCore

/// Where the status of one certificate comes from: its issuer's OCSP responder or CRL (online), or
/// anything else that gives DER material.
public protocol RevocationSource: Sendable {
    /// The material that proves `certificate`'s status (an OCSP response, or a CRL, with the
    /// certificates needed to check it), and why none could be had.
    func material(for certificate: Certificate, issuer: Certificate) async -> (ValidationMaterial, problem: String?)

    /// The issuer of `certificate` when no certificate at hand is (fetched from the address the
    /// certificate gives, RFC 5280 §4.2.2.1 caIssuers); nil when it cannot be had.
    func issuer(of certificate: Certificate) async -> Certificate?

    /// The certificates a path must lead to — each certificate signed by the next, up to one of
    /// them — before the source is asked anything about a certificate of it (its status, its
    /// issuer); nil: it may be asked about any. ``LongTermValidation`` and
    /// ``SignatureValidator/validate(revocation:source:)`` ask it about nothing else.
    var fetchAnchors: [Certificate]? { get }
}

extension RevocationSource {
    /// No issuer is fetched.
    public func issuer(of certificate: Certificate) async -> Certificate? { nil }

    /// Any certificate may be asked about.
    public var fetchAnchors: [Certificate]? { nil }
}

/// Makes a signed document's signatures last (PAdES B-LT and B-LTA, ETSI EN 319 142-1 §5.4): the
/// certificates of every signature's path and of every time-stamp authority's, with their OCSP
/// responses or CRLs, go into the `/DSS` in one incremental update; for B-LTA a document
/// time-stamp then covers it all. Run again later (`extend`), it adds fresh material and a new
/// time-stamp: an archive renewal.
public struct LongTermValidation: Sendable {
    /// The signed document; its bytes stay a prefix of the result.
    public let document: PDFDocument
    /// Where certificates' statuses come from.
    public let revocation: any RevocationSource
    /// Certificates that complete the paths when the CMS does not carry them (trust roots, intermediates).
    public var extraCertificates: [Certificate] = []
    /// Whether the updates' `/ID`s are derived from their content, and where random bytes come from.
    public var writeOptions: WriteOptions = .default
    /// Whether a certificate its status says is revoked stops the work (a signature just made must
    /// not be completed with it); otherwise it is named in the problems and the material written.
    public var refusingRevoked = false

    /// Long-term validation of `document` with statuses from `revocation`.
    public init(document: PDFDocument, revocation: any RevocationSource) {
        self.document = document
        self.revocation = revocation
    }

    /// What could not be had, one sentence each (a responder down and no CRL …): the material
    /// written covers the rest.
    public typealias Problems = [String]

    /// The document with a `/DSS` holding validation material for every signature and time-stamp
    /// it has (B-LT), and what could not be fetched.
    /// - Throws: `.invalidArgument` when the document has no signature; `.writeFailed` when the
    ///   update cannot be written.
    public func addValidationMaterial() async throws(SigningError) -> (bytes: [UInt8], problems: Problems) {
        let (update, problems) = try await validationMaterialUpdate()
        do {
            return (try update.documentBytes(), problems)
        } catch {
            throw SigningError(.writeFailed, "the DSS update cannot be written: \(error.message)")
        }
    }

    /// The update that adds a `/DSS` with validation material for every signature and time-stamp
    /// of the document (B-LT), not yet serialized, and what could not be fetched.
    /// ``write(to:archivingWith:)`` writes it after the document without copying the document.
    /// - Throws: as ``addValidationMaterial()``.
    public func validationMaterialUpdate() async throws(SigningError) -> (update: IncrementalUpdate, problems: Problems)
    {
        let fields = SignatureValidator(document: document, trustRoots: []).signedFields()
        guard !fields.isEmpty else { throw SigningError(.invalidArgument, "the document has no signature to extend") }
        var entries: [(contents: [UInt8], material: ValidationMaterial)] = []
        var problems: Problems = []
        // Each certificate's status is asked once, however many paths it is on.
        var known: [[UInt8]: ValidationMaterial] = [:]
        // The certificates a /DSS already holds complete paths without a download.
        let embedded = RevocationMaterial(dssOf: document)?.certificates ?? []
        for field in fields {
            guard let contents = document.resolve(field.dictionary[.contents] ?? .null).stringValue?.bytes,
                let signedData = try? SignatureValidator.decodeCMS(contents).0
            else {
                problems.append("signature '\(field.name)': its CMS cannot be read; no material for it")
                continue
            }
            var material = ValidationMaterial()
            // The signer's path (or the authority's, for a document time-stamp)…
            if let signer = signedData.signerInfos.first, let certificate = signedData.signerCertificate(for: signer) {
                material.merge(
                    try await collect(
                        for: certificate, pool: signedData.certificates + embedded, label: field.name, known: &known,
                        into: &problems))
                // … and the signature time-stamp authority's.
                if let bytes = signer.timeStampToken, let token = try? TimeStampToken(der: bytes),
                    let authority = token.signerCertificate
                {
                    material.merge(
                        try await collect(
                            for: authority, pool: token.certificates + signedData.certificates + embedded,
                            label: "\(field.name)'s time-stamp", known: &known, into: &problems))
                }
            } else {
                problems.append("signature '\(field.name)': the CMS does not carry the signer's certificate")
            }
            entries.append((contents, material))
        }
        var writer = DSSWriter(document: document)
        writer.writeOptions = writeOptions
        return (try writer.incrementalUpdate(adding: entries), problems)
    }

    /// B-LTA: ``addValidationMaterial()``, then a document time-stamp from `authority` over it;
    /// the document in memory, copied twice (``write(to:archivingWith:)`` streams it to a file).
    /// - Throws: as ``addValidationMaterial()``; `.timestampFailed` (−146) when the authority fails.
    public func archive(with authority: any TimeStampAuthority) async throws(SigningError) -> (
        bytes: [UInt8], problems: Problems
    ) {
        let (withMaterial, problems) = try await addValidationMaterial()
        let extended: PDFDocument
        do {
            extended = try PDFDocument(bytes: withMaterial)
        } catch {
            throw SigningError(.writeFailed, "the extended document cannot be read back: \(error)")
        }
        var stamper = DocumentTimestamper(document: extended, authority: authority)
        stamper.writeOptions = writeOptions
        return (try await stamper.timestamp().bytes(), problems)
    }

    /// The material for `leaf`'s path: every certificate, and each one's status but the root's.
    private func collect(
        for leaf: Certificate, pool: [Certificate], label: String, known: inout [[UInt8]: ValidationMaterial],
        into problems: inout Problems
    ) async throws(SigningError) -> ValidationMaterial {
        let anchors = revocation.fetchAnchors
        var available = pool + extraCertificates + (anchors ?? [])
        // With anchors, an issuer that signed is preferred to one that only has the name.
        var path = CertificatePath.build(from: leaf, pool: available, verifying: anchors != nil)
        // Which certificates the source may be asked about: all, or those leading to an anchor.
        let asked = { (path: [Certificate]) in anchors.map { CertificatePath.anchored(path, to: $0) } }
        // A path that stops short of a root (the CMS seldom carries it): its issuer is fetched.
        while let last = path.last, last.subjectDER != last.issuerDER, path.count < 10,
            asked(path)?.last ?? true,
            let issuer = await revocation.issuer(of: last), issuer.subjectDER == last.issuerDER,
            !path.contains(issuer)
        {
            available.append(issuer)
            path = CertificatePath.build(from: leaf, pool: available, verifying: anchors != nil)
        }
        let anchored = asked(path)
        var material = ValidationMaterial(certificates: path.map(\.derBytes))
        for (index, (certificate, issuer)) in zip(path, path.dropFirst()).enumerated() {
            if let anchored, !anchored[index] || !certificate.isSigned(by: issuer) {
                problems.append(
                    "\(label): \(certificate.subject): its status is not fetched: its path does not lead to the "
                        + "trust anchors")
                continue
            }
            if let found = known[certificate.derBytes] {
                material.merge(found)
                continue
            }
            let (found, problem) = await revocation.material(for: certificate, issuer: issuer)
            known[certificate.derBytes] = found
            material.merge(found)
            if let problem { problems.append("\(label): \(certificate.subject): \(problem)") }
            let now = PDFDate.now().seconds
            if case .revoked(let time, let reason)? = RevocationMaterial(found)
                .status(of: certificate, issuer: issuer, at: now).status
            {
                let revoked =
                    "\(label): \(certificate.subject) was revoked on \(PDFDate(seconds: time).displayString)"
                    + (reason.map { " (\($0))" } ?? "")
                guard !refusingRevoked else {
                    throw SigningError(.revocationCheckFailed, revoked + "; nothing was written")
                }
                problems.append(revoked)
            }
        }
        if let last = path.last, last.subjectDER != last.issuerDER {
            problems.append("\(label): the path ends at \(last.subject), whose issuer is not known")
        }
        return material
    }
}
