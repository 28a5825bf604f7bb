/// Step 1: every corpus file opened, every object resolved and every stream decoded, in one process
/// per side (Autograph: this program re-executed as a worker; pikepdf: one Python process), each side
/// running every round itself. Only the work is timed, by the workers.
struct CorpusBench {
    /// What one side's worker reported.
    struct Side {
        var name: String
        var description = ""
        /// Set when the side could not be measured at all.
        var unavailable: String? = nil
        /// Seconds per round, by file index.
        var seconds: [Int: [Double]] = [:]
        /// The work done in the first round, by file index.
        var work: [Int: CorpusWorker.Work] = [:]
        /// Why a file did not open, by file index.
        var failures: [Int: String] = [:]
        /// Files during which the worker died (they are left out of its next attempt).
        var crashes: [Int: String] = [:]

        func isOK(_ index: Int, rounds: Int) -> Bool {
            failures[index] == nil && crashes[index] == nil && (seconds[index]?.count ?? 0) == rounds
        }

        func reason(_ index: Int) -> String? {
            if let crash = crashes[index] { return "crashed: " + crash }
            if let failure = failures[index] { return failure }
            return nil
        }
    }

    struct Result {
        var files: [CorpusFile]
        var rounds: Int
        var ours: Side
        var peer: Side
        /// Indices of the files measured: opened by both sides (by ours alone when the peer is unavailable).
        var measured: [Int]
        /// The median over rounds of the total seconds over `measured`.
        var oursTotal: Double?
        var peerTotal: Double?
        var workload: Workload

        var skipped: [Int] { files.indices.filter { !Set(measured).contains($0) } }
        var ratio: Double? {
            guard let oursTotal, let peerTotal, peerTotal > 0 else { return nil }
            return oursTotal / peerTotal
        }

        /// The median seconds of file `index` on `side`.
        func fileSeconds(_ side: Side, _ index: Int) -> Double { median(side.seconds[index] ?? []) ?? 0 }
    }

    /// What both sides do to each file, and who the peer is.
    struct Workload {
        enum Kind {
            case corpus
            case forms
            case sign
        }

        var title: String
        /// The step's name in progress lines.
        var label: String
        var ourArguments: [String]
        var peerName: String
        var peerModule: String
        var peerScript: String
        var kind: Kind
        /// Given to both workers after the task list and the rounds.
        var extraArguments: [String] = []

        static func corpus(_ environment: BenchEnvironment) -> Workload {
            Workload(
                title: "Corpus: open + resolve every object + decode every stream, in process", label: "corpus",
                ourArguments: ["--corpus-worker"], peerName: "pikepdf", peerModule: "pikepdf",
                peerScript: environment.pikepdfScript, kind: .corpus)
        }

        static func forms(_ environment: BenchEnvironment) -> Workload {
            Workload(
                title: "Forms: fill every text field of every corpus form and save, in process", label: "forms",
                ourArguments: ["--forms-worker"], peerName: "pypdf", peerModule: "pypdf",
                peerScript: environment.pypdfFormsScript, kind: .forms)
        }
    }

    var environment: BenchEnvironment
    var rounds: Int
    var workload: Workload

    init(environment: BenchEnvironment, rounds: Int, workload: Workload? = nil) {
        self.environment = environment
        self.rounds = rounds
        self.workload = workload ?? .corpus(environment)
    }

    func run(_ files: [CorpusFile]) throws(BenchError) -> Result {
        Progress.note("\(workload.label): reading \(files.count) files once to warm the page cache")
        CorpusFile.warm(files)
        let tasks = files.enumerated().map {
            CorpusProtocol.Task(index: $0.offset, path: $0.element.path, password: $0.element.password)
        }
        let listPath = "\(environment.packageDirectory)/.build/bench-corpus-tasks.tsv"

        Progress.note("\(workload.label): Autograph, \(rounds) rounds in one process")
        let ours = try runSide(
            "Autograph", command: [environment.executable] + workload.ourArguments, tasks: tasks, listPath: listPath)
        var peer: Side
        let peerName = workload.peerName
        if !Launcher.isAvailable(environment.python) {
            peer = Side(name: peerName, unavailable: "\(environment.python) not found (scripts/install-deps bench)")
        } else if try !environment.launcher.run(
            [environment.python, "-c", "import \(workload.peerModule)"], timeout: 120
        )
        .succeeded {
            peer = Side(
                name: peerName,
                unavailable: "\(environment.python) cannot import \(workload.peerModule) (scripts/install-deps bench)")
        } else {
            Progress.note("\(peerName): \(rounds) rounds in one Python process")
            peer = try runSide(
                peerName, command: [environment.python, workload.peerScript], tasks: tasks, listPath: listPath)
        }

        let measured = files.indices.filter { index in
            ours.isOK(index, rounds: rounds) && (peer.unavailable != nil || peer.isOK(index, rounds: rounds))
        }
        func total(_ side: Side) -> Double? {
            guard side.unavailable == nil, !measured.isEmpty else { return nil }
            return median((0..<rounds).map { round in measured.reduce(0) { $0 + side.seconds[$1]![round] } })
        }
        return Result(
            files: files, rounds: rounds, ours: ours, peer: peer, measured: measured, oursTotal: total(ours),
            peerTotal: total(peer), workload: workload)
    }

