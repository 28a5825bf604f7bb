import AutographJSON
import Foundation
import PDFTestSupport
import Testing

@testable import PDFWeb

/// A whole signing whose decisions a host's backend makes over HTTP (`Tests/Scripts/decisions_backend.py`
/// checks each request's HMAC and timestamp, says no to the first confirmation, and changes the
/// capture's display text), and the defaults when the backend is slow or refuses the signature.
@Suite struct WebHostDecisionsTests {
    static let secret = "the secret the server and its host share"
    static let displayText = "Approved by the backend"

    /// The backend (started with `backendSecret`) and a server whose decisions go to it.
    static func start(
        backendSecret: String = secret, sleep: Double? = nil, timeout: Duration = .seconds(30), log: LogLines
    ) async throws -> (LoopbackServer, TestServer) {
        let backend = try await LoopbackServer.start(
            "decisions_backend.py", ["--secret", backendSecret] + (sleep.map { ["--sleep", String($0)] } ?? []))
        let channel = try HTTPDecisions(
            url: backend.base + "/decisions", secret: Array(secret.utf8), timeout: timeout, log: log.sink)
        let server = try await TestServer(handwriting: false, host: .channel(channel))
        return (backend, server)
    }

    /// What the backend recorded: the questions' names and how many requests it refused.
    static func recorded(_ backend: LoopbackServer) async throws -> (
        names: [String], questions: [JSONValue], refused: Int
    ) {
        let result = try await TestServer.runOffPool("curl", ["-s", "--max-time", "30", backend.base + "/recorded"])
        let json = try JSONValue.parse(Array(result.output.utf8))
        let questions = json["questions"]?.arrayValue ?? []
        return (questions.compactMap { $0["decision"]?.stringValue }, questions, json["refused"]?.intValue ?? -1)
    }

    @Test("the backend's decisions drive a signing: no to the first capture, a display text, a valid signature")
    func wholeSigning() async throws {
        let log = LogLines()
        let (backend, server) = try await Self.start(log: log)
        defer {
            backend.stop()
            Task { await server.stop() }
        }
        let reader = Task { [base = server.base, cookie = server.cookie] in
            try await TestServer.runOffPool(
                "curl", ["-s", "-N", "--max-time", "120", "-b", cookie, base + "/api/events"])
        }
        try await Task.sleep(for: .milliseconds(800))
        #expect(try await server.request("PUT", "/api/fields/name", json: #"{"value": "Ada Lovelace"}"#).status == 200)
        let start = #"{"field": "Signature1"}"#
        #expect(try await server.post("/api/start-signature", start).json["phase"]?.stringValue == "capturingSignature")
        // The backend changed the capture's configuration inside willStartSigning.
        let configuration = try await server.request("/api/configuration").json
        #expect(configuration["capture"]?["displayText"]?.stringValue == Self.displayText)
        // willConfirmSigning: false the first time — the capture is discarded.
        #expect(try await server.post("/api/capture", WebFixtures.scribble).json["phase"]?.stringValue == "editing")
        #expect(try await server.post("/api/start-signature", start).json["phase"]?.stringValue == "capturingSignature")
        #expect(try await server.post("/api/capture", WebFixtures.scribble).json["phase"]?.stringValue == "confirming")
        #expect(try await server.post("/api/confirm").json["phase"]?.stringValue == "editing")

        let recorded = try await Self.recorded(backend)
        #expect(
            recorded.names == [
                "willStartSigning", "signingProcessStarted", "willConfirmSigning",
                "willStartSigning", "signingProcessStarted", "willConfirmSigning",
            ])
        #expect(recorded.refused == 0)
        #expect(recorded.questions.allSatisfy { $0["documentID"]?.stringValue == "web-test" })
        #expect(recorded.questions.allSatisfy { $0["arguments"]?["field"]?.stringValue == "Signature1" })
        #expect(log.all.isEmpty, "\(log.all)")

