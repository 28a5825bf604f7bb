import Glibc

/// The three steps in order, their details as they finish, then the summary.
struct Bench {
    var options: Options
    var environment: BenchEnvironment

    func run() throws(BenchError) {
        say("Autograph bench: \(environment.rootDirectory)")
        say("  corpus:    \(environment.corpus)")
        say("  autograph: \(environment.autograph ?? "not found")")
        say("  qpdf:      \(version([environment.qpdf, "--version"]) ?? "not found")")
        say("  python:    \(version([environment.python, "--version"]) ?? "not found")")
        say("  machine:   \(sysconf(Int32(_SC_NPROCESSORS_ONLN))) cores")
        say("")

        var files: [CorpusFile] = []
        var notices: [String] = []
        var info = stat()
        if stat(environment.corpus, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            files = CorpusFile.all(in: environment.corpus)
        }
        if files.isEmpty, options.steps.contains(.corpus) || options.steps.contains(.process) {
            let notice = "no corpus at \(environment.corpus) (set AUTOGRAPH_CORPUS): corpus steps skipped"
            Progress.note("notice: " + notice)
            notices.append(notice)
        }

        var corpus: CorpusBench.Result? = nil
        if options.steps.contains(.corpus), !files.isEmpty {
            corpus = try CorpusBench(environment: environment, rounds: options.rounds).run(files)
            printLines(corpus!.details(verbose: options.verbose))
        }

        var forms: CorpusBench.Result? = nil
        if options.steps.contains(.forms), !files.isEmpty {
            // Only the files whose form has a text field to fill (found before anything is timed).
            let formFiles = files.filter { FormFiles.hasTextFields($0) }
            forms = try CorpusBench(environment: environment, rounds: options.rounds, workload: .forms(environment))
                .run(formFiles)
            printLines(forms!.details(verbose: options.verbose))
        }

        var processes: ProcessBench.Result? = nil
        if options.steps.contains(.process), !files.isEmpty {
            if let autograph = environment.autograph {
                Progress.note(
                    "processes: autograph info and qpdf --check, \(files.count) files × \(options.rounds) rounds")
                processes = try ProcessBench(environment: environment, rounds: options.rounds).run(
                    files, autograph: autograph)
                printLines(processes!.details(verbose: options.verbose))
            } else {
                let notice =
                    "no release autograph binary (build it: swift build -c release --product autograph): step 2 skipped"
                Progress.note("notice: " + notice)
                notices.append(notice)
            }
        }

        var big: BigFileBench.Result? = nil
        if options.steps.contains(.big) {
            big = try BigFileBench(environment: environment, runs: options.bigRuns).run()
            printLines(big!.details())
        }

        var summary = Summary(corpusFiles: files.count, skipped: corpus?.skipped.count)
        summary.notices = notices
        if options.steps.contains(.corpus) { summary.add(corpus: corpus) }
        if options.steps.contains(.forms) { summary.add(forms: forms) }
        if options.steps.contains(.process) { summary.add(processes: processes) }
        if options.steps.contains(.big) { summary.add(bigFile: big) }
        printLines(summary.lines())
    }

    private func printLines(_ lines: [String]) {
        for line in lines { say(line) }
        say("")
    }

    /// One line on standard output, unbuffered, so that it interleaves with the progress on standard error.
    private func say(_ line: String) {
        let text = line + "\n"
        text.withCString { pointer in _ = write(1, pointer, strlen(pointer)) }
    }

    /// The first line a tool prints for `--version`, or nil when it does not run.
    private func version(_ arguments: [String]) -> String? {
        guard Launcher.isAvailable(arguments[0]),
            let run = try? environment.launcher.run(arguments, stdout: .capture, stderr: .capture, timeout: 60),
            run.succeeded
        else { return nil }
        return run.outputText.split(separator: "\n").first.map(String.init)
    }
}
