import Glibc

/// The steps in order (the signing ones through `SigningSteps`), their details as they finish, then the summary.
struct Bench {
    var options: Options
    var environment: BenchEnvironment

    func run() throws(BenchError) {
        say("Autograph bench: \(environment.rootDirectory)")
        say("  corpus:    \(environment.corpus)")
        say("  autograph: \(environment.autograph ?? "not found")")
        say("  qpdf:      \(version([environment.qpdf, "--version"]) ?? "not found")")
        say("  python:    \(version([environment.python, "--version"]) ?? "not found")")
        if !options.steps.isDisjoint(with: SigningSteps.steps.union([.pkcs11, .csc])) {
            say("  pyHanko:   \(version([environment.python, "-m", "pyhanko", "--version"]) ?? "not found")")
        }
        if !options.steps.isDisjoint(with: SigningSteps.steps) {
            say("  pdfsig:    \(version([environment.pdfsig, "-v"]) ?? "not found")")
        }
        if !options.steps.isDisjoint(with: [.ltv, .csc]) {
            say(
                "  certomancer: "
                    + (version([
                        environment.python, "-c",
                        "import importlib.metadata as m; print(m.version('certomancer'))",
                    ]) ?? "not found"))
        }
        if options.steps.contains(.csc) {
            say(
                "  certomancer-csc-dummy: "
                    + (version([
                        environment.python, "-c",
                        "import importlib.metadata as m; print(m.version('certomancer-csc-dummy'))",
                    ]) ?? "not found"))
        }
        if options.steps.contains(.pkcs11) {
            say("  SoftHSM2:  \(version(["softhsm2-util", "--version"]).map { "softhsm2-util " + $0 } ?? "not found")")
        }
        if options.steps.contains(.render) {
            say("  mutool:    \(version([environment.mutool, "-v"]) ?? "not found")")
            say("  pdftoppm:  \(version([environment.pdftoppm, "-v"]) ?? "not found")")
        }
        if options.steps.contains(.text) {
            say("  pdftotext: \(version([TextBench.pdftotextProgram, "-v"]) ?? "not found")")
        }
        say("  machine:   \(sysconf(Int32(_SC_NPROCESSORS_ONLN))) cores")
        say("")

        var files: [CorpusFile] = []
        var notices: [String] = []
        var info = stat()
        if stat(environment.corpus, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            files = CorpusFile.all(in: environment.corpus)
        }
        let corpusSteps: Set<Options.Step> = [
            .corpus, .forms, .process, .sign, .signProcess, .verifyCorpus, .verify, .ltv, .render, .text,
        ]
        if files.isEmpty, !options.steps.isDisjoint(with: corpusSteps) {
            let signing = !options.steps.isDisjoint(with: [.sign, .signProcess, .verify, .ltv])
            let notice =
                "no corpus at \(environment.corpus) (set AUTOGRAPH_CORPUS): corpus steps skipped"
                + (signing ? "; the signing steps sign only the generated 1-page file" : "")
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

        let signing = try SigningSteps(options: options, environment: environment).run(files, notices: &notices)

        let pkcs11 =
            try options.steps.contains(.pkcs11)
            ? report(PKCS11Bench(options: options, environment: environment).run()) : nil
        let csc =
            try options.steps.contains(.csc) ? report(CSCBench(options: options, environment: environment).run()) : nil

        var render: RenderBench.Result? = nil
        if options.steps.contains(.render), !files.isEmpty {
            if let autograph = environment.autograph {
                render = try RenderBench(environment: environment, rounds: options.rounds).run(
                    files, autograph: autograph)
                printLines(render!.details(verbose: options.verbose))
            } else {
                let notice =
                    "no release autograph binary (swift build -c release --package-path Benchmarks): render skipped"
                Progress.note("notice: " + notice)
                notices.append(notice)
            }
        }

        var text: TextBench.Result? = nil
        if options.steps.contains(.text), !files.isEmpty {
            if let autograph = environment.autograph {
                text = try TextBench(environment: environment, rounds: options.rounds).run(files, autograph: autograph)
                printLines(text!.details(verbose: options.verbose))
            } else {
                let notice =
                    "no release autograph binary (swift build -c release --package-path Benchmarks): text skipped"
                Progress.note("notice: " + notice)
                notices.append(notice)
            }
        }

        var summary = Summary(corpusFiles: files.count, skipped: corpus?.skipped.count)
        summary.notices = notices
        if options.steps.contains(.corpus) { summary.add(corpus: corpus) }
        if options.steps.contains(.forms) { summary.add(forms: forms) }
        if options.steps.contains(.process) { summary.add(processes: processes) }
        if options.steps.contains(.big) { summary.add(bigFile: big) }
        if options.steps.contains(.sign) { summary.add(sign: signing.sign) }
        if options.steps.contains(.signProcess) { summary.add(signProcesses: signing.signProcess) }
        if options.steps.contains(.verifyCorpus) {
            summary.add(verify: signing.verifyCorpus, label: "corpus signed", step: "verify-corpus")
        }
        if options.steps.contains(.verify) {
            summary.add(verify: signing.verify, label: "sign-process outputs", step: "verify")
        }
        if options.steps.contains(.signBig) { summary.add(signBig: signing.signBig) }
        if options.steps.contains(.verifyBig) { summary.add(verifyBig: signing.verifyBig) }
        if options.steps.contains(.ltv) { summary.add(ltv: signing.ltv) }
        if options.steps.contains(.pkcs11) { summary.add(remoteSigner: pkcs11, kind: PKCS11Bench.kind) }
        if options.steps.contains(.csc) { summary.add(remoteSigner: csc, kind: CSCBench.kind) }
        if options.steps.contains(.render) { summary.add(render: render) }
        if options.steps.contains(.text) { summary.add(text: text) }
        printLines(summary.lines())
    }

    /// The details of a `pkcs11` or `csc` step that has run, with a notice when it was skipped.
    private func report(_ result: RemoteSignerStep.Result) -> RemoteSignerStep.Result {
        if let failure = result.failure { Progress.note("notice: \(result.kind.step) skipped: \(failure)") }
        printLines(result.details())
        return result
    }

    func printLines(_ lines: [String]) {
        for line in lines { say(line) }
        say("")
    }

    /// One line on standard output, unbuffered, so that it interleaves with the progress on standard error.
    func say(_ line: String) {
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
