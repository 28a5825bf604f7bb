import Glibc

/// Step `pkcs11`: signing with a key in a PKCS#11 token, Autograph beside pyHanko's own PKCS#11 signer,
/// on one SoftHSM2 token the step makes (``SoftHSMStore``), RSA-2048 and P-256, the generated 1-page
/// document, a new invisible field `Sig`:
///
/// 1. process per signature: `autograph sign DOC -o OUT --pkcs11 MODULE --token autograph-bench --key-label
///    L --pin-file F --chain CHAIN --field Sig --invisible` beside `$PYTHON -m pyhanko --config CONF sign
///    addsig --field Sig --use-pades pkcs11 --p11-setup L DOC OUT` (CONF: the same module, token, PIN, key
///    and certificate labels, `other-certs: CHAIN`, `raw-mechanism: true` for the EC key), one after the
///    other, once untimed, then `runs` times each; wall time from fork to reaping, the median;
/// 2. throughput in one process through one token: `autograph-bench --pkcs11-worker` (``PKCS11Worker``)
///    beside `scripts/pyhanko_pkcs11.py`, each `signatures` signatures per pass, `rounds` passes with 1
///    thread then with 8; signatures per second of the median pass.
///
/// Then, untimed, `autograph verify --trust ROOT` and `pyhanko sign validate --trust ROOT --trust-replace
/// --no-revocation-check` on each tool's last file of each part.
struct PKCS11Bench {
    static let threadCounts = [1, 8]

    /// One tool's figures for one key.
    struct Side {
        var name: String
        /// The wall time of each timed process that signed.
        var processSeconds: [Double] = []
        /// The peak RSS of each timed process that signed, in KiB.
        var processPeakKiB: [Int] = []
        var exitCodes: [Int32: Int] = [:]
        /// Why the processes were not measured (the untimed first run failed), or the first failure.
        var processFailure: String?
        /// What the throughput worker said it is.
        var workerDescription: String?
        /// Threads → the seconds of each pass.
        var passes: [Int: [Double]] = [:]
        var throughputFailure: String?

        var processMedian: Double? {
            processFailure == nil ? median(processSeconds) : nil
        }

        /// The median pass with `threads` threads, when every round completed.
        func passMedian(_ threads: Int, rounds: Int) -> Double? {
            guard throughputFailure == nil, let seconds = passes[threads], seconds.count == rounds else { return nil }
            return median(seconds)
        }
    }

    struct KeyResult {
        var key: SoftHSMStore.Key
        var ours: Side
        var peer: Side
        /// The untimed checks of the outputs: "autograph verify: 4 of 4 accepted", with the failures.
        var checks: [String] = []

        var processRatio: Double? {
            guard let ours = ours.processMedian, let peer = peer.processMedian, peer > 0 else { return nil }
            return ours / peer
        }

        /// Autograph's time per signature over pyHanko's, with `threads` threads.
        func throughputRatio(_ threads: Int, rounds: Int) -> Double? {
            guard let ours = ours.passMedian(threads, rounds: rounds),
                let peer = peer.passMedian(threads, rounds: rounds), peer > 0
            else { return nil }
            return ours / peer
        }
    }

    struct Result {
        var runs: Int
        var rounds: Int
        var signatures: Int
        var document: CorpusFile?
        var module = SoftHSMStore.module
        var keys: [KeyResult] = []
        /// Where the outputs stay.
        var outputs = ""
        /// Why nothing was measured, or nil.
        var failure: String?
        /// Why the process part was not measured (no release CLI), or nil.
        var processProblem: String?
    }

    var environment: BenchEnvironment
    var runs: Int
    var rounds: Int
    var signatures: Int

    /// The outputs of the step (the last run's signed files of each tool and key).
    var directory: String { environment.buildPath("bench-pkcs11") }

