import Glibc

/// Step `text`: all the text of every corpus file, one process per file and tool — `autograph text
/// FILE` and `pdftotext -enc UTF-8 FILE -` — the two interleaved file by file (the order alternating
/// from round to round), every file once per round; wall time from fork to reaping. Both write the
/// text to standard output, which goes to `/dev/null`.
struct TextBench {
    /// Seconds after which a run is killed; a tool that timed out on a file does not run it again.
    static let timeout = 60
    /// The issue's target for both ratios (total and median file).
    static let target = 1.0

    typealias Tool = ToolRuns

    struct Result: ToolComparison {
        var files: [CorpusFile]
        var rounds: Int
        var ours: Tool
        /// nil when pdftotext is not installed.
        var pdftotext: Tool?
        var notices: [String]
        /// The files both tools extracted in every round.
        var measured: [Int]

        var tools: [Tool] { [ours] + [pdftotext].compactMap { $0 } }
    }

    var environment: BenchEnvironment
    var rounds: Int

    /// `PDFTOTEXT`, else `pdftotext`.
    static var pdftotextProgram: String {
        getenv("PDFTOTEXT").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "pdftotext"
    }

    func run(_ files: [CorpusFile], autograph: String) throws(BenchError) -> Result {
        Progress.note("text: reading \(files.count) files once to warm the page cache")
        CorpusFile.warm(files)
        let pdftotextProgram = TextBench.pdftotextProgram
        var notices: [String] = []
        var ours = Tool(name: "autograph text", files: files.count)
        var pdftotext: Tool? = Tool(name: "pdftotext", files: files.count)
        if !Launcher.isAvailable(pdftotextProgram) {
            notices.append("\(pdftotextProgram) not found (apt-get install poppler-utils)")
            pdftotext = nil
        }

        func command(_ tool: Int, _ file: CorpusFile) -> [String] {
            if tool == 0 { return [autograph, "text", file.path] + file.passwordArguments }
            let password = file.password.flatMap { $0.isEmpty ? nil : $0 }
            return [pdftotextProgram, "-enc", "UTF-8"] + (password.map { ["-upw", $0] } ?? []) + [file.path, "-"]
        }

        let launcher = environment.launcher
        func measure(_ tool: inout Tool, _ toolIndex: Int, file index: Int, round: Int) throws(BenchError) {
            guard !tool.timedOut.contains(index) else { return }
            let run = try launcher.run(
                command(toolIndex, files[index]), stdout: .discard, stderr: .capture, timeout: TextBench.timeout)
            tool.exitCodes[run.exitCode, default: 0] += 1
            // `autograph text` exits 3 when it extracted the text with warnings.
            let exitOK = run.exitCode == 0 || (toolIndex == 0 && run.exitCode == 3)
            if !run.timedOut, exitOK {
                tool.seconds[index].append(run.seconds)
                return
            }
            if run.timedOut { tool.timedOut.insert(index) }
            guard tool.failures[index] == nil else { return }
            let last =
                run.outputText.split(separator: "\n").last { !$0.allSatisfy { $0 == " " } }.map(String.init) ?? ""
            let how =
                run.timedOut
                ? "timed out after \(TextBench.timeout) s"
                : run.exitCode < 0 ? "killed by signal \(-run.exitCode)" : "exit code \(run.exitCode)"
            tool.failures[index] =
                how + (last.isEmpty ? "" : ": " + last) + (round > 0 ? " (round \(round + 1))" : "")
        }

        Progress.note(
            "text: autograph text\(pdftotext == nil ? "" : " and pdftotext"), all pages, \(files.count) files × "
                + "\(rounds) rounds")
        for round in 0..<rounds {
            for index in files.indices {
                // The order alternates so that neither tool always runs first on a file.
                for step in 0..<2 {
                    if (round + step) % 2 == 0 {
                        try measure(&ours, 0, file: index, round: round)
                    } else if pdftotext != nil {
                        try measure(&pdftotext!, 1, file: index, round: round)
                    }
                }
                if index % 10 == 9 || index == files.count - 1 {
                    Progress.update("  round \(round + 1)/\(rounds): \(index + 1)/\(files.count) files")
                }
            }
            let totals = [ours, pdftotext].compactMap { $0 }.map { tool in
                "\(tool.name) \(Format.seconds(tool.seconds.reduce(0) { $0 + ($1.count > round ? $1[round] : 0) }))"
            }
            Progress.finish(
                "  round \(round + 1)/\(rounds) (each tool's extracted files): " + totals.joined(separator: ", "))
        }
        let available = [ours, pdftotext].compactMap { $0 }
        let measured = files.indices.filter { index in available.allSatisfy { $0.completed(index, rounds: rounds) } }
        return Result(
            files: files, rounds: rounds, ours: ours, pdftotext: pdftotext, notices: notices, measured: measured)
    }
}
