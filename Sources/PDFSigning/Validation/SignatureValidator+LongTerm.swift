import PDFCore

extension SignatureValidator {
    /// Validates every signature (see ``validate()``), asking the statuses of the certificates
    /// involved where `revocation` says: none, what the document embeds, or that and the network.
    ///
    /// - Parameters:
    ///   - revocation: where statuses come from.
    ///   - source: what answers online (``RevocationChecking/online`` only); nil is
    ///     ``OnlineRevocationSource`` (OCSP, then CRLs, over HTTP).
    /// - Returns: one status per signature, oldest first, each with its ``SignatureStatus/revocation``.
    public func validate(revocation: RevocationChecking, source: (any RevocationSource)? = nil) async
        -> [SignatureStatus]
    {
        var statuses = validateSignatures()
        var online: RevocationMaterial?
        if revocation == .online {
            var trial = statuses
            let missing = applyLongTermValidation(&trial, checking: .embedded)
            let source = source ?? OnlineRevocationSource()
            var fetched = RevocationMaterial()
            var asked: Set<[UInt8]> = []
            let pool = statuses.flatMap(\.certificates) + trustRoots + (source.fetchAnchors ?? [])
            // Each certificate is asked once, however many signatures involve it; with anchors, only
            // one whose issuer signed it and whose path leads to them.
            for (certificate, issuer) in missing where asked.insert(certificate.derBytes).inserted {
                if let anchors = source.fetchAnchors {
                    let path = CertificatePath.build(from: certificate, pool: [issuer] + pool, verifying: true)
                    guard path.count > 1, path[1] == issuer, certificate.isSigned(by: issuer),
                        CertificatePath.anchored(path, to: anchors).first == true
                    else { continue }
                }
                let (material, problem) = await source.material(for: certificate, issuer: issuer)
                fetched.add(RevocationMaterial(material))
                if let problem { fetched.failures[certificate.derBytes] = problem }
            }
            online = fetched
        }
        applyLongTermValidation(&statuses, checking: revocation, online: online)
        return statuses
    }

