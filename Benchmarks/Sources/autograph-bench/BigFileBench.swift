import Glibc
import PDFCore

/// Step 3: opening the generated 1 GB file and reading its page count, each run in a child process
/// so that the peak RSS is the child's own.
struct BigFileBench {
    struct Measurement {
        var name: String
        var note: String = ""
        var seconds: [Double] = []
        var peakKiB: [Int] = []
        /// CPU time per run, user and kernel mode (the sign-big step shows them).
        var userSeconds: [Double] = []
        var systemSeconds: [Double] = []
        var majorFaults: [Int] = []
        var pageCounts: Set<Int> = []
        var failure: String? = nil
        /// The last measured run's standard output after its first line (`--open-only`'s memory line).
        var extra = ""

        var medianSeconds: Double? { median(seconds) }

        /// `--open-only`'s own view of its memory, "VmHWM: 74820 RssAnon: 2652 RssFile: 72168" (KiB), in words.
        var memoryBreakdown: String? {
            let fields = extra.split(separator: " ")
            var values: [String: Int] = [:]
            for index in stride(from: 0, to: fields.count - 1, by: 2) {
                values[String(fields[index].dropLast())] = Int(fields[index + 1])
            }
            guard let peak = values["VmHWM"], let anonymous = values["RssAnon"], let file = values["RssFile"] else {
                return nil
            }
            return "its own /proc/self/status at exit: peak \(Format.megabytes(kib: peak)); resident now: "
                + "\(Format.megabytes(kib: file)) file-backed (the mapped PDF and the libraries), "
                + "\(Format.megabytes(kib: anonymous)) anonymous"
        }
        var maxPeakKiB: Int? { peakKiB.max() }
    }

    struct Result {
        var path: String
        var size: Int
        var runs: Int
        /// Seconds spent generating the file in this run; nil when it was already there.
        var generationSeconds: Double?
        var ours: Measurement
        /// The same child on a 1-page file: what the runtime and libraries cost before any PDF.
        var baseline: Measurement
        var references: [Measurement]
    }

    var environment: BenchEnvironment
    var runs: Int

    func run() throws(BenchError) -> Result {
        let path = environment.bigFile
        var generationSeconds: Double? = nil
        if !BigFile.isComplete(path) {
            Progress.note("1 GB file: generating \(path) (once; kept for later runs)")
            let start = monotonicSeconds()
            try BigFile.generate(at: path)
            generationSeconds = monotonicSeconds() - start
        }
        var info = stat()
        _ = stat(path, &info)

        let firstLine: (String) -> Int? = { Int($0.split(separator: "\n").first ?? "") }
        let ours = try measure(
            "Autograph (PDFCore)", note: "autograph-bench --open-only: open + pageCount",
            [environment.executable, "--open-only", path], pageCount: firstLine)
        let small = BenchEnvironment.directory(of: path) + "/small-1page.pdf"
        if !BigFile.isComplete(small, minimumSize: 0) { try BigFile.generate(at: small, pages: 1, contentBytes: 4096) }
        let baseline = try measure(
            "Autograph, 1-page file", note: "the same child on a 4 KB file: runtime and libraries",
            [environment.executable, "--open-only", small], pageCount: firstLine)
        var references: [Measurement] = []
        if Launcher.isAvailable(environment.qpdf) {
            references.append(try measure("qpdf --show-npages", [environment.qpdf, "--show-npages", path]))
        } else {
            references.append(Measurement(name: "qpdf --show-npages", failure: "\(environment.qpdf) not found"))
        }
        if Launcher.isAvailable(environment.python) {
            let script = "import sys, pikepdf; pdf = pikepdf.open(sys.argv[1]); print(len(pdf.pages))"
            references.append(
                try measure(
                    "pikepdf open + len(pages)", note: "python3 -c, includes interpreter start and import",
                    [environment.python, "-c", script, path]))
        }
        if let autograph = environment.autograph {
            references.append(
                try measure(
                    "autograph info --json", note: "the CLI: also page sizes, form and signature summary",
                    [autograph, "info", "--json", path], pageCount: BigFileBench.jsonPageCount))
        }
        return Result(
            path: path, size: Int(info.st_size), runs: runs, generationSeconds: generationSeconds, ours: ours,
            baseline: baseline, references: references)
    }

