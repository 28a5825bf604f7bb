public import AutographJSON
import PDFCore

extension SignatureStatus {
    /// The JSON object of `autograph verify --json` and the web API (keys in the command's help).
    public var json: JSONValue {
        let signer: JSONValue =
            signerCertificate.map { certificate in
                .object(sortingKeys: [
                    "subject": .string(certificate.subject), "issuer": .string(certificate.issuer),
                    "serial": .string(certificate.serialNumber),
                ])
            } ?? .null
        return .object(sortingKeys: [
            "field": .string(fieldName), "signer": signer, "intact": .bool(digestIntact),
            "valid": .bool(signatureValid),
            "trusted": .bool(trust.isTrusted), "trustReason": trustReason.map { .string($0) } ?? .null,
            "coverage": .string(coverage.description), "revision": revision.map { .int($0) } ?? .null,
            "laterRevisions": .int(laterRevisions), "subFilter": subFilter.map { .string($0) } ?? .null,
            "digestAlgorithm": digestAlgorithm.map { .string($0) } ?? .null,
            "problems": .array(problems.map { .string($0) }), "byteRange": .array(byteRange.map { .int($0) }),
            "signingTime": claimedSigningTime.map { .string($0.pdfString) } ?? .null,
            "cmsSigningTime": cmsSigningTime.map { .int($0) } ?? .null,
            "unsupported": unsupported.map { .string($0) } ?? .null, "isValid": .bool(isValid),
            "modificationLevel": modifications.map { .string($0.level.description) } ?? .null,
            "changes": .array((modifications?.changes ?? []).map(\.json)),
            "certification": modifications?.certification.map {
                .object(sortingKeys: ["permissions": .int($0.rawValue)])
            }
                ?? .null,
            "fieldLocks": .array((modifications?.fieldLocks ?? []).map(\.json)),
            "verdict": .string(verdict.rawValue), "level": level.map { .string($0) } ?? .null,
            "timeStamp": timeStamp.map { stamp in
                .object(sortingKeys: [
                    "time": .string(PDFDate(seconds: stamp.time).pdfString),
                    "authority": stamp.authority.map { .string($0) } ?? .null, "intact": .bool(stamp.intact),
                    "trusted": .bool(stamp.trust.isTrusted),
                    "problems": .array(stamp.problems.map { .string($0) }),
                ])
            } ?? .null,
            "revocationChecking": revocationChecking.map { .string($0.rawValue) } ?? .null,
            "revocation": .array(revocation.map(\.json)),
            "bestSignatureTime": bestSignatureTime.map { .string(PDFDate(seconds: $0).pdfString) } ?? .null,
        ])
    }
}

extension Modification {
    /// `{object, kind, page, allowed, reason, revision, level}`: `page` counts from 0, as every page
    /// number in JSON does (`reason`, for people, says "page 2" of page 1).
    public var json: JSONValue {
        .object(sortingKeys: [
            "object": object.map { .int($0) } ?? .null, "kind": .string(kind.rawValue),
            "page": pageIndex.map { .int($0) } ?? .null, "allowed": .bool(allowed), "reason": .string(reason),
            "revision": .int(revision), "level": .string(level.description),
        ])
    }
}

extension FieldLock {
    /// `{signatureField, action, fields}`.
    public var json: JSONValue {
        .object(sortingKeys: [
            "signatureField": .string(signatureField), "action": .string(action),
            "fields": .array(fields.map { .string($0) }),
        ])
    }
}

extension SignatureStatus {
    /// The bottom line, one sentence a person understands: who signed, and what happened to the document since.
    public var summary: String {
        let status = self
        let signer = status.signerCertificate.map { Self.commonName($0.subject) } ?? "an unknown signer"
        switch status.verdict {
        case .invalid:
            var why: [String] = []
            if !status.digestIntact { why.append("the signed bytes changed") }
            if !status.signatureValid { why.append("the signature does not verify") }
            if status.coverage < .entireRevision { why.append("the signature does not cover its revision") }
            if let reason = status.trustReason, status.digestIntact, status.signatureValid { why.append(reason) }
            return "Signature in '\(status.fieldName)' by \(signer) is NOT valid: " + why.joined(separator: "; ")
        case .untrusted:
            let unchanged = status.modifications.map { $0.level == ModificationLevel.none } ?? true
            let changed = unchanged ? "not changed since" : "changed since only as allowed"
            return "Signed by \(signer) ('\(status.fieldName)'), \(changed), but the signer is not trusted: "
                + (status.trustReason ?? "no trust root")
        case .modified:
            let changes = status.modifications?.disallowedChanges ?? []
            var reasons = changes.prefix(3).map { String($0.reason.split(separator: ":").first ?? "") }
            if changes.count > 3 { reasons.append("\(changes.count - 3) more") }
            return "Document changed after \(signer) signed ('\(status.fieldName)'): " + reasons.joined(separator: "; ")
                + " (not allowed)" + (status.trust.isTrusted ? "" : "; the signer is not trusted either")
        case .valid:
            return "Signed by \(signer) ('\(status.fieldName)'); not changed since"
        case .validWithAllowedChanges:
            let report = status.modifications
            let pages = Set(report?.changes.filter { $0.level > .none }.compactMap(\.pageIndex) ?? []).sorted()
            let onPages =
                pages.isEmpty
                ? ""
                : " on page" + (pages.count == 1 ? " " : "s ") + pages.map { String($0 + 1) }.joined(separator: ", ")
            var words: [String] = []
            for change in report?.changes ?? [] where change.level > .none {
                let word: String
                switch change.kind {
                case .dss: word = "validation material (DSS, time-stamps)"
                case .signature: word = change.level == .annotations ? "an empty signature field" : "further signatures"
                case .annotation: word = "annotations"
                case .metadata: word = "metadata"
                default: word = change.level == .annotations ? "a new form field" : "form filling"
                }
                if !words.contains(word) { words.append(word) }
            }
            let what = words.isEmpty ? "bookkeeping" : words.joined(separator: ", ")
            return "Signed by \(signer) ('\(status.fieldName)'); changed afterwards only by \(what)\(onPages) (allowed)"
        }
    }

    /// The CN of a subject such as `CN=Alice, O=Example`, or the whole subject.
    static func commonName(_ subject: String) -> String {
        for part in subject.split(separator: ",") {
            let trimmed = part.drop { $0 == " " }
            if trimmed.hasPrefix("CN=") { return String(trimmed.dropFirst(3)) }
        }
        return subject
    }
}
