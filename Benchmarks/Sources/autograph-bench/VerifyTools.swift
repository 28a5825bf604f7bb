import Glibc

/// The validators of the verify steps, their command lines, and what each says about a file.
///
/// - `autograph verify --trust ROOT [--password=P] FILE`
/// - `$PYTHON -m pyhanko sign validate --trust ROOT --trust-replace --no-revocation-check --pretty-print
///   [--password P] FILE`: difference analysis on (pyHanko's default: each revision after a signed one is
///   compared with it); only the root is trusted, as for the other two; no revocation check, as neither
///   other tool checks one (nothing is fetched from the network).
/// - `pdfsig -nssdir sql:DB [-upw P] FILE`: DB trusts the root. Not `-no-ocsp`: poppler 22.12 then says
///   "Unknown issue with Certificate or corrupted data." of every certificate. The test PKI's certificates
///   name no OCSP responder, so pdfsig makes no request for them.
struct VerifyTools {
    enum Kind: Int, CaseIterable {
        case autograph
        case pyhanko
        case pdfsig

        var name: String {
            switch self {
            case .autograph: "autograph verify"
            case .pyhanko: "pyhanko validate"
            case .pdfsig: "pdfsig"
            }
        }

        /// The key of the tool in the verdicts file.
        var key: String {
            switch self {
            case .autograph: "autograph"
            case .pyhanko: "pyhanko"
            case .pdfsig: "pdfsig"
            }
        }
    }

    var environment: BenchEnvironment
    var autograph: String
    var root: String
    /// pdfsig's NSS database that trusts `root`; nil when certutil could not make it.
    var database: String?
    /// How pdfsig was told about the root (or why it was not).
    var trustNote: String
    /// Why a tool cannot be run, by tool (nil: it can).
    var problems: [Kind: String] = [:]

    init(environment: BenchEnvironment, autograph: String) throws(BenchError) {
        self.environment = environment
        self.autograph = autograph
        root = SignSetup.root(environment)
        (database, trustNote) = try VerifyBench.nssDatabase(environment)
        if let problem = SignSetup.pyhankoProblem(environment) { problems[.pyhanko] = problem }
        if !Launcher.isAvailable(environment.pdfsig) {
            problems[.pdfsig] = "\(environment.pdfsig) not found (apt-get install poppler-utils)"
        }
    }

    func available(_ kind: Kind) -> Bool { problems[kind] == nil }

    /// The command line of `kind` on `path`; `password` nil or empty: none given (each tool tries the empty one).
    func arguments(_ kind: Kind, path: String, password: String?) -> [String] {
        let password = password.flatMap { $0.isEmpty ? nil : $0 }
        switch kind {
        case .autograph:
            return [autograph, "verify", "--trust", root] + (password.map { ["--password=\($0)"] } ?? []) + [path]
        case .pyhanko:
            return [
                environment.python, "-m", "pyhanko", "sign", "validate", "--trust", root, "--trust-replace",
                "--no-revocation-check", "--pretty-print",
            ] + (password.map { ["--password", $0] } ?? []) + [path]
        case .pdfsig:
            return [environment.pdfsig] + (database.map { ["-nssdir", "sql:" + $0] } ?? [])
                + (password.map { ["-upw", $0] } ?? []) + [path]
        }
    }

    /// What `kind` said in `run`.
    func verdict(_ kind: Kind, _ run: ChildRun) -> ToolVerdict {
        var verdict = ToolVerdict(exitCode: run.exitCode, timedOut: run.timedOut, seconds: run.seconds)
        let lines = run.outputText.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        switch kind {
        case .autograph: verdict.readAutograph(lines)
        case .pyhanko: verdict.readPyhanko(lines)
        case .pdfsig: verdict.readPdfsig(lines, trustChecked: database != nil)
        }
        if run.timedOut { verdict.message = "timed out" }
        return verdict
    }
}

/// What one tool said about one file: its verdict on each signature, from its output.
struct ToolVerdict {
    struct Signature {
        var field: String
        /// The tool's own word: VALID / NOT VALID (autograph), VALID / INVALID (pyHanko's bottom line),
        /// pdfsig's "Signature Validation" line.
        var verdict: String
        /// The tool accepts the signature: autograph's VALID, pyHanko's "judged VALID", pdfsig's "Signature
        /// is Valid." with "Certificate is Trusted." (all three need the trust root).
        var accepted: Bool
        /// What else the tool said (coverage, trust, modifications …), by key.
        var details: [(String, JSONText)] = []
    }

