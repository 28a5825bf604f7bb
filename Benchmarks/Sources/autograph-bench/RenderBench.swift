import Glibc

/// Step `render`: page 1 of every corpus file at 150 dpi to PNG, one process per page and tool —
/// `autograph render`, `mutool draw`, `pdftoppm` — the three interleaved file by file (the order
/// rotating from round to round), every file once per round; wall time from fork to reaping. Then, in
/// process, the pages per second of ``RenderWorker`` with 1 and with 2 concurrent tasks.
struct RenderBench {
    static let dpi = 150
    /// Seconds after which a run is killed; a tool that timed out on a file does not run it again.
    static let timeout = 10
    /// The issue wants no page slower than this (for `autograph render`).
    static let slowSeconds = 5.0

    typealias Tool = ToolRuns

    /// What the in-process worker reported.
    struct InProcess {
        struct Pass {
            var name: String
            var tasks: Int
            var wallSeconds: Double
            var pages: Int
            /// The CPU time (user + system) of the worker during the pass.
            var cpuSeconds: Double
            var pagesPerSecond: Double? { wallSeconds > 0 && pages > 0 ? Double(pages) / wallSeconds : nil }
        }

        var description = ""
        /// Set when the worker could not be measured.
        var unavailable: String?
        var files: [Int] = []
        var passes: [Pass] = []
        /// Seconds per file in the 1-task pass (open + render + PNG).
        var seconds: [Int: Double] = [:]
        var pngBytes = 0
        var failures: [Int: String] = [:]
        var peakRSSKiB = 0

        func pass(tasks: Int) -> Pass? { passes.last { $0.tasks == tasks } }
        var speedUp: Double? {
            guard let one = pass(tasks: 1)?.pagesPerSecond, let two = pass(tasks: 2)?.pagesPerSecond else { return nil }
            return two / one
        }
    }

    struct Result: ToolComparison {
        var files: [CorpusFile]
        var rounds: Int
        var ours: Tool
        /// nil when the tool is not installed.
        var mutool: Tool?
        var pdftoppm: Tool?
        /// Why a peer was not measured.
        var notices: [String]
        /// The files every available tool rendered in every round.
        var measured: [Int]
        var inProcess: InProcess

        var tools: [Tool] { [ours] + [mutool, pdftoppm].compactMap { $0 } }
    }

    var environment: BenchEnvironment
    var rounds: Int

    var outputDirectory: String { environment.buildPath("bench-render") }

    func run(_ files: [CorpusFile], autograph: String) throws(BenchError) -> Result {
        mkdir(outputDirectory, 0o755)
        Progress.note("render: reading \(files.count) files once to warm the page cache")
        CorpusFile.warm(files)
        let dpi = String(RenderBench.dpi)
        var notices: [String] = []
        var ours = Tool(name: "autograph render", files: files.count)
        var mutool: Tool? = Tool(name: "mutool draw", files: files.count)
        var pdftoppm: Tool? = Tool(name: "pdftoppm", files: files.count)
        for (program, package) in [(environment.mutool, "mupdf-tools"), (environment.pdftoppm, "poppler-utils")]
        where !Launcher.isAvailable(program) {
            notices.append("\(program) not found (apt-get install \(package))")
            if program == environment.mutool { mutool = nil } else { pdftoppm = nil }
        }

        // Each tool's command for file `index`, and the image it must leave behind.
        func command(_ tool: Int, _ file: CorpusFile) -> (arguments: [String], output: String) {
            let password = file.password.flatMap { $0.isEmpty ? nil : $0 }
            switch tool {
            case 0:
                let output = "\(outputDirectory)/autograph.png"
                return (
                    [autograph, "render", file.path, "-o", output, "--page", "1", "--dpi", dpi]
                        + file.passwordArguments, output
                )
            case 1:
                let output = "\(outputDirectory)/mutool.png"
                return (
                    [environment.mutool, "draw", "-q", "-r", dpi, "-o", output] + (password.map { ["-p", $0] } ?? [])
                        + [file.path, "1"], output
                )
            default:
                let prefix = "\(outputDirectory)/pdftoppm"
                return (
                    [environment.pdftoppm, "-r", dpi, "-png", "-singlefile", "-f", "1", "-l", "1"]
                        + (password.map { ["-upw", $0] } ?? []) + [file.path, prefix], prefix + ".png"
                )
            }
        }

        let launcher = environment.launcher
        func measure(_ tool: inout Tool, _ toolIndex: Int, file index: Int, round: Int) throws(BenchError) {
            guard !tool.timedOut.contains(index) else { return }
            let (arguments, output) = command(toolIndex, files[index])
            unlink(output)
            let run = try launcher.run(arguments, stdout: .capture, stderr: .capture, timeout: RenderBench.timeout)
            tool.exitCodes[run.exitCode, default: 0] += 1
            var info = stat()
            let wrote = stat(output, &info) == 0 && info.st_size > 0
            // `autograph render` exits 3 when it drew the page with warnings.
            let exitOK = run.exitCode == 0 || (toolIndex == 0 && run.exitCode == 3)
            if !run.timedOut, exitOK, wrote {
                tool.seconds[index].append(run.seconds)
                tool.outputBytes[index] = Int(info.st_size)
                return
            }
            tool.failedSeconds[index] = max(tool.failedSeconds[index] ?? 0, run.seconds)
            if run.timedOut { tool.timedOut.insert(index) }
            guard tool.failures[index] == nil else { return }
            let last =
                run.outputText.split(separator: "\n").last { !$0.allSatisfy { $0 == " " } }.map(String.init) ?? ""
            let how =
                if run.timedOut {
                    "timed out after \(RenderBench.timeout) s"
                } else if run.exitCode < 0 {
                    "killed by signal \(-run.exitCode)"
                } else if exitOK {
                    "exit code \(run.exitCode) but no image"
                } else {
                    "exit code \(run.exitCode)"
                }
            tool.failures[index] =
                how + (last.isEmpty ? "" : ": " + last) + (round > 0 ? " (round \(round + 1))" : "")
        }

        let names = [ours, mutool, pdftoppm].compactMap { $0?.name }
        Progress.note(
            "render: \(names.joined(separator: ", ")), page 1 at \(dpi) dpi, \(files.count) files × \(rounds) rounds")
        for round in 0..<rounds {
            for index in files.indices {
                // The order rotates so that no tool always runs first (or right after another) on a file.
                for step in 0..<3 {
                    switch (round + step) % 3 {
                    case 0: try measure(&ours, 0, file: index, round: round)
                    case 1: if mutool != nil { try measure(&mutool!, 1, file: index, round: round) }
                    default: if pdftoppm != nil { try measure(&pdftoppm!, 2, file: index, round: round) }
                    }
                }
                if index % 10 == 9 || index == files.count - 1 {
                    Progress.update("  round \(round + 1)/\(rounds): \(index + 1)/\(files.count) files")
                }
            }
            let totals = [ours, mutool, pdftoppm].compactMap { $0 }.map { tool in
                "\(tool.name) \(Format.seconds(tool.seconds.reduce(0) { $0 + ($1.count > round ? $1[round] : 0) }))"
            }
            Progress.finish(
                "  round \(round + 1)/\(rounds) (each tool's rendered pages): " + totals.joined(separator: ", "))
        }

        let available = [ours, mutool, pdftoppm].compactMap { $0 }
        let measured = files.indices.filter { index in available.allSatisfy { $0.completed(index, rounds: rounds) } }
        let inProcessFiles = files.indices.filter { ours.completed($0, rounds: rounds) }
        let inProcess = try runInProcess(files, inProcessFiles)
        return Result(
            files: files, rounds: rounds, ours: ours, mutool: mutool, pdftoppm: pdftoppm, notices: notices,
            measured: measured, inProcess: inProcess)
    }

