import AutographJSON
import Foundation
import HTTPClient
import PDFTestSupport
import Synchronization
import Testing

@testable import PDFWeb

/// A transport that answers without a network and keeps every request it was given.
final class RecordingTransport: HTTPTransport {
    let requests = Mutex<[HTTPClientRequest]>([])
    let reply: @Sendable (HTTPClientRequest) throws(HTTPClientError) -> HTTPClientResponse

    init(_ reply: @escaping @Sendable (HTTPClientRequest) throws(HTTPClientError) -> HTTPClientResponse) {
        self.reply = reply
    }

    /// Answers every request with `status` and `body`.
    convenience init(status: Int, body: String) {
        self.init { _ throws(HTTPClientError) in HTTPClientResponse(status: status, body: Array(body.utf8)) }
    }

    var count: Int { requests.withLock { $0.count } }

    func send(_ request: HTTPClientRequest) async throws(HTTPClientError) -> HTTPClientResponse {
        requests.withLock { $0.append(request) }
        return try reply(request)
    }
}

/// Lines logged by a channel.
final class LogLines: Sendable {
    private let lines = Mutex<[(line: String, time: ContinuousClock.Instant)]>([])
    var all: [String] { lines.withLock { $0.map(\.line) } }
    /// When each line was logged.
    var times: [ContinuousClock.Instant] { lines.withLock { $0.map(\.time) } }
    var sink: @Sendable (String) -> Void { { line in self.lines.withLock { $0.append((line, .now)) } } }
}

/// `HTTPDecisions` without a network: what it sends (signed as docs/web-api.md says, checked with
/// openssl), and which answers it takes.
@Suite struct HTTPDecisionsTests {
    static let secret = Array("a shared secret of the host".utf8)
    static let url = "https://backend.example.com/autograph/decisions"

    static func channel(_ transport: RecordingTransport, _ log: LogLines = LogLines()) throws -> HTTPDecisions {
        try HTTPDecisions(
            url: url, secret: secret, timeout: .seconds(7), transport: transport, now: { 1_700_000_000 }, log: log.sink)
    }

    static let question = HostQuestion(
        name: "willConfirmSigning", documentID: "doc-1", arguments: .object([("field", .string("Signature1"))]))

    @Test("each question is one POST of its JSON, with the timestamp and the HMAC openssl computes over TIMESTAMP.BODY")
    func request() async throws {
        let transport = RecordingTransport(status: 200, body: #"{"answer": false}"#)
        let reply = try await Self.channel(transport).ask(Self.question)
        #expect(reply?["answer"] == .bool(false))
        let request = try #require(transport.requests.withLock { $0.first })
        #expect(transport.count == 1)
        #expect(request.method == .post && request.url == Self.url)
        #expect(request.timeout == .seconds(7) && request.connectTimeout == .seconds(7))
        #expect(request.maxResponseSize == 1 << 20 && request.maxRedirects == 0)
        let body = try JSONValue.parse(request.body)
        #expect(body["decision"]?.stringValue == "willConfirmSigning")
        #expect(body["documentID"]?.stringValue == "doc-1")
        #expect(body["arguments"]?["field"]?.stringValue == "Signature1")
        let header = { (name: String) in request.headers.first { $0.name == name }?.value }
        #expect(header("Content-Type") == "application/json")
        #expect(header("X-Autograph-Timestamp") == "1700000000")
        // The oracle: openssl's HMAC of the same bytes.
        let directory = try TestPaths.temporaryDirectory("decisions")
        let signed = try WebFixtures.write(Data(Array("1700000000.".utf8) + request.body), directory, "signed")
        let openssl = try Oracle.run(
            "openssl", ["dgst", "-sha256", "-mac", "HMAC", "-macopt", "key:a shared secret of the host", "-r", signed])
        let hex = String(openssl.output.prefix { !$0.isWhitespace })
        #expect(hex.count == 64)
        #expect(header("X-Autograph-Signature") == "sha256=" + hex)
        #expect(
            HTTPDecisions.signature(secret: Self.secret, timestamp: 1_700_000_000, body: request.body) == "sha256="
                + hex)
    }

