import Glibc

/// certomancer-csc-dummy (PyPI), a CSC API v1 server, on a loopback port the system chooses, for the
/// `csc` step: the root package's `Tests/Scripts/csc_dummy_server.py --cache-keys CONFIG 2 LOG`, the
/// tests' command line with each key loaded once (the stock server loads it again for every hash: 60 ms
/// an RSA-2048 signature, which would measure `cryptography` rather than the clients), with `Tests/Fixtures/certomancer/certomancer.yml` and SCAL 2 (the SAD of
/// `credentials/authorize` bound to the hashes it names). It prints `PORT n` once it listens on
/// 127.0.0.1, appends one line per request to LOG (`METHOD PATH BODY-BYTES STATUS`, written before the
/// answer is sent, so when a client has its answer the request is in the log) and exits when its
/// standard input closes (``stop()``). Its credentials are `autograph/CERTIFICATE-LABEL`: `autograph/signer`
/// (RSA-2048) and `autograph/signer-ec` (P-384), certified by certomancer's intermediate and root.
struct CSCDummyServer {
    /// `http://127.0.0.1:PORT`: what comes before `/csc/v1`.
    var baseURL: String
    /// The request log.
    var log: String
    /// The server's standard output and error.
    var output: String
    private var process: ServerProcess

    /// The server script of the root package.
    static func script(_ environment: BenchEnvironment) -> String {
        environment.rootDirectory + "/Tests/Scripts/csc_dummy_server.py"
    }

    /// Why the server or pyHanko's CSC signer cannot run, or nil.
    static func problem(_ environment: BenchEnvironment) -> String? {
        if !Launcher.isAvailable(environment.python) { return "\(environment.python) not found" }
        if !Launcher.isAvailable("certomancer") { return "certomancer not found (scripts/install-deps bench)" }
        let run = try? environment.launcher.run(
            [environment.python, "-c", "import csc_dummy.csc_dummy_server, aiohttp, pyhanko.sign.signers.csc_signer"],
            timeout: 120)
        return run?.succeeded == true
            ? nil
            : "\(environment.python) cannot import certomancer-csc-dummy, aiohttp and pyHanko's CSC signer "
                + "(pip install certomancer-csc-dummy pyhanko; scripts/install-deps bench)"
    }

    /// certomancer's root certificate, written into `directory` by `certomancer mass-summon` (the same
    /// configuration, so the same certificate as the server's chain ends with); its path.
    static func root(_ environment: BenchEnvironment, directory: String) throws(BenchError) -> String {
        let pki = directory + "/pki"
        let root = pki + "/root.cert.pem"
        let run = try environment.launcher.run(
            [
                "certomancer", "--config", CertomancerServer.configuration(environment), "mass-summon", "--flat",
                "--no-pfx", "autograph", pki,
            ], stdout: .capture, stderr: .capture, timeout: 300)
        guard run.succeeded, access(root, R_OK) == 0 else {
            let last = run.outputText.split(separator: "\n").last.map(String.init) ?? ""
            throw BenchError("certomancer mass-summon failed (exit \(run.exitCode)): \(last.prefix(200))")
        }
        return root
    }

    /// Starts the server with its log and output in `directory`, and waits (up to `timeout` seconds)
    /// for its `PORT n` line.
    static func start(_ environment: BenchEnvironment, directory: String, timeout: Double = 60) throws(BenchError)
        -> CSCDummyServer
    {
        let log = directory + "/csc-requests.log"
        let output = directory + "/csc-server.out"
        unlink(log)
        let arguments = [
            environment.python, script(environment), "--cache-keys", CertomancerServer.configuration(environment), "2",
            log,
        ]
        var server = CSCDummyServer(
            baseURL: "", log: log, output: output, process: try ServerProcess.spawn(arguments, log: output))
        let end = monotonicSeconds() + timeout
        while monotonicSeconds() < end {
            let text = String(decoding: readFile(output), as: UTF8.self)
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("PORT ") }),
                let port = Int(line.dropFirst(5))
            {
                server.baseURL = "http://127.0.0.1:\(port)"
                return server
            }
            if server.process.reapIfExited() {
                server.stop()
                throw BenchError("the CSC server exited: \(text.suffix(2000))")
            }
            usleep(50_000)
        }
        server.stop()
        throw BenchError("the CSC server printed no port within \(Int(timeout)) s: \(arguments.joined(separator: " "))")
    }

    /// The number of lines of the file at `path` after byte `offset`.
    static func lines(_ path: String, since offset: Int) -> Int {
        let bytes = readFile(path)
        guard offset < bytes.count else { return 0 }
        return bytes[offset...].reduce(0) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
    }

    /// Stops the server: its standard input closed, it exits; killed when it has not after 10 s.
    mutating func stop() { process.stop() }
}