    func run(autograph: String?) throws(BenchError) -> Result {
        var result = Result(runs: runs, rounds: rounds, signatures: signatures, outputs: directory)
        if let problem = SoftHSMStore.problem(environment) {
            result.failure = problem
            return result
        }
        if autograph == nil {
            result.processProblem =
                "no release autograph binary (swift build -c release --package-path Benchmarks)"
        }
        let document = try SignSetup.sample(environment)
        result.document = document
        mkdir(directory, 0o755)
        Progress.note("pkcs11: making a SoftHSM2 token (softhsm2-util, python-pkcs11)")
        var store: SoftHSMStore
        do {
            store = try SoftHSMStore.make(environment)
        } catch {
            result.failure = "the SoftHSM2 token was not made: \(error)"
            return result
        }
        defer { store.remove(environment) }
        let configuration = store.directory + "/pyhanko.yml"
        try CorpusProtocol.write(pyhankoConfiguration(store), to: configuration)
        CorpusFile.warm([document])

        for key in SoftHSMStore.keys {
            var keyResult = KeyResult(
                key: key, ours: Side(name: "autograph sign --pkcs11"), peer: Side(name: "pyhanko sign addsig pkcs11"))
            let oursOutput = "\(directory)/\(key.label)-autograph.pdf"
            let peerOutput = "\(directory)/\(key.label)-pyhanko.pdf"
            if let autograph {
                let ours = [
                    autograph, "sign", document.path, "-o", oursOutput, "--pkcs11", SoftHSMStore.module, "--token",
                    SoftHSMStore.tokenLabel, "--key-label", key.label, "--pin-file", store.pinFile, "--chain",
                    store.chain(key), "--field", "Sig", "--invisible",
                ]
                let peer = [
                    environment.python, "-m", "pyhanko", "--config", configuration, "sign", "addsig", "--field", "Sig",
                    "--use-pades", "pkcs11", "--p11-setup", key.label, document.path, peerOutput,
                ]
                // Untimed: the binaries and Python's modules in the page cache, and each tool shown to work.
                try measure(ours, output: oursOutput, side: &keyResult.ours, timed: false)
                try measure(peer, output: peerOutput, side: &keyResult.peer, timed: false)
                for run in 0..<runs {
                    Progress.update("  pkcs11 \(key.name), processes: run \(run + 1)/\(runs)")
                    if keyResult.ours.processFailure == nil {
                        try measure(ours, output: oursOutput, side: &keyResult.ours, timed: true)
                    }
                    if keyResult.peer.processFailure == nil {
                        try measure(peer, output: peerOutput, side: &keyResult.peer, timed: true)
                    }
                }
                Progress.finish(
                    "  pkcs11 \(key.name), processes: "
                        + [keyResult.ours, keyResult.peer].map { side in
                            "\(side.name) \(side.processMedian.map(Format.milliseconds) ?? "failed")"
                        }.joined(separator: ", "))
            }

            let oursSample = "\(directory)/\(key.label)-autograph-in-process.pdf"
            let peerSample = "\(directory)/\(key.label)-pyhanko-in-process.pdf"
            let threads = Self.threadCounts.map(String.init).joined(separator: ",")
            Progress.update("  pkcs11 \(key.name), throughput: Autograph in process")
            try throughput(
                [
                    environment.executable, "--pkcs11-worker", SoftHSMStore.module, SoftHSMStore.tokenLabel,
                    store.pinFile, key.label, store.chain(key), document.path, oursSample, String(signatures),
                    threads, String(rounds),
                ], sample: oursSample, side: &keyResult.ours)
            Progress.update("  pkcs11 \(key.name), throughput: pyHanko in process")
            try throughput(
                [
                    environment.python, "\(environment.packageDirectory)/scripts/pyhanko_pkcs11.py",
                    SoftHSMStore.module, SoftHSMStore.tokenLabel, store.pinFile, key.label, store.chain(key),
                    document.path, String(signatures), threads, String(rounds), peerSample,
                ], sample: peerSample, side: &keyResult.peer)
            Progress.finish(
                "  pkcs11 \(key.name), throughput: "
                    + Self.threadCounts.map { count in
                        "\(count) thread\(count == 1 ? "" : "s") "
                            + [keyResult.ours, keyResult.peer].map { side in
                                side.passMedian(count, rounds: rounds).map {
                                    Format.fixed(Double(signatures) / $0, 1) + "/s"
                                } ?? "failed"
                            }.joined(separator: " / ")
                    }.joined(separator: ", "))

            var outputs: [String] = []
            if autograph != nil {
                if keyResult.ours.processFailure == nil { outputs.append(oursOutput) }
                if keyResult.peer.processFailure == nil { outputs.append(peerOutput) }
            }
            if keyResult.ours.throughputFailure == nil { outputs.append(oursSample) }
            if keyResult.peer.throughputFailure == nil { outputs.append(peerSample) }
            keyResult.checks = try Self.check(
                outputs, root: SignSetup.root(environment), autograph: autograph, environment: environment)
            result.keys.append(keyResult)
        }
        return result
    }

