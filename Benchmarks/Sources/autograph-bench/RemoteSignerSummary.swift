/// The figures of the `pkcs11` and `csc` steps, the checks of their outputs, their details and their rows in
/// the final table.
extension RemoteSignerStep {
    /// One tool's figures for one key.
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
        /// Threads or tasks → the seconds of each pass, and the requests the server logged during each.
        var passes: [Int: [Double]] = [:]
        var passRequests: [Int: [Int]] = [:]
        var throughputFailure: String?

        var processMedian: Double? {
            processFailure == nil ? median(processSeconds) : nil
        }

        /// The median pass with `count` threads or tasks, when every round completed.
        func passMedian(_ count: Int, rounds: Int) -> Double? {
            guard throughputFailure == nil, let seconds = passes[count], seconds.count == rounds else { return nil }
            return median(seconds)
        }

        /// The requests per signature with `count` tasks, over every pass of `signatures` signatures.
        func requestsPerSignature(_ count: Int, signatures: Int) -> Double? {
            guard throughputFailure == nil, let counts = passRequests[count], !counts.isEmpty else { return nil }
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

        /// Autograph's time per signature over pyHanko's, with `count` threads or tasks.
        func throughputRatio(_ count: Int, rounds: Int) -> Double? {
            guard let ours = ours.passMedian(count, rounds: rounds),
                let peer = peer.passMedian(count, rounds: rounds), peer > 0
            else { return nil }
            return ours / peer
        }
    }

    /// `autograph verify` and `pyhanko sign validate` on each of `paths`, trusting `root` only (and
    /// `extra` arguments for `autograph verify`).
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

extension Summary {
    /// The rows of the `pkcs11` or `csc` step (`kind`): per key, the process ratio, then the throughput ratio
    /// with each count (and the requests, when the step counts them).
    mutating func add(remoteSigner result: RemoteSignerStep.Result?, kind: RemoteSignerStep.Kind) {
        let keys = result?.keys ?? []
        let rounds = result?.rounds ?? 0
        let signatures = result?.signatures ?? 0
        for key in keys.isEmpty ? kind.keys : keys.map(\.key) {
            let measured = keys.first { $0.key.label == key.label }
            let process = measured?.processRatio
            rows.append(
                Row(
                    label: "\(kind.step) sign process, \(key.name) (pyHanko)",
                    ours: measured?.ours.processMedian.map(Format.milliseconds) ?? "n/a",
                    peer: measured?.peer.processMedian.map { "pyHanko " + Format.milliseconds($0) } ?? "n/a",
                    ratio: process.map { Format.ratio($0, against: kind.processTarget) } ?? "n/a",
                    target: "≤ " + Format.ratio(kind.processTarget), met: process.map { $0 <= kind.processTarget }))
            if kind.countsRequests {
                rows.append(
                    Row(
                        label: "  requests per process", ours: measured?.ours.processRequestCounts ?? "n/a",
                        peer: measured?.peer.processRequestCounts.map { "pyHanko " + $0 } ?? "n/a", target: "none",
                        met: nil, reportOnly: true))
            }
            for count in RemoteSignerStep.counts {
                let ratio = measured?.throughputRatio(count, rounds: rounds)
                rows.append(
                    Row(
                        label: "\(kind.step) sigs/s in process, \(kind.counted(count)), \(key.name)",
                        ours: measured?.ours.passMedian(count, rounds: rounds).map {
                            Format.fixed(Double(signatures) / $0, 1) + "/s"
                        } ?? "n/a",
                        peer: measured?.peer.passMedian(count, rounds: rounds).map {
                            "pyHanko " + Format.fixed(Double(signatures) / $0, 1) + "/s"
                        } ?? "n/a",
                        ratio: ratio.map { Format.ratio($0, against: kind.throughputTarget) } ?? "n/a",
                        target: "≤ " + Format.ratio(kind.throughputTarget) + " (time/sig)",
                        met: ratio.map { $0 <= kind.throughputTarget }))
                guard kind.countsRequests else { continue }
                rows.append(
                    Row(
                        label: "  requests per signature, \(kind.counted(count))",
                        ours: measured?.ours.requestsPerSignature(count, signatures: signatures).map {
                            Format.fixed($0, 2)
                        } ?? "n/a",
                        peer: measured?.peer.requestsPerSignature(count, signatures: signatures).map {
                            "pyHanko " + Format.fixed($0, 2)
                        } ?? "n/a", target: "none", met: nil, reportOnly: true))
            }
        }
        if let failure = result?.failure { notices.append("\(kind.step) not measured: \(failure)") }
        if let problem = result?.processProblem { notices.append("\(kind.step), processes not measured: \(problem)") }
    }
}

extension RemoteSignerStep.Result {
    func details() -> [String] {
        var lines = [
            "\(kind.title) (\(kind.signature)): a process per signature (median of \(runs) runs after an untimed "
                + "one), then signatures per second in one process (\(signatures) per pass, median of \(rounds) "
                + "passes, 1 and 8 \(kind.unit)s)"
        ]
        if let failure {
            lines.append("  not measured: \(failure)")
            return lines
        }
        lines.append(
            "  \(setup); document: "
                + (document.map { "\($0.name), \(Format.fixed(Double($0.size) / 1000, 1)) kB" } ?? "n/a"))
        lines.append("  outputs: \(outputs)")
        for key in keys {
            lines.append("  \(key.key.name) (\(key.key.about)):")
            if let processProblem {
                lines.append("    processes not measured: \(processProblem)")
            } else {
                lines += processLines(key)
            }
            lines.append("    in process, \(kind.place):")
            for side in [key.ours, key.peer] {
                lines.append("      \(side.workerDescription ?? side.name)")
                if let failure = side.throughputFailure { lines.append("        failed: \(failure)") }
            }
            lines += throughputLines(key)
            for check in key.checks { lines.append("    outputs checked, \(check)") }
        }
        return lines
    }