    var exitCode: Int32
    var timedOut: Bool
    var seconds: Double
    var signatures: [Signature] = []
    /// What the tool said about the file as a whole ("no signatures", why it cannot read it).
    var message: String?

    /// Every signature accepted (and at least one).
    var allAccepted: Bool { !signatures.isEmpty && signatures.allSatisfy(\.accepted) }

    /// A few words for the details, per signature: "INVALID (FORM_FILLING, untrusted)".
    var short: String {
        if timedOut { return "timed out" }
        guard !signatures.isEmpty else { return message ?? "no signature (exit \(exitCode))" }
        return signatures.map { signature -> String in
            var notes: [String] = []
            for (key, value) in signature.details {
                switch (key, value) {
                case ("modificationLevel", .string(let level)): notes.append(level)
                case ("coverage", .string(let coverage)): notes.append(String(coverage.prefix { $0 != " " }))
                case ("trusted", .bool(let trusted)): notes.append(trusted ? "trusted" : "untrusted")
                case ("trusted", .string(let trust)): notes.append(trust.hasPrefix("yes") ? "trusted" : "untrusted")
                case ("certificate", .string(let certificate)): notes.append(certificate)
                case ("error", .string(let error)): notes.append(String(error.prefix(80)))
                default: break
                }
            }
            return signature.verdict + (notes.isEmpty ? "" : " (" + notes.joined(separator: ", ") + ")")
        }.joined(separator: "; ")
    }

    var json: JSONText {
        .object([
            ("exitCode", .integer(Int(exitCode))), ("timedOut", .bool(timedOut)), ("seconds", .number(seconds)),
            ("allAccepted", .bool(allAccepted)), ("message", .optional(message)),
            (
                "signatures",
                .array(
                    signatures.map { signature in
                        .object(
                            [
                                ("field", .string(signature.field)), ("verdict", .string(signature.verdict)),
                                ("accepted", .bool(signature.accepted)),
                            ] + signature.details)
                    })
            ),
        ])
    }

    /// `autograph verify`'s text: "Signature 1 of 2: field 'F': VALID" then "  Label:  value" lines;
    /// "no signatures"; an error on standard error.
    mutating func readAutograph(_ lines: [String]) {
        for line in lines {
            if line.hasPrefix("Signature "), let fieldStart = line.firstRange(of: ": field '"),
                let verdictStart = line.ranges(of: "': ").last
            {
                let verdict = String(line[verdictStart.upperBound...])
                signatures.append(
                    Signature(
                        field: String(line[fieldStart.upperBound..<verdictStart.lowerBound]), verdict: verdict,
                        accepted: verdict == "VALID"))
            } else if line.hasPrefix("  "), !signatures.isEmpty, let colon = line.firstIndex(of: ":") {
                let label = line[..<colon].trimmingWhitespace
                let value = line[line.index(after: colon)...].trimmingWhitespace
                if let key = ["Trusted": "trusted", "Coverage": "coverage", "Digest intact": "intact"][label] {
                    signatures[signatures.count - 1].details.append((key, .string(value)))
                }
            } else if line == "no signatures" {
                message = "no signatures"
            }
        }
        if signatures.isEmpty, message == nil, exitCode != 0 {
            message = lines.first { !$0.isEmpty }.map { String($0.prefix(200)) }
        }
    }

