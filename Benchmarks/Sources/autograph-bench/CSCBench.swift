import Glibc

/// Step `csc`: remote signing through a CSC API server on loopback, Autograph beside pyHanko's own CSC
/// signer, on one certomancer-csc-dummy server the step starts (``CSCDummyServer``, SCAL 2) and the same
/// credential, `autograph/signer` (RSA-2048) then `autograph/signer-ec` (P-384), the generated 1-page
/// document, a new invisible field `Sig`:
///
/// 1. process per signature: `autograph sign DOC -o OUT --csc BASE --credential C --field Sig --invisible`
///    beside `$PYTHON Tests/Scripts/pyhanko_csc_sign.py BASE C DOC OUT Sig`, one after the other, once
///    untimed, then `runs` times each; wall time from fork to reaping, the median, and the requests the
///    server logged while each ran;
/// 2. throughput in one process: `autograph-bench --csc-worker` (``CSCWorker``) beside
///    `scripts/pyhanko_csc.py`, each `signatures` signatures per pass, `rounds` passes with 1 task then with
///    8; signatures per second of the median pass, and the requests the server logged per signature.
///
/// Then, untimed, `autograph verify --trust ROOT --revocation off` and `pyhanko sign validate --trust ROOT
/// --trust-replace --no-revocation-check` on each tool's last file of each part (ROOT: certomancer's root).
struct CSCBench {
    static let taskCounts = [1, 8]

    struct Key {
        /// "RSA-2048", "P-384".
        var name: String
        /// The credential at the server.
        var credential: String
        /// The stem of the output files.
        var label: String
    }

    static let keys = [
        Key(name: "RSA-2048", credential: "autograph/signer", label: "rsa2048"),
        Key(name: "P-384", credential: "autograph/signer-ec", label: "p384"),
    ]

    /// One tool's figures for one credential.
    struct Side {
        var name: String
        /// The wall time, peak RSS (KiB) and server requests of each timed process that signed.
        var processSeconds: [Double] = []
        var processPeakKiB: [Int] = []
        var processRequests: [Int] = []
        var exitCodes: [Int32: Int] = [:]
        /// Why the processes were not measured (the untimed first run failed), or the first failure.
        var processFailure: String?
        /// What the throughput worker said it is.
        var workerDescription: String?
        /// Tasks → the seconds of each pass, and the requests the server logged during each.
        var passes: [Int: [Double]] = [:]
        var passRequests: [Int: [Int]] = [:]
        var throughputFailure: String?

        var processMedian: Double? {
            processFailure == nil ? median(processSeconds) : nil
        }

        /// The median pass with `tasks` tasks, when every round completed.
        func passMedian(_ tasks: Int, rounds: Int) -> Double? {
            guard throughputFailure == nil, let seconds = passes[tasks], seconds.count == rounds else { return nil }
            return median(seconds)
        }

        /// The requests per signature with `tasks` tasks, over every pass of `signatures` signatures.
        func requestsPerSignature(_ tasks: Int, signatures: Int) -> Double? {
            guard throughputFailure == nil, let counts = passRequests[tasks], !counts.isEmpty else { return nil }
            return Double(counts.reduce(0, +)) / Double(counts.count * signatures)
        }

        /// The requests of each timed process: "5", or "5–7" when runs differ; nil when not measured.
        var processRequestCounts: String? {
            guard processFailure == nil, let low = processRequests.min(), let high = processRequests.max() else {
                return nil
            }
            return low == high ? "\(low)" : "\(low)–\(high)"
        }
    }

    struct KeyResult {
        var key: Key
        var ours: Side
        var peer: Side
        /// The untimed checks of the outputs: "autograph verify: 4 of 4 accepted", with the failures.
        var checks: [String] = []

        var processRatio: Double? {
            guard let ours = ours.processMedian, let peer = peer.processMedian, peer > 0 else { return nil }
            return ours / peer
        }

        /// Autograph's time per signature over pyHanko's, with `tasks` tasks.
        func throughputRatio(_ tasks: Int, rounds: Int) -> Double? {
            guard let ours = ours.passMedian(tasks, rounds: rounds),
                let peer = peer.passMedian(tasks, rounds: rounds), peer > 0
            else { return nil }
            return ours / peer
        }
    }

    struct Result {
        var runs: Int
        var rounds: Int
        var signatures: Int
        var document: CorpusFile?
        /// The server's base URL and request log.
        var server = ""
        var log = ""
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

    /// The outputs of the step (the last run's signed files of each tool and key, the server's log).
    var directory: String { environment.buildPath("bench-csc") }

