/// The command line of `autograph-bench`.
struct Options {
    enum Step: String, CaseIterable {
        case corpus
        case forms
        case process
        case big
        case sign
        case signProcess = "sign-process"
        case signBig = "sign-big"
        case verifyCorpus = "verify-corpus"
        case verify
        case verifyBig = "verify-big"
        case ltv
        case pkcs11
        case csc
        case render
        case text
    }

    enum Mode {
        /// The benchmark itself.
        case bench
        /// Internal: open a file with PDFCore, print its page count (step 3's child).
        case openOnly(path: String, password: String?)
        /// Internal: the Autograph side of step 1.
        case corpusWorker(list: String, rounds: Int)
        /// Internal: the Autograph side of the forms step.
        case formsWorker(list: String, rounds: Int)
        /// Internal: the Autograph side of the sign step (task list, rounds, PKCS#12 file, password, field, rectangle).
        case signWorker(SignWorker.Arguments)
        /// Internal: one signature of FILE into OUT, phase by phase (the sign-big breakdown).
        case signPhases(path: String, p12: String, password: String, output: String)
        /// Internal: the in-process side of the render step (task list, resolution).
        case renderWorker(list: String, dpi: Double)
        /// Internal: the in-process side of the pkcs11 step's throughput (token, key, document, counts).
        case pkcs11Worker(PKCS11Worker.Arguments)
        /// Internal: the in-process side of the csc step's throughput (server, credential, document, counts).
        case cscWorker(CSCWorker.Arguments)
        case help
    }

    var mode = Mode.bench
    var verbose = false
    var rounds = 3
    var bigRuns = 5
    var ltvRuns = 5
    var pkcs11Runs = 5
    var pkcs11Signatures = 100
    var cscRuns = 5
    var cscSignatures = 100
    var steps = Set(Step.allCases)

    static let usage = """
        usage: autograph-bench [--verbose] [--rounds N] [--big-runs N] [--ltv-runs N] [--pkcs11-runs N]
                               [--pkcs11-signatures N] [--csc-runs N] [--csc-signatures N]
                               [--only corpus,forms,process,big,sign,sign-process,sign-big,verify-corpus,verify,
                                       verify-big,ltv,pkcs11,csc,render,text | verify-all]

        Autograph beside its peers, as ratios (Autograph / peer; lower is better) with targets:
          corpus   every corpus file opened, every object resolved, every stream decoded, in process,
                   against pikepdf in one Python process (median of --rounds, default 3)
          forms    every text field of every corpus form filled and the document saved, in process, against
                   pypdf in one Python process (median of --rounds)
          process  `autograph info FILE` against `qpdf --check FILE`, one process per file (median of --rounds)
          big      a generated 1 GB PDF opened and its pages counted in a child process: wall time and peak
                   RSS (median time, max RSS of --big-runs, default 5), with qpdf and pikepdf for reference
          sign     up to 40 unsigned corpus files and a 1-page file signed with a visible field, P-256 and
                   RSA-2048, in process, against pyHanko in one Python process (median of --rounds)
          sign-process  `autograph sign` against `pyhanko sign addsig`, one process per file (median of --rounds)
          sign-big `autograph sign --invisible` of the 1 GB file against `sha256sum` of it: wall time and peak
                   RSS (median, max of --big-runs), then `autograph verify` of the signed copy against `pdfsig`
          verify-corpus  `autograph verify` against `pyhanko sign validate` (difference analysis on) and
                   `pdfsig`, one process per corpus file of the `signed` class (median of --rounds)
          verify   the same three over the signed files of sign-process (signed once, untimed, when
                   sign-process does not run)
          verify-big  the same three and `sha256sum` on the 1 GB file signed as sign-big signs it, with one
                   incremental update after the signature: wall time and peak RSS (median, max of --big-runs)
          verify-all  verify-corpus, verify and verify-big; every verify step writes
                   Benchmarks/.build/verify-verdicts.json (each tool's verdict on each file)
          ltv      long-term signatures against certomancer on loopback, one process per document: `autograph
                   sign --level B-LTA` against `pyhanko sign addsig --use-pades-lta`, `autograph extend --tsa`
                   against `pyhanko sign ltaupdate`, `autograph verify --revocation online` against `pyhanko
                   sign validate`: wall time (median of --ltv-runs, default 5) and the requests each made
          pkcs11   signing through a SoftHSM2 token the bench makes in a temporary folder, RSA-2048 and P-256:
                   `autograph sign --pkcs11` against `pyhanko sign addsig pkcs11`, one process each (median of
                   --pkcs11-runs, default 5), then signatures per second in process through one token, 1 and 8
                   threads, against pyHanko's PKCS11Signer (--pkcs11-signatures per pass, default 100; median
                   of --rounds)
          csc      remote signing through a CSC API server on loopback (certomancer-csc-dummy, SCAL 2),
                   RSA-2048 and P-384: `autograph sign --csc` against pyHanko's CSC signer, one process each
                   (median of --csc-runs, default 5), then signatures per second in process, 1 and 8 tasks
                   (--csc-signatures per pass, default 100; median of --rounds), and the requests the server
                   received per signature
          render   page 1 of every corpus file at 150 dpi to PNG: `autograph render` against `mutool draw` and
                   `pdftoppm`, one process per page (median of --rounds), then pages per second in process
                   with 1 and 2 concurrent tasks
          text     all the text of every corpus file: `autograph text FILE` against `pdftotext -enc UTF-8
                   FILE -`, one process per file, output to /dev/null (median of --rounds)

          --verbose   also list the 10 slowest files of each side
        Environment: AUTOGRAPH_CORPUS (default /work/shared/corpus), AUTOGRAPH_BIN, PYTHON, QPDF, PDFSIG,
        MUTOOL, PDFTOPPM, PDFTOTEXT; ltv runs `certomancer` and `curl` from PATH; pkcs11 runs
        `softhsm2-util` from PATH and /usr/lib/softhsm/libsofthsm2.so (SOFTHSM2_MODULE); csc runs
        `certomancer` from PATH and certomancer-csc-dummy from PYTHON.
        The report exits 0 even when a target is missed; 1 only when the harness itself fails.
        """