    /// pyHanko's configuration: one PKCS#11 setup per key, named by its label.
    private func pyhankoConfiguration(_ store: SoftHSMStore) -> String {
        var text = "pkcs11-setups:\n"
        for key in SoftHSMStore.keys {
            text += """
                  \(key.label):
                    module-path: \(SoftHSMStore.module)
                    token-criteria:
                      label: \(SoftHSMStore.tokenLabel)
                    user-pin: "\(SoftHSMStore.pin)"
                    cert-label: \(key.label)
                    key-label: \(key.label)
                    other-certs: \(store.chain(key))

                """
            // SoftHSM 2.6 has no CKM_ECDSA_SHA256: CKM_ECDSA over pyHanko's hash.
            if key.label == "p256" { text += "    raw-mechanism: true\n" }
        }
        return text
    }

    /// One process of `arguments`, which writes `output`; timed runs go to `side`'s figures, a failure
    /// (the first) to its `processFailure`, which ends its runs.
    private func measure(_ arguments: [String], output: String, side: inout Side, timed: Bool) throws(BenchError) {
        unlink(output)
        let run = try environment.launcher.run(arguments, stdout: .capture, stderr: .capture, timeout: 300)
        if timed { side.exitCodes[run.exitCode, default: 0] += 1 }
        // `autograph sign` exits 3 when it wrote the document with repairs.
        let signed = !run.timedOut && (run.exitCode == 0 || run.exitCode == 3) && access(output, R_OK) == 0
        guard signed else {
            let last = run.outputText.split(separator: "\n").last.map(String.init) ?? ""
            side.processFailure =
                (timed ? "" : "the first, untimed run: ")
                + (run.timedOut ? "timed out" : "exit code \(run.exitCode): \(last.prefix(200))")
            return
        }
        if timed {
            side.processSeconds.append(run.seconds)
            side.processPeakKiB.append(run.peakRSSKiB)
        }
    }

    /// Runs a throughput worker and reads its passes into `side`.
    private func throughput(_ arguments: [String], sample: String, side: inout Side) throws(BenchError) {
        unlink(sample)
        let run = try environment.launcher.run(arguments, stdout: .capture, stderr: .capture, timeout: 3600)
        var failure: String?
        for line in run.outputText.split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            switch fields.first {
            case "V" where fields.count >= 2: side.workerDescription = fields[1]
            case "T" where fields.count >= 5:
                if let threads = Int(fields[1]), let seconds = Double(fields[4]) {
                    side.passes[threads, default: []].append(seconds)
                }
            case "F" where fields.count >= 2: failure = fields[1]
            default: break
            }
        }
        if run.timedOut {
            failure = "timed out"
        } else if failure == nil, !run.succeeded {
            let last = run.outputText.split(separator: "\n").last.map(String.init) ?? ""
            failure = "exit code \(run.exitCode): \(last.prefix(200))"
        }
        side.throughputFailure = failure
    }

    /// `autograph verify` and `pyhanko sign validate` on each of `paths`, trusting `root` only (and
    /// `extra` arguments for `autograph verify`); the csc step checks its outputs the same way.
    static func check(
        _ paths: [String], root: String, autograph: String?, extra: [String] = [], environment: BenchEnvironment
    ) throws(BenchError) -> [String] {
        guard !paths.isEmpty else { return [] }
        var validators: [(name: String, command: [String])] = []
        if let autograph {
            validators.append(("autograph verify", [autograph, "verify", "--trust", root] + extra))
        }
        validators.append(
            (
                "pyhanko sign validate",
                [
                    environment.python, "-m", "pyhanko", "sign", "validate", "--trust", root, "--trust-replace",
                    "--no-revocation-check",
                ]
            ))
        var lines: [String] = []
        for (name, command) in validators {
            var refused: [String] = []
            for path in paths {
                let run = try environment.launcher.run(
                    command + [path], stdout: .capture, stderr: .capture, timeout: 300)
                if !run.succeeded {
                    let file = path.split(separator: "/").last.map(String.init) ?? path
                    let last = run.outputText.split(separator: "\n").last.map(String.init) ?? ""
                    refused.append("\(file) (exit \(run.exitCode): \(last.prefix(120)))")
                }
            }
            lines.append(
                "\(name): \(paths.count - refused.count) of \(paths.count) accepted"
                    + (refused.isEmpty ? "" : "; refused: " + refused.joined(separator: "; ")))
        }
        return lines
    }
}