    @Test(
        "a 2xx JSON object is the answer; any other status or body is the default, said in one line",
        arguments: [
            (200, #"{"answer": false, "configuration": {}}"#, nil),
            (204, "", "not JSON"),
            (500, "backend down\u{1B}[31m", "the backend answered 500: backend down [31m"),
            (302, "", "the backend answered 302"),
            (401, #"{"error": "bad signature"}"#, #"answered 401: {"error": "bad signature"}"#),
            (200, "<html>", "not JSON: <html>"),
            (200, "[true]", "not a JSON object"),
        ] as [(Int, String, String?)])
    func answers(_ status: Int, _ body: String, _ logged: String?) async throws {
        let log = LogLines()
        let reply = try await Self.channel(RecordingTransport(status: status, body: body), log).ask(Self.question)
        if let logged {
            #expect(reply == nil)
            #expect(log.all.count == 1)
            #expect(log.all.first?.hasPrefix("decisions: willConfirmSigning: ") == true)
            #expect(log.all.first?.contains(logged) == true, "\(log.all)")
            #expect(log.all.first?.hasSuffix("; the default applies") == true)
        } else {
            #expect(reply?["answer"] == .bool(false))
            #expect(log.all.isEmpty)
        }
    }

    @Test("no response (a timeout, a refused connection, too large) is the default, with the transport's reason")
    func failures() async throws {
        for (code, message) in [
            (
                HTTPClientError.Code.timedOut,
                "POST https://backend.example.com/autograph/decisions: timed out (curl 28: …)"
            ),
            (.connectionFailed, "no connection (curl 7: …)"), (.tooLarge, "larger than 1048576 bytes"),
        ] {
            let log = LogLines()
            let transport = RecordingTransport { _ throws(HTTPClientError) in throw HTTPClientError(code, message) }
            #expect(try await Self.channel(transport, log).ask(Self.question) == nil)
            #expect(log.all == ["decisions: willConfirmSigning: \(message); the default applies"])
        }
    }

    @Test("a notification is sent too; its answer is ignored")
    func notification() async throws {
        let log = LogLines()
        let transport = RecordingTransport(status: 200, body: #"{"answer": false}"#)
        let question = HostQuestion(
            name: "backButtonPressed", documentID: nil, arguments: .object([]), expectsAnswer: false)
        #expect(try await Self.channel(transport, log).ask(question) == nil)
        #expect(transport.count == 1)
        #expect(log.all.isEmpty)
        let refused = RecordingTransport(status: 503, body: "")
        #expect(try await Self.channel(refused, log).ask(question) == nil)
        #expect(log.all == ["decisions: backButtonPressed: the backend answered 503; a notification, not delivered"])
    }

    @Test("HostDecisions takes the backend's answer, and the default when there is none")
    func throughHostDecisions() async throws {
        let no = RecordingTransport(status: 200, body: #"{"answer": false}"#)
        #expect(await HostDecisions(channel: try Self.channel(no)).willStartSigning(field: "Signature1") == false)
        let fields = RecordingTransport(status: 200, body: #"{"answer": ["name", 3, "comment"]}"#)
        #expect(
            await HostDecisions(channel: try Self.channel(fields)).signingProcessStarted(field: "S") == [
                "name", "comment",
            ])
        let down = RecordingTransport { _ throws(HTTPClientError) in throw HTTPClientError(.connectionFailed, "down") }
        let decisions = HostDecisions(channel: try Self.channel(down))
        #expect(await decisions.willStartSigning(field: "Signature1"))
        #expect(await decisions.willConfirmSigning(field: "Signature1"))
        #expect(await decisions.signingProcessStarted(field: "Signature1") == [])
        #expect(down.count == 3)
    }

    @Test(
        "the URL must be http or https with a host, and the secret at least 16 bytes",
        arguments: [
            "ftp://backend.example.com/", "file:///tmp/x", "https://", "backend.example.com/decisions", "http://a b/",
        ])
    func refusals(_ url: String) throws {
        #expect(throws: WebError.self) { try HTTPDecisions(url: url, secret: Self.secret) }
        #expect(throws: WebError.self) { try HTTPDecisions(url: Self.url, secret: Array("short".utf8)) }
        #expect(try HTTPDecisions(url: "HTTP://127.0.0.1:9/d", secret: Self.secret).url == "HTTP://127.0.0.1:9/d")
    }
}
