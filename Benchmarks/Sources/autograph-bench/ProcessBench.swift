/// Step 2: one process per file and per tool, `autograph info FILE` beside `qpdf --check FILE`, every
/// corpus file once per round; wall time from fork to reaping, summed over the files.
struct ProcessBench {
    struct Tool {
        var name: String
        /// Per file: seconds per round.
        var seconds: [[Double]]
        /// How many runs ended with each exit code (negative: killed by that signal).
        var exitCodes: [Int32: Int] = [:]
        var timeouts = 0
        /// Files on which the tool was killed by a signal or timed out, with how.
        var abnormal: [Int: String] = [:]

        var roundTotals: [Double] {
            guard let rounds = seconds.first?.count else { return [] }
            return (0..<rounds).map { round in seconds.reduce(0) { $0 + $1[round] } }
        }
        var total: Double? { median(roundTotals) }
        func fileSeconds(_ index: Int) -> Double { median(seconds[index]) ?? 0 }
    }

    struct Result {
        var files: [CorpusFile]
        var rounds: Int
        var ours: Tool
        /// nil when qpdf is not installed.
        var peer: Tool?
        var notice: String?

        var ratio: Double? {
            guard let ours = ours.total, let peer = peer?.total, peer > 0 else { return nil }
            return ours / peer
        }
    }

    var environment: BenchEnvironment
    var rounds: Int

    func run(_ files: [CorpusFile], autograph: String) throws(BenchError) -> Result {
        let haveQPDF = Launcher.isAvailable(environment.qpdf)
        var ours = Tool(name: "autograph info", seconds: Array(repeating: [], count: files.count))
        var peer = Tool(name: "qpdf --check", seconds: Array(repeating: [], count: files.count))
        let launcher = environment.launcher
        func measure(_ tool: inout Tool, _ arguments: [String], file: Int) throws(BenchError) {
            let run = try launcher.run(arguments, timeout: 60)
            tool.seconds[file].append(run.seconds)
            tool.exitCodes[run.exitCode, default: 0] += 1
            if run.timedOut { tool.timeouts += 1 }
            if run.timedOut {
                tool.abnormal[file] = "timed out"
            } else if run.exitCode < 0 {
                tool.abnormal[file] = "signal \(-run.exitCode)"
            }
        }
        for round in 0..<rounds {
            for (index, file) in files.enumerated() {
                try measure(&ours, [autograph, "info"] + file.passwordArguments + [file.path], file: index)
                if haveQPDF {
                    try measure(
                        &peer, [environment.qpdf] + file.passwordArguments + ["--check", file.path], file: index)
                }
                if index % 10 == 9 || index == files.count - 1 {
                    Progress.update("  round \(round + 1)/\(rounds): \(index + 1)/\(files.count) files")
                }
            }
            let totals = [ours, peer].compactMap { tool in
                tool.roundTotals.last.map { "\(tool.name) \(Format.seconds($0))" }
            }
            Progress.finish("  round \(round + 1)/\(rounds): " + totals.joined(separator: ", "))
        }
        return Result(
            files: files, rounds: rounds, ours: ours, peer: haveQPDF ? peer : nil,
            notice: haveQPDF ? nil : "\(environment.qpdf) not found (scripts/install-deps bench)")
    }
}

extension ProcessBench.Result {
    func details(verbose: Bool) -> [String] {
        var lines = [
            "Processes: one per file and tool, every corpus file (\(files.count)) once per round (\(rounds) rounds, median)"
        ]
        for tool in [ours] + (peer.map { [$0] } ?? []) {
            let codes = tool.exitCodes.sorted { $0.key < $1.key }.map { "\($0.value) × exit \($0.key)" }
            let perRound = tool.roundTotals.map { Format.fixed($0, 3) }.joined(separator: ", ")
            lines.append(
                "  \(Format.padRight(tool.name, 16)) \(Format.padLeft(tool.total.map(Format.seconds) ?? "n/a", 10))"
                    + "  rounds: \(perRound) s; \(codes.joined(separator: ", "))"
                    + (tool.timeouts > 0 ? "; \(tool.timeouts) timed out" : ""))
        }
        if let notice { lines.append("  qpdf: not measured: \(notice)") }
        if let peer {
            let ourFiles = files.indices.map { ours.fileSeconds($0) }
            let peerFiles = files.indices.map { peer.fileSeconds($0) }
            let faster = files.indices.filter { ourFiles[$0] < peerFiles[$0] }.count
            lines.append(
                "  per file (median of the files' medians): \(ours.name) \(Format.milliseconds(median(ourFiles) ?? 0)), "
                    + "\(peer.name) \(Format.milliseconds(median(peerFiles) ?? 0)); "
                    + "\(ours.name) is faster on \(faster) of \(files.count) files")
        }
        for tool in [ours] + (peer.map { [$0] } ?? []) where !tool.abnormal.isEmpty {
            let list = tool.abnormal.sorted { $0.key < $1.key }.map { "\(files[$0.key].name) (\($0.value))" }
            lines.append("  \(tool.name) did not finish normally on: " + list.joined(separator: ", "))
        }
        for tool in [ours] + (peer.map { [$0] } ?? []) {
            guard let total = tool.total, total > 0 else { continue }
            for index in files.indices where tool.fileSeconds(index) > 0.25 * total {
                let share = Format.fixed(100 * tool.fileSeconds(index) / total, 0)
                lines.append(
                    "  note: \(files[index].name) is \(share) % of \(tool.name)'s time; --verbose lists the slowest files"
                )
            }
        }
        if verbose {
            for tool in [ours] + (peer.map { [$0] } ?? []) {
                let other = tool.name == ours.name ? peer : ours
                lines.append("  slowest files, \(tool.name) (median seconds; the other tool beside it):")
                for index in files.indices.sorted(by: { tool.fileSeconds($0) > tool.fileSeconds($1) }).prefix(10) {
                    let otherText = other.map { Format.seconds($0.fileSeconds(index)) } ?? "n/a"
                    lines.append(
                        "    \(Format.padLeft(Format.seconds(tool.fileSeconds(index)), 10))  "
                            + "\(other?.name ?? "other") \(Format.padLeft(otherText, 9))  "
                            + "\(Format.padLeft(Format.megabytes(bytes: files[index].size), 8))  \(files[index].name)")
                }
            }
        }
        return lines
    }
}
