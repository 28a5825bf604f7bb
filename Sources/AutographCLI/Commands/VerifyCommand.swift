import AutographJSON
import PDFCore
import PDFSigning

/// `autograph verify`: validates every signature of a document.
enum VerifyCommand: Command {
    /// The options of validation; ``spec`` adds `--diff` (VerifyCommand+Diff.swift).
    static let validationSpec = CommandSpec(
        name: "verify",
        summary: "Validate the signatures of a PDF: integrity, CMS signature, trust, coverage",
        usage:
            "autograph verify FILE [--trust ROOT.pem ...] [--password P] [--json] [--revocation online|embedded|off] [--at TIME]",
        positionals: 1...1,
        options: [
            .init(
                name: "trust", valueName: "ROOT.pem",
                help: "trust anchors: a PEM file of one or more certificates (or one DER certificate); repeatable",
                repeatable: true),
            .init(name: "password", valueName: "P", help: "user or owner password of an encrypted document"),
            .init(name: "json", help: "print a JSON array, one object per signature, instead of text"),
            .init(
                name: "revocation", valueName: "WHERE",
                help:
                    "where certificate statuses come from: online (the document's, then OCSP and CRLs; the default), "
                    + "embedded (the document's /DSS and CMS only) or off"),
            .init(
                name: "at", valueName: "TIME",
                help:
                    "validate as of TIME (2030-06-01 or 2030-06-01T12:00:00Z), with what the document embeds "
                    + "(--revocation embedded or off)"),
        ],
        details: """
            For each signed signature field, in the order of the signed byte ranges (oldest first):
              field        the field's fully qualified name
              signer       subject, issuer and serial number of the signer's certificate
              intact       the digest of the bytes /ByteRange names is the one the CMS signed
                           (messageDigest; the encapsulated SHA-1 digest for adbe.pkcs7.sha1; the
                           message imprint for a document time-stamp, ETSI.RFC3161)
              valid        the CMS signature verifies with the signer's certificate
              trusted      the certificate chains to a --trust root now, through the certificates the
                           CMS carries; otherwise the reason (expiry included). No --trust: untrusted.
              coverage     entireFile: the whole file; entireRevision: up to the end (%%EOF) of the
                           revision it signs, later incremental updates excluded; contiguousFromStart:
                           from the start to inside a revision; unclear: the unsigned gap is not exactly
                           /Contents, or the ranges are malformed
              revision     the revision signed (0 = original) and how many updates follow it
              changes      every difference between the signed revision and each later one, object
                           by object, and whether the certification (DocMDP), the field locks
                           (FieldMDP) and ISO 32000-2 §12.8.2.2 permit it: new signatures, form
                           filling, annotations (certification P=3 or none), DSS and document
                           time-stamps are allowed; page content, pages, fonts, images, the catalog,
                           a locked field, hidden objects made visible, bytes after the last %%EOF
                           that are not a complete update, and broken /Prev chains are not
              verdict      valid (trusted, not changed since); validWithAllowedChanges (trusted,
                           changed since only as permitted); untrusted (signed — signer not trusted:
                           intact, valid, covering its revision, nothing changed that is not
                           permitted, but the signer does not chain to a --trust root: unknown,
                           expired, or its status could not be had online); modified (intact, but
                           changed since in a way nothing permits, trusted or not); invalid (broken:
                           the signed bytes changed, the CMS signature does not verify, the byte
                           ranges do not cover its revision, or a certificate of the signer's path
                           was revoked by the time of signing)
              problems     everything wrong or unsupported (e.g. SHA-1 signatures, adbe.x509.rsa_sha1)
              revocation   the status of each certificate of the signer's path and of its time-stamp
                           authority's (roots excepted) at the best signature time — the time-stamp's
                           when valid, else the validation time, never /M — and where it came from:
                           dss, cms (revocation information the CMS carries) or online (asked while
                           validating). A certificate revoked by then makes the signature (or the
                           time-stamp) untrusted; one revoked after it does not. A status that
                           cannot be had is named and does not, by itself, make it untrusted.

            The text ends with one line saying who signed and what changed since.

            Exit codes:
              0  there is at least one signature and every verdict is valid or validWithAllowedChanges
              4  every verdict is valid, validWithAllowedChanges or untrusted, at least one untrusted:
                 every signature is intact but a signer is not trusted (give --trust its root)
              1  otherwise: a signature invalid or modified, no signatures, an unreadable document
              2  a usage error

            --json prints an array of objects with the keys field, signer {subject, issuer, serial}
            (null when the CMS lacks the certificate), intact, valid, trusted, trustReason (null when
            trusted), coverage, revision (null when unknown), laterRevisions, subFilter,
            digestAlgorithm, problems, and also byteRange, signingTime (/M, as a PDF date),
            cmsSigningTime (seconds since 1970), unsupported and isValid (the signature itself, without
            later changes); and modificationLevel (none, ltv, signatures, formFilling, annotations,
            disallowed; null when the signed revision is unknown), changes [{object, kind, page (from
            0, as every page in JSON, or null), allowed, reason, revision}], certification (null or
            {permissions: 1|2|3}), fieldLocks [{signatureField, action: All|Include|Exclude, fields}],
            verdict (valid, validWithAllowedChanges, untrusted, modified, invalid), level (the PAdES level reached: B-B; B-T with a valid signature time-stamp; B-LT when
            the /DSS also tells every certificate's status at its time; B-LTA when a valid document
            time-stamp covers that; null for other signatures), timeStamp (null, or {time, authority,
            intact, trusted, problems}), revocationChecking (online, embedded or off), bestSignatureTime
            and revocation [{subject, serial, path: signer|timeStampAuthority, time, status:
            good|revoked|unknown|null, revokedAt, reason, source: dss|cms|online|null, problem}].
            """)

