/// The details of the `pkcs11` step and its rows in the final table.
extension Summary {
    static let pkcs11ProcessTarget = 0.20
    static let pkcs11ThroughputTarget = 0.20

    mutating func add(pkcs11 result: PKCS11Bench.Result?) {
        let keys = result?.keys ?? []
        for key in keys.isEmpty ? SoftHSMStore.keys : keys.map(\.key) {
            let measured = keys.first { $0.key.label == key.label }
            let process = measured?.processRatio
            rows.append(
                Row(
                    label: "pkcs11 sign process, \(key.name) (pyHanko)",
                    ours: measured?.ours.processMedian.map(Format.milliseconds) ?? "n/a",
                    peer: measured?.peer.processMedian.map { "pyHanko " + Format.milliseconds($0) } ?? "n/a",
                    ratio: process.map { Format.ratio($0, against: Summary.pkcs11ProcessTarget) } ?? "n/a",
                    target: "≤ " + Format.ratio(Summary.pkcs11ProcessTarget),
                    met: process.map { $0 <= Summary.pkcs11ProcessTarget }))
            for threads in PKCS11Bench.threadCounts {
                let rounds = result?.rounds ?? 0
                let signatures = Double(result?.signatures ?? 0)
                let ratio = measured?.throughputRatio(threads, rounds: rounds)
                rows.append(
                    Row(
                        label: "pkcs11 sigs/s in process, \(threads) thread\(threads == 1 ? "" : "s"), \(key.name)",
                        ours: measured?.ours.passMedian(threads, rounds: rounds).map {
                            Format.fixed(signatures / $0, 1) + "/s"
                        } ?? "n/a",
                        peer: measured?.peer.passMedian(threads, rounds: rounds).map {
                            "pyHanko " + Format.fixed(signatures / $0, 1) + "/s"
                        } ?? "n/a",
                        ratio: ratio.map { Format.ratio($0, against: Summary.pkcs11ThroughputTarget) } ?? "n/a",
                        target: "≤ " + Format.ratio(Summary.pkcs11ThroughputTarget) + " (time/sig)",
                        met: ratio.map { $0 <= Summary.pkcs11ThroughputTarget }))
            }
        }
        if let failure = result?.failure { notices.append("pkcs11 not measured: \(failure)") }
        if let problem = result?.processProblem { notices.append("pkcs11, processes not measured: \(problem)") }
    }
}

extension PKCS11Bench.Result {
    func details() -> [String] {
        var lines = [
            "PKCS#11 signing through one SoftHSM2 token (a new invisible field, PAdES, SHA-256): a process per "
                + "signature (median of \(runs) runs after an untimed one), then signatures per second in one "
                + "process (\(signatures) per pass, median of \(rounds) passes, 1 and 8 threads)"
        ]
        if let failure {
            lines.append("  not measured: \(failure)")
            return lines
        }
        lines.append(
            "  token: '\(SoftHSMStore.tokenLabel)' made with softhsm2-util in a temporary folder, \(module); "
                + "document: \(document.map { "\($0.name), \(Format.fixed(Double($0.size) / 1000, 1)) kB" } ?? "n/a")")
        lines.append("  outputs: \(outputs)")
        for key in keys {
            lines.append("  \(key.key.name) (key and certificate '\(key.key.label)', id \(key.key.id)):")
            if let processProblem {
                lines.append("    processes not measured: \(processProblem)")
            } else {
                let ratio = key.processRatio
                lines.append(
                    "    process per signature: ratio \(ratio.map { Format.ratio($0, against: Summary.pkcs11ProcessTarget) } ?? "n/a"), "
                        + Self.verdict(ratio, target: Summary.pkcs11ProcessTarget))
                for side in [key.ours, key.peer] {
                    var line = "      \(Format.padRight(side.name, 28))"
                    if let median = side.processMedian {
                        line +=
                            " median \(Format.padLeft(Format.milliseconds(median), 8)); runs "
                            + side.processSeconds.map(Format.milliseconds).joined(separator: ", ")
                            + "; peak RSS \(side.processPeakKiB.max().map { Format.megabytes(kib: $0) } ?? "n/a")"
                    } else {
                        line += " not measured: \(side.processFailure ?? "no run")"
                    }
                    lines.append(line)
                }
            }
            lines.append("    in process, one token:")
            for side in [key.ours, key.peer] {
                lines.append("      \(side.workerDescription ?? side.name)")
                if let failure = side.throughputFailure { lines.append("        failed: \(failure)") }
            }
            for threads in PKCS11Bench.threadCounts {
                let ratio = key.throughputRatio(threads, rounds: rounds)
                var line =
                    "      \(threads) thread\(threads == 1 ? ": " : "s:")"
                for (name, side) in [("Autograph", key.ours), ("pyHanko", key.peer)] {
                    guard let median = side.passMedian(threads, rounds: rounds) else {
                        line += " \(name) n/a;"
                        continue
                    }
                    line +=
                        " \(name) \(Format.fixed(Double(signatures) / median, 1)) sigs/s"
                        + " (\(Format.milliseconds(median / Double(signatures))) per signature; passes "
                        + (side.passes[threads] ?? []).map(Format.seconds).joined(separator: ", ") + ");"
                }
                line +=
                    " ratio of time per signature "
                    + "\(ratio.map { Format.ratio($0, against: Summary.pkcs11ThroughputTarget) } ?? "n/a"), "
                    + Self.verdict(ratio, target: Summary.pkcs11ThroughputTarget)
                lines.append(line)
            }
            for (name, side) in [("Autograph", key.ours), ("pyHanko", key.peer)] {
                let speedUp = side.passMedian(1, rounds: rounds).flatMap { one in
                    side.passMedian(8, rounds: rounds).map { one / $0 }
                }
                if let speedUp {
                    lines.append("      \(name): 8 threads sign at \(Format.fixed(speedUp, 2))× the rate of 1")
                }
            }
            for check in key.checks { lines.append("    outputs checked, \(check)") }
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
