/// The final table: each figure, its peer, the ratio (Autograph / peer: lower is better) and the target.
struct Summary {
    struct Row {
        var label: String
        var ours: String
        var peer: String = ""
        var ratio: String = ""
        var target: String
        /// nil when not measured.
        var met: Bool?
        /// A figure reported without a target (not counted as met, missed or not measured).
        var reportOnly = false
    }

    var corpusFiles: Int
    /// nil when the corpus step did not run.
    var skipped: Int?
    var rows: [Row] = []
    var references: [String] = []
    var notices: [String] = []

    static let corpusTarget = 0.80
    static let formsTarget = 0.10
    static let processTarget = 0.50
    static let openMillisecondsTarget = 100.0
    static let openMegabytesTarget = 100.0

    mutating func add(corpus result: CorpusBench.Result?) {
        let ratio = result?.ratio
        for side in [result?.ours, result?.peer].compactMap({ $0 }) {
            if let reason = side.unavailable { notices.append("corpus, \(side.name) not measured: \(reason)") }
        }
        rows.append(
            Row(
                label: "corpus open+resolve+decode (pikepdf)", ours: result?.oursTotal.map(Format.seconds) ?? "n/a",
                peer: result?.peerTotal.map(Format.seconds) ?? "n/a",
                ratio: ratio.map { Format.ratio($0, against: Summary.corpusTarget) } ?? "n/a",
                target: "≤ " + Format.ratio(Summary.corpusTarget), met: ratio.map { $0 <= Summary.corpusTarget }))
    }

    mutating func add(forms result: CorpusBench.Result?) {
        let ratio = result?.ratio
        for side in [result?.ours, result?.peer].compactMap({ $0 }) {
            if let reason = side.unavailable { notices.append("forms, \(side.name) not measured: \(reason)") }
        }
        rows.append(
            Row(
                label: "fill corpus forms and save (pypdf)", ours: result?.oursTotal.map(Format.seconds) ?? "n/a",
                peer: result?.peerTotal.map(Format.seconds) ?? "n/a",
                ratio: ratio.map { Format.ratio($0, against: Summary.formsTarget) } ?? "n/a",
                target: "≤ " + Format.ratio(Summary.formsTarget), met: ratio.map { $0 <= Summary.formsTarget }))
    }

    mutating func add(processes result: ProcessBench.Result?) {
        let ratio = result?.ratio
        if let notice = result?.notice { notices.append("processes, qpdf not measured: \(notice)") }
        rows.append(
            Row(
                label: "autograph info vs qpdf --check", ours: result?.ours.total.map(Format.seconds) ?? "n/a",
                peer: result?.peer?.total.map(Format.seconds) ?? "n/a",
                ratio: ratio.map { Format.ratio($0, against: Summary.processTarget) } ?? "n/a",
                target: "≤ " + Format.ratio(Summary.processTarget), met: ratio.map { $0 <= Summary.processTarget }))
    }

    mutating func add(bigFile result: BigFileBench.Result?) {
        let ours = result?.ours
        let measured = ours?.failure == nil && ours?.pageCounts == [BigFile.pages]
        let seconds = measured ? ours?.medianSeconds : nil
        let peakKiB = measured ? ours?.maxPeakKiB : nil
        let qpdf = result?.references.first { $0.name.hasPrefix("qpdf") && $0.failure == nil }
        func ratio(_ ours: Double?, _ peer: Double?) -> String {
            guard let ours, let peer, peer > 0 else { return "" }
            return Format.ratio(ours / peer)
        }
        rows.append(
            Row(
                label: "open 1 GB + page count (time)", ours: seconds.map(Format.milliseconds) ?? "n/a",
                peer: qpdf?.medianSeconds.map { "qpdf " + Format.milliseconds($0) } ?? "",
                ratio: ratio(seconds, qpdf?.medianSeconds),
                target: "< \(Format.fixed(Summary.openMillisecondsTarget, 0)) ms",
                met: seconds.map { $0 * 1000 < Summary.openMillisecondsTarget }))
        rows.append(
            Row(
                label: "open 1 GB + page count (peak RSS)", ours: peakKiB.map { Format.megabytes(kib: $0) } ?? "n/a",
                peer: qpdf?.maxPeakKiB.map { "qpdf " + Format.megabytes(kib: $0) } ?? "",
                ratio: ratio(peakKiB.map(Double.init), qpdf?.maxPeakKiB.map(Double.init)),
                target: "< \(Format.fixed(Summary.openMegabytesTarget, 0)) MB",
                met: peakKiB.map { Double($0) * 1024 / 1_000_000 < Summary.openMegabytesTarget }))
        if let ours, !measured {
            notices.append(
                "the 1 GB open was not measured: \(ours.failure ?? "page count \(ours.pageCounts.sorted())")")
        }
        let others = (result.map { [$0.baseline] + $0.references } ?? []).filter { !$0.name.hasPrefix("qpdf") }
        if !others.isEmpty {
            references.append("  references (median time, max peak RSS; the 1 GB file unless named):")
        }
        for reference in others {
            guard reference.failure == nil, let seconds = reference.medianSeconds, let peak = reference.maxPeakKiB
            else {
                references.append("    \(reference.name): failed: \(reference.failure ?? "no runs")")
                continue
            }
            references.append(
                "    \(Format.padRight(reference.name, 26)) \(Format.padLeft(Format.milliseconds(seconds), 9))"
                    + " \(Format.padLeft(Format.megabytes(kib: peak), 9))"
                    + (reference.note.isEmpty ? "" : "  (\(reference.note))"))
        }
    }

    func lines() -> [String] {
        let header = Row(label: "", ours: "Autograph", peer: "peer", ratio: "ratio", target: "target", met: nil)
        let all = [header] + rows
        let widths: [Int] = [
            all.map { $0.label.count }.max() ?? 0, all.map { $0.ours.count }.max() ?? 0,
            all.map { $0.peer.count }.max() ?? 0, all.map { $0.ratio.count }.max() ?? 0,
            all.map { $0.target.count }.max() ?? 0,
        ]
        var lines = ["Autograph bench (\(corpusFiles) corpus files" + (skipped.map { ", \($0) skipped)" } ?? ")")]
        for (position, row) in all.enumerated() {
            let cells: [String] = [
                Format.padRight(row.label, widths[0]), Format.padLeft(row.ours, widths[1]),
                Format.padLeft(row.peer, widths[2]), Format.padLeft(row.ratio, widths[3]),
                Format.padRight(row.target, widths[4]),
            ]
            var line = cells.joined(separator: "  ")
            while line.hasSuffix(" ") { line.removeLast() }
            if position > 0, row.reportOnly {
                line += "  (report only)"
            } else if position > 0 {
                switch row.met {
                case true?: line += "  ok"
                case false?: line += "  MISS  <--"
                case nil: line += "  not measured"
                }
            }
            lines.append(line)
        }
        lines += references
        let targets = rows.filter { !$0.reportOnly }
        let misses = targets.filter { $0.met == false }.count
        let unmeasured = targets.filter { $0.met == nil }.count
        lines.append(
            "targets: \(targets.count - misses - unmeasured) met, \(misses) missed, \(unmeasured) not measured "
                + "(ratios are Autograph / peer: lower is better)")
        lines += notices.map { "notice: " + $0 }
        return lines
    }
}