    /// The ratio of the processes per signature, then each side's runs.
    private func processLines(_ key: RemoteSignerStep.KeyResult) -> [String] {
        let ratio = key.processRatio
        var lines = [
            "    process per signature: ratio \(ratio.map { Format.ratio($0, against: kind.processTarget) } ?? "n/a"), "
                + Self.verdict(ratio, target: kind.processTarget)
        ]
        for side in [key.ours, key.peer] {
            var line = "      \(Format.padRight(side.name, kind.nameWidth))"
            if let median = side.processMedian {
                line +=
                    " median \(Format.padLeft(Format.milliseconds(median), 8)); runs "
                    + side.processSeconds.map(Format.milliseconds).joined(separator: ", ")
                    + "; peak RSS \(side.processPeakKiB.max().map { Format.megabytes(kib: $0) } ?? "n/a")"
                    + (kind.countsRequests ? "; requests \(side.processRequestCounts ?? "n/a")" : "")
            } else {
                line += " not measured: \(side.processFailure ?? "no run")"
            }
            lines.append(line)
        }
        return lines
    }

    /// Each count's rates, requests and ratio, then each side's speed-up from 1 to 8.
    private func throughputLines(_ key: RemoteSignerStep.KeyResult) -> [String] {
        var lines: [String] = []
        for count in RemoteSignerStep.counts {
            let ratio = key.throughputRatio(count, rounds: rounds)
            var line = "      \(count) \(kind.unit)\(count == 1 ? ": " : "s:")"
            for (name, side) in [("Autograph", key.ours), ("pyHanko", key.peer)] {
                guard let median = side.passMedian(count, rounds: rounds) else {
                    line += " \(name) n/a;"
                    continue
                }
                let requests = side.requestsPerSignature(count, signatures: signatures)
                line +=
                    " \(name) \(Format.fixed(Double(signatures) / median, 1)) sigs/s"
                    + " (\(Format.milliseconds(median / Double(signatures))) per signature"
                    + (kind.countsRequests
                        ? ", \(requests.map { Format.fixed($0, 2) } ?? "n/a") requests per signature" : "")
                    + "; passes " + (side.passes[count] ?? []).map(Format.seconds).joined(separator: ", ") + ");"
            }
            line +=
                " ratio of time per signature "
                + "\(ratio.map { Format.ratio($0, against: kind.throughputTarget) } ?? "n/a"), "
                + Self.verdict(ratio, target: kind.throughputTarget)
            lines.append(line)
        }
        for (name, side) in [("Autograph", key.ours), ("pyHanko", key.peer)] {
            let speedUp = side.passMedian(1, rounds: rounds).flatMap { one in
                side.passMedian(8, rounds: rounds).map { one / $0 }
            }
            if let speedUp {
                lines.append("      \(name): 8 \(kind.unit)s sign at \(Format.fixed(speedUp, 2))× the rate of 1")
            }
        }
        return lines
    }

    /// "target ≤ 0.20: met", or "MISSED (0.31 > 0.20)", or "not measured".
    static func verdict(_ ratio: Double?, target: Double) -> String {
        guard let ratio else { return "target ≤ \(Format.ratio(target)): not measured" }
        return "target ≤ \(Format.ratio(target)): "
            + (ratio <= target
                ? "met" : "MISSED (\(Format.ratio(ratio, against: target)) > \(Format.ratio(target)))")
    }
}