    func run(autograph: String?) throws(BenchError) -> Result {
        var result = Result(runs: runs, rounds: rounds, signatures: signatures, outputs: directory)
        if let problem = CSCDummyServer.problem(environment) {
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
        Progress.note("csc: certomancer's root (certomancer mass-summon), then the CSC server")
        let root: String
        var server: CSCDummyServer
        do {
            root = try CSCDummyServer.root(environment, directory: directory)
            server = try CSCDummyServer.start(environment, directory: directory)
        } catch {
            result.failure = "\(error)"
            return result
        }
        defer { server.stop() }
        (result.server, result.log) = (server.baseURL, server.log)
        CorpusFile.warm([document])

        for key in Self.keys {
            var keyResult = KeyResult(
                key: key, ours: Side(name: "autograph sign --csc"), peer: Side(name: "pyhanko_csc_sign.py"))
            let oursOutput = "\(directory)/\(key.label)-autograph.pdf"
            let peerOutput = "\(directory)/\(key.label)-pyhanko.pdf"
            if let autograph {
                let ours = [
                    autograph, "sign", document.path, "-o", oursOutput, "--csc", server.baseURL, "--credential",
                    key.credential, "--field", "Sig", "--invisible",
                ]
                let peer = [
                    environment.python, environment.rootDirectory + "/Tests/Scripts/pyhanko_csc_sign.py",
                    server.baseURL, key.credential, document.path, peerOutput, "Sig",
                ]
                // Untimed: the binaries and Python's modules in the page cache, and each tool shown to work.
                try measure(ours, output: oursOutput, server: server, side: &keyResult.ours, timed: false)
                try measure(peer, output: peerOutput, server: server, side: &keyResult.peer, timed: false)
                for run in 0..<runs {
                    Progress.update("  csc \(key.name), processes: run \(run + 1)/\(runs)")
                    if keyResult.ours.processFailure == nil {
                        try measure(ours, output: oursOutput, server: server, side: &keyResult.ours, timed: true)
                    }
                    if keyResult.peer.processFailure == nil {
                        try measure(peer, output: peerOutput, server: server, side: &keyResult.peer, timed: true)
                    }
                }
                Progress.finish(
                    "  csc \(key.name), processes: "
                        + [keyResult.ours, keyResult.peer].map { side in
                            "\(side.name) \(side.processMedian.map(Format.milliseconds) ?? "failed")"
                        }.joined(separator: ", "))
            }

            let oursSample = "\(directory)/\(key.label)-autograph-in-process.pdf"
            let peerSample = "\(directory)/\(key.label)-pyhanko-in-process.pdf"
            let tasks = Self.taskCounts.map(String.init).joined(separator: ",")
            Progress.update("  csc \(key.name), throughput: Autograph in process")
            try throughput(
                [
                    environment.executable, "--csc-worker", server.baseURL, key.credential, document.path, oursSample,
                    String(signatures), tasks, String(rounds), server.log,
                ], sample: oursSample, side: &keyResult.ours)
            Progress.update("  csc \(key.name), throughput: pyHanko in process")
            try throughput(
                [
                    environment.python, "\(environment.packageDirectory)/scripts/pyhanko_csc.py", server.baseURL,
                    key.credential, document.path, String(signatures), tasks, String(rounds), peerSample, server.log,
                ], sample: peerSample, side: &keyResult.peer)
            Progress.finish(
                "  csc \(key.name), throughput: "
                    + Self.taskCounts.map { count in
                        "\(count) task\(count == 1 ? "" : "s") "
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
            keyResult.checks = try PKCS11Bench.check(
                outputs, root: root, autograph: autograph, extra: ["--revocation", "off"], environment: environment)
            result.keys.append(keyResult)
        }
        return result
    }

    /// One process of `arguments`, which writes `output`; timed runs go to `side`'s figures with the requests
    /// the server logged meanwhile, a failure (the first) to its `processFailure`, which ends its runs.
    private func measure(
        _ arguments: [String], output: String, server: CSCDummyServer, side: inout Side, timed: Bool
    ) throws(BenchError) {
        unlink(output)
        let offset = server.logOffset
        let run = try environment.launcher.run(arguments, stdout: .capture, stderr: .capture, timeout: 300)
        let requests = server.requests(since: offset)
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
            side.processRequests.append(requests)
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
            case "T" where fields.count >= 6:
                if let tasks = Int(fields[1]), let seconds = Double(fields[4]), let requests = Int(fields[5]) {
                    side.passes[tasks, default: []].append(seconds)
                    side.passRequests[tasks, default: []].append(requests)
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
}
