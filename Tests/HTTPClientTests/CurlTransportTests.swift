import Foundation
import HTTPClient
import PDFTestSupport
import Synchronization
import Testing

/// The libcurl transport against a real server on loopback (`Tests/Scripts/http_fixture_server.py`):
/// what it sends, its limits and how each failure is told.
@Suite("CurlTransportTests: requests, timeouts, size limits, schemes and failures against a loopback server")
struct CurlTransportTests {
    let transport = CurlTransport()

    static func server() async throws -> LoopbackServer {
        try await LoopbackServer.start("http_fixture_server.py")
    }

    /// The error `body` throws, or nil.
    static func failure(_ body: () async throws(HTTPClientError) -> HTTPClientResponse) async -> HTTPClientError? {
        do {
            _ = try await body()
            return nil
        } catch {
            return error
        }
    }

    @Test("a GET returns the status, the header fields and the body")
    func get() async throws {
        let server = try await Self.server()
        defer { server.stop() }
        let response = try await transport.send(HTTPClientRequest(.get, server.base + "/hello"))
        #expect(response.status == 200)
        #expect(response.isSuccess)
        #expect(response.header("x-fixture") == "yes")
        #expect(response.header("Content-Length") == "5")
        #expect(response.body == Array("hello".utf8))
        let missing = try await transport.send(HTTPClientRequest(.get, server.base + "/status?code=503"))
        #expect(missing.status == 503 && !missing.isSuccess)
        #expect(missing.body == Array("status 503".utf8))
    }

    @Test("a POST sends its header fields and body at once, with no Expect: 100-continue")
    func post() async throws {
        let server = try await Self.server()
        defer { server.stop() }
        let body = Array(String(repeating: "{\"a\": 1}", count: 500).utf8)
        let request = HTTPClientRequest(
            .post, server.base + "/echo", headers: [("Content-Type", "application/json"), ("X-Test", "1")], body: body)
        let response = try await transport.send(request)
        let echo = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        // No Expect: 100-continue (curl would then wait up to a second for a 100 Continue).
        let fields = (echo["headers"] as? [[String]] ?? []).compactMap { $0.first?.lowercased() }
        #expect(!fields.isEmpty && !fields.contains("expect"), "\(fields)")
        #expect(echo["method"] as? String == "POST")
        #expect(echo["body"] as? String == String(decoding: body, as: UTF8.self))
        let headers = (echo["headers"] as? [[String]] ?? []).map { ($0[0].lowercased(), $0[1]) }
        #expect(headers.contains { $0 == ("content-type", "application/json") })
        #expect(headers.contains { $0 == ("x-test", "1") })
        #expect(headers.contains { $0 == ("user-agent", "Autograph") })
        #expect(!headers.contains { $0.0 == "expect" })
        // An empty body is sent as an empty body (never read from standard input); PUT keeps its name.
        let put = try await transport.send(HTTPClientRequest(.put, server.base + "/echo"))
        let echoed = try #require(try JSONSerialization.jsonObject(with: Data(put.body)) as? [String: Any])
        #expect(echoed["method"] as? String == "PUT" && echoed["body"] as? String == "")
    }

    @Test("the total timeout ends a slow answer with timedOut, quickly")
    func timeout() async throws {
        let server = try await Self.server()
        defer { server.stop() }
        var request = HTTPClientRequest(.get, server.base + "/slow?seconds=5")
        request.timeout = .milliseconds(500)
        // curl's code 28 says its timer ended the transfer (the server would have answered after 5 s);
        // no clock here: a test process busy with other suites may resume this task late.
        let error = await Self.failure { () async throws(HTTPClientError) in try await transport.send(request) }
        #expect(error?.code == .timedOut)
        #expect(error?.curlCode == 28)
        #expect(error?.message.contains("GET http://127.0.0.1:\(server.port)/slow: timed out (curl 28: ") == true)
    }