    /// `pyhanko sign validate --pretty-print`: per signature a "Field N: NAME" banner, sections
    /// (Signer info, Integrity, Modifications …) and "The signature is judged VALID." (or "INVALID."), or
    /// "An error occurred while validating this signature: …"; "Error: …" (click) for the file.
    mutating func readPyhanko(_ lines: [String]) {
        var section = ""
        var modifications: [String] = []
        func closeModifications() {
            guard !modifications.isEmpty, !signatures.isEmpty else { return }
            let text = modifications.joined(separator: " ")
            signatures[signatures.count - 1].details.append(("modifications", .string(text)))
            signatures[signatures.count - 1].details.append(
                ("modificationLevel", .optional(ToolVerdict.pyhankoLevel(text))))
            if text.contains("appear to be compatible") {
                signatures[signatures.count - 1].details.append(("docmdpOk", .bool(true)))
            } else if text.contains("appear to be incompatible") {
                signatures[signatures.count - 1].details.append(("docmdpOk", .bool(false)))
            }
            modifications = []
        }
        for (index, line) in lines.enumerated() {
            if line.hasPrefix("Field "), index > 0, lines[index - 1].hasPrefix("==="),
                let colon = line.firstRange(of: ": ")
            {
                closeModifications()
                signatures.append(
                    Signature(field: String(line[colon.upperBound...]), verdict: "no verdict", accepted: false))
                section = ""
            } else if signatures.isEmpty {
                if line.hasPrefix("Error: ") { message = String(line.dropFirst(7).prefix(200)) }
            } else if index + 1 < lines.count, lines[index + 1].hasPrefix("---"), !line.isEmpty {
                closeModifications()
                section = line
            } else if line.hasPrefix("---") {
                continue
            } else if section == "Modifications", !line.isEmpty {
                modifications.append(line)
            } else if line == "The signature is judged VALID." || line == "The signature is judged INVALID." {
                let valid = line.hasSuffix(" VALID.")
                signatures[signatures.count - 1].verdict = valid ? "VALID" : "INVALID"
                signatures[signatures.count - 1].accepted = valid
            } else if line.hasPrefix("An error occurred while validating this signature: ") {
                signatures[signatures.count - 1].verdict = "error"
                signatures[signatures.count - 1].details.append(("error", .string(String(line.dropFirst(51)))))
            } else if line == "The signer's certificate is trusted." || line == "The signer's certificate is untrusted."
            {
                signatures[signatures.count - 1].details.append(("trusted", .bool(!line.contains("untrusted"))))
            } else if line.hasPrefix("Error: ") {
                message = String(line.dropFirst(7).prefix(200))
            }
        }
        closeModifications()
        if signatures.isEmpty, message == nil, exitCode == 0 { message = "no signatures (no /Sig field with a value)" }
    }

    /// pyHanko's modification level from its pretty-printed "Modifications" section (the sentences of
    /// `PdfSignatureStatus.pretty_print_sections`); "ANNOTATIONS|OTHER" where the sentence is the same for both.
    static func pyhankoLevel(_ text: String) -> String? {
        if text.contains("covers the entire file") { return "NONE" }
        if text.contains("relate to signature maintenance") { return "LTA_UPDATES" }
        if text.contains("relate to signing and form filling") { return "FORM_FILLING" }
        if text.contains("may be illegitimate") { return "ANNOTATIONS|OTHER" }
        return nil
    }

    /// pdfsig: "Signature #N:" blocks of "  - Key: value" lines; the unsigned fields say "is not signed".
    mutating func readPdfsig(_ lines: [String], trustChecked: Bool) {
        var validation: String?
        var certificate: String?
        func close() {
            guard !signatures.isEmpty else { return }
            let valid = validation == "Signature is Valid."
            let trusted = certificate == "Certificate is Trusted."
            signatures[signatures.count - 1].verdict = validation ?? "no validation"
            signatures[signatures.count - 1].accepted = valid && (trusted || !trustChecked)
            signatures[signatures.count - 1].details.append(("certificate", .optional(certificate)))
            validation = nil
            certificate = nil
        }
        var unsigned = false
        for line in lines {
            if line.hasPrefix("Signature #") {
                if !unsigned { close() }
                unsigned = false
                signatures.append(Signature(field: "", verdict: "", accepted: false))
            } else if line.contains(" is not signed") {
                unsigned = true
                if !signatures.isEmpty { signatures.removeLast() }
            } else if line.hasPrefix("  - "), !signatures.isEmpty, !unsigned {
                let entry = line.dropFirst(4)
                guard let colon = entry.firstRange(of: ": ") else {
                    if entry == "Total document signed" || entry == "Not total document signed" {
                        signatures[signatures.count - 1].details.append(
                            ("totalDocumentSigned", .bool(entry == "Total document signed")))
                    }
                    continue
                }
                let key = String(entry[..<colon.lowerBound])
                let value = String(entry[colon.upperBound...])
                switch key {
                case "Signature Field Name": signatures[signatures.count - 1].field = value
                case "Signature Validation": validation = value
                case "Certificate Validation": certificate = value
                default: break
                }
            } else if line.contains("does not contain any signatures") {
                message = "no signatures"
            }
        }
        if !unsigned { close() }
        if signatures.isEmpty, message == nil, exitCode != 0 {
            message = lines.first { !$0.isEmpty }.map { String($0.prefix(200)) }
        }
    }
}
