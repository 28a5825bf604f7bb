import Glibc

/// certomancer's Animator on a free loopback port, for the `ltv` step: the time stamping, OCSP and CRL
/// services of the root package's PKI `Tests/Fixtures/certomancer/certomancer.yml`, run as
///
///     certomancer --config Tests/Fixtures/certomancer/certomancer.yml \
///       --service-url-prefix http://127.0.0.1:PORT animate --port PORT
///
/// under `Tests/Scripts/run_until_stdin_closes.py`, which stops it when the bench closes its end of the
/// supervisor's standard input, or ends however it ends. The same command line as the tests'
/// `PDFTestSupport/Certomancer.swift`, started here in a few lines of its own because that module is not
/// a product the bench can depend on, and because the bench needs the Animator's log: werkzeug, which
/// serves `animate`, writes one line per request to standard error (`127.0.0.1 - - [date] "POST
/// /autograph/tsa/tsa HTTP/1.1" 200 -`) before it sends the response, so when a client process has
/// ended, every request it made is in the log (``requests(since:)``).
struct CertomancerServer {
    /// One request the Animator logged.
    struct Request {
        var method: String
        var path: String
        var status: Int

        /// What was asked for: "TSA", "OCSP", "CRL", "certificate" or "other".
        var kind: String {
            if path.hasPrefix("/autograph/tsa/") { return "TSA" }
            if path.hasPrefix("/autograph/ocsp/") { return "OCSP" }
            if path.hasPrefix("/autograph/crls/") { return "CRL" }
            if path.hasPrefix("/autograph/certs/") || path.hasPrefix("/_certomancer/any-cert/") {
                return "certificate"
            }
            return "other"
        }
    }

    var port: Int
    /// `http://127.0.0.1:PORT`.
    var baseURL: String
    /// The Animator's standard output and error.
    var log: String
    /// certomancer's `root`, `intermediate` and `signer` certificates (PEM), as it made them at start (their
    /// AIA and CRL distribution point URLs name this port).
    var root: String
    var intermediate: String
    var signer: String
    var launcher: Launcher
    /// The supervisor's process.
    private var process: ServerProcess

    /// The time stamping service of `tsa`.
    var tsaURL: String { baseURL + "/autograph/tsa/tsa" }

    /// certomancer's configuration in the root package.
    static func configuration(_ environment: BenchEnvironment) -> String {
        environment.rootDirectory + "/Tests/Fixtures/certomancer/certomancer.yml"
    }

    /// Why the Animator cannot be started, or nil.
    static func problem(_ environment: BenchEnvironment) -> String? {
        if !Launcher.isAvailable("certomancer") { return "certomancer not found (scripts/install-deps bench)" }
        if !Launcher.isAvailable("curl") { return "curl not found (scripts/install-deps bench)" }
        if !Launcher.isAvailable(environment.python) { return "\(environment.python) not found" }
        return nil
    }

    /// Starts the Animator, its log and the certificates in `directory`, and waits (up to `timeout`
    /// seconds) until it serves the root's certificate. A port taken between its choice and the
    /// Animator's bind is tried again on another, twice.
    static func start(_ environment: BenchEnvironment, directory: String, timeout: Double = 60) throws(BenchError)
        -> CertomancerServer
    {
        var failure = BenchError("certomancer did not start")
        for _ in 0..<3 {
            let port = try freePort()
            let base = "http://127.0.0.1:\(port)"
            let log = directory + "/certomancer.log"
            let arguments = [
                environment.python, environment.rootDirectory + "/Tests/Scripts/run_until_stdin_closes.py",
                "certomancer", "--config", configuration(environment), "--service-url-prefix", base, "animate",
                "--port", String(port),
            ]
            let process = try ServerProcess.spawn(arguments, log: log)
            var server = CertomancerServer(
                port: port, baseURL: base, log: log, root: directory + "/root.cert.pem",
                intermediate: directory + "/intermediate.cert.pem", signer: directory + "/signer.cert.pem",
                launcher: environment.launcher, process: process)
            let end = monotonicSeconds() + timeout
            var exited = false
            while monotonicSeconds() < end {
                if server.process.reapIfExited() {
                    exited = true
                    break
                }
                if (try? server.download("root", to: server.root)) == true { break }
                usleep(200_000)
            }
            let text = String(decoding: readFile(log), as: UTF8.self)
            if !exited, access(server.root, R_OK) == 0 {
                for (label, path) in [("intermediate", server.intermediate), ("signer", server.signer)] {
                    guard try server.download(label, to: path) else {
                        server.stop()
                        throw BenchError("certomancer on \(base) did not serve the certificate '\(label)'")
                    }
                }
                return server
            }
            server.stop()
            failure = BenchError(
                (exited ? "certomancer exited" : "certomancer did not answer on \(base) within \(Int(timeout)) s")
                    + ": \(arguments.dropFirst(2).joined(separator: " "))\n\(text.suffix(2000))")
            guard exited, text.contains("in use") else { throw failure }
        }
        throw failure
    }

    /// Downloads the certificate `label` (PEM) with curl; false when the Animator does not serve it.
    private func download(_ label: String, to path: String) throws(BenchError) -> Bool {
        unlink(path)
        let run = try launcher.run(
            [
                "curl", "-sf", "--max-time", "10", "-o", path,
                "\(baseURL)/_certomancer/any-cert/autograph/\(label).cert.pem",
            ],
            timeout: 20)
        return run.succeeded && access(path, R_OK) == 0
    }

    /// The size of the log now: what ``requests(since:)`` reads from.
    var logOffset: Int { fileSize(log) }

    /// The requests logged after `offset` (a ``logOffset``).
    func requests(since offset: Int) -> [Request] {
        let bytes = readFile(log)
        guard offset < bytes.count else { return [] }
        return String(decoding: bytes[offset...], as: UTF8.self).split(separator: "\n").compactMap { line in
            // 127.0.0.1 - - [02/Dec/2026 07:40:14] "POST /autograph/ocsp/root HTTP/1.1" 200 -
            guard let open = line.firstRange(of: "] \""), let close = line.lastIndex(of: "\"") else { return nil }
            let request = line[open.upperBound..<close].split(separator: " ")
            let after = line[line.index(after: close)...].split(separator: " ")
            guard request.count == 3, request[2].hasPrefix("HTTP/"), let status = after.first.flatMap({ Int($0) })
            else { return nil }
            return Request(method: String(request[0]), path: String(request[1]), status: status)
        }
    }

    /// Stops the Animator: its supervisor's standard input closed, it sends SIGTERM (SIGKILL after 5 s) and
    /// exits; the supervisor itself is killed when it has not exited after 10 s.
    mutating func stop() { process.stop() }

    /// A port on 127.0.0.1 that was free a moment ago (bound to port 0, read, closed).
    private static func freePort() throws(BenchError) -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw BenchError("socket: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard bound else { throw BenchError("bind 127.0.0.1:0: \(String(cString: strerror(errno)))") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// The bytes of the file at `path` (none when it cannot be read).
func readFile(_ path: String) -> [UInt8] {
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { return [] }
    return Launcher.readAll(descriptor)
}
