/// The signing steps in order: `sign` (in process), `sign-process`, `verify-corpus` (over the corpus
/// files of the `signed` class), `verify` (over sign-process's outputs), `sign-big`, `verify-big`, `ltv`,
/// each printing its details as it finishes; then the verify steps' verdicts file.
struct SigningSteps {
    struct Results {
        var sign: [CorpusBench.Result]?
        var signProcess: SignProcessBench.Result?
        var verifyCorpus: VerifyBench.Result?
        var verify: VerifyBench.Result?
        var signBig: SignBigBench.Result?
        var verifyBig: VerifyBigBench.Result?
        var ltv: LTVBench.Result?
    }

    static let steps: Set<Options.Step> = [.sign, .signProcess, .verifyCorpus, .verify, .signBig, .verifyBig, .ltv]

    var options: Options
    var environment: BenchEnvironment

    func run(_ corpus: [CorpusFile], notices: inout [String]) throws(BenchError) -> Results {
        var results = Results()
        let steps = options.steps
        let bench = Bench(options: options, environment: environment)
        guard !steps.isDisjoint(with: SigningSteps.steps) else { return results }
        let needsCLI = !steps.isDisjoint(with: SigningSteps.steps.subtracting([.sign]))
        if needsCLI, environment.autograph == nil {
            let notice =
                "no release autograph binary (swift build -c release --package-path Benchmarks): "
                + "sign-process, the verify steps, sign-big and ltv skipped"
            Progress.note("notice: " + notice)
            notices.append(notice)
        }

        var selection: SignSetup.Selection? = nil
        if !steps.isDisjoint(with: [.sign, .signProcess, .verify, .ltv]) {
            Progress.note("signing: choosing the documents (Autograph opens them here, pyHanko --probe)")
            selection = try SignSetup.select(corpus, environment: environment)
            bench.printLines(["Signing: the documents of sign, sign-process, verify and ltv", selection!.details()])
        }
        if steps.contains(.sign), let selection {
            results.sign = try SignBench(environment: environment, rounds: options.rounds).run(selection)
            for result in results.sign! { bench.printLines(result.details(verbose: options.verbose)) }
        }
        guard let autograph = environment.autograph else { return results }
        if steps.contains(.signProcess), let selection {
            Progress.note(
                "sign-process: autograph sign and pyhanko sign addsig, \(selection.files.count) documents × "
                    + "\(SignSetup.keys.count) keys × \(options.rounds) rounds")
            results.signProcess = try SignProcessBench(environment: environment, rounds: options.rounds).run(
                selection.files, autograph: autograph)
            bench.printLines(results.signProcess!.details())
        }
        if steps.contains(.verifyCorpus) {
            let signed = corpus.filter { $0.classes.contains("signed") }
            if signed.isEmpty {
                let notice =
                    "verify-corpus: no corpus file of the signed class (is the corpus there, with its catalog?)"
                Progress.note("notice: " + notice)
                notices.append(notice)
            } else {
                Progress.note(
                    "verify-corpus: autograph verify, pyhanko sign validate and pdfsig, \(signed.count) files × "
                        + "\(options.rounds) rounds")
                results.verifyCorpus = try VerifyBench(environment: environment, rounds: options.rounds).run(
                    signed.map { VerifyBench.Target(name: $0.name, path: $0.path, password: $0.password) },
                    title: "the corpus files of the signed class", key: "corpus-signed", autograph: autograph)
                bench.printLines(results.verifyCorpus!.details())
            }
        }
        if steps.contains(.verify), let selection {
            var signed = results.signProcess?.outputs
            if signed == nil {
                Progress.note("verify: signing the documents once with both tools (not timed)")
                signed = try SignProcessBench(environment: environment, rounds: 1).run(
                    selection.files, autograph: autograph
                ).outputs
            }
            Progress.note(
                "verify: autograph verify, pyhanko sign validate and pdfsig, \(signed!.count) files × "
                    + "\(options.rounds) rounds")
            results.verify = try VerifyBench(environment: environment, rounds: options.rounds).run(
                signed!.map { VerifyBench.Target(name: $0.name, path: $0.path) },
                title: "the sign-process outputs, both tools, both keys", key: "sign-process-outputs",
                autograph: autograph)
            bench.printLines(results.verify!.details())
        }
        if steps.contains(.signBig) {
            Progress.note("sign-big: autograph sign of the 1 GB file and sha256sum, then verify and pdfsig")
            do {
                results.signBig = try SignBigBench(environment: environment, runs: options.bigRuns).run(
                    autograph: autograph)
                bench.printLines(results.signBig!.details())
            } catch {
                Progress.note("notice: sign-big: \(error)")
                notices.append("sign-big not measured: \(error)")
            }
        }
        if steps.contains(.verifyBig) {
            Progress.note(
                "verify-big: autograph verify, pyhanko sign validate, pdfsig and sha256sum on the signed 1 GB file "
                    + "with one later revision")
            do {
                results.verifyBig = try VerifyBigBench(environment: environment, runs: options.bigRuns).run(
                    autograph: autograph)
                bench.printLines(results.verifyBig!.details())
            } catch {
                Progress.note("notice: verify-big: \(error)")
                notices.append("verify-big not measured: \(error)")
            }
        }
        if steps.contains(.ltv), let selection {
            let documents = LTVBench.documents(selection.files)
            Progress.note(
                "ltv: B-LTA signing, LTA update and validation with revocation against certomancer, autograph and "
                    + "pyHanko, \(documents.count) documents × \(options.ltvRuns) run\(options.ltvRuns == 1 ? "" : "s")"
            )
            results.ltv = try LTVBench(environment: environment, runs: options.ltvRuns).run(
                documents, autograph: autograph)
            bench.printLines(results.ltv!.details())
        }
        if results.verifyCorpus != nil || results.verify != nil || results.verifyBig != nil {
            let path = environment.buildPath("verify-verdicts.json")
            do {
                try VerifyVerdicts(environment: environment).write(results, to: path)
                bench.printLines(["Verdicts of the verify steps: \(path)"])
            } catch {
                notices.append("the verdicts file was not written: \(error)")
            }
        }
        return results
    }
}