    static func run(_ arguments: Arguments, console: Console) async throws -> ExitCode {
        let diff = try RevisionDiff(arguments)
        var roots: [Certificate] = []
        for path in arguments.values("trust") {
            roots += try certificates(in: path)
        }
        var time: Int?
        if let text = arguments.value("at") {
            guard let seconds = Self.seconds(iso: text) else {
                throw UsageError("--at takes a UTC time as 2030-06-01 or 2030-06-01T12:00:00Z, not \(text.prefix(40))")
            }
            time = seconds
        }
        var revocation = time == nil ? RevocationChecking.online : .embedded
        if let text = arguments.value("revocation") {
            guard let chosen = RevocationChecking(rawValue: text) else {
                throw UsageError("--revocation takes online, embedded or off, not \(text.prefix(40))")
            }
            if chosen == .online && time != nil {
                throw UsageError("--at validates with what the document embeds: --revocation embedded or off")
            }
            revocation = chosen
        }
        let document = try openDocument(arguments)
        let statuses = await SignatureValidator(document: document, trustRoots: roots, validationTime: time)
            .validate(revocation: revocation)
        if arguments.has("json") {
            console.print(JSONValue.array(statuses.map(\.json)).prettyText)
        } else if statuses.isEmpty {
            console.print("no signatures")
        } else {
            console.print(text(statuses))
        }
        try await diff?.write(statuses, of: document, console: console)
        return exitCode(statuses)
    }

    /// 0 when every verdict is valid (with allowed changes or not); 4 when some are `untrusted`
    /// and the rest valid; 1 for anything else, no signatures included.
    static func exitCode(_ statuses: [SignatureStatus]) -> ExitCode {
        guard !statuses.isEmpty else { return .failure }
        if statuses.allSatisfy(\.isValidAsShown) { return .success }
        if statuses.allSatisfy({ $0.isValidAsShown || $0.verdict == .untrusted }) { return .signerNotTrusted }
        return .failure
    }

    /// `2030-06-01` or `2030-06-01T12:00:00Z` (UTC) as seconds since 1970; nil for anything else.
    static func seconds(iso text: String) -> Int? {
        let digits = text.split(whereSeparator: { "-T:Z".contains($0) }).map { Int($0) }
        guard digits.allSatisfy({ $0 != nil }), digits.count == 3 || (digits.count == 6 && text.hasSuffix("Z")) else {
            return nil
        }
        let values = digits.compactMap { $0 } + [0, 0, 0]
        let (year, month, day, hour, minute, second) = (
            values[0], values[1], values[2], values[3], values[4], values[5]
        )
        guard (1970...9999).contains(year), (1...12).contains(month), (1...31).contains(day), (0...23).contains(hour),
            (0...59).contains(minute), (0...60).contains(second)
        else { return nil }
        // Days since 1970 (the civil-from-days inverse, proleptic Gregorian).
        let y = month <= 2 ? year - 1 : year
        let era = y / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return days * 86_400 + hour * 3600 + minute * 60 + second
    }

    /// The certificates in a `--trust` file: PEM blocks, or else one DER certificate.
    static func certificates(in path: String) throws -> [Certificate] {
        let bytes: [UInt8]
        do {
            let source = try ByteSource(contentsOfFile: path)
            bytes = withExtendedLifetime(source) { Array(source.buffer) }
        } catch {
            throw UsageError("--trust \(path): \(error.message)")
        }
        let pem = Certificate.certificates(pem: bytes)
        if !pem.isEmpty { return pem }
        if let der = try? Certificate(der: bytes) { return [der] }
        throw UsageError("--trust \(path) holds no certificate (PEM or DER)")
    }

    /// `SUBJECT: good (dss)`, `… revoked on DATE, keyCompromise (online)`, `… no status: WHY`.
    static func revocationText(_ entry: CertificateRevocation) -> String {
        let role = entry.path == .timeStampAuthority ? " [time-stamp authority]" : ""
        switch entry.status {
        case nil: return "\(entry.subject)\(role): no status (\(entry.problem ?? "none at hand"))"
        case .good?: return "\(entry.subject)\(role): good (\(entry.source?.rawValue ?? "?"))"
        case .unknown?: return "\(entry.subject)\(role): unknown to its responder (\(entry.source?.rawValue ?? "?"))"
        case .revoked(let time, let reason)?:
            return "\(entry.subject)\(role): REVOKED on \(PDFDate(seconds: time).displayString)"
                + (reason.map { ", \($0)" } ?? "") + " (\(entry.source?.rawValue ?? "?"))"
        }
    }

