import Glibc

/// Step `ltv`: long-term signatures (PAdES B-LTA) made, renewed and validated against certomancer's
/// Animator on loopback (``CertomancerServer``), one process per document, operation, tool and run, the
/// two tools one after the other on each document; wall time from fork to reaping, and the requests the
/// Animator logged while the process ran:
///
/// 1. sign: `autograph sign FILE -o OUT --key K --cert C --chain CHAIN --field Sig --invisible --level B-LTA
///    --tsa URL` beside `pyhanko sign addsig --field Sig --use-pades --use-pades-lta --with-validation-info
///    --timestamp-url URL --trust-replace --trust ROOT pemder --key K --cert C --chain CHAIN --no-pass FILE OUT`;
/// 2. update (a new document time-stamp over validation material for the last one): `autograph extend OUT
///    -o OUT2 --tsa URL` beside `pyhanko sign ltaupdate --timestamp-url URL --trust ROOT --trust-replace
///    COPY`, which updates its file in place (a copy of its B-LTA file, made untimed);
/// 3. validate, each tool the B-LTA file it made in the same run: `autograph verify OUT --trust ROOT --json
///    --revocation online` beside `pyhanko sign validate --trust ROOT --trust-replace --pretty-print OUT`
///    (pyHanko fetches OCSP responses or CRLs and fails on a missing one by default: `hard-fail`).
///
/// The key is certomancer's `signer` (RSA 2048, `Tests/Fixtures/certomancer/keys/signer.key.pem`); its
/// certificate and CHAIN (the intermediate and the root) come from the Animator, which makes them at start
/// with this port in their AIA and CRL distribution point URLs. Both tools get the same chain: pyHanko
/// also knows the root from `--trust`, `autograph sign` has no trust option.
struct LTVBench {
    enum Operation: Int, CaseIterable {
        case sign
        case update
        case validate

        var title: String {
            switch self {
            case .sign: "sign B-LTA"
            case .update: "LTA update"
            case .validate: "validate, revocation online"
            }
        }

        /// The two command names, for the details.
        var tools: (String, String) {
            switch self {
            case .sign: ("autograph sign --level B-LTA", "pyhanko sign addsig --use-pades-lta")
            case .update: ("autograph extend --tsa", "pyhanko sign ltaupdate")
            case .validate: ("autograph verify --revocation online", "pyhanko sign validate")
            }
        }
    }

    /// Requests by kind ("TSA", "OCSP", "CRL", "certificate", "other").
    typealias Tally = [String: Int]

    /// One operation, both tools: time per document and run, and the requests of each run.
    struct Pair: ToolComparison {
        var operation: Operation
        var rounds: Int
        var ours: ToolRuns
        /// nil when pyHanko cannot be run.
        var peer: ToolRuns?
        /// Per document: the requests of each run (only the runs that completed).
        var oursRequests: [[Tally]]
        var peerRequests: [[Tally]]
        /// Runs whose validation accepted every signature (exit code 0), by tool (validate only).
        var oursAccepted = 0
        var peerAccepted = 0

        /// The documents both tools completed in every run.
        var measured: [Int] {
            ours.seconds.indices.filter {
                ours.completed($0, rounds: rounds) && (peer?.completed($0, rounds: rounds) ?? true)
            }
        }
        var ratio: Double? { ratio(total(ours), total(peer)) }
    }

    struct Result {
        var documents: [CorpusFile]
        var runs: Int
        /// In ``Operation`` order; empty when the Animator did not start.
        var pairs: [Pair] = []
        var serviceURL = ""
        var log = ""
        /// Why pyHanko was not run, or nil.
        var peerProblem: String?
        /// Why nothing was measured, or nil.
        var failure: String?

        func pair(_ operation: Operation) -> Pair? {
            operation.rawValue < pairs.count ? pairs[operation.rawValue] : nil
        }
    }

    var environment: BenchEnvironment
    var runs: Int

    /// The documents and outputs of this step, and the Animator's log.
    var directory: String { environment.buildPath("bench-ltv") }

