import Glibc

/// What the `pkcs11` and `csc` steps share: both sign the generated 1-page document with a key held
/// elsewhere (a token, a signing service), Autograph beside pyHanko, for each key:
///
/// 1. a process per signature, ours then the peer's, once untimed, then `runs` times each; wall time from
///    fork to reaping, the median (and, with a request log, the requests the server logged while each ran);
/// 2. throughput in one process: a worker of each side, `signatures` signatures per pass, `rounds` passes
///    with each of ``counts`` threads or tasks; signatures per second of the median pass (and, with a
///    request log, the requests per signature the worker counted);
/// 3. untimed, `autograph verify --trust ROOT` and `pyhanko sign validate --trust ROOT --trust-replace
///    --no-revocation-check` on each tool's last file of each part (``check(_:root:autograph:extra:environment:)``).
///
/// The step's own code (``PKCS11Bench``, ``CSCBench``) sets up the token or the server and gives the command
/// lines; this measures them. ``Kind`` is what tells the two steps apart in the report.
struct RemoteSignerStep {
    /// The threads or tasks of the throughput passes.
    static let counts = [1, 8]

    /// What tells the steps apart: their names, wording and targets.
    struct Kind {
        /// "pkcs11", "csc": the first word of the progress lines and of the rows; the outputs go to
        /// `Benchmarks/.build/bench-STEP`.
        var step: String
        /// What the step's first progress line says it runs: the two tools, on what.
        var plan: String
        /// "keys", "credentials".
        var keyNoun: String
        /// The first words of the details: what signs, through what.
        var title: String
        /// What each signature is, in the details' first line.
        var signature: String
        /// "thread", "task": what the throughput passes run in.
        var unit: String
        /// "one token", "one server": what the in-process signers share.
        var place: String
        /// The names of the two processes per signature, and the width they are padded to in the details.
        var ours: String
        var peer: String
        var nameWidth: Int
        /// Whether the step counts the requests of a server (a request log).
        var countsRequests: Bool
        /// What `autograph verify` is given besides the root.
        var verifyExtra: [String] = []
        var processTarget: Double
        var throughputTarget: Double
        /// The keys, in order.
        var keys: [Key]

        /// "1 thread", "8 tasks".
        func counted(_ count: Int) -> String { "\(count) \(unit)\(count == 1 ? "" : "s")" }
    }

    /// One key (or credential) the step signs with.
    struct Key {
        /// "RSA-2048", "P-256".
        var name: String
        /// The stem of the output files.
        var label: String
        /// What the tools name it by: the token's key label, the service's credential.
        var handle: String
        /// What the details say it is: "key and certificate 'rsa2048', id 01", "credential 'autograph/signer'".
        var about: String
    }

    struct Result {
        var kind: Kind
        var runs: Int
        var rounds: Int
        var signatures: Int
        var document: CorpusFile?
        /// What the step signed through, for the details: the token, or the server and its log.
        var setup = ""
        var keys: [KeyResult] = []
        /// Where the outputs stay.
        var outputs = ""
        /// Why nothing was measured, or nil.
        var failure: String?
        /// Why the process part was not measured (no release CLI), or nil.
        var processProblem: String?
    }

    /// The files one key's runs write: the processes' outputs and the workers' last signed documents.
    struct Files {
        var ours: String
        var peer: String
        var oursSample: String
        var peerSample: String
    }

    var kind: Kind
    var environment: BenchEnvironment
    var runs: Int
    var rounds: Int
    var signatures: Int
    /// The server's request log, whose lines are the requests it received; nil when there is none.
    var requestLog: String?

    /// Where the outputs go (the last run's signed files of each tool and key, a server's log).
    var directory: String { environment.buildPath("bench-\(kind.step)") }

    /// The start of the step: its plan noted, then `problem` (why the step cannot run) its failure, or the
    /// document (made when missing) and ``directory`` made; without a release CLI (`autograph` nil), no
    /// processes.
    func begin(problem: String?, autograph: String?) throws(BenchError) -> Result {
        Progress.note(
            "\(kind.step): \(kind.plan), \(kind.keys.count) \(kind.keyNoun) × \(runs) runs, then "
                + "\(signatures) signatures × \(rounds) passes in process, 1 and 8 \(kind.unit)s")
        var result = Result(kind: kind, runs: runs, rounds: rounds, signatures: signatures, outputs: directory)
        if let problem {
            result.failure = problem
            return result
        }
        if autograph == nil {
            result.processProblem =
                "no release autograph binary (swift build -c release --package-path Benchmarks)"
        }
        result.document = try SignSetup.sample(environment)
        mkdir(directory, 0o755)
        return result
    }

