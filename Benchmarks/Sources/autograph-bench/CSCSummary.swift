/// The details of the `csc` step and its rows in the final table.
extension Summary {
    static let cscProcessTarget = 0.20
    static let cscThroughputTarget = 0.20

    mutating func add(csc result: CSCBench.Result?) {
        let keys = result?.keys ?? []
        let rounds = result?.rounds ?? 0
        let signatures = result?.signatures ?? 0
        for key in keys.isEmpty ? CSCBench.keys : keys.map(\.key) {
            let measured = keys.first { $0.key.label == key.label }
            let process = measured?.processRatio
            rows.append(
                Row(
                    label: "csc sign process, \(key.name) (pyHanko)",
                    ours: measured?.ours.processMedian.map(Format.milliseconds) ?? "n/a",
                    peer: measured?.peer.processMedian.map { "pyHanko " + Format.milliseconds($0) } ?? "n/a",
                    ratio: process.map { Format.ratio($0, against: Summary.cscProcessTarget) } ?? "n/a",
                    target: "≤ " + Format.ratio(Summary.cscProcessTarget),
                    met: process.map { $0 <= Summary.cscProcessTarget }))
            rows.append(
                Row(
                    label: "  requests per process", ours: measured?.ours.processRequestCounts ?? "n/a",
                    peer: measured?.peer.processRequestCounts.map { "pyHanko " + $0 } ?? "n/a", target: "none",
                    met: nil, reportOnly: true))
            for tasks in CSCBench.taskCounts {
                let ratio = measured?.throughputRatio(tasks, rounds: rounds)
                let noun = "\(tasks) task\(tasks == 1 ? "" : "s")"
                rows.append(
                    Row(
                        label: "csc sigs/s in process, \(noun), \(key.name)",
                        ours: measured?.ours.passMedian(tasks, rounds: rounds).map {
                            Format.fixed(Double(signatures) / $0, 1) + "/s"
                        } ?? "n/a",
                        peer: measured?.peer.passMedian(tasks, rounds: rounds).map {
                            "pyHanko " + Format.fixed(Double(signatures) / $0, 1) + "/s"
                        } ?? "n/a",
                        ratio: ratio.map { Format.ratio($0, against: Summary.cscThroughputTarget) } ?? "n/a",
                        target: "≤ " + Format.ratio(Summary.cscThroughputTarget) + " (time/sig)",
                        met: ratio.map { $0 <= Summary.cscThroughputTarget }))
                rows.append(
                    Row(
                        label: "  requests per signature, \(noun)",
                        ours: measured?.ours.requestsPerSignature(tasks, signatures: signatures).map {
                            Format.fixed($0, 2)
                        } ?? "n/a",
                        peer: measured?.peer.requestsPerSignature(tasks, signatures: signatures).map {
                            "pyHanko " + Format.fixed($0, 2)
                        } ?? "n/a", target: "none", met: nil, reportOnly: true))
            }
        }
        if let failure = result?.failure { notices.append("csc not measured: \(failure)") }
        if let problem = result?.processProblem { notices.append("csc, processes not measured: \(problem)") }
    }
}

extension CSCBench.Result {
    func details() -> [String] {
        var lines = [
            "CSC remote signing through one certomancer-csc-dummy server on loopback (SCAL 2; a new invisible "
                + "field, PAdES, SHA-256): a process per signature (median of \(runs) runs after an untimed one), "
                + "then signatures per second in one process (\(signatures) per pass, median of \(rounds) "
                + "passes, 1 and 8 tasks)"
        ]
        if let failure {
            lines.append("  not measured: \(failure)")
            return lines
        }
        lines.append(
            "  server: \(server), request log \(log); document: "
                + (document.map { "\($0.name), \(Format.fixed(Double($0.size) / 1000, 1)) kB" } ?? "n/a"))
        lines.append("  outputs: \(outputs)")
        for key in keys {
            lines.append("  \(key.key.name) (credential '\(key.key.credential)'):")
            if let processProblem {
                lines.append("    processes not measured: \(processProblem)")
            } else {
                let ratio = key.processRatio
                lines.append(
                    "    process per signature: ratio \(ratio.map { Format.ratio($0, against: Summary.cscProcessTarget) } ?? "n/a"), "
                        + PKCS11Bench.Result.verdict(ratio, target: Summary.cscProcessTarget))
                for side in [key.ours, key.peer] {
                    var line = "      \(Format.padRight(side.name, 22))"
                    if let median = side.processMedian {
                        line +=
                            " median \(Format.padLeft(Format.milliseconds(median), 8)); runs "
                            + side.processSeconds.map(Format.milliseconds).joined(separator: ", ")
                            + "; peak RSS \(side.processPeakKiB.max().map { Format.megabytes(kib: $0) } ?? "n/a")"
                            + "; requests \(side.processRequestCounts ?? "n/a")"
                    } else {
                        line += " not measured: \(side.processFailure ?? "no run")"
                    }
                    lines.append(line)
                }
            }
            lines.append("    in process, one server:")
            for side in [key.ours, key.peer] {
                lines.append("      \(side.workerDescription ?? side.name)")
                if let failure = side.throughputFailure { lines.append("        failed: \(failure)") }
            }
            for tasks in CSCBench.taskCounts {
                let ratio = key.throughputRatio(tasks, rounds: rounds)
                var line = "      \(tasks) task\(tasks == 1 ? ": " : "s:")"
                for (name, side) in [("Autograph", key.ours), ("pyHanko", key.peer)] {
                    guard let median = side.passMedian(tasks, rounds: rounds) else {
                        line += " \(name) n/a;"
                        continue
                    }
                    let requests = side.requestsPerSignature(tasks, signatures: signatures)
                    line +=
                        " \(name) \(Format.fixed(Double(signatures) / median, 1)) sigs/s"
                        + " (\(Format.milliseconds(median / Double(signatures))) per signature, "
                        + "\(requests.map { Format.fixed($0, 2) } ?? "n/a") requests per signature; passes "
                        + (side.passes[tasks] ?? []).map(Format.seconds).joined(separator: ", ") + ");"
                }
                line +=
                    " ratio of time per signature "
                    + "\(ratio.map { Format.ratio($0, against: Summary.cscThroughputTarget) } ?? "n/a"), "
                    + PKCS11Bench.Result.verdict(ratio, target: Summary.cscThroughputTarget)
                lines.append(line)
            }
            for (name, side) in [("Autograph", key.ours), ("pyHanko", key.peer)] {
                let speedUp = side.passMedian(1, rounds: rounds).flatMap { one in
                    side.passMedian(8, rounds: rounds).map { one / $0 }
                }
                if let speedUp {
                    lines.append("      \(name): 8 tasks sign at \(Format.fixed(speedUp, 2))× the rate of 1")
                }
            }
            for check in key.checks { lines.append("    outputs checked, \(check)") }
        }
        return lines
    }
}
