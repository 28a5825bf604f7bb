/// The details of the `ltv` step and its rows in the final table.
extension Summary {
    static let ltvSignTarget = 0.20
    static let ltvValidateTarget = 0.10

    /// The target of `operation`'s ratio; nil: reported only.
    static func ltvTarget(_ operation: LTVBench.Operation) -> Double? {
        switch operation {
        case .sign: ltvSignTarget
        case .update: nil
        case .validate: ltvValidateTarget
        }
    }

    mutating func add(ltv result: LTVBench.Result?) {
        for operation in LTVBench.Operation.allCases {
            let pair = result?.pair(operation)
            let target = Summary.ltvTarget(operation)
            let (ours, peer) = (pair.flatMap { $0.total($0.ours) }, pair.flatMap { $0.total($0.peer) })
            let ratio = pair?.ratio
            rows.append(
                Row(
                    label: "\(operation.title) vs pyHanko (certomancer)", ours: ours.map(Format.seconds) ?? "n/a",
                    peer: peer.map { "pyHanko " + Format.seconds($0) } ?? "n/a",
                    ratio: ratio.map { value in target.map { Format.ratio(value, against: $0) } ?? Format.ratio(value) }
                        ?? "n/a",
                    target: target.map { "≤ " + Format.ratio($0) } ?? "none",
                    met: target.flatMap { target in ratio.map { $0 <= target } }, reportOnly: target == nil))
            rows.append(
                Row(
                    label: "  requests per \(["signing", "update", "validation"][operation.rawValue])",
                    ours: pair.map { $0.requestCounts(ours: true) } ?? "n/a",
                    peer: pair.map { "pyHanko " + $0.requestCounts(ours: false) } ?? "n/a", target: "none", met: nil,
                    reportOnly: true))
        }
        if let failure = result?.failure { notices.append("ltv not measured: \(failure)") }
        if let problem = result?.peerProblem { notices.append("ltv, pyHanko not measured: \(problem)") }
    }
}

extension LTVBench.Pair {
    /// The number of requests of each run of `ours` (or the peer) over the measured documents: "5", or
    /// "5–7" when runs differ.
    func requestCounts(ours: Bool) -> String {
        let requests = ours ? oursRequests : peerRequests
        let counts = measured.flatMap { requests[$0].map { $0.values.reduce(0, +) } }
        guard let low = counts.min(), let high = counts.max() else { return "n/a" }
        return low == high ? "\(low)" : "\(low)–\(high)"
    }

    /// A document's requests: "5 requests: 3 OCSP, 2 TSA", the runs' counts after it when they differ.
    static func describe(_ tallies: [LTVBench.Tally]) -> String {
        guard let first = tallies.first else { return "n/a" }
        func text(_ tally: LTVBench.Tally) -> String {
            let total = tally.values.reduce(0, +)
            let kinds = tally.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }
            return "\(total) request\(total == 1 ? "" : "s")"
                + (kinds.isEmpty ? "" : ": \(kinds.joined(separator: ", "))")
        }
        if tallies.allSatisfy({ $0 == first }) { return text(first) }
        return text(first) + "; runs: " + tallies.map { String($0.values.reduce(0, +)) }.joined(separator: "/")
    }
}

extension LTVBench.Result {
    func details() -> [String] {
        var lines = [
            "Long-term signatures (PAdES B-LTA) against certomancer on loopback, one process per document, operation "
                + "and tool (\(documents.count) documents, \(runs) run\(runs == 1 ? "" : "s"), median wall time; "
                + "requests: those the Animator logged during each process)"
        ]
        if let failure {
            lines.append("  not measured: \(failure)")
            return lines
        }
        lines.append("  Animator: \(serviceURL) (log: \(log)); signer certomancer's `signer` (RSA 2048)")
        lines.append(
            "  documents: "
                + documents.map { document in
                    let size =
                        document.size < 1_000_000
                        ? Format.fixed(Double(document.size) / 1000, 1) + " kB" : Format.megabytes(bytes: document.size)
                    return "\(document.name) (\(size))"
                }.joined(separator: ", "))
        let width = max(30, documents.map { $0.name.count + 4 }.max() ?? 0)
        for pair in pairs {
            let target = Summary.ltvTarget(pair.operation)
            let ratio = pair.ratio
            var verdict = "reported only"
            if let target, let ratio {
                verdict =
                    "target ≤ \(Format.ratio(target)): "
                    + (ratio <= target
                        ? "met" : "MISSED (\(Format.ratio(ratio, against: target)) > \(Format.ratio(target)))")
            } else if let target {
                verdict = "target ≤ \(Format.ratio(target)): not measured"
            }
            lines.append(
                "  \(pair.operation.title): \(pair.ours.name) vs \(pair.peer?.name ?? "pyHanko (not run)"): ratio "
                    + "\(ratio.map { value in target.map { Format.ratio(value, against: $0) } ?? Format.ratio(value) } ?? "n/a")"
                    + ", \(verdict)")
            for index in documents.indices {
                var text = "    \(Format.padRight(documents[index].name, width))"
                for (tool, requests) in [(pair.ours, pair.oursRequests), (pair.peer, pair.peerRequests)] {
                    guard let tool else { continue }
                    let seconds =
                        tool.failures[index] == nil ? Format.milliseconds(tool.fileSeconds(index)) : "failed"
                    text += "  \(Format.padLeft(seconds, 8))  \(Format.padRight(Self.pad(requests[index]), 38))"
                }
                while text.hasSuffix(" ") { text.removeLast() }
                lines.append(text)
            }
            var total = "    \(Format.padRight("total over \(pair.measured.count) documents", width))"
            for tool in [pair.ours, pair.peer].compactMap({ $0 }) {
                total += "  \(Format.padLeft(pair.total(tool).map(Format.seconds) ?? "n/a", 8))"
                total += "  " + String(repeating: " ", count: 38)
            }
            while total.hasSuffix(" ") { total.removeLast() }
            lines.append(total)
            for tool in [pair.ours, pair.peer].compactMap({ $0 }) {
                let codes = tool.exitCodes.sorted { $0.key < $1.key }.map { "\($0.value) × exit \($0.key)" }
                var line = "    \(tool.name): \(codes.joined(separator: ", "))"
                if pair.operation == .validate {
                    let accepted = tool.name == pair.ours.name ? pair.oursAccepted : pair.peerAccepted
                    let ran = tool.seconds.reduce(0) { $0 + $1.count }
                    line += "; every signature accepted in \(accepted) of \(ran) validations"
                }
                lines.append(line)
                for (index, reason) in tool.failures.sorted(by: { $0.key < $1.key }) {
                    lines.append("      left out: \(documents[index].name): \(reason)")
                }
            }
        }
        if let peerProblem { lines.append("  pyHanko not measured: \(peerProblem)") }
        return lines
    }

    private static func pad(_ tallies: [LTVBench.Tally]) -> String {
        tallies.isEmpty ? "" : LTVBench.Pair.describe(tallies)
    }
}
