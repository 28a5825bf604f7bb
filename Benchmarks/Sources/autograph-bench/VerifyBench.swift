import Glibc

/// Step `verify`: one process per signed document and tool, `autograph verify --trust ROOT FILE`
/// beside `pdfsig -nssdir sql:DB FILE` (DB: an NSS database trusting the same root), over the signed
/// outputs of `sign-process` (both tools' outputs, both keys), every file once per round.
struct VerifyBench {
    struct Result {
        var files: [SignProcessBench.SignedFile]
        var rounds: Int
        var ours: ProcessBench.Tool
        var peer: ProcessBench.Tool?
        var notice: String?
        /// How pdfsig was told about the root (or why it was not).
        var trustNote: String
        /// Verdicts of the first round: documents whose every signature each tool accepts.
        var oursValid = 0
        var peerValid = 0
        var peerTrusted = 0
        /// Documents on which the verdicts differ.
        var disagreements: [String] = []

        var ratio: Double? {
            guard let ours = ours.total, let peer = peer?.total, peer > 0 else { return nil }
            return ours / peer
        }
    }

    var environment: BenchEnvironment
    var rounds: Int

    func run(_ files: [SignProcessBench.SignedFile], autograph: String) throws(BenchError) -> Result {
        let root = SignSetup.root(environment)
        let havePdfsig = Launcher.isAvailable(environment.pdfsig)
        let (database, trustNote) = try VerifyBench.nssDatabase(environment)
        var ours = ProcessBench.Tool(name: "autograph verify", seconds: Array(repeating: [], count: files.count))
        var peer = ProcessBench.Tool(name: "pdfsig", seconds: Array(repeating: [], count: files.count))
        var result = Result(
            files: files, rounds: rounds, ours: ours, peer: nil,
            notice: havePdfsig ? nil : "\(environment.pdfsig) not found (apt-get install poppler-utils)",
            trustNote: trustNote)
        let launcher = environment.launcher
        func measure(_ tool: inout ProcessBench.Tool, _ arguments: [String], file: Int) throws(BenchError) -> ChildRun {
            let run = try launcher.run(arguments, stdout: .capture, timeout: 120)
            tool.seconds[file].append(run.seconds)
            tool.exitCodes[run.exitCode, default: 0] += 1
            if run.timedOut {
                tool.timeouts += 1
                tool.abnormal[file] = "timed out"
            } else if run.exitCode < 0 {
                tool.abnormal[file] = "signal \(-run.exitCode)"
            }
            return run
        }
        for round in 0..<rounds {
            for (index, file) in files.enumerated() {
                let mine = try measure(&ours, [autograph, "verify", "--trust", root, file.path], file: index)
                if havePdfsig {
                    let theirs = try measure(
                        &peer, [environment.pdfsig] + (database.map { ["-nssdir", "sql:" + $0] } ?? []) + [file.path],
                        file: index)
                    if round == 0 {
                        let ourVerdict = mine.exitCode == 0
                        // One block per signature field; pdfsig lists the empty ones too ("is not signed").
                        let blocks = theirs.outputText.split(separator: "Signature #", omittingEmptySubsequences: false)
                            .dropFirst().filter { !$0.contains("is not signed") }
                        let valid = !blocks.isEmpty && blocks.allSatisfy { $0.contains("Signature is Valid") }
                        let trusted = !blocks.isEmpty && blocks.allSatisfy { $0.contains("Certificate is Trusted") }
                        if ourVerdict { result.oursValid += 1 }
                        if valid { result.peerValid += 1 }
                        if trusted { result.peerTrusted += 1 }
                        if ourVerdict != (valid && (trusted || database == nil)) {
                            result.disagreements.append(
                                "\(file.name): autograph verify \(ourVerdict ? "valid" : "exit \(mine.exitCode)"), "
                                    + "pdfsig \(valid ? "valid" : "not valid")\(trusted ? ", trusted" : ", not trusted")"
                            )
                        }
                    }
                } else if round == 0, mine.exitCode == 0 {
                    result.oursValid += 1
                }
                if index % 10 == 9 || index == files.count - 1 {
                    Progress.update("  round \(round + 1)/\(rounds): \(index + 1)/\(files.count) files")
                }
            }
            let totals = [ours] + (havePdfsig ? [peer] : [])
            Progress.finish(
                "  round \(round + 1)/\(rounds): "
                    + totals.map { "\($0.name) \(Format.seconds($0.roundTotals.last ?? 0))" }.joined(separator: ", "))
        }
        result.ours = ours
        result.peer = havePdfsig ? peer : nil
        return result
    }

    /// An NSS database in `Benchmarks/.build/bench-nssdb` that trusts the test root, made once with
    /// `certutil`; nil (pdfsig then checks no trust) when certutil is missing or fails.
    static func nssDatabase(_ environment: BenchEnvironment) throws(BenchError) -> (String?, String) {
        let directory = environment.buildPath("bench-nssdb")
        if access(directory + "/cert9.db", R_OK) == 0 {
            return (directory, "pdfsig trusts the test root through the NSS database \(directory)")
        }
        guard Launcher.isAvailable("certutil") else {
            return (nil, "certutil not found (libnss3-tools): pdfsig checks no trust, autograph verify does")
        }
        mkdir(directory, 0o755)
        let created = try environment.launcher.run(
            ["certutil", "-N", "-d", "sql:" + directory, "--empty-password"], stdout: .capture, stderr: .capture)
        let added = try environment.launcher.run(
            [
                "certutil", "-A", "-d", "sql:" + directory, "-n", "autograph-test-root", "-t", "CT,C,C", "-i",
                SignSetup.root(environment),
            ], stdout: .capture, stderr: .capture)
        guard created.succeeded, added.succeeded else {
            return (
                nil, "certutil failed (\(added.outputText.prefix(80))): pdfsig checks no trust, autograph verify does"
            )
        }
        return (directory, "pdfsig trusts the test root through the NSS database \(directory)")
    }
}

extension VerifyBench.Result {
    func details() -> [String] {
        var lines = [
            "Verify, one process per signed document: autograph verify vs pdfsig (\(files.count) files: the "
                + "sign-process outputs, both tools, both keys; \(rounds) round\(rounds == 1 ? "" : "s"), median)"
        ]
        for tool in [ours] + (peer.map { [$0] } ?? []) {
            let codes = tool.exitCodes.sorted { $0.key < $1.key }.map { "\($0.value) × exit \($0.key)" }
            let perFile = files.indices.map { tool.fileSeconds($0) }
            lines.append(
                "  \(Format.padRight(tool.name, 18)) \(Format.padLeft(tool.total.map(Format.seconds) ?? "n/a", 10))"
                    + "  per file (median): \(Format.milliseconds(median(perFile) ?? 0)); "
                    + codes.joined(separator: ", ") + (tool.timeouts > 0 ? "; \(tool.timeouts) timed out" : ""))
        }
        lines.append("  \(trustNote)")
        var verdicts = "  verdicts (round 1): autograph verify: \(oursValid) of \(files.count) all valid and trusted"
        if peer != nil {
            verdicts += "; pdfsig: \(peerValid) 'Signature is Valid', \(peerTrusted) 'Certificate is Trusted'"
        }
        lines.append(verdicts)
        for disagreement in disagreements.prefix(10) { lines.append("    differ: " + disagreement) }
        if disagreements.count > 10 { lines.append("    … and \(disagreements.count - 10) more") }
        if let notice { lines.append("  pdfsig: not measured: \(notice)") }
        return lines
    }
}
