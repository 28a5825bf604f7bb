public import Foundation
import Synchronization

/// certomancer's Animator on 127.0.0.1: real RFC 3161 time stamping, OCSP and CRL services (and
/// certificate downloads) for the PKI `autograph` of `Tests/Fixtures/certomancer/certomancer.yml`
/// (its README tells what each certificate is for). certomancer (PyPI `certomancer[web-api]`, pinned
/// by `scripts/install-deps test`) makes every certificate, CRL, OCSP response and time stamp from the
/// checked-in keys when it starts and when it is asked.
///
/// ```swift
/// let services = try Certomancer.shared()
/// // POST an application/timestamp-query to services.tsaURL, an OCSP request to services.ocspURL() …
/// ```
///
/// ``start(wholeSeconds:timeout:)`` runs, on a free loopback port `PORT`,
///
///     certomancer --config Tests/Fixtures/certomancer/certomancer.yml \
///       --service-url-prefix http://127.0.0.1:PORT animate --port PORT
///
/// `animate` serves on 127.0.0.1 only (certomancer 0.16.0 calls werkzeug's `run_simple('127.0.0.1', …)`;
/// one request at a time). `--service-url-prefix` replaces the configuration's `external-url-prefix`
/// in every URL certomancer writes, and it writes them into the certificates it makes at start: the
/// AIA (OCSP responder, caIssuers) and CRL distribution point URLs of `signer`, `tsa` … name this
/// animator's port, so a validator that follows them (pyHanko, pdfsig) reaches these services.
///
/// The Animator runs under `Tests/Scripts/run_until_stdin_closes.py`, which stops it (and removes
/// its ``directory``) when this process's end of its standard input closes: on ``stop()``, or when
/// the test process ends, however it ends (a shared instance is never deinitialized).
public final class Certomancer: Sendable {
    /// The PKI architecture's label: the first segment of every service path.
    public static let architecture = "autograph"

    /// The configuration file.
    public static var configuration: String { TestPaths.fixture("certomancer", "certomancer.yml") }

    /// A request with this header field (an ISO 8601 time, e.g. `2029-03-01T12:00:00+00:00`) is answered
    /// as at that time (its OCSP status and times, its time stamp's genTime, the CRL current then);
    /// without it the Animator answers at the real time.
    public static let fakeTimeHeader = "X-Certomancer-Fake-Time"

    /// The loopback port it listens on.
    public let port: Int
    /// `http://127.0.0.1:PORT`, the `--service-url-prefix` of every URL it serves and writes.
    public let baseURL: String
    /// Whether its OCSP responses and time stamps carry whole seconds (see ``start(wholeSeconds:timeout:)``).
    public let wholeSeconds: Bool
    /// A temporary directory of its own: the Animator's log, the certificates downloaded.
    public let directory: String
    /// The root CA's certificate (PEM), as the root's certificate repository serves it.
    public let rootCertificatePath: String
    /// The command the Animator was started with.
    public let commandLine: [String]

    private let process: Process
    private let input: Pipe
    private let stopped = Mutex(false)

    /// `baseURL/autograph/<path>`: `url("tsa/tsa")`, `url("ocsp/intermediate")`,
    /// `url("crls/root/latest.crl")`, `url("certs/intermediate/issued/signer.cert.pem")`.
    public func url(_ path: String) -> String { "\(baseURL)/\(Self.architecture)/\(path)" }

    /// The time stamping service of `tsa` (ExtendedKeyUsage timeStamping, critical): POST an
    /// `application/timestamp-query`, get an `application/timestamp-reply`.
    public var tsaURL: String { url("tsa/tsa") }

    /// The time stamping service of `tsa-no-eku`, whose certificate has no ExtendedKeyUsage.
    public var tsaNoEKUURL: String { url("tsa/tsa-no-eku") }

    /// The OCSP responder for the certificates `issuer` issued (`intermediate`: signed by the delegated
    /// responder `intermediate-ocsp`; `root`: signed by the root itself). POST an
    /// `application/ocsp-request`.
    public func ocspURL(_ issuer: String = "intermediate") -> String { url("ocsp/" + issuer) }

    /// The current CRL of `issuer` (`intermediate` or `root`), DER; `latest.crl.pem` is the same in PEM.
    public func crlURL(_ issuer: String = "intermediate") -> String { url("crls/\(issuer)/latest.crl") }

    /// The certificate `label` (PEM) at the web UI's download endpoint, which serves any certificate of
    /// the architecture (the certificate repositories serve only their CA's and what it issued).
    public func certificateURL(_ label: String) -> String {
        "\(baseURL)/_certomancer/any-cert/\(Self.architecture)/\(label).cert.pem"
    }

