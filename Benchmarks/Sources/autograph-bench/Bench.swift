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

        var pkcs11: PKCS11Bench.Result? = nil
        if options.steps.contains(.pkcs11) {
            Progress.note(
                "pkcs11: autograph sign --pkcs11 and pyhanko sign addsig pkcs11 on one SoftHSM2 token, "
                    + "\(SoftHSMStore.keys.count) keys × \(options.pkcs11Runs) runs, then "
                    + "\(options.pkcs11Signatures) signatures × \(options.rounds) passes in process, 1 and 8 threads")
            pkcs11 = try PKCS11Bench(
                environment: environment, runs: options.pkcs11Runs, rounds: options.rounds,
                signatures: options.pkcs11Signatures
            ).run(autograph: environment.autograph)
            if let failure = pkcs11?.failure { Progress.note("notice: pkcs11 skipped: \(failure)") }
            printLines(pkcs11!.details())
        }

        var csc: CSCBench.Result? = nil
        if options.steps.contains(.csc) {
            Progress.note(
                "csc: autograph sign --csc and pyHanko's CSC signer on one certomancer-csc-dummy server, "
                    + "\(CSCBench.keys.count) credentials × \(options.cscRuns) runs, then "
                    + "\(options.cscSignatures) signatures × \(options.rounds) passes in process, 1 and 8 tasks")
            csc = try CSCBench(
                environment: environment, runs: options.cscRuns, rounds: options.rounds,
                signatures: options.cscSignatures
            ).run(autograph: environment.autograph)
            if let failure = csc?.failure { Progress.note("notice: csc skipped: \(failure)") }
            printLines(csc!.details())
        }

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
        if options.steps.contains(.pkcs11) { summary.add(pkcs11: pkcs11) }
        if options.steps.contains(.csc) { summary.add(csc: csc) }
        if options.steps.contains(.render) { summary.add(render: render) }
        if options.steps.contains(.text) { summary.add(text: text) }
        printLines(summary.lines())
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
