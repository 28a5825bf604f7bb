import Glibc

/// Step `csc`: remote signing through a CSC API server on loopback, Autograph beside pyHanko's own CSC
/// signer, on one certomancer-csc-dummy server the step starts (``CSCDummyServer``, SCAL 2) and the same
/// credential, `autograph/signer` (RSA-2048) then `autograph/signer-ec` (P-384), the generated 1-page
/// document, a new invisible field `Sig`, measured as ``RemoteSignerStep`` measures:
///
/// 1. process per signature: `autograph sign DOC -o OUT --csc BASE --credential C --field Sig --invisible`
///    beside `$PYTHON Tests/Scripts/pyhanko_csc_sign.py BASE C DOC OUT Sig`, one after the other, once
///    untimed, then `--csc-runs` times each; wall time from fork to reaping, the median, and the requests the
///    server logged while each ran;
/// 2. throughput in one process: `autograph-bench --csc-worker` (``CSCWorker``) beside
///    `scripts/pyhanko_csc.py`, each `--csc-signatures` signatures per pass, `--rounds` passes with 1 task then
///    with 8; signatures per second of the median pass, and the requests the server logged per signature.
///
/// Then, untimed, `autograph verify --trust ROOT --revocation off` and `pyhanko sign validate --trust ROOT
/// --trust-replace --no-revocation-check` on each tool's last file of each part (ROOT: certomancer's root).
struct CSCBench {
    static let kind = RemoteSignerStep.Kind(
        step: "csc", plan: "autograph sign --csc and pyHanko's CSC signer on one certomancer-csc-dummy server",
        keyNoun: "credentials", title: "CSC remote signing through one certomancer-csc-dummy server on loopback",
        signature: "SCAL 2; a new invisible field, PAdES, SHA-256", unit: "task", place: "one server",
        ours: "autograph sign --csc", peer: "pyhanko_csc_sign.py", nameWidth: 22, countsRequests: true,
        verifyExtra: ["--revocation", "off"], processTarget: 0.20, throughputTarget: 0.20,
        keys: [
            RemoteSignerStep.Key(
                name: "RSA-2048", label: "rsa2048", handle: "autograph/signer", about: "credential 'autograph/signer'"),
            RemoteSignerStep.Key(
                name: "P-384", label: "p384", handle: "autograph/signer-ec", about: "credential 'autograph/signer-ec'"),
        ])

    var options: Options
    var environment: BenchEnvironment

    /// Runs the step, with `--csc-runs`, `--csc-signatures` and `--rounds`.
    func run() throws(BenchError) -> RemoteSignerStep.Result {
        var step = RemoteSignerStep(
            kind: Self.kind, environment: environment, runs: options.cscRuns, rounds: options.rounds,
            signatures: options.cscSignatures)
        let autograph = environment.autograph
        var result = try step.begin(problem: CSCDummyServer.problem(environment), autograph: autograph)
        guard let document = result.document else { return result }
        Progress.note("csc: certomancer's root (certomancer mass-summon), then the CSC server")
        let root: String
        var server: CSCDummyServer
        do {
            root = try CSCDummyServer.root(environment, directory: step.directory)
            server = try CSCDummyServer.start(environment, directory: step.directory)
        } catch {
            result.failure = "\(error)"
            return result
        }
        defer { server.stop() }
        result.setup = "server: \(server.baseURL), request log \(server.log)"
        step.requestLog = server.log
        CorpusFile.warm([document])

        for key in Self.kind.keys {
            let files = step.files(key)
            let processes = autograph.map { autograph in
                (
                    ours: [
                        autograph, "sign", document.path, "-o", files.ours, "--csc", server.baseURL, "--credential",
                        key.handle, "--field", "Sig", "--invisible",
                    ],
                    peer: [
                        environment.python, environment.rootDirectory + "/Tests/Scripts/pyhanko_csc_sign.py",
                        server.baseURL, key.handle, document.path, files.peer, "Sig",
                    ]
                )
            }
            let passes = [String(step.signatures), step.countList, String(step.rounds)]
            let workers = (
                ours: [
                    environment.executable, "--csc-worker", server.baseURL, key.handle, document.path, files.oursSample,
                ]
                    + passes + [server.log],
                peer: [environment.python, "\(environment.packageDirectory)/scripts/pyhanko_csc.py", server.baseURL]
                    + [key.handle, document.path] + passes + [files.peerSample, server.log]
            )
            result.keys.append(
                try step.measure(key, processes: processes, workers: workers, root: root, autograph: autograph))
        }
        return result
    }
}