    /// Revocation and long-term validation (PAdES B-LT and B-LTA): for each valid signature, the
    /// status of every certificate of the signer's path and its time-stamp authority's, as it
    /// stood at the best signature time (the signature time-stamp's when valid, else the validation
    /// time), from the `/DSS`, then the CMS, then `online`. A certificate revoked by then makes the
    /// path untrusted (a time-stamp authority's, the time-stamp); one revoked after does not. The
    /// level: whether the `/DSS` alone tells every status (B-LT), and whether a valid document
    /// time-stamp of a later revision covers that material (B-LTA).
    ///
    /// - Returns: the certificates (and their issuers) no status was found for.
    @discardableResult
    func applyLongTermValidation(
        _ statuses: inout [SignatureStatus], checking: RevocationChecking, online: RevocationMaterial? = nil
    ) -> [(Certificate, Certificate)] {
        let latest = RevocationMaterial(dssOf: document)
        // Each revision's /DSS is read once, however many signatures ask for it.
        var revisions: [Int: RevocationMaterial?] = [:]
        func material(asOfRevision revision: Int) -> RevocationMaterial? {
            if let known = revisions[revision] { return known }
            let read = (try? document.document(asOfRevision: revision)).flatMap { RevocationMaterial(dssOf: $0) }
            revisions[revision] = read
            return read
        }
        let documentStamps = statuses.filter { $0.subFilter == "ETSI.RFC3161" && $0.isValid }
        var missing: [(Certificate, Certificate)] = []
        for index in statuses.indices {
            var status = statuses[index]
            status.revocationChecking = checking
            guard status.digestIntact, status.signatureValid, let signer = status.signerCertificate else {
                statuses[index] = status
                continue
            }
            var sources: [(CertificateRevocation.Source, RevocationMaterial)] = []
            if checking != .off {
                if let latest { sources.append((.dss, latest)) }
                sources.append((.cms, status.cmsRevocation))
                if let online { sources.append((.online, online)) }
            }
            let isDocumentStamp = status.subFilter == "ETSI.RFC3161"

            // The signature time-stamp's authority, at the time it stamped.
            if !isDocumentStamp, var stamp = status.timeStamp, stamp.intact {
                rescueAuthority(&stamp, signed: status.revision, documentStamps: documentStamps, latest: latest)
                if stamp.isValid, let authority = stamp.authorityCertificate, checking != .off {
                    let entries = revocations(
                        of: authority, pool: stamp.authorityCertificates, path: .timeStampAuthority, at: stamp.time,
                        sources: sources, missing: &missing)
                    status.revocation += entries
                    if let (reason, _) = Self.distrust(
                        entries, at: stamp.time, checking: checking, when: ", before it stamped")
                    {
                        stamp.trust = .untrusted(reason: reason)
                        status.problems.append("the signature time-stamp's authority is not trusted: \(reason)")
                    }
                }
                status.timeStamp = stamp
            }

            // The signer's path, at the best signature time.
            let stampTime = status.timeStamp.flatMap { $0.isValid ? $0.time : nil }
            let time = stampTime ?? validationTime
            status.bestSignatureTime = time
            if checking != .off {
                var asked = missing
                let entries = revocations(
                    of: signer, pool: status.certificates, path: .signer, at: time, sources: sources, missing: &asked)
                // Only a trusted path's statuses are worth asking the network for.
                if status.trust.isTrusted { missing = asked }
                status.revocation += entries
                let when = stampTime == nil ? "" : isDocumentStamp ? ", before it stamped" : ", before the time-stamp"
                if let (reason, revoked) = Self.distrust(entries, at: time, checking: checking, when: when),
                    status.trust.isTrusted || revoked
                {
                    status.trust = .untrusted(reason: reason)
                    status.problems.append("the signer is not trusted: \(reason)")
                }
            }

            if !isDocumentStamp, let stamp = status.timeStamp, stamp.isValid, let latest {
                applyLevel(
                    &status, signer: signer, stamp: stamp, latest: latest, documentStamps: documentStamps,
                    material: material(asOfRevision:))
            }
            statuses[index] = status
        }
        return missing
    }

    /// B-LT and B-LTA for a signature with a valid time-stamp: whether the latest `/DSS` tells the
    /// status of every certificate of both paths at the time-stamp's time; if so, its path is
    /// checked at that time (a certificate that expired since still counts), and whether a valid
    /// document time-stamp of a later revision covers the material.
    private func applyLevel(
        _ status: inout SignatureStatus, signer: Certificate, stamp: TimeStampStatus, latest: RevocationMaterial,
        documentStamps: [SignatureStatus], material: (Int) -> RevocationMaterial?
    ) {
        let paths = [(signer, status.certificates), (stamp.authorityCertificate, stamp.authorityCertificates)]
        let (covered, revoked) = check(paths: paths, material: latest, at: stamp.time)
        status.validationMaterialComplete = covered
        guard covered else { return }
        if !status.trust.isTrusted, !revoked {
            let atStamp = trustStore.verify(
                signer, intermediates: status.certificates + latest.certificates, at: stamp.time)
            if atStamp.isTrusted {
                status.trust = atStamp
                status.problems.append(
                    "the signer's path was checked at the time-stamp's time, "
                        + "\(PDFDate(seconds: stamp.time).displayString), with the embedded validation material")
            }
        }
        status.archived = documentStamps.contains { documentStamp in
            guard let stampRevision = documentStamp.revision, let signed = status.revision, stampRevision > signed,
                let material = material(stampRevision)
            else { return false }
            return check(paths: paths, material: material, at: stamp.time).covered
        }
    }

    /// An authority whose certificate has expired since is vouched for by a valid document
    /// time-stamp of a later revision: its path is checked at that time-stamp's time.
    private func rescueAuthority(
        _ stamp: inout TimeStampStatus, signed: Int?, documentStamps: [SignatureStatus], latest: RevocationMaterial?
    ) {
        guard !stamp.trust.isTrusted, let authority = stamp.authorityCertificate, let signed,
            let later = documentStamps.filter({ ($0.revision ?? 0) > signed }).compactMap({ $0.timeStamp?.time }).min()
        else { return }
        let atLater = trustStore.verify(
            authority, intermediates: stamp.authorityCertificates + (latest?.certificates ?? []), at: later)
        if atLater.isTrusted { stamp.trust = atLater }
    }

