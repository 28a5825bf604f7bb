import PDFCore

/// What the `/DSS` of a revision holds, read: certificates, OCSP responses and CRLs (an item
/// that cannot be read is left out).
struct EmbeddedMaterial {
    var certificates: [Certificate] = []
    var ocspResponses: [OCSPResponse] = []
    var crls: [CertificateRevocationList] = []

    /// The `/DSS` of `document` (see `DSSContents` for its bounds); nil when it has none.
    init?(_ document: PDFDocument) {
        guard let dss = DSSContents.dictionary(of: document) else { return nil }
        var budget = DSSContents.maxBytes
        func items(_ key: PDFName) -> [[UInt8]] {
            DSSContents.items(key, in: dss, of: document, budget: &budget).map(\.bytes)
        }
        certificates = items(.certs).compactMap { try? Certificate(der: $0) }
        ocspResponses = items(.ocsps).compactMap { try? OCSPResponse(der: $0) }
        crls = items(.crls).compactMap { try? CertificateRevocationList(der: $0) }
    }

    /// `certificate`'s status by this material: from an OCSP response that covers it and checks, else
    /// from its issuer's CRL; nil when the material says nothing usable of it.
    func status(of certificate: Certificate, issuer: Certificate) -> CertificateStatus? {
        // The cheap match first (CertID, issuer Name), the signature checks only for what matches:
        // a /DSS of thousands of items costs one comparison each.
        for response in ocspResponses {
            guard let status = response.status(of: certificate, issuer: issuer), status != .unknown,
                response.problem(for: certificate, issuer: issuer, at: nil) == nil
            else { continue }
            return status
        }
        for list in crls where list.issuerDER == issuer.subjectDER {
            guard list.problem(for: certificate, issuer: issuer, at: nil) == nil else { continue }
            if let (time, reason) = list.entry(for: certificate) { return .revoked(time: time, reason: reason) }
            return .good
        }
        return nil
    }
}

extension SignatureValidator {
    /// Long-term validation from what the document embeds (PAdES B-LT and B-LTA): for a signature
    /// with a valid time-stamp, whether the `/DSS` gives a status for every certificate of the
    /// signer's and the authority's paths; a certificate revoked before the time-stamp makes the
    /// signature untrusted (one revoked after it does not); and whether a valid document
    /// time-stamp covers that material.
    func applyLongTermValidation(_ statuses: inout [SignatureStatus]) {
        guard let latest = EmbeddedMaterial(document) else { return }
        // Each revision's /DSS is read once, however many signatures ask for it.
        var revisions: [Int: EmbeddedMaterial?] = [:]
        func material(asOfRevision revision: Int) -> EmbeddedMaterial? {
            if let known = revisions[revision] { return known }
            let read = (try? document.document(asOfRevision: revision)).flatMap { EmbeddedMaterial($0) }
            revisions[revision] = read
            return read
        }
        let documentStamps = statuses.filter { $0.subFilter == "ETSI.RFC3161" && $0.isValid }
        for index in statuses.indices where statuses[index].timeStamp?.intact == true {
            var status = statuses[index]
            guard let signer = status.signerCertificate, var stamp = status.timeStamp else { continue }
            // An authority whose certificate has expired since is vouched for by a valid document
            // time-stamp of a later revision: its path is checked at that time-stamp's time.
            if !stamp.trust.isTrusted, let authority = stamp.authorityCertificate, let signed = status.revision,
                let later = documentStamps.filter({ ($0.revision ?? 0) > signed }).compactMap({ $0.timeStamp?.time })
                    .min()
            {
                let atLater = trustStore.verify(
                    authority, intermediates: stamp.authorityCertificates + latest.certificates, at: later)
                if atLater.isTrusted {
                    stamp.trust = atLater
                    status.timeStamp = stamp
                }
            }
            guard stamp.isValid else { continue }
            let (covered, revoked) = check(
                paths: [(signer, status.certificates), (stamp.authorityCertificate, stamp.authorityCertificates)],
                material: latest)
            if let (subject, time) = revoked.first(where: { $0.time <= stamp.time }) {
                status.trust = .untrusted(
                    reason: "\(subject) was revoked on \(PDFDate(seconds: time).displayString), before the time-stamp")
                status.problems.append(
                    "the embedded validation material says \(subject) was revoked before the time-stamp")
            }
            status.validationMaterialComplete = covered
            // The time-stamp proves the signature existed then; with every status embedded, its path
            // is checked at that time, not now (a certificate that expired since still counts).
            if covered, !status.trust.isTrusted, !revoked.contains(where: { $0.time <= stamp.time }) {
                let atStamp = trustStore.verify(
                    signer, intermediates: status.certificates + latest.certificates, at: stamp.time)
                if atStamp.isTrusted {
                    status.trust = atStamp
                    status.problems.append(
                        "the signer's path was checked at the time-stamp's time, "
                            + "\(PDFDate(seconds: stamp.time).displayString), with the embedded validation material")
                }
            }
            if covered {
                // B-LTA: a valid document time-stamp of a later revision whose document held the material.
                status.archived = documentStamps.contains { documentStamp in
                    guard let stampRevision = documentStamp.revision, let signed = status.revision,
                        stampRevision > signed, let material = material(asOfRevision: stampRevision)
                    else { return false }
                    return check(
                        paths: [
                            (signer, status.certificates), (stamp.authorityCertificate, stamp.authorityCertificates),
                        ],
                        material: material
                    ).covered
                }
            }
            statuses[index] = status
        }
    }

    /// Whether `material` gives a status for every certificate but the root of each path (leaf and
    /// pool), and the certificates it says were revoked (subject and time).
    private func check(paths: [(Certificate?, [Certificate])], material: EmbeddedMaterial) -> (
        covered: Bool, revoked: [(subject: String, time: Int)]
    ) {
        var covered = true
        var revoked: [(subject: String, time: Int)] = []
        for (leaf, pool) in paths {
            guard let leaf else {
                covered = false
                continue
            }
            let path = CertificatePath.build(from: leaf, pool: pool + material.certificates + trustRoots)
            if let last = path.last, last.subjectDER != last.issuerDER { covered = false }
            for (certificate, issuer) in zip(path, path.dropFirst()) {
                switch material.status(of: certificate, issuer: issuer) {
                case nil, .unknown?: covered = false
                case .good?: break
                case .revoked(let time, _)?: revoked.append((certificate.subject, time))
                }
            }
        }
        return (covered, revoked)
    }
}