    /// Downloads the certificate `label` into ``directory`` (`<label>.cert.pem`) and returns its path.
    public func certificate(_ label: String) throws -> String {
        let pem = try download("/_certomancer/any-cert/\(Self.architecture)/\(label).cert.pem")
        let path = "\(directory)/\(label).cert.pem"
        // Atomically: tests running at once ask for the same certificate and read it meanwhile.
        try pem.write(to: URL(fileURLWithPath: path), options: .atomic)
        return path
    }

    /// The body of a GET of `path` (`/autograph/crls/root/latest.crl`) on the Animator.
    /// - Throws: ``Failure`` when it does not answer 200.
    public func download(_ path: String) throws -> Data {
        guard let response = Self.get(port: port, path: path) else {
            throw Failure(message: "certomancer on port \(port) did not answer GET \(path)")
        }
        guard response.status == 200 else {
            throw Failure(message: "certomancer answered GET \(path) with \(response.status)")
        }
        return response.body
    }

    private static let sharedPlain = Result { try Certomancer.start() }
    private static let sharedWholeSeconds = Result { try Certomancer.start(wholeSeconds: true) }

    /// One Animator per test process (and per `wholeSeconds`), started by the first caller and never
    /// stopped: it ends with the process.
    public static func shared(wholeSeconds: Bool = false) throws -> Certomancer {
        try (wholeSeconds ? sharedWholeSeconds : sharedPlain).get()
    }

    /// Starts an Animator on a free loopback port and waits until it serves the root's certificate.
    /// The port is found by binding 127.0.0.1:0 and closing the socket; when another program takes
    /// it first, the Animator cannot bind it and exits, and it is started again on another.
    ///
    /// With `wholeSeconds`, OCSP responses (producedAt, thisUpdate, nextUpdate) and time stamps
    /// (genTime, signingTime) carry whole seconds instead of the real time's microseconds, which
    /// NSS (pdfsig) does not accept in OCSP responses. certomancer has no option for it, neither in
    /// its configuration nor on its command line (its only time setting is ``fakeTimeHeader``, per
    /// request, which pdfsig does not send); `Tests/Scripts/certomancer_whole_seconds.py` runs the
    /// same command line with an `Animator` subclass whose `at_time` drops the microseconds. CRLs have
    /// whole seconds either way.
    ///
    /// Blocks its thread (up to `timeout` seconds per attempt; two or three seconds usually).
    /// - Throws: `Oracle.MissingProgram` when certomancer is not installed (its message says to run
    ///   `scripts/install-deps test`); ``Failure`` when the Animator does not answer in time or exits.
    public static func start(wholeSeconds: Bool = false, timeout: Double = 20) throws -> Certomancer {
        guard let certomancer = Oracle.which("certomancer") else {
            throw Oracle.MissingProgram(name: "certomancer")
        }
        guard let python = Oracle.which("python3") else { throw Oracle.MissingProgram(name: "python3") }
        let program =
            wholeSeconds
            ? [python, TestPaths.repository + "/Tests/Scripts/certomancer_whole_seconds.py"] : [certomancer]
        var failure = Failure(message: "certomancer did not start")
        for _ in 0..<3 {
            let port = try LoopbackPort.free()
            let base = "http://127.0.0.1:\(port)"
            let commandLine =
                program + [
                    "--config", configuration, "--service-url-prefix", base, "animate", "--port", String(port),
                ]
            let directory = try TestPaths.temporaryDirectory("certomancer")
            let log = directory + "/animator.log"
            let (process, input) = try launch(commandLine, python: python, directory: directory, log: log)
            let end = Date().addingTimeInterval(timeout)
            while Date() < end, process.isRunning {
                if let response = get(port: port, path: "/\(architecture)/certs/root/ca.cert.pem"),
                    response.status == 200, response.body.starts(with: Data("-----BEGIN CERTIFICATE-----".utf8))
                {
                    let root = directory + "/root.cert.pem"
                    do {
                        try response.body.write(to: URL(fileURLWithPath: root))
                    } catch {
                        terminate(process, input)
                        throw error
                    }
                    return Certomancer(
                        port: port, baseURL: base, wholeSeconds: wholeSeconds, directory: directory,
                        rootCertificatePath: root, commandLine: commandLine, process: process, input: input)
                }
                Thread.sleep(forTimeInterval: 0.1)
            }
            let exited = !process.isRunning
            let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            terminate(process, input)
            try? FileManager.default.removeItem(atPath: directory)
            let command = commandLine.joined(separator: " ")
            failure = Failure(
                message: exited
                    ? "certomancer exited: \(command)\n\(output)"
                    : "certomancer did not serve \(base) within \(timeout) s: \(command)\n\(output)")
            // Only a port taken between LoopbackPort.free() and the Animator's bind is worth another try.
            guard exited, output.contains("in use") else { throw failure }
        }
        throw failure
    }