    /// The signature's own state, later changes aside: `VALID`, `SIGNED, SIGNER NOT TRUSTED` (intact,
    /// untrusted but not revoked) or `NOT VALID`.
    static func heading(_ status: SignatureStatus) -> String {
        if status.isValid { return "VALID" }
        return status.isIntact && !status.signerRevoked ? "SIGNED, SIGNER NOT TRUSTED" : "NOT VALID"
    }

    static func text(_ statuses: [SignatureStatus]) -> String {
        var blocks: [String] = []
        for (index, status) in statuses.enumerated() {
            var lines: [(String, String)] = []
            if let signer = status.signerCertificate {
                lines.append(("Signer", Console.inline(signer.subject)))
                lines.append(("Issuer", Console.inline(signer.issuer)))
                lines.append(("Serial", Console.inline(signer.serialNumber)))
            } else {
                lines.append(("Signer", "unknown (the CMS does not carry the certificate)"))
            }
            var times: [String] = []
            if let claimed = status.claimedSigningTime { times.append("\(claimed.displayString) (/M, claimed)") }
            if let cms = status.cmsSigningTime {
                times.append("\(PDFDate(seconds: cms).displayString) (CMS signingTime)")
            }
            if !times.isEmpty { lines.append(("Signing time", times.joined(separator: "; "))) }
            if let stamp = status.timeStamp {
                let verdict =
                    stamp.isValid
                    ? "valid" : stamp.intact ? "intact, authority not trusted" : "not valid"
                lines.append(
                    (
                        "Time-stamp",
                        "\(PDFDate(seconds: stamp.time).displayString) by \(Console.inline(stamp.authority ?? "an unnamed authority")) (\(verdict))"
                    ))
            }
            if let level = status.level { lines.append(("PAdES level", level)) }
            if let best = status.bestSignatureTime {
                let source = status.timeStamp?.isValid == true ? "the time-stamp's" : "the validation time"
                lines.append(("Validated at", "\(PDFDate(seconds: best).displayString) (\(source))"))
            }
            if status.revocationChecking == .off { lines.append(("Revocation", "not checked (--revocation off)")) }
            for entry in status.revocation { lines.append(("Revocation", revocationText(entry))) }
            lines.append(
                ("SubFilter", (status.subFilter ?? "none") + (status.digestAlgorithm.map { ", digest \($0)" } ?? "")))
            if !status.byteRange.isEmpty {
                lines.append(("Byte range", "[" + status.byteRange.map(String.init).joined(separator: " ") + "]"))
            }
            lines.append(("Digest intact", status.digestIntact ? "yes" : "no"))
            lines.append(("CMS signature", status.signatureValid ? "valid" : "not valid"))
            switch status.trust {
            case .trusted(let chain):
                lines.append(
                    ("Trusted", "yes (" + chain.map { Console.inline($0.subject) }.joined(separator: " <- ") + ")"))
            case .untrusted(let reason):
                lines.append(("Trusted", "no: " + Console.inline(reason)))
            }
            var coverage = status.coverage.description
            if let revision = status.revision {
                coverage +=
                    " (revision \(revision), \(status.laterRevisions) later revision"
                    + (status.laterRevisions == 1 ? ")" : "s)")
            }
            lines.append(("Coverage", coverage))
            let width = (lines.map(\.0.count).max() ?? 0) + 2
            var block =
                "Signature \(index + 1) of \(statuses.count): field '\(Console.inline(status.fieldName))': "
                + heading(status)
            for (label, value) in lines {
                block += "\n  " + label + ":" + String(repeating: " ", count: width - label.count) + value
            }
            if let report = status.modifications {
                if let certification = report.certification {
                    block += "\n  Certification: P=\(certification.rawValue) (\(certification.description))"
                }
                let shown = report.changes.filter { $0.level != .none || !$0.allowed }
                if !shown.isEmpty {
                    block += "\n  Changes since signing (level \(report.level)):"
                    for change in shown.prefix(40) {
                        block +=
                            "\n    - revision \(change.revision): " + Console.inline(change.reason)
                            + (change.allowed ? " (allowed)" : " (NOT ALLOWED)")
                    }
                    if shown.count > 40 { block += "\n    - … \(shown.count - 40) more (--json lists all)" }
                }
            }
            if !status.problems.isEmpty {
                block += "\n  Problems:"
                for problem in status.problems { block += "\n    - " + Console.inline(problem) }
            }
            block +=
                "\n  Verdict: " + status.verdict.rawValue
                + (status.verdict == .untrusted ? " (signed, signer not trusted)" : "")
            blocks.append(block)
        }
        blocks.append(statuses.map { Console.inline($0.summary) }.joined(separator: "\n"))
        return blocks.joined(separator: "\n\n")
    }
}
