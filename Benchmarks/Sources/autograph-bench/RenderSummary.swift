/// The details of the render step and its rows in the final table.
extension RenderBench.Result {
    func details(verbose: Bool) -> [String] {
        var lines = [
            "Render page 1 at \(RenderBench.dpi) dpi to PNG, one process per page and tool (\(files.count) files, "
                + "\(rounds) round\(rounds == 1 ? "" : "s"), median; the tools interleaved file by file)"
        ]
        lines.append(
            "  totals over the \(measured.count) files \(tools.count == 3 ? "all three" : "every tool here") rendered "
                + "in every round:")
        for tool in tools {
            let codes = tool.exitCodes.sorted { $0.key < $1.key }.map { "\($0.value) × exit \($0.key)" }
            let perRound = (0..<rounds).map { round in
                Format.fixed(measured.reduce(0) { $0 + tool.seconds[$1][round] }, 3)
            }
            lines.append(
                "    \(Format.padRight(tool.name, 17)) \(Format.padLeft(total(tool).map(Format.seconds) ?? "n/a", 10))"
                    + "  per page (median) \(Format.padLeft(medianPerFile(tool).map(Format.milliseconds) ?? "n/a", 8))"
                    + "  PNG files \(Format.megabytes(bytes: measured.reduce(0) { $0 + (tool.outputBytes[$1] ?? 0) }))")
            lines.append(
                "      rounds \(perRound.joined(separator: ", ")) s; \(codes.joined(separator: ", "))"
                    + (tool.timedOut.isEmpty ? "" : "; \(tool.timedOut.count) timed out"))
        }
        for peer in [mutool, pdftoppm].compactMap({ $0 }) {
            let faster = measured.filter { ours.fileSeconds($0) < peer.fileSeconds($0) }.count
            let fileRatios = measured.compactMap { ratio(ours.fileSeconds($0), peer.fileSeconds($0)) }
            lines.append(
                "    vs \(peer.name): total \(ratio(total(ours), total(peer)).map(Format.ratio) ?? "n/a"), "
                    + "median page \(ratio(medianPerFile(ours), medianPerFile(peer)).map(Format.ratio) ?? "n/a"), "
                    + "median of the per-page ratios \(median(fileRatios).map(Format.ratio) ?? "n/a"); "
                    + "\(ours.name) is faster on \(faster) of \(measured.count) pages")
        }
        // The budget per page: 3 × mutool's time + 50 ms; the worst ratio over the files.
        if let mutool {
            let ratios = measured.compactMap { index in
                ratio(ours.fileSeconds(index), mutool.fileSeconds(index)).map { (index, $0) }
            }
            let over = measured.filter { ours.fileSeconds($0) > 3 * mutool.fileSeconds($0) + 0.05 }
            if let worst = ratios.max(by: { $0.1 < $1.1 }) {
                lines.append(
                    "    worst page vs mutool: \(Format.ratio(worst.1)) (\(files[worst.0].name)); "
                        + "\(over.count) of \(measured.count) pages over 3 × mutool + 50 ms"
                        + (over.isEmpty ? "" : ": " + over.prefix(5).map { files[$0].name }.joined(separator: ", ")))
            }
        }
        for notice in notices { lines.append("  not measured: \(notice)") }
        for tool in tools where !tool.failures.isEmpty {
            lines.append("  \(tool.name) did not render \(tool.failures.count):")
            for (index, reason) in tool.failures.sorted(by: { $0.key < $1.key }) {
                lines.append("    - \(files[index].name): \(clip(reason))")
            }
        }

        // The slowest pages of `autograph render`, every file it ran (rendered or not).
        let oursSeconds = files.indices.map { index in
            max(ours.fileSeconds(index), ours.failedSeconds[index] ?? 0)
        }
        func beside(_ tool: RenderBench.Tool?, _ index: Int) -> String {
            guard let tool else { return "" }
            let text =
                tool.timedOut.contains(index)
                ? "timeout" : tool.failures[index] != nil ? "failed" : Format.seconds(tool.fileSeconds(index))
            return "  \(tool.name) \(Format.padLeft(text, 8))"
        }
        lines.append(
            "  slowest pages, \(ours.name) (median seconds; the others beside it, and in process with 1 task):")
        for index in files.indices.sorted(by: { oursSeconds[$0] > oursSeconds[$1] }).prefix(verbose ? 10 : 5) {
            let inProcessText = inProcess.seconds[index].map(Format.seconds) ?? "n/a"
            lines.append(
                "    \(Format.padLeft(Format.seconds(oursSeconds[index]), 8))"
                    + (ours.failures[index] != nil ? " (not rendered)" : "") + beside(mutool, index)
                    + beside(pdftoppm, index) + "  in process \(Format.padLeft(inProcessText, 7))"
                    + "  \(Format.padLeft(Format.megabytes(bytes: files[index].size), 7))  \(files[index].name)")
        }
        let slow = files.indices.filter { oursSeconds[$0] > RenderBench.slowSeconds }
        lines.append(
            "  pages over \(Format.fixed(RenderBench.slowSeconds, 0)) s (\(ours.name), the issue allows none): "
                + (slow.isEmpty ? "none" : slow.map { files[$0].name }.joined(separator: ", ")))
        if let total = total(ours), total > 0 {
            for index in measured where ours.fileSeconds(index) > 0.25 * total {
                let share = Format.fixed(100 * ours.fileSeconds(index) / total, 0)
                lines.append("  note: \(files[index].name) is \(share) % of \(ours.name)'s total")
            }
        }

        lines.append(
            "\(inProcess.description.isEmpty ? "Autograph PDFRendering (in process)" : inProcess.description): "
                + "page 1 of the \(inProcess.files.count) files \(ours.name) rendered, each opened, rendered and "
                + "encoded to PNG bytes; wall time of each pass; worker peak RSS "
                + Format.megabytes(kib: inProcess.peakRSSKiB))
        for pass in inProcess.passes {
            let rate = pass.pagesPerSecond.map { Format.fixed($0, 1) + " pages/s" } ?? "n/a"
            let speedUp = inProcess.speedUp.map { "  speed-up \(Format.fixed($0, 2))× over 1 task" }
            let extra = pass.tasks == 2 ? speedUp ?? "" : ""
            let busy = pass.wallSeconds > 0 ? Format.fixed(pass.cpuSeconds / pass.wallSeconds, 2) : "n/a"
            lines.append(
                "    \(Format.padRight(pass.name, 8)) \(Format.padLeft(Format.seconds(pass.wallSeconds), 9))"
                    + "  \(pass.pages) pages  \(Format.padLeft(rate, 14))  CPU \(Format.seconds(pass.cpuSeconds))"
                    + " (\(busy) cores busy)" + extra)
        }
        if !inProcess.failures.isEmpty {
            let list = inProcess.failures.sorted { $0.key < $1.key }.map { "\(files[$0.key].name) (\(clip($0.value)))" }
            lines.append("    not rendered in process: " + list.joined(separator: ", "))
        }
        if let reason = inProcess.unavailable { lines.append("    not measured: \(reason)") }
        return lines
    }