    /// The files of `key`, in ``directory``.
    func files(_ key: Key) -> Files {
        let stem = "\(directory)/\(key.label)"
        return Files(
            ours: "\(stem)-autograph.pdf", peer: "\(stem)-pyhanko.pdf", oursSample: "\(stem)-autograph-in-process.pdf",
            peerSample: "\(stem)-pyhanko-in-process.pdf")
    }

    /// "1,8": the counts as the workers take them.
    var countList: String { Self.counts.map(String.init).joined(separator: ",") }

    /// Measures `key`: the processes per signature (`processes`, writing ``files(_:)``'s `ours` and `peer`;
    /// nil without a release CLI), the throughput workers (`workers`, writing the samples), then the checks of
    /// what they wrote, trusting `root`.
    func measure(
        _ key: Key, processes: (ours: [String], peer: [String])?, workers: (ours: [String], peer: [String]),
        root: String, autograph: String?
    ) throws(BenchError) -> KeyResult {
        var result = KeyResult(key: key, ours: Side(name: kind.ours), peer: Side(name: kind.peer))
        let files = files(key)
        let progress = "  \(kind.step) \(key.name)"
        if let processes {
            // Untimed: the binaries and Python's modules in the page cache, and each tool shown to work.
            try measure(processes.ours, output: files.ours, side: &result.ours, timed: false)
            try measure(processes.peer, output: files.peer, side: &result.peer, timed: false)
            for run in 0..<runs {
                Progress.update("\(progress), processes: run \(run + 1)/\(runs)")
                if result.ours.processFailure == nil {
                    try measure(processes.ours, output: files.ours, side: &result.ours, timed: true)
                }
                if result.peer.processFailure == nil {
                    try measure(processes.peer, output: files.peer, side: &result.peer, timed: true)
                }
            }
            Progress.finish(
                "\(progress), processes: "
                    + [result.ours, result.peer].map { side in
                        "\(side.name) \(side.processMedian.map(Format.milliseconds) ?? "failed")"
                    }.joined(separator: ", "))
        }

        Progress.update("\(progress), throughput: Autograph in process")
        try throughput(workers.ours, sample: files.oursSample, side: &result.ours)
        Progress.update("\(progress), throughput: pyHanko in process")
        try throughput(workers.peer, sample: files.peerSample, side: &result.peer)
        Progress.finish(
            "\(progress), throughput: "
                + Self.counts.map { count in
                    kind.counted(count) + " "
                        + [result.ours, result.peer].map { side in
                            side.passMedian(count, rounds: rounds).map {
                                Format.fixed(Double(signatures) / $0, 1) + "/s"
                            } ?? "failed"
                        }.joined(separator: " / ")
                }.joined(separator: ", "))

        var outputs: [String] = []
        if processes != nil {
            if result.ours.processFailure == nil { outputs.append(files.ours) }
            if result.peer.processFailure == nil { outputs.append(files.peer) }
        }
        if result.ours.throughputFailure == nil { outputs.append(files.oursSample) }
        if result.peer.throughputFailure == nil { outputs.append(files.peerSample) }
        result.checks = try Self.check(
            outputs, root: root, autograph: autograph, extra: kind.verifyExtra, environment: environment)
        return result
    }

    /// One process of `arguments`, which writes `output`; timed runs go to `side`'s figures (with the requests
    /// the server logged meanwhile), a failure (the first) to its `processFailure`, which ends its runs.
    private func measure(_ arguments: [String], output: String, side: inout Side, timed: Bool) throws(BenchError) {
        unlink(output)
        let offset = requestLog.map { fileSize($0) } ?? 0
        let run = try environment.launcher.run(arguments, stdout: .capture, stderr: .capture, timeout: 300)
        let requests = requestLog.map { CSCDummyServer.lines($0, since: offset) }
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
            if let requests { side.processRequests.append(requests) }
        }
    }

    /// Runs a throughput worker and reads its passes (`T \t COUNT \t ROUND \t SIGNATURES \t SECONDS`, and
    /// `\t REQUESTS` when the step counts them) into `side`.
    private func throughput(_ arguments: [String], sample: String, side: inout Side) throws(BenchError) {
        unlink(sample)
        let run = try environment.launcher.run(arguments, stdout: .capture, stderr: .capture, timeout: 3600)
        var failure: String?
        let passFields = kind.countsRequests ? 6 : 5
        for line in run.outputText.split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            switch fields.first {
            case "V" where fields.count >= 2: side.workerDescription = fields[1]
            case "T" where fields.count >= passFields:
                let requests = kind.countsRequests ? Int(fields[5]) : nil
                if let count = Int(fields[1]), let seconds = Double(fields[4]), requests != nil || !kind.countsRequests
                {
                    side.passes[count, default: []].append(seconds)
                    if let requests { side.passRequests[count, default: []].append(requests) }
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
