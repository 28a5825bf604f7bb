import Glibc

/// Step `sign-process`: one process per document, key and tool, `autograph sign FILE -o OUT …` beside
/// `pyhanko sign addsig … pkcs12 FILE OUT P12`, every document once per round; wall time from fork to
/// reaping, summed over the documents both tools signed in every round. The last round's outputs
/// are kept in `Benchmarks/.build/bench-signed/` for the `verify` step.
struct SignProcessBench {
    /// A signed output of the last round.
    struct SignedFile {
        /// "P-256, pyHanko: qpdf/minimal.pdf".
        var name: String
        var path: String
    }

    struct KeyResult {
        var key: SignSetup.Key
        var ours: ProcessBench.Tool
        /// nil when pyHanko cannot be run.
        var peer: ProcessBench.Tool?
        /// The documents both tools signed in every round (only ours when there is no peer).
        var measured: [Int]
        /// Why the other documents were left out, by index.
        var failures: [Int: String] = [:]

        func total(_ tool: ProcessBench.Tool?) -> Double? {
            guard let tool, !measured.isEmpty, let rounds = tool.seconds.first?.count, rounds > 0 else { return nil }
            return median((0..<rounds).map { round in measured.reduce(0) { $0 + tool.seconds[$1][round] } })
        }
        var ratio: Double? {
            guard let ours = total(ours), let peer = total(peer), peer > 0 else { return nil }
            return ours / peer
        }
    }

    struct Result {
        var files: [CorpusFile]
        var rounds: Int
        var keys: [KeyResult]
        var outputs: [SignedFile]
        var notice: String?
    }

    var environment: BenchEnvironment
    var rounds: Int

    /// The directory of the signed outputs.
    var outputDirectory: String { environment.buildPath("bench-signed") }

    func run(_ files: [CorpusFile], autograph: String) throws(BenchError) -> Result {
        let pyhankoProblem = SignSetup.pyhankoProblem(environment)
        mkdir(outputDirectory, 0o755)
        let passfile = environment.buildPath("bench-p12-password.txt")
        try CorpusProtocol.write(SignSetup.password + "\n", to: passfile)
        CorpusFile.warm(files)
        let launcher = environment.launcher
        var keys: [KeyResult] = []
        var outputs: [SignedFile] = []
        for key in SignSetup.keys {
            let p12 = SignSetup.p12(key, environment)
            var ours = ProcessBench.Tool(name: "autograph sign", seconds: Array(repeating: [], count: files.count))
            var peer = ProcessBench.Tool(name: "pyhanko sign addsig", seconds: Array(repeating: [], count: files.count))
            var failed: [Int: String] = [:]
            func measure(_ tool: inout ProcessBench.Tool, _ arguments: [String], output: String, file: Int)
                throws(BenchError)
            {
                unlink(output)
                let run = try launcher.run(arguments, stdout: .capture, stderr: .capture, timeout: 120)
                tool.seconds[file].append(run.seconds)
                tool.exitCodes[run.exitCode, default: 0] += 1
                if run.timedOut { tool.timeouts += 1 }
                // `autograph sign` exits 3 when it signed a document read with repairs.
                let signed = (run.exitCode == 0 || run.exitCode == 3) && !run.timedOut && access(output, R_OK) == 0
                if !signed, failed[file] == nil {
                    let last = run.outputText.split(separator: "\n").last.map(String.init) ?? ""
                    failed[file] =
                        "\(tool.name): "
                        + (run.timedOut ? "timed out" : "exit code \(run.exitCode): \(last.prefix(100))")
                }
            }
            for round in 0..<rounds {
                for (index, file) in files.enumerated() {
                    let base = "\(outputDirectory)/\(key.slug)-\(index)"
                    try measure(
                        &ours,
                        [
                            autograph, "sign", file.path, "-o", base + "-autograph.pdf", "--p12", p12, "--p12-password",
                            SignSetup.password, "--field", SignSetup.fieldName, "--page", "1", "--rect",
                            SignSetup.rectText,
                        ], output: base + "-autograph.pdf", file: index)
                    if pyhankoProblem == nil {
                        try measure(
                            &peer,
                            [
                                environment.python, "-m", "pyhanko", "sign", "addsig", "--use-pades", "--field",
                                "1/\(SignSetup.rectText)/\(SignSetup.fieldName)", "pkcs12", "--passfile", passfile,
                                file.path, base + "-pyhanko.pdf", p12,
                            ], output: base + "-pyhanko.pdf", file: index)
                    }
                    Progress.update(
                        "  \(key.name), round \(round + 1)/\(rounds): \(index + 1)/\(files.count) documents")
                }
                let totals = [ours] + (pyhankoProblem == nil ? [peer] : [])
                Progress.finish(
                    "  \(key.name), round \(round + 1)/\(rounds): "
                        + totals.map { "\($0.name) \(Format.seconds($0.roundTotals.last ?? 0))" }.joined(
                            separator: ", "))
            }
            let measured = files.indices.filter { failed[$0] == nil }
            for index in measured {
                let base = "\(outputDirectory)/\(key.slug)-\(index)"
                outputs.append(
                    SignedFile(name: "\(key.name), Autograph: \(files[index].name)", path: base + "-autograph.pdf"))
                if pyhankoProblem == nil {
                    outputs.append(
                        SignedFile(name: "\(key.name), pyHanko: \(files[index].name)", path: base + "-pyhanko.pdf"))
                }
            }
            keys.append(
                KeyResult(
                    key: key, ours: ours, peer: pyhankoProblem == nil ? peer : nil, measured: measured,
                    failures: failed))
        }
        return Result(files: files, rounds: rounds, keys: keys, outputs: outputs, notice: pyhankoProblem)
    }
}

extension SignProcessBench.Result {
    func details() -> [String] {
        var lines = [
            "Sign, one process per document: autograph sign vs pyhanko sign addsig (\(files.count) documents, "
                + "visible field, \(rounds) round\(rounds == 1 ? "" : "s"), median)"
        ]
        for result in keys {
            lines.append(
                "  \(result.key.name): totals over the \(result.measured.count) documents both signed every time")
            for tool in [result.ours] + (result.peer.map { [$0] } ?? []) {
                let codes = tool.exitCodes.sorted { $0.key < $1.key }.map { "\($0.value) × exit \($0.key)" }
                let ourFiles = result.measured.map { tool.fileSeconds($0) }
                lines.append(
                    "    \(Format.padRight(tool.name, 20)) \(Format.padLeft(result.total(tool).map(Format.seconds) ?? "n/a", 10))"
                        + "  per document (median): \(Format.milliseconds(median(ourFiles) ?? 0)); "
                        + codes.joined(separator: ", ") + (tool.timeouts > 0 ? "; \(tool.timeouts) timed out" : ""))
            }
            for (index, reason) in result.failures.sorted(by: { $0.key < $1.key }) {
                lines.append("    left out: \(files[index].name): \(reason)")
            }
        }
        if let notice { lines.append("  pyHanko: not measured: \(notice)") }
        return lines
    }
}