    /// One warm-up run, then `runs` measured runs.
    private func measure(
        _ name: String, note: String = "", _ arguments: [String],
        pageCount: (String) -> Int? = { Int($0.split(separator: "\n").last ?? "") }
    ) throws(BenchError) -> Measurement {
        var measurement = Measurement(name: name, note: note)
        for attempt in 0...runs {
            Progress.update("  \(name): run \(attempt == 0 ? "warm-up" : "\(attempt)/\(runs)")")
            let run = try environment.launcher.run(arguments, stdout: .capture, timeout: 300)
            // `autograph info` exits 3 when it repaired something; the page count is what matters.
            guard run.exitCode == 0 || run.exitCode == 3, !run.timedOut, let pages = pageCount(run.outputText) else {
                let how = run.timedOut ? "timed out" : "exit code \(run.exitCode)"
                measurement.failure = "\(how): \(run.outputText.split(separator: "\n").last ?? "")"
                break
            }
            guard attempt > 0 else { continue }
            measurement.seconds.append(run.seconds)
            measurement.peakKiB.append(run.peakRSSKiB)
            measurement.pageCounts.insert(pages)
            measurement.extra = run.outputText.split(separator: "\n").dropFirst().joined(separator: " ")
        }
        let summary =
            measurement.failure.map { "failed: " + $0 }
            ?? "\(Format.milliseconds(measurement.medianSeconds ?? 0)), \(Format.megabytes(kib: measurement.maxPeakKiB ?? 0))"
        Progress.finish("  \(name): \(summary)")
        return measurement
    }

    /// The `"pages"` value of `autograph info --json`.
    static func jsonPageCount(_ output: String) -> Int? {
        guard let key = output.firstRange(of: "\"pages\"") else { return nil }
        let digits = output[key.upperBound...].drop { !$0.isNumber }.prefix { $0.isNumber }
        return Int(digits)
    }

    /// `autograph-bench --open-only PATH [PASSWORD]`: opens with PDFCore, prints the page count, exits.
    ///
    /// A second line gives the process's own view of its memory from `/proc/self/status` (`VmHWM`,
    /// `RssAnon`, `RssFile`, in KiB): how much of the peak is pages of the memory-mapped file.
    static func openOnly(path: String, password: String?) -> Int32 {
        do {
            let document = try PDFDocument(contentsOfFile: path, options: ParseOptions(password: password))
            let pages = document.pageCount
            let descriptor = open("/proc/self/status", O_RDONLY)
            let status = descriptor >= 0 ? String(decoding: Launcher.readAll(descriptor), as: UTF8.self) : ""
            let memory = status.split(separator: "\n").filter {
                $0.hasPrefix("VmHWM:") || $0.hasPrefix("RssAnon:") || $0.hasPrefix("RssFile:")
            }
            print(pages)
            print(
                memory.map { $0.split(whereSeparator: { $0 == " " || $0 == "\t" }).prefix(2).joined(separator: " ") }
                    .joined(separator: " "))
            withExtendedLifetime(document) {}
            return 0
        } catch {
            Progress.note("autograph-bench: \(path): \(error)")
            return 1
        }
    }
}

extension BigFileBench.Result {
    func details() -> [String] {
        var lines = [
            "1 GB file: \(path) (\(Format.megabytes(bytes: size)), \(BigFile.pages) pages); each tool in a child process, "
                + "1 warm-up + \(runs) runs: median wall time, max peak RSS"
        ]
        if let generationSeconds { lines.append("  generated in this run in \(Format.seconds(generationSeconds))") }
        for measurement in [ours, baseline] + references {
            var text = "  \(Format.padRight(measurement.name, 28))"
            if let failure = measurement.failure {
                text += " failed: \(failure)"
            } else {
                text += " \(Format.padLeft(Format.milliseconds(measurement.medianSeconds ?? 0), 9))"
                text += " \(Format.padLeft(Format.megabytes(kib: measurement.maxPeakKiB ?? 0), 9))"
                let pages = measurement.pageCounts.sorted().map(String.init).joined(separator: "/")
                let expected = measurement.name == baseline.name ? 1 : BigFile.pages
                text += "  pages: \(pages)" + (measurement.pageCounts == [expected] ? "" : " (expected \(expected)!)")
                text += "  runs: " + measurement.seconds.map { Format.milliseconds($0) }.joined(separator: ", ")
            }
            if !measurement.note.isEmpty { text += "  (\(measurement.note))" }
            lines.append(text)
            if measurement.name == ours.name, let memory = ours.memoryBreakdown {
                lines.append("    " + memory)
            }
        }
        return lines
    }
}