    @Test("a connection that is not accepted within the connect timeout fails with timedOut")
    func connectTimeout() async throws {
        // A listener whose queue of connections waiting to be accepted (backlog 0: one) is full:
        // the kernel drops further SYNs, so connecting hangs until the timeout.
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        let port = try #require(LoopbackPort.bind(listener))
        try #require(listen(listener, 0) == 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let length = socklen_t(MemoryLayout<sockaddr_in>.size)
        var fillers: [Int32] = []
        defer { fillers.forEach { close($0) } }
        for _ in 0..<3 {
            let filler = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            fillers.append(filler)
            _ = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(filler, $0, length) }
            }
        }
        try await Task.sleep(for: .milliseconds(200))
        var request = HTTPClientRequest(.get, "http://127.0.0.1:\(port)/")
        request.connectTimeout = .milliseconds(300)
        let error = await Self.failure { () async throws(HTTPClientError) in try await transport.send(request) }
        let message = error?.message ?? ""
        #expect(error?.code == .timedOut, "\(message)")
        // Curl's own words: the connect phase timed out (the kernel alone would retry for minutes).
        // Depending on when curl notices, it says "Failed to connect to 127.0.0.1 port …" or
        // "Connection timeout after N ms"; the total timeout would say "Operation timed out".
        let connectPhase =
            message.contains("(curl 28: Failed to connect to 127.0.0.1 port")
            || message.contains("(curl 28: Connection timeout after")
        #expect(connectPhase, "\(message)")
    }

    @Test(
        "a body larger than the limit aborts the transfer with tooLarge, announced or not",
        arguments: ["1", "0"])
    func sizeLimit(_ withLength: String) async throws {
        let server = try await Self.server()
        defer { server.stop() }
        var request = HTTPClientRequest(.get, server.base + "/big?bytes=3000000&length=" + withLength)
        request.maxResponseSize = 1000
        let error = await Self.failure { () async throws(HTTPClientError) in try await transport.send(request) }
        #expect(error?.code == .tooLarge, "\(String(describing: error))")
        #expect(error?.message.contains("larger than 1000 bytes") == true)
        // Exactly the limit passes.
        request.url = server.base + "/big?bytes=1000&length=" + withLength
        #expect(try await transport.send(request).body.count == 1000)
    }

    @Test("a refused connection is connectionFailed with curl's message")
    func refused() async throws {
        let port = try LoopbackPort.free()
        let error = await Self.failure { () async throws(HTTPClientError) in
            try await transport.send(HTTPClientRequest(.post, "http://127.0.0.1:\(port)/decisions?token=x"))
        }
        #expect(error?.code == .connectionFailed)
        #expect(error?.curlCode == 7)
        #expect(error?.message.hasPrefix("POST http://127.0.0.1:\(port)/decisions: no connection (curl 7: ") == true)
        #expect(error?.message.contains("token") == false, "the query is not shown")
    }

    @Test(
        "only http and https are fetched: other schemes are refused before anything is sent",
        arguments: ["file:///etc/passwd", "ftp://127.0.0.1/x", "gopher://127.0.0.1/", "dict://127.0.0.1/", "/relative"])
    func schemes(_ url: String) async throws {
        let error = await Self.failure { () async throws(HTTPClientError) in
            try await transport.send(HTTPClientRequest(.get, url))
        }
        #expect(error?.code == .unsupportedScheme)
    }

    @Test("a redirect is answered as it is unless asked, and never followed to another scheme")
    func redirects() async throws {
        let server = try await Self.server()
        defer { server.stop() }
        var request = HTTPClientRequest(.get, server.base + "/redirect")
        let answered = try await transport.send(request)
        #expect(answered.status == 302)
        #expect(answered.header("Location") == "/hello")
        request.maxRedirects = 2
        let followed = try await transport.send(request)
        #expect(followed.status == 200 && followed.body == Array("hello".utf8))
        #expect(followed.header("X-Fixture") == "yes", "the final response's fields")
        request.url = server.base + "/redirect?to=file:///etc/passwd"
        let error = await Self.failure { () async throws(HTTPClientError) in try await transport.send(request) }
        #expect(error?.code == .unsupportedScheme, "\(String(describing: error))")
    }

    @Test("offline, nothing is sent and the error says so")
    func offline() async throws {
        let server = try await Self.server()
        defer { server.stop() }
        let error = await Self.failure { () async throws(HTTPClientError) in
            try await CurlTransport(offline: true).send(HTTPClientRequest(.get, server.base + "/hello"))
        }
        #expect(error?.code == .offline)
        #expect(error?.message.contains("offline") == true)
        let count = try await transport.send(HTTPClientRequest(.get, server.base + "/count"))
        #expect(count.body == Array("0".utf8), "the server saw no request before this one")
    }

    @Test("a header field with CR or LF is refused; https verifies the peer")
    func refusals() async throws {
        let server = try await Self.server()
        defer { server.stop() }
        let injected = await Self.failure { () async throws(HTTPClientError) in
            try await transport.send(HTTPClientRequest(.get, server.base + "/hello", headers: [("X-A", "1\r\nX-B: 2")]))
        }
        #expect(injected?.code == .invalidRequest)
        // A plain HTTP server spoken to in TLS: the handshake fails, nothing is read as an answer.
        let tls = await Self.failure { () async throws(HTTPClientError) in
            try await transport.send(HTTPClientRequest(.get, "https://127.0.0.1:\(server.port)/hello"))
        }
        #expect(tls?.code == .tls, "\(String(describing: tls))")
    }

    @Test("cancelling the task aborts its transfer")
    func cancellation() async throws {
        let server = try await Self.server()
        defer { server.stop() }
        let transport = self.transport
        let request = HTTPClientRequest(.get, server.base + "/slow?seconds=20")
        let task = Task { () async -> HTTPClientError? in
            await Self.failure { () async throws(HTTPClientError) in try await transport.send(request) }
        }
        try await Task.sleep(for: .milliseconds(300))
        task.cancel()
        let error = await task.value
        // Not the server's 200 after 20 s: the transfer was aborted (curl's progress callback).
        #expect(error?.code == .cancelled)
    }

    @Test("transfers wait off Swift's pool: six slow ones are at the server at once, before any ends")
    func offThePool() async throws {
        let server = try await Self.server()
        defer { server.stop() }
        let transport = self.transport
        let finished = Finished()
        // Transfers holding the pool's threads (two on a two-core machine) would reach the server
        // two at a time, and the counting requests would wait behind them: a slow one would end
        // before six were seen. Ordering, not a clock: a busy machine only makes it slower.
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<6 {
                group.addTask {
                    let status = try await transport.send(HTTPClientRequest(.get, server.base + "/slow?seconds=10"))
                        .status
                    finished.add()
                    return status
                }
            }
            var slowSeen = 0
            var counts = 0
            while slowSeen < 6, finished.count == 0 {
                try await Task.sleep(for: .milliseconds(100))
                let reply = try await transport.send(HTTPClientRequest(.get, server.base + "/count"))
                // The server counts every request before this one, the counting ones included.
                slowSeen = (Int(String(decoding: reply.body, as: UTF8.self)) ?? 0) - counts
                counts += 1
            }
            #expect(slowSeen >= 6 && finished.count == 0, "\(slowSeen) slow requests seen, \(finished.count) ended")
            for try await status in group { #expect(status == 200) }
        }
    }
}

/// How many transfers have ended, from any task.
final class Finished: Sendable {
    private let value = Mutex(0)
    func add() { value.withLock { $0 += 1 } }
    var count: Int { value.withLock { $0 } }
}