        try await Task.sleep(for: .milliseconds(500))
        server.backend.hub.finishAll()
        let lines = try await reader.value.output.split(separator: "\n").map(String.init)
        let events = lines.filter { $0.hasPrefix("event: ") }.map { String($0.dropFirst(7)) }
        let expected = [
            "configurationChanged", "signatureCaptureRequired", "signingProcessCancelled", "signatureCaptureRequired",
            "onConfirmationRequired", "willPrepareDocument", "signingProcessConfirmed", "processDidFinish",
        ]
        let relevant = events.filter(expected.contains)
        #expect(
            relevant.filter { $0 != "configurationChanged" } == expected.filter { $0 != "configurationChanged" },
            "\(events)")
        #expect(relevant.first == "configurationChanged", "\(events)")
        // The capture asked for shows the backend's text.
        let capture = lines.firstIndex(of: "event: signatureCaptureRequired").map { lines[$0 + 1] } ?? ""
        #expect(capture.contains(Self.displayText), "\(capture)")

        let download = try await server.request("/api/download")
        let path = try WebFixtures.write(download.body, server.directory, "decided.pdf")
        let reports = try SignatureOracle.pdfsig(path, trust: WebFixtures.root)
        #expect(reports.count == 1)
        #expect(reports.allSatisfy { $0.valid && $0.trusted })
        let text = try await TestServer.runOffPool("pdftotext", ["-layout", path, "-"]).output
        #expect(text.contains(Self.displayText), "\(text)")
    }

    @Test("a backend slower than the timeout: a step waits for it once, then every question takes the default")
    func slowBackend() async throws {
        let log = LogLines()
        let (backend, server) = try await Self.start(sleep: 10, timeout: .seconds(4), log: log)
        defer {
            backend.stop()
            Task { await server.stop() }
        }
        #expect(try await server.request("PUT", "/api/fields/name", json: #"{"value": "Ada"}"#).status == 200)
        let started = ContinuousClock.now
        let phase = try await server.post("/api/start-signature", #"{"field": "Signature1"}"#).json["phase"]
        #expect(phase?.stringValue == "capturingSignature", "willStartSigning's default lets it start")
        // start-signature asks two questions (willStartSigning, signingProcessStarted): one deadline
        // for the step, not one a question.
        let waited = ContinuousClock.now - started
        #expect(waited >= .milliseconds(3900), "\(waited)")
        // The first question took the timeout; the second, the default at once (on its own it would
        // have waited four seconds more). Timed where the server logs them, whatever else runs.
        let times = log.times
        if times.count >= 2 {
            #expect(times[1] - times[0] < .seconds(2), "the second question waited \(times[1] - times[0])")
        }
        #expect(
            try await server.request("/api/configuration").json["capture"]?["displayText"]?.stringValue
                != Self.displayText)
        // willConfirmSigning's default keeps the capture (the backend would have said no); a new step,
        // a new deadline.
        #expect(try await server.post("/api/capture", WebFixtures.scribble).json["phase"]?.stringValue == "confirming")
        let lines = log.all
        #expect(lines.count == 3, "\(lines)")
        if lines.count == 3 {
            #expect(lines[0].hasPrefix("decisions: willStartSigning: POST \(backend.base)/decisions: "))
            #expect(lines[0].contains(": timed out (curl 28: ") && lines[2].contains(": timed out (curl 28: "))
            #expect(lines[1].hasPrefix("decisions: signingProcessStarted: the step's 4.0 seconds"), "\(lines[1])")
            #expect(lines.allSatisfy { $0.hasSuffix("; the default applies") })
        }
        #expect(try await Self.recorded(backend).names.first == "willStartSigning", "the question arrived")
    }

    @Test("a backend with another secret refuses every request (401): the defaults apply")
    func wrongSecret() async throws {
        let log = LogLines()
        let (backend, server) = try await Self.start(backendSecret: "another secret, not the server's", log: log)
        defer {
            backend.stop()
            Task { await server.stop() }
        }
        #expect(try await server.request("PUT", "/api/fields/name", json: #"{"value": "Ada"}"#).status == 200)
        #expect(
            try await server.post("/api/start-signature", #"{"field": "Signature1"}"#).json["phase"]?.stringValue
                == "capturingSignature")
        #expect(try await server.post("/api/capture", WebFixtures.scribble).json["phase"]?.stringValue == "confirming")
        let recorded = try await Self.recorded(backend)
        #expect(recorded.names.isEmpty)
        #expect(recorded.refused == 3)
        #expect(log.all.count == 3)
        #expect(
            log.all.allSatisfy { $0.contains(#"the backend answered 401: {"error": "bad signature"}"#) }, "\(log.all)")
    }
}