    /// The documents of the step: the generated 1-page file, and of the corpus files the signing steps
    /// chose (`selection`, the generated file last), the one of median size and the largest.
    static func documents(_ selection: [CorpusFile]) -> [CorpusFile] {
        guard let sample = selection.last else { return [] }
        let corpus = selection.dropLast().sorted { ($0.size, $0.name) < ($1.size, $1.name) }
        var chosen = [sample]
        for file in [corpus.isEmpty ? nil : corpus[corpus.count / 2], corpus.last].compactMap({ $0 })
        where !chosen.contains(where: { $0.path == file.path }) {
            chosen.append(file)
        }
        return chosen
    }

    func run(_ documents: [CorpusFile], autograph: String) throws(BenchError) -> Result {
        var result = Result(documents: documents, runs: runs)
        if let problem = CertomancerServer.problem(environment) {
            result.failure = problem
            return result
        }
        mkdir(directory, 0o755)
        var server: CertomancerServer
        do {
            server = try CertomancerServer.start(environment, directory: directory)
        } catch {
            result.failure = error.description
            return result
        }
        defer { server.stop() }
        result.serviceURL = server.baseURL
        result.log = server.log
        let chain = directory + "/chain.pem"
        try CorpusProtocol.write(
            String(decoding: readFile(server.intermediate) + readFile(server.root), as: UTF8.self), to: chain)
        let key = environment.rootDirectory + "/Tests/Fixtures/certomancer/keys/signer.key.pem"
        result.peerProblem = SignSetup.pyhankoProblem(environment)
        let havePeer = result.peerProblem == nil
        let pyhanko = [environment.python, "-m", "pyhanko", "sign"]
        CorpusFile.warm(documents)

        result.pairs = Operation.allCases.map { operation in
            let (ours, peer) = operation.tools
            return Pair(
                operation: operation, rounds: runs, ours: ToolRuns(name: ours, files: documents.count),
                peer: havePeer ? ToolRuns(name: peer, files: documents.count) : nil,
                oursRequests: Array(repeating: [], count: documents.count),
                peerRequests: Array(repeating: [], count: documents.count))
        }
        let launcher = environment.launcher
        /// Runs `arguments` as `operation`'s tool on document `index`; true when it did its work (and
        /// wrote `output`, when given).
        /// `output` is removed first unless the tool updates it in place.
        func measure(
            _ operation: Operation, ours: Bool, _ arguments: [String], output: String?, inPlace: Bool = false,
            document index: Int
        ) throws(BenchError) -> Bool {
            if let output, !inPlace { unlink(output) }
            let offset = server.logOffset
            let run = try launcher.run(arguments, stdout: .capture, stderr: .capture, timeout: 300)
            let requests = server.requests(since: offset)
            var pair = result.pairs[operation.rawValue]
            defer { result.pairs[operation.rawValue] = pair }
            var tool = ours ? pair.ours : pair.peer!
            defer { if ours { pair.ours = tool } else { pair.peer = tool } }
            tool.exitCodes[run.exitCode, default: 0] += 1
            // `autograph sign` and `extend` exit 3 when they wrote the document with warnings; a validator
            // exits 1 when it does not accept a signature (still a validation, timed).
            let accepted: Set<Int32> = operation == .validate ? [0, 1] : (ours ? [0, 3] : [0])
            let done = !run.timedOut && accepted.contains(run.exitCode) && output.map { access($0, R_OK) == 0 } != false
            if done {
                tool.seconds[index].append(run.seconds)
                var tally: Tally = [:]
                for request in requests { tally[request.kind, default: 0] += 1 }
                if ours { pair.oursRequests[index].append(tally) } else { pair.peerRequests[index].append(tally) }
                if operation == .validate, run.exitCode == 0 {
                    if ours { pair.oursAccepted += 1 } else { pair.peerAccepted += 1 }
                }
            } else if tool.failures[index] == nil {
                let last = run.outputText.split(separator: "\n").last.map(String.init) ?? ""
                tool.failures[index] =
                    run.timedOut ? "timed out" : "exit code \(run.exitCode): \(last.prefix(120))"
            }
            return done
        }
        func skip(_ operation: Operation, ours: Bool, document index: Int) {
            if ours {
                if result.pairs[operation.rawValue].ours.failures[index] == nil {
                    result.pairs[operation.rawValue].ours.failures[index] = "no B-LTA file of its own to work on"
                }
            } else if result.pairs[operation.rawValue].peer?.failures[index] == nil {
                result.pairs[operation.rawValue].peer?.failures[index] = "no B-LTA file of its own to work on"
            }
        }

        for run in 0..<runs {
            for (index, document) in documents.enumerated() {
                Progress.update("  ltv, run \(run + 1)/\(runs): \(index + 1)/\(documents.count) documents")
                let base = "\(directory)/\(index)"
                let oursSigned = base + "-autograph.pdf"
                let peerSigned = base + "-pyhanko.pdf"
                let oursOK = try measure(
                    .sign, ours: true,
                    [
                        autograph, "sign", document.path, "-o", oursSigned, "--key", key, "--cert", server.signer,
                        "--chain", chain, "--field", "Sig", "--invisible", "--level", "B-LTA", "--tsa", server.tsaURL,
                    ], output: oursSigned, document: index)
                let peerOK =
                    havePeer
                    ? try measure(
                        .sign, ours: false,
                        pyhanko + [
                            "addsig", "--field", "Sig", "--use-pades", "--use-pades-lta", "--with-validation-info",
                            "--timestamp-url", server.tsaURL, "--trust-replace", "--trust", server.root, "pemder",
                            "--key", key, "--cert", server.signer, "--chain", chain, "--no-pass", document.path,
                            peerSigned,
                        ], output: peerSigned, document: index) : false

                if oursOK {
                    let updated = base + "-autograph-updated.pdf"
                    _ = try measure(
                        .update, ours: true, [autograph, "extend", oursSigned, "-o", updated, "--tsa", server.tsaURL],
                        output: updated, document: index)
                } else {
                    skip(.update, ours: true, document: index)
                }
                if peerOK {
                    let updated = base + "-pyhanko-updated.pdf"
                    try copyFile(peerSigned, to: updated)
                    _ = try measure(
                        .update, ours: false,
                        pyhanko + [
                            "ltaupdate", "--timestamp-url", server.tsaURL, "--trust", server.root, "--trust-replace",
                            updated,
                        ], output: updated, inPlace: true, document: index)
                } else if havePeer {
                    skip(.update, ours: false, document: index)
                }

                if oursOK {
                    _ = try measure(
                        .validate, ours: true,
                        [autograph, "verify", oursSigned, "--trust", server.root, "--json", "--revocation", "online"],
                        output: nil, document: index)
                } else {
                    skip(.validate, ours: true, document: index)
                }
                if peerOK {
                    _ = try measure(
                        .validate, ours: false,
                        pyhanko + [
                            "validate", "--trust", server.root, "--trust-replace", "--pretty-print", peerSigned,
                        ],
                        output: nil, document: index)
                } else if havePeer {
                    skip(.validate, ours: false, document: index)
                }
            }
            Progress.finish(
                "  ltv, run \(run + 1)/\(runs): "
                    + result.pairs.map { pair in
                        "\(pair.operation.title) "
                            + ([pair.ours] + (pair.peer.map { [$0] } ?? [])).map { tool in
                                Format.seconds(tool.seconds.reduce(0) { $0 + ($1.count > run ? $1[run] : 0) })
                            }.joined(separator: " / ")
                    }.joined(separator: ", "))
        }
        return result
    }

    /// Copies the file at `source` to `destination` (replaced).
    private func copyFile(_ source: String, to destination: String) throws(BenchError) {
        let bytes = readFile(source)
        let descriptor = open(destination, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else {
            throw BenchError("cannot write \(destination): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == bytes.count else { throw BenchError("cannot write \(destination)") }
    }
}
