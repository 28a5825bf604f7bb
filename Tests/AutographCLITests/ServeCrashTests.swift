import AutographJSON
import Foundation
import PDFTestSupport
import Testing

/// `autograph serve` killed (`kill -9`) while it signs, then started again on the same store: the
/// signature under way is settled — waiting for the confirmation again, or discarded — and the
/// person reaches a signed download with their entries and earlier signatures, whatever the
/// process was waiting for when it died: its own key, a time-stamp authority, a CSC service or a
/// host's decisions backend that hang.
@Suite(.serialized) struct ServeCrashTests {
    static let tool = TestPaths.repository + "/.build/debug/autograph"

    /// Runs `body` on a thread of its own: it blocks (processes, curl, sleeps), and a blocked
    /// cooperative pool (two threads on a two-core machine) would starve the servers other suites
    /// of this process run in process.
    static func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try body() }) }.start()
        }
    }

    /// One `autograph serve` process on a free port, driven over HTTP with its API token.
    final class Serve: @unchecked Sendable {
        let process = Process()
        let log: String
        let port: Int
        let token: String
        let directory: String

        init(store directory: String, _ arguments: [String]) throws {
            self.directory = directory
            log = directory + "/serve-\(UUID().uuidString).log"
            _ = FileManager.default.createFile(atPath: log, contents: nil)
            process.executableURL = URL(fileURLWithPath: ServeCrashTests.tool)
            process.arguments = ["serve", "--store", directory, "--port", "0"] + arguments
            process.standardOutput = FileHandle(forWritingAtPath: log)
            process.standardError = process.standardOutput
            try process.run()
            var port: Int?
            var token: String?
            for _ in 0..<600 where port == nil || token == nil {
                Thread.sleep(forTimeInterval: 0.05)
                let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
                for line in text.split(separator: "\n") {
                    if let range = line.range(of: "open http://127.0.0.1:"), let end = line.range(of: "/?login") {
                        port = Int(line[range.upperBound..<end.lowerBound])
                    }
                    if let range = line.range(of: "API token (scripts: Authorization: Bearer; POST /api/links"),
                        let last = line.split(separator: " ").last, line[range.upperBound...].contains(" is ")
                    {
                        token = String(last)
                    }
                }
                if !process.isRunning { break }
            }
            guard let port, let token else {
                process.terminate()
                throw Failure(
                    text: "serve did not start: " + ((try? String(contentsOfFile: log, encoding: .utf8)) ?? ""))
            }
            self.port = port
            self.token = token
        }

        struct Failure: Error, CustomStringConvertible { var text: String; var description: String { text } }

        /// `kill -9`, and waits for the process to be gone.
        func kill() {
            Glibc.kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }

        func stop() {
            if process.isRunning { kill() }
        }

        var output: String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }

        /// One API request with curl; `wait` false: started and left running (a call the kill cuts).
        @discardableResult
        func api(_ method: String, _ path: String, _ json: String? = nil, wait: Bool = true) throws -> (
            status: Int, body: JSONValue
        ) {
            let stamp = UUID().uuidString
            let bodyFile = directory + "/out-" + stamp
            var arguments = [
                "-s", "-X", method, "-o", bodyFile, "-w", "%{http_code}", "--max-time", "120",
                "-H", "Authorization: Bearer \(token)", "-H", "X-Autograph: 1",
            ]
            if let json {
                let input = directory + "/in-" + stamp
                try Data(json.utf8).write(to: URL(fileURLWithPath: input))
                arguments += ["-H", "Content-Type: application/json", "--data-binary", "@" + input]
            }
            arguments.append("http://127.0.0.1:\(port)\(path)")
            guard wait else {
                let curl = Process()
                curl.executableURL = URL(fileURLWithPath: Oracle.which("curl") ?? "/usr/bin/curl")
                curl.arguments = arguments
                curl.standardOutput = FileHandle.nullDevice
                try curl.run()
                return (0, .null)
            }
            let result = try Oracle.run("curl", arguments, timeout: 130)
            let data = (try? Data(contentsOf: URL(fileURLWithPath: bodyFile))) ?? Data()
            return (Int(result.output) ?? 0, (try? JSONValue.parse(Array(data))) ?? .null)
        }

        var state: JSONValue { (try? api("GET", "/api/state").body) ?? .null }

        /// The signature fields that are signed, as `GET /api/fields` says.
        func signedCount() throws -> Int {
            let fields = try api("GET", "/api/fields").body.arrayValue ?? []
            return fields.filter { $0["kind"]?.stringValue == "signature" && $0["signed"]?.boolValue == true }.count
        }

        /// Drives the workflow from wherever it stands until the document holds `count` signatures:
        /// accept, the name typed, a new field placed, the preview confirmed, waiting while it signs.
        func sign(until count: Int) throws {
            for _ in 0..<200 {
                let state = self.state
                switch state["phase"]?.stringValue {
                case "editing":
                    if try signedCount() >= count { return }
                    try api("POST", "/api/accept")
                case "capturingSignature": try api("POST", "/api/capture", #"{"name": "Ada Lovelace"}"#)
                case "choosingSavedSignature":
                    let id = state["ids"]?.arrayValue?.first?.intValue ?? 1
                    try api("POST", "/api/choose-signature", #"{"id": \#(id)}"#)
                case "selectingField":
                    let name = state["candidates"]?.arrayValue?.first?.stringValue ?? ""
                    try api("POST", "/api/select-field", #"{"name": "\#(name)"}"#)
                case "positioning":
                    let page = state["page"]?.intValue ?? 0
                    try api("POST", "/api/position", #"{"page": \#(page), "rect": [300, 80, 500, 150]}"#)
                case "confirming": try api("POST", "/api/confirm")
                default: Thread.sleep(forTimeInterval: 0.2)
                }
            }
            throw Failure(text: "the workflow did not reach \(count) signatures: \(state.serialized())")
        }

        /// The document downloaded to `name` in the store's directory.
        func download(_ name: String) throws -> String {
            let path = directory + "/" + name
            let result = try Oracle.run(
                "curl",
                [
                    "-s", "-o", path, "-w", "%{http_code}", "-H", "Authorization: Bearer \(token)",
                    "http://127.0.0.1:\(port)/api/download",
                ])
            guard result.output == "200" else { throw Failure(text: "download: \(result.output)") }
            return path
        }
    }

    /// Fills the demo form's fields (the entries that must survive every kill).
    static func fill(_ serve: Serve) throws {
        for (name, value) in [("Name", #""Grace Hopper""#), ("Agree", "true"), ("Email", #""grace@example.com""#)] {
            let answer = try serve.api("PUT", "/api/fields/\(name)", #"{"value": \#(value)}"#)
            #expect(answer.status == 200, "\(name): \(answer.body.serialized())")
        }
    }

    /// The downloaded document: every signature valid and trusted by `root` (pyHanko), qpdf happy,
    /// the entries still there (pypdf).
    static func expectSigned(_ path: String, signatures: Int, root: String) throws {
        #expect(try Oracle.qpdfCheck(path).status == 0)
        let verdicts = try SignatureOracle.pyhanko(path, trust: root)
        #expect(verdicts.count == signatures, "\(verdicts)")
        for (field, verdict) in verdicts { #expect(verdict.hasPrefix("INTACT:TRUSTED"), "\(field): \(verdict)") }
        let values = try Oracle.pypdfFieldValues(path)
        #expect(values["Name"] == "Grace Hopper" && values["Email"] == "grace@example.com", "\(values)")
    }

    /// After a restart, what the viewer is told: the recovery's outcome, or nil.
    static func recovery(_ serve: Serve) -> String? { serve.state["recovery"]?["outcome"]?.stringValue }

    @Test(
        "killed a few milliseconds after the confirmation, with its own key: restarted, a signed download",
        .enabled(if: FileManager.default.isExecutableFile(atPath: tool), "build the autograph tool first"))
    func ownKey() async throws {
        try await Self.offPool { try Self.ownKeyRounds() }
    }

    static func ownKeyRounds() throws {
        let directory = try TestPaths.temporaryDirectory("serve-crash-key")
        var outcomes: [String: Int] = [:]
        // A first signature, then each round kills the next one at another moment after the
        // confirmation (before it is read, while it is prepared, signed, stored), and the restarted
        // server must reach one more signature.
        let first = try Serve(store: directory, [])
        try Self.fill(first)
        try first.sign(until: 1)
        first.stop()
        var signatures = 1
        for (round, delay) in [0, 2, 5, 10, 20, 40].enumerated() {
            let serve = try Serve(store: directory, [])
            try serve.sign(untilPhase: "confirming")
            try serve.api("POST", "/api/confirm", wait: false)
            Thread.sleep(forTimeInterval: Double(delay) / 1000)
            serve.kill()

            let restarted = try Serve(store: directory, [])
            defer { restarted.stop() }
            let phase = restarted.state["phase"]?.stringValue ?? "?"
            let made = try restarted.signedCount()
            outcomes[(Self.recovery(restarted) ?? "none") + "/" + phase + "/\(made - signatures)", default: 0] += 1
            #expect(["editing", "confirming"].contains(phase), "round \(round): \(restarted.state.serialized())")
            #expect(made == signatures || made == signatures + 1, "round \(round): \(made) signatures")
            signatures += 1
            try restarted.sign(until: signatures)
        }
        let last = try Serve(store: directory, [])
        defer { last.stop() }
        #expect(try last.signedCount() == signatures)
        let path = try last.download("signed.pdf")
        try Self.expectSigned(path, signatures: signatures, root: directory + "/demo-root.pem")
        print(
            "serve crash (own key): recovery/phase/new signatures after each kill: \(outcomes.sorted { $0.key < $1.key })"
        )
    }

    /// Confirms and waits until the server is making the signature (`awaitingSignature`), then
    /// kills it there.
    static func killWhileSigning(_ serve: Serve) throws {
        try serve.sign(untilPhase: "confirming")
        try serve.api("POST", "/api/confirm", wait: false)
        for _ in 0..<100 where serve.state["phase"]?.stringValue != "awaitingSignature" {
            Thread.sleep(forTimeInterval: 0.05)
        }
        #expect(serve.state["phase"]?.stringValue == "awaitingSignature", "\(serve.state.serialized())")
        // Well inside the wait for the service (its request is out).
        Thread.sleep(forTimeInterval: 0.5)
        serve.kill()
    }

    /// Restarts on `directory` with `arguments`: the signature waits for the confirmation again.
    static func restartConfirmsAgain(_ directory: String, _ arguments: [String]) throws -> Serve {
        let restarted = try Serve(store: directory, arguments)
        #expect(restarted.state["phase"]?.stringValue == "confirming", "\(restarted.state.serialized())")
        #expect(Self.recovery(restarted) == "confirmAgain")
        let message = restarted.state["recovery"]?["message"]?.stringValue ?? ""
        #expect(message.contains("nothing was signed"), "\(message)")
        // The preview is drawn again from the prepared bytes.
        let preview = try Oracle.run(
            "curl",
            [
                "-s", "-o", "/dev/null", "-w", "%{http_code} %{content_type}", "-H",
                "Authorization: Bearer \(restarted.token)", "http://127.0.0.1:\(restarted.port)/api/preview.png",
            ])
        #expect(preview.output == "200 image/png", "\(preview.output)")
        return restarted
    }

    @Test(
        "killed while a time-stamp authority hangs: restarted with one that answers, a signed, time-stamped download",
        .enabled(if: FileManager.default.isExecutableFile(atPath: tool), "build the autograph tool first"))
    func hangingTimeStampAuthority() async throws {
        let directory = try TestPaths.temporaryDirectory("serve-crash-tsa")
        let hanging = try await LoopbackServer.start("http_fixture_server.py")
        defer { hanging.stop() }
        let services = try Certomancer.shared(wholeSeconds: true)
        try await Self.offPool {
            let serve = try Serve(store: directory, ["--tsa", hanging.base + "/slow?seconds=600"])
            try Self.fill(serve)
            try Self.killWhileSigning(serve)

            let restarted = try Self.restartConfirmsAgain(directory, ["--tsa", services.tsaURL])
            defer { restarted.stop() }
            try restarted.sign(until: 1)
            let path = try restarted.download("signed.pdf")
            try Self.expectSigned(path, signatures: 1, root: directory + "/demo-root.pem")
            let verified = try Oracle.run(
                Self.tool,
                [
                    "verify", path, "--trust", directory + "/demo-root.pem", "--trust", services.rootCertificatePath,
                    "--revocation", "off", "--json",
                ])
            let report = try JSONValue.parse(Array(verified.output.utf8))
            #expect(report.arrayValue?.first?["level"]?.stringValue == "B-T", "\(verified.output.prefix(600))")
            #expect(
                report.arrayValue?.first?["timeStamp"] != nil && report.arrayValue?.first?["isValid"]?.boolValue == true
            )
        }
    }

    @Test(
        "killed while a CSC service hangs in signHash: restarted when it answers, a download signed by its credential",
        .enabled(if: FileManager.default.isExecutableFile(atPath: tool), "build the autograph tool first"),
        .enabled(if: CSCServer.isDummyInstalled, "certomancer-csc-dummy is not installed (scripts/install-deps test)"))
    func hangingCSCService() async throws {
        let directory = try TestPaths.temporaryDirectory("serve-crash-csc")
        let stall = directory + "/stall"
        _ = FileManager.default.createFile(atPath: stall, contents: Data())
        let services = try Certomancer.shared(wholeSeconds: true)
        let csc = try await CSCServer.specV2(services: services, stallFile: stall)
        defer { csc.stop() }
        let secret = directory + "/csc-secret"
        try Data(CSCServer.clientSecret.utf8).write(to: URL(fileURLWithPath: secret))
        let arguments = [
            "--csc", csc.baseURL, "--credential", "autograph/signer-ec", "--csc-client-id", CSCServer.clientID,
            "--csc-secret-file", secret,
        ]
        try await Self.offPool {
            let serve = try Serve(store: directory, arguments)
            try Self.fill(serve)
            try Self.killWhileSigning(serve)
            #expect(!csc.requests().contains { $0.path.hasSuffix("signatures/signHash") }, "it was still waiting")
            try FileManager.default.removeItem(atPath: stall)

            let restarted = try Self.restartConfirmsAgain(directory, arguments)
            defer { restarted.stop() }
            try restarted.sign(until: 1)
            let path = try restarted.download("signed.pdf")
            try Self.expectSigned(path, signatures: 1, root: services.rootCertificatePath)
        }
    }

    @Test(
        "killed while the host's decisions backend hangs: restarted with one that answers, a signed download",
        .enabled(if: FileManager.default.isExecutableFile(atPath: tool), "build the autograph tool first"))
    func hangingDecisionsBackend() async throws {
        let directory = try TestPaths.temporaryDirectory("serve-crash-decisions")
        let secretText = "the secret the server and its host share"
        let secret = directory + "/decisions-secret"
        try Data(secretText.utf8).write(to: URL(fileURLWithPath: secret))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: secret)
        let hanging = try await LoopbackServer.start(
            "decisions_backend.py", ["--secret", secretText, "--sleep", "600"])
        defer { hanging.stop() }
        let serve = try await Self.offPool {
            let serve = try Serve(
                store: directory, ["--decisions", hanging.base + "/decisions", "--decisions-secret-file", secret])
            try Self.fill(serve)
            // signo's sign button asks the backend first (willStartSigning), which does not answer.
            try serve.api("POST", "/api/start-signature", wait: false)
            Thread.sleep(forTimeInterval: 1)
            return serve
        }
        serve.kill()

        let answering = try await LoopbackServer.start("decisions_backend.py", ["--secret", secretText])
        defer { answering.stop() }
        try await Self.offPool {
            let restarted = try Serve(
                store: directory, ["--decisions", answering.base + "/decisions", "--decisions-secret-file", secret])
            defer { restarted.stop() }
            #expect(restarted.state["phase"]?.stringValue == "editing", "\(restarted.state.serialized())")
            try restarted.sign(until: 1)
            let path = try restarted.download("signed.pdf")
            try Self.expectSigned(path, signatures: 1, root: directory + "/demo-root.pem")
        }
    }
}

extension ServeCrashTests.Serve {
    /// Drives the workflow until `phase` (accept, typed name, placement), at most 30 steps.
    func sign(untilPhase phase: String) throws {
        for _ in 0..<30 {
            let state = self.state
            let now = state["phase"]?.stringValue
            if now == phase { return }
            switch now {
            case "editing": try api("POST", "/api/accept")
            case "capturingSignature": try api("POST", "/api/capture", #"{"name": "Ada Lovelace"}"#)
            case "choosingSavedSignature":
                let id = state["ids"]?.arrayValue?.first?.intValue ?? 1
                try api("POST", "/api/choose-signature", #"{"id": \#(id)}"#)
            case "positioning":
                let page = state["page"]?.intValue ?? 0
                try api("POST", "/api/position", #"{"page": \#(page), "rect": [300, 80, 500, 150]}"#)
            default: Thread.sleep(forTimeInterval: 0.1)
            }
        }
        throw Failure(text: "the workflow did not reach \(phase): \(state.serialized())")
    }
}