    static func parse(_ arguments: [String]) throws(BenchError) -> Options {
        var options = Options()
        var index = 0
        func value(_ name: String) throws(BenchError) -> String {
            guard index < arguments.count else { throw BenchError("\(name) needs a value") }
            index += 1
            return arguments[index - 1]
        }
        func count(_ name: String) throws(BenchError) -> Int {
            let text = try value(name)
            guard let number = Int(text), number > 0 else {
                throw BenchError("\(name) needs a positive number, not '\(text)'")
            }
            return number
        }
        /// A worker's `DOCUMENT SAMPLE COUNT COUNTS ROUNDS` (COUNTS: "1,8", of threads or tasks).
        func passes(_ name: String, unit: String) throws(BenchError) -> RemoteSignerWorker.Passes {
            let document = try value(name)
            let sample = try value(name)
            let signatures = try count(name)
            let counts = try value(name).split(separator: ",").map { Int($0) ?? 0 }
            guard !counts.isEmpty, counts.allSatisfy({ $0 > 0 }) else {
                throw BenchError("\(name) needs \(unit) counts such as 1,8")
            }
            return RemoteSignerWorker.Passes(
                document: document, sample: sample, signatures: signatures, counts: counts, rounds: try count(name))
        }
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            switch argument {
            case "--verbose", "-v": options.verbose = true
            case "--rounds": options.rounds = try count(argument)
            case "--big-runs": options.bigRuns = try count(argument)
            case "--ltv-runs": options.ltvRuns = try count(argument)
            case "--pkcs11-runs": options.pkcs11Runs = try count(argument)
            case "--pkcs11-signatures": options.pkcs11Signatures = try count(argument)
            case "--csc-runs": options.cscRuns = try count(argument)
            case "--csc-signatures": options.cscSignatures = try count(argument)
            case "--only":
                let names = try value(argument).split(separator: ",").map(String.init)
                options.steps = []
                for name in names {
                    if name == "verify-all" {
                        options.steps.formUnion([.verifyCorpus, .verify, .verifyBig])
                        continue
                    }
                    guard let step = Step(rawValue: name) else { throw BenchError("--only: unknown step '\(name)'") }
                    options.steps.insert(step)
                }
            case "--open-only":
                let path = try value(argument)
                let password = index < arguments.count ? arguments[index] : nil
                options.mode = .openOnly(path: path, password: password)
                return options
            case "--corpus-worker":
                let list = try value(argument)
                options.mode = .corpusWorker(list: list, rounds: try count(argument))
            case "--forms-worker":
                let list = try value(argument)
                options.mode = .formsWorker(list: list, rounds: try count(argument))
                return options
            case "--sign-worker":
                let list = try value(argument)
                let rounds = try count(argument)
                options.mode = .signWorker(
                    SignWorker.Arguments(
                        listPath: list, rounds: rounds, p12: try value(argument), password: try value(argument),
                        fieldName: try value(argument), rect: try value(argument)))
                return options
            case "--sign-phases":
                options.mode = .signPhases(
                    path: try value(argument), p12: try value(argument), password: try value(argument),
                    output: try value(argument))
                return options
            case "--render-worker":
                let list = try value(argument)
                let text = try value(argument)
                guard let dpi = Double(text), dpi > 0 else {
                    throw BenchError("\(argument) needs a resolution, not '\(text)'")
                }
                options.mode = .renderWorker(list: list, dpi: dpi)
                return options
            case "--pkcs11-worker":
                var values: [String] = []
                for _ in 0..<5 { values.append(try value(argument)) }
                options.mode = .pkcs11Worker(
                    PKCS11Worker.Arguments(
                        module: values[0], tokenLabel: values[1], pinFile: values[2], keyLabel: values[3],
                        chain: values[4], passes: try passes(argument, unit: "thread")))
                return options
            case "--csc-worker":
                let (baseURL, credential) = (try value(argument), try value(argument))
                var passes = try passes(argument, unit: "task")
                passes.requestLog = try value(argument)
                options.mode = .cscWorker(CSCWorker.Arguments(baseURL: baseURL, credential: credential, passes: passes))
                return options
            case "--help", "-h":
                options.mode = .help
                return options
            default:
                throw BenchError("unknown argument '\(argument)'\n\(usage)")
            }
        }
        return options
    }
}
