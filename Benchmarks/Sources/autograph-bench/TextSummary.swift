/// The details of the text step and its rows in the final table.
extension TextBench.Result {
    func details(verbose: Bool) -> [String] {
        var lines = [
            "Extract all text of every corpus file, one process per file and tool (\(files.count) files, "
                + "\(rounds) round\(rounds == 1 ? "" : "s"), median; the tools interleaved file by file; text to /dev/null)"
        ]
        lines.append("  totals over the \(measured.count) files both tools extracted in every round:")
        for tool in tools {
            let codes = tool.exitCodes.sorted { $0.key < $1.key }.map { "\($0.value) × exit \($0.key)" }
            let perRound = (0..<rounds).map { round in
                Format.fixed(measured.reduce(0) { $0 + tool.seconds[$1][round] }, 3)
            }
            lines.append(
                "    \(Format.padRight(tool.name, 15)) \(Format.padLeft(total(tool).map(Format.seconds) ?? "n/a", 10))"
                    + "  per file (median) \(Format.padLeft(medianPerFile(tool).map(Format.milliseconds) ?? "n/a", 8))")
            lines.append(
                "      rounds \(perRound.joined(separator: ", ")) s; \(codes.joined(separator: ", "))"
                    + (tool.timedOut.isEmpty ? "" : "; \(tool.timedOut.count) timed out"))
        }
        if let peer = pdftotext {
            let faster = measured.filter { ours.fileSeconds($0) < peer.fileSeconds($0) }.count
            let fileRatios = measured.compactMap { ratio(ours.fileSeconds($0), peer.fileSeconds($0)) }
            lines.append(
                "    total \(ratio(total(ours), total(peer)).map(Format.ratio) ?? "n/a"), "
                    + "median file \(ratio(medianPerFile(ours), medianPerFile(peer)).map(Format.ratio) ?? "n/a"), "
                    + "median of the per-file ratios \(median(fileRatios).map(Format.ratio) ?? "n/a"); "
                    + "\(ours.name) is faster on \(faster) of \(measured.count) files")
        }
        for notice in notices { lines.append("  not measured: \(notice)") }
        for tool in tools where !tool.failures.isEmpty {
            lines.append("  \(tool.name) did not extract \(tool.failures.count):")
            for (index, reason) in tool.failures.sorted(by: { $0.key < $1.key }) {
                let text = reason.count > 110 ? String(reason.prefix(107)) + "..." : reason
                lines.append("    - \(files[index].name): \(text)")
            }
        }
        lines.append("  slowest files, \(ours.name) (median seconds; pdftotext beside it):")
        let slowest = files.indices.filter { !ours.seconds[$0].isEmpty }
            .sorted { ours.fileSeconds($0) > ours.fileSeconds($1) }.prefix(verbose ? 10 : 5)
        for index in slowest {
            let peer = pdftotext.map { tool in
                tool.failures[index] != nil ? "failed" : Format.seconds(tool.fileSeconds(index))
            }
            lines.append(
                "    \(Format.padLeft(Format.seconds(ours.fileSeconds(index)), 8))"
                    + "  pdftotext \(Format.padLeft(peer ?? "n/a", 8))"
                    + "  \(Format.padLeft(Format.megabytes(bytes: files[index].size), 7))  \(files[index].name)")
        }
        if let total = total(ours), total > 0 {
            for index in measured where ours.fileSeconds(index) > 0.25 * total {
                let share = Format.fixed(100 * ours.fileSeconds(index) / total, 0)
                lines.append("  note: \(files[index].name) is \(share) % of \(ours.name)'s total")
            }
        }
        return lines
    }
}

extension Summary {
    mutating func add(text result: TextBench.Result?) {
        func row(_ label: String, ours: Double?, peer: Double?, format: (Double) -> String) -> Row {
            var ratio: Double? = nil
            if let ours, let peer, peer > 0 { ratio = ours / peer }
            return Row(
                label: label, ours: ours.map(format) ?? "n/a", peer: peer.map { "pdftotext " + format($0) } ?? "n/a",
                ratio: ratio.map { Format.ratio($0, against: TextBench.target) } ?? "n/a",
                target: "≤ " + Format.ratio(TextBench.target), met: ratio.map { $0 <= TextBench.target })
        }
        rows.append(
            row(
                "text vs pdftotext (total)", ours: result?.total(result?.ours),
                peer: result?.total(result?.pdftotext), format: Format.seconds))
        rows.append(
            row(
                "text vs pdftotext (median)", ours: result?.medianPerFile(result?.ours),
                peer: result?.medianPerFile(result?.pdftotext), format: Format.milliseconds))
        for notice in result?.notices ?? [] { notices.append("text: \(notice)") }
        if result != nil {
            references.append(
                "  text: totals over the files both tools extracted; (median) compares the median file")
        }
    }
}