    /// Runs one side's worker; when it dies, runs it again without the file it died on.
    private func runSide(
        _ name: String, command: [String], tasks: [CorpusProtocol.Task], listPath: String
    ) throws(BenchError) -> Side {
        var crashes: [Int: String] = [:]
        for _ in 0..<10 {
            try CorpusProtocol.writeTasks(tasks.filter { crashes[$0.index] == nil }, to: listPath)
            let run = try environment.launcher.run(
                command + [listPath, String(rounds)] + workload.extraArguments, stdout: .capture, stderr: .inherit,
                timeout: 3600)
            var side = Side(name: name)
            side.crashes = crashes
            var started: Int? = nil
            var sawStart = false
            for line in run.outputText.split(separator: "\n") {
                let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
                switch columns.first {
                case "V"?:
                    side.description = columns.dropFirst().joined(separator: " ")
                case "S"? where columns.count >= 3:
                    started = Int(columns[2])
                    sawStart = true
                case "R"? where columns.count >= 8:
                    guard let round = Int(columns[1]), let index = Int(columns[2]), let seconds = Double(columns[3])
                    else {
                        continue
                    }
                    side.seconds[index, default: []].append(seconds)
                    if round == 0 {
                        side.work[index] = CorpusWorker.Work(
                            objects: Int(columns[4]) ?? 0, streams: Int(columns[5]) ?? 0,
                            decodedBytes: Int(columns[6]) ?? 0, decodeErrors: Int(columns[7]) ?? 0)
                    }
                    started = nil
                case "F"? where columns.count >= 5:
                    if let index = Int(columns[2]) { side.failures[index] = columns[4...].joined(separator: " ") }
                    started = nil
                default:
                    continue
                }
            }
            Progress.finish(
                "  \(name): done in \(Format.seconds(run.seconds)) (worker wall time, peak RSS \(Format.megabytes(kib: run.peakRSSKiB)))"
            )
            if run.succeeded { return side }
            let how =
                run.timedOut
                ? "timed out" : run.exitCode < 0 ? "killed by signal \(-run.exitCode)" : "exit code \(run.exitCode)"
            guard let culprit = started else {
                if !sawStart {
                    side.unavailable = "the \(name) worker failed before its first file (\(how))"
                } else {
                    Progress.note(
                        "\(workload.label): the \(name) worker ended with \(how) after its last file; results kept")
                }
                return side
            }
            crashes[culprit] = how
            Progress.note(
                "\(workload.label): the \(name) worker died (\(how)) on \(tasks[culprit].path); running it again without that file"
            )
        }
        var side = Side(name: name)
        side.unavailable = "the \(name) worker kept dying (\(crashes.count) files)"
        return side
    }
}

extension CorpusBench.Result {
    /// The details printed before the summary: work done by each side, skipped files, dominating files.
    func details(verbose: Bool) -> [String] {
        var lines = ["\(workload.title) (\(rounds) rounds, median)"]
        for side in [ours, peer] {
            guard side.unavailable == nil else {
                lines.append("  \(side.name): not measured: \(side.unavailable!)")
                continue
            }
            let work = measured.compactMap { side.work[$0] }.reduce(into: CorpusWorker.Work()) { sum, item in
                sum.objects += item.objects
                sum.streams += item.streams
                sum.decodedBytes += item.decodedBytes
                sum.decodeErrors += item.decodeErrors
            }
            let total = side.name == ours.name ? oursTotal : peerTotal
            let workText =
                switch workload.kind {
                case .forms: "\(work.objects) text fields filled, \(Format.megabytes(bytes: work.decodedBytes)) written"
                case .sign: "\(work.objects) documents signed, \(Format.megabytes(bytes: work.decodedBytes)) written"
                case .corpus:
                    "\(work.objects) objects, \(work.streams) streams, \(Format.megabytes(bytes: work.decodedBytes)) decoded, "
                        + "\(work.decodeErrors) stream errors"
                }
            lines.append(
                "  \(Format.padRight(side.description, 52)) \(Format.padLeft(total.map(Format.seconds) ?? "n/a", 10))  "
                    + workText)
        }
        lines.append("  measured: \(measured.count) of \(files.count) files; skipped: \(skipped.count)")
        for index in skipped {
            var reasons: [String] = []
            if let reason = ours.reason(index) { reasons.append("Autograph: " + clip(reason)) }
            if peer.unavailable == nil, let reason = peer.reason(index) {
                reasons.append("\(peer.name): " + clip(reason))
            }
            lines.append("    - \(files[index].name): \(reasons.joined(separator: "; "))")
        }
        for (side, total) in [(ours, oursTotal), (peer, peerTotal)] {
            guard let total, total > 0 else { continue }
            for index in measured where fileSeconds(side, index) > 0.25 * total {
                let share = Format.fixed(100 * fileSeconds(side, index) / total, 0)
                lines.append(
                    "  note: \(files[index].name) is \(share) % of \(side.name)'s time (\(Format.seconds(fileSeconds(side, index))));"
                        + " --verbose lists the slowest files")
            }
        }
        if verbose {
            for side in [ours, peer] where side.unavailable == nil {
                lines.append("  slowest files, \(side.name) (median seconds; the other side beside it):")
                let other = side.name == ours.name ? peer : ours
                let slowest = measured.sorted { fileSeconds(side, $0) > fileSeconds(side, $1) }.prefix(10)
                for index in slowest {
                    let otherText = other.unavailable == nil ? Format.seconds(fileSeconds(other, index)) : "n/a"
                    lines.append(
                        "    \(Format.padLeft(Format.seconds(fileSeconds(side, index)), 10))  \(other.name) "
                            + "\(Format.padLeft(otherText, 9))  \(Format.padLeft(Format.megabytes(bytes: files[index].size), 8))  "
                            + files[index].name)
                }
            }
        }
        return lines
    }

    private func clip(_ text: String) -> String {
        text.count > 110 ? String(text.prefix(107)) + "..." : text
    }
}