    /// The status of each certificate of the path from `leaf` (but its root) at `time`, from the
    /// first source that tells it; what none tells is added to `missing`.
    private func revocations(
        of leaf: Certificate, pool: [Certificate], path: CertificateRevocation.Path, at time: Int,
        sources: [(CertificateRevocation.Source, RevocationMaterial)], missing: inout [(Certificate, Certificate)]
    ) -> [CertificateRevocation] {
        let certificates = pool + sources.flatMap(\.1.certificates) + trustRoots
        let chain = CertificatePath.build(from: leaf, pool: certificates)
        var entries: [CertificateRevocation] = []
        for (certificate, issuer) in zip(chain, chain.dropFirst()) {
            var entry = CertificateRevocation(
                subject: certificate.subject, serialNumber: certificate.serialNumber, path: path, time: time)
            entry.namesStatusService = !certificate.ocspURLs.isEmpty || !certificate.crlDistributionPointURLs.isEmpty
            var problems: [String] = []
            for (source, material) in sources {
                let (found, problem) = material.status(of: certificate, issuer: issuer, at: time)
                if let found {
                    entry.status = found
                    entry.source = source
                    break
                }
                if let problem { problems.append("\(source.rawValue): \(problem)") }
                if source == .online, let failure = material.failures[certificate.derBytes] {
                    problems.append("online: \(failure)")
                }
            }
            if entry.status == nil {
                missing.append((certificate, issuer))
                entry.problem = problems.isEmpty ? "no status at hand" : problems.joined(separator: "; ")
            }
            entries.append(entry)
        }
        if let last = chain.last, last.subjectDER != last.issuerDER {
            var entry = CertificateRevocation(
                subject: last.subject, serialNumber: last.serialNumber, path: path, time: time)
            entry.problem = "its issuer's certificate is not at hand, so its status cannot be asked"
            entries.append(entry)
        }
        return entries
    }

    /// Why a path with these statuses is not trusted at `time`, or nil: a certificate revoked at or
    /// before it; or, asking online, one whose status could not be had although it names where to
    /// ask (pyHanko's default "hard-fail"). A status that is not embedded, when the network is not
    /// asked, is named in the entries and does not by itself distrust.
    private static func distrust(
        _ entries: [CertificateRevocation], at time: Int, checking: RevocationChecking, when: String
    ) -> (reason: String, revoked: Bool)? {
        for entry in entries {
            if case .revoked(let revoked, _)? = entry.status, revoked <= time {
                return ("\(entry.subject) was revoked on \(PDFDate(seconds: revoked).displayString)\(when)", true)
            }
        }
        guard checking == .online else { return nil }
        for entry in entries where entry.status == nil && entry.namesStatusService {
            return ("the status of \(entry.subject) could not be had (\(entry.problem ?? "no answer"))", false)
        }
        return nil
    }

    /// Whether `material` tells the status at `time` of every certificate but the root of each path
    /// (leaf and pool), and whether it says one was revoked by then.
    private func check(paths: [(Certificate?, [Certificate])], material: RevocationMaterial, at time: Int) -> (
        covered: Bool, revoked: Bool
    ) {
        var covered = true
        var revoked = false
        for (leaf, pool) in paths {
            guard let leaf else {
                covered = false
                continue
            }
            let path = CertificatePath.build(from: leaf, pool: pool + material.certificates + trustRoots)
            if let last = path.last, last.subjectDER != last.issuerDER { covered = false }
            for (certificate, issuer) in zip(path, path.dropFirst()) {
                switch material.status(of: certificate, issuer: issuer, at: time).status {
                case nil, .unknown?: covered = false
                case .good?: break
                case .revoked(let when, _)?: if when <= time { revoked = true }
                }
            }
        }
        return (covered, revoked)
    }
}