    /// The in-process passes over the files `autograph render` rendered (so that a page that hangs or
    /// kills the CLI cannot stop the worker), in a child process of their own.
    private func runInProcess(_ files: [CorpusFile], _ indices: [Int]) throws(BenchError) -> InProcess {
        var result = InProcess()
        result.files = indices
        guard !indices.isEmpty else {
            result.unavailable = "autograph render rendered no page"
            return result
        }
        let listPath = environment.buildPath("bench-render-tasks.tsv")
        try CorpusProtocol.writeTasks(
            indices.map { CorpusProtocol.Task(index: $0, path: files[$0].path, password: files[$0].password) },
            to: listPath)
        Progress.note(
            "render: in process, page 1 of the \(indices.count) files autograph render rendered: "
                + RenderWorker.passes.map(\.name).joined(separator: ", "))
        let run = try environment.launcher.run(
            [environment.executable, "--render-worker", listPath, String(RenderBench.dpi)], stdout: .capture,
            stderr: .inherit, timeout: 900)
        result.peakRSSKiB = run.peakRSSKiB
        var started: Set<Int> = []
        for line in run.outputText.split(separator: "\n") {
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            switch columns.first {
            case "V"?:
                result.description = columns.dropFirst().joined(separator: " ")
            case "S"? where columns.count >= 3:
                if let index = Int(columns[2]) { started.insert(index) }
            case "R"? where columns.count >= 6:
                guard let pass = Int(columns[1]), let index = Int(columns[2]), let seconds = Double(columns[3]) else {
                    continue
                }
                started.remove(index)
                if pass == 1 {
                    result.seconds[index] = seconds
                    result.pngBytes += Int(columns[4]) ?? 0
                }
            case "F"? where columns.count >= 5:
                guard let index = Int(columns[2]) else { continue }
                started.remove(index)
                if result.failures[index] == nil { result.failures[index] = columns[4...].joined(separator: " ") }
            case "P"? where columns.count >= 6:
                guard let pass = Int(columns[1]), pass < RenderWorker.passes.count, let tasks = Int(columns[2]),
                    let wall = Double(columns[3]), let pages = Int(columns[4]), let cpu = Double(columns[5])
                else { continue }
                result.passes.append(
                    InProcess.Pass(
                        name: RenderWorker.passes[pass].name, tasks: tasks, wallSeconds: wall, pages: pages,
                        cpuSeconds: cpu))
            default:
                continue
            }
        }
        if !run.succeeded || result.passes.count < RenderWorker.passes.count {
            let how =
                run.timedOut
                ? "timed out" : run.exitCode < 0 ? "killed by signal \(-run.exitCode)" : "exit code \(run.exitCode)"
            let on = started.sorted().map { files[$0].name }
            result.unavailable =
                "the worker ended with \(how) after \(result.passes.count) of \(RenderWorker.passes.count) passes"
                + (on.isEmpty ? "" : " (on \(on.joined(separator: ", ")))")
        }
        return result
    }
}