    private init(
        port: Int, baseURL: String, wholeSeconds: Bool, directory: String, rootCertificatePath: String,
        commandLine: [String], process: Process, input: Pipe
    ) {
        self.port = port
        self.baseURL = baseURL
        self.wholeSeconds = wholeSeconds
        self.directory = directory
        self.rootCertificatePath = rootCertificatePath
        self.commandLine = commandLine
        self.process = process
        self.input = input
    }

    deinit { stop() }

    /// Stops the Animator (SIGTERM, SIGKILL for what is left after two seconds) and removes
    /// ``directory``. Later calls do nothing.
    public func stop() {
        let first = stopped.withLock { stopped in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        Self.terminate(process, input)
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// The Animator did not start or did not answer.
    public struct Failure: Error, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// Runs `commandLine` under `Tests/Scripts/run_until_stdin_closes.py`, which stops it when its
    /// standard input (the pipe returned) reaches its end, then removes `directory`, and exits when it
    /// exits. Its output goes to `log`.
    private static func launch(
        _ commandLine: [String], python: String, directory: String, log: String
    ) throws -> (Process, Pipe) {
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        guard let output = FileHandle(forWritingAtPath: log) else {
            throw Failure(message: "cannot write \(log)")
        }
        defer { try? output.close() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments =
            [TestPaths.repository + "/Tests/Scripts/run_until_stdin_closes.py", "--remove", directory] + commandLine
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        try process.run()
        return (process, input)
    }

    /// Closes the supervisor's standard input (it stops the Animator and exits) and kills what is
    /// left of it and its descendants after two seconds. Only SIGKILL: the supervisor inherited this
    /// process's signal mask, which blocks SIGTERM.
    private static func terminate(_ process: Process, _ input: Pipe) {
        let supervisor = process.processIdentifier
        let tree = descendants(of: supervisor) + [supervisor]
        try? input.fileHandleForWriting.close()
        let end = Date().addingTimeInterval(2)
        while Date() < end, tree.contains(where: alive) { Thread.sleep(forTimeInterval: 0.02) }
        for pid in tree where alive(pid) { kill(pid, SIGKILL) }
        while process.isRunning, Date() < end.addingTimeInterval(1) { Thread.sleep(forTimeInterval: 0.02) }
    }

    /// Whether `pid` names a process that is neither gone nor a zombie.
    private static func alive(_ pid: Int32) -> Bool {
        guard kill(pid, 0) == 0, let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }
        return !stat[close...].dropFirst(2).hasPrefix("Z")
    }

    /// Every process whose chain of parents (`/proc/<pid>/stat`) leads to `root`, children first.
    private static func descendants(of root: Int32) -> [Int32] {
        var children: [Int32: [Int32]] = [:]
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = Int32(entry),
                let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { continue }
            // after "pid (comm) ": the state, then the parent's pid
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 1, let parent = Int32(fields[1]) { children[parent, default: []].append(pid) }
        }
        var found: [Int32] = []
        var pending = [root]
        while let pid = pending.popLast() {
            for child in children[pid] ?? [] {
                found.append(child)
                pending.append(child)
            }
        }
        return found.reversed()
    }

    /// An HTTP/1.0 GET of `path` on 127.0.0.1:`port`: the status and the body, or nil when nothing
    /// answers (within five seconds).
    static func get(port: Int, path: String) -> (status: Int, body: Data)? {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var limit = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected else { return nil }
        let request = Array("GET \(path) HTTP/1.0\r\nHost: 127.0.0.1:\(port)\r\n\r\n".utf8)
        var sent = 0
        while sent < request.count {
            let count = request[sent...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                sent += count
            } else if count < 0 && errno == EINTR {
                continue
            } else {
                return nil
            }
        }
        let response = Oracle.readAll(descriptor)
        guard let split = response.firstRange(of: Data("\r\n\r\n".utf8)) else { return nil }
        let head = String(decoding: response[..<split.lowerBound], as: UTF8.self)
        let statusLine = head.split(separator: "\r\n").first?.split(separator: " ") ?? []
        guard statusLine.count > 1, statusLine[0].hasPrefix("HTTP/"), let status = Int(statusLine[1]) else {
            return nil
        }
        return (status, Data(response[split.upperBound...]))
    }
}