    private func clip(_ text: String) -> String {
        text.count > 110 ? String(text.prefix(107)) + "..." : text
    }
}

extension Summary {
    static let renderTarget = 1.0

    mutating func add(render result: RenderBench.Result?) {
        let ours = result?.total(result?.ours)
        let mutool = result?.total(result?.mutool)
        let pdftoppm = result?.total(result?.pdftoppm)
        func row(
            _ label: String, ours: Double?, peer: Double?, name: String, target: Double?, format: (Double) -> String
        )
            -> Row
        {
            var ratio: Double? = nil
            if let ours, let peer, peer > 0 { ratio = ours / peer }
            let ratioText = ratio.map { value in target.map { Format.ratio(value, against: $0) } ?? Format.ratio(value)
            }
            return Row(
                label: label, ours: ours.map(format) ?? "n/a", peer: peer.map { "\(name) " + format($0) } ?? "n/a",
                ratio: ratioText ?? "n/a", target: target.map { "≤ " + Format.ratio($0) } ?? "none",
                met: target.flatMap { target in ratio.map { $0 <= target } }, reportOnly: target == nil)
        }
        rows.append(
            row(
                "render vs mutool (total)", ours: ours, peer: mutool, name: "mutool", target: Summary.renderTarget,
                format: Format.seconds))
        rows.append(
            row(
                "render vs mutool (median)", ours: result?.medianPerFile(result?.ours),
                peer: result?.medianPerFile(result?.mutool), name: "mutool", target: Summary.renderTarget,
                format: Format.milliseconds))
        rows.append(
            row("render vs pdftoppm", ours: ours, peer: pdftoppm, name: "pdftoppm", target: nil, format: Format.seconds)
        )
        // The worst page against mutool; met when no page costs more than 3 × mutool's time + 50 ms.
        if let result, let peer = result.mutool {
            let pages = result.measured.map { (ours: result.ours.fileSeconds($0), peer: peer.fileSeconds($0)) }
            if let worst = pages.filter({ $0.peer > 0 }).max(by: { $0.ours / $0.peer < $1.ours / $1.peer }) {
                let over = pages.filter { $0.ours > 3 * $0.peer + 0.05 }.count
                rows.append(
                    Row(
                        label: "render worst page vs mutool", ours: Format.seconds(worst.ours),
                        peer: "mutool " + Format.seconds(worst.peer), ratio: Format.ratio(worst.ours / worst.peer),
                        target: "≤ 3 × + 50 ms", met: over == 0, reportOnly: false))
            }
        }
        let inProcess = result?.inProcess
        let measured = inProcess?.unavailable == nil
        func rate(_ tasks: Int) -> String {
            (measured ? inProcess?.pass(tasks: tasks)?.pagesPerSecond : nil).map { Format.fixed($0, 1) + " /s" }
                ?? "n/a"
        }
        rows.append(Row(label: "pages/s in process 1 core", ours: rate(1), target: "none", met: nil, reportOnly: true))
        rows.append(
            Row(
                label: "pages/s in process 2 cores", ours: rate(2),
                peer: (measured ? inProcess?.speedUp : nil).map { "speed-up \(Format.fixed($0, 2))×" } ?? "",
                target: "none", met: nil, reportOnly: true))
        for notice in result?.notices ?? [] { notices.append("render: \(notice)") }
        if let reason = inProcess?.unavailable { notices.append("render in process not measured: \(reason)") }
        if result != nil {
            references.append(
                "  render: totals over the pages all three tools rendered; (median) compares the median page; "
                    + "pages/s are Autograph's alone")
        }
    }
}
