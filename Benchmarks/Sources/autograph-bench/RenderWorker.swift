import Glibc
import PDFCore
import PDFRendering

/// The in-process side of the render step: `autograph-bench --render-worker LIST DPI`.
///
/// Reads a task list of ``CorpusProtocol`` and makes two passes over it, each rendering page 1 of
/// every file at DPI to PNG bytes: with 1 task, then with 2 concurrent tasks (a task group that
/// keeps two files in flight; the same code with one in flight is the 1-task pass). There is no
/// warm-up pass: one was tried, and it used the same CPU time as the 1-task pass after it (the only
/// state kept across documents is the few substitute font files, loaded once). Per file, and timed: `PDFDocument(contentsOfFile:options:)`,
/// `DocumentRenderer(document:)`, `render(pageAt: 0, options:)`, `pngData(maxThreads: 1)` — what `autograph
/// render` does between starting and writing its file, except that it deflates a large page's PNG on
/// every core while here a task deflates on one thread (the tasks use the cores). Output, one line per event, flushed at once:
///
///     V \t DESCRIPTION
///     S \t PASS \t INDEX                                   a file is started
///     R \t PASS \t INDEX \t SECONDS \t PNG_BYTES \t WARNINGS
///     F \t PASS \t INDEX \t SECONDS \t MESSAGE              no page rendered
///     P \t PASS \t TASKS \t WALL_SECONDS \t PAGES \t CPU_SECONDS
///                                                         a pass is done: its wall time, and the CPU time
///                                                         (user + system) the process used meanwhile
enum RenderWorker {
    /// The passes: (name, concurrent tasks).
    static let passes: [(name: String, tasks: Int)] = [("1 task", 1), ("2 tasks", 2)]

    static func main(listPath: String, dpi: Double) async -> Int32 {
        let tasks: [CorpusProtocol.Task]
        do {
            tasks = try CorpusProtocol.readTasks(from: listPath)
        } catch {
            Progress.note("autograph-bench: \(error)")
            return 1
        }
        emitLine("V\tAutograph PDFRendering (in process)")
        for (number, pass) in passes.enumerated() {
            let start = monotonicSeconds()
            let cpuStart = cpuSeconds()
            let pages = await run(tasks, pass: number, concurrency: pass.tasks, dpi: dpi)
            let wall = monotonicSeconds() - start
            emitLine("P\t\(number)\t\(pass.tasks)\t\(wall)\t\(pages)\t\(cpuSeconds() - cpuStart)")
            Progress.finish(
                "  in process, \(pass.name): \(pages) pages in \(Format.seconds(wall))"
                    + (wall > 0 ? " (\(Format.fixed(Double(pages) / wall, 1)) pages/s)" : ""))
        }
        return 0
    }

    /// The CPU time (user + system) of this process so far, all threads.
    private static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) * 1e-6
    }

    /// Renders every task with at most `concurrency` at once; returns the pages rendered.
    private static func run(_ tasks: [CorpusProtocol.Task], pass: Int, concurrency: Int, dpi: Double) async -> Int {
        await withTaskGroup(of: Bool.self) { group in
            var next = 0
            var pages = 0
            var done = 0
            while next < min(concurrency, tasks.count) {
                let task = tasks[next]
                group.addTask { render(task, pass: pass, dpi: dpi) }
                next += 1
            }
            while let rendered = await group.next() {
                if rendered { pages += 1 }
                done += 1
                if done % 10 == 0 {
                    Progress.update("  in process, \(passes[pass].name): \(done)/\(tasks.count) files")
                }
                if next < tasks.count {
                    let task = tasks[next]
                    group.addTask { render(task, pass: pass, dpi: dpi) }
                    next += 1
                }
            }
            return pages
        }
    }

    /// Opens one file and renders its first page to PNG bytes; reports it on standard output.
    private static func render(_ task: CorpusProtocol.Task, pass: Int, dpi: Double) -> Bool {
        emitLine("S\t\(pass)\t\(task.index)")
        let start = monotonicSeconds()
        do {
            let document = try PDFDocument(contentsOfFile: task.path, options: ParseOptions(password: task.password))
            guard document.pageCount > 0 else { throw BenchError("the document has no pages") }
            let renderer = DocumentRenderer(document: document)
            var options = RenderOptions()
            options.dpi = dpi
            let (image, warnings) = renderer.render(pageAt: 0, options: options)
            // One thread per task: the tasks are what spread over the cores here.
            let png = image.pngData(maxThreads: 1)
            let seconds = monotonicSeconds() - start
            guard !png.isEmpty else { throw BenchError("no PNG (\(image.width)×\(image.height) image)") }
            emitLine("R\t\(pass)\t\(task.index)\t\(seconds)\t\(png.count)\t\(warnings.count)")
            return true
        } catch {
            let seconds = monotonicSeconds() - start
            emitLine("F\t\(pass)\t\(task.index)\t\(seconds)\t\(CorpusProtocol.field("\(error)"))")
            return false
        }
    }

}
