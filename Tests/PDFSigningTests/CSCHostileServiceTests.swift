import Foundation
import HTTPClient
import PDFCore
import PDFTestSupport
import Synchronization
import Testing

@testable import PDFSigning

/// A CSC service that lies, loops or phishes, played by a transport that answers as such a server
/// would (no installable server misbehaves on purpose): every answer is bounded, every secret goes
/// only where it belongs, and the error tells the truth.
@Suite("CSC: a hostile or broken service cannot loop, phish secrets or lock a credential")
struct CSCHostileServiceTests {
    /// Answers each request with `answer(path, body)`; keeps what was asked.
    final class Scripted: HTTPTransport {
        let asked = Mutex<[(url: String, body: String, headers: [(name: String, value: String)])]>([])
        let answer: @Sendable (String, String) -> (Int, String)
        init(_ answer: @escaping @Sendable (String, String) -> (Int, String)) { self.answer = answer }
        func send(_ request: HTTPClientRequest) async throws(HTTPClientError) -> HTTPClientResponse {
            let body = String(decoding: request.body, as: UTF8.self)
            asked.withLock { $0.append((request.url, body, request.headers)) }
            let (status, text) = answer(request.url, body)
            return HTTPClientResponse(status: status, body: Array(text.utf8))
        }
        var paths: [String] { asked.withLock { $0.map(\.url) } }
    }

    final class Counter: Sendable {
        let value = Mutex(0)
        func next() -> Int {
            value.withLock {
                $0 += 1; return $0
            }
        }
        var count: Int { value.withLock { $0 } }
    }

    static let info = #"{"specs":"1.0.4.0","name":"hostile","authType":["external"],"methods":[]}"#

    static func code(_ body: () async throws -> Void) async -> Int? { await CSCTests.code(body) }

    @Test("Only https leaves the machine: http elsewhere and URLs with user information are refused before any request")
    func urls() async {
        let transport = Scripted { _, _ in (200, Self.info) }
        for url in ["http://qtsp.example", "https://user:pass@qtsp.example", "ftp://qtsp.example", "https://q/?x=1"] {
            #expect(await Self.code { _ = try await CSCClient(baseURL: url, transport: transport) } == -129, "\(url)")
        }
        #expect(transport.paths.isEmpty)
        #expect(
            await Self.code { _ = try await CSCClient(baseURL: "https://qtsp.example", transport: transport) } == nil)
    }

    @Test("An info answer naming another plain-http OAuth server does not get the client's secret")
    func phishingOAuthServer() async throws {
        let transport = Scripted { url, _ in
            if url.hasSuffix("/info") {
                return (
                    200, #"{"specs":"1.0.4.0","name":"x","authType":["oauth2client"],"oauth2":"http://evil.example"}"#
                )
            }
            return (200, #"{"access_token":"t","token_type":"Bearer"}"#)
        }
        _ = try await CSCClient(
            baseURL: "http://127.0.0.1:1", clientID: "app", clientSecret: "s3cret", transport: transport)
        let asked = transport.paths
        #expect(asked.last == "http://127.0.0.1:1/oauth2/token" && !asked.contains { $0.contains("evil") }, "\(asked)")
    }

    @Test("A credential list whose pages loop ends within 100 pages, without duplicates")
    func loopingPages() async throws {
        let count = Counter()
        let transport = Scripted { url, _ in
            if url.hasSuffix("/info") { return (200, Self.info) }
            let page = count.next()
            return (200, #"{"credentialIDs":["same","p\#(page)"],"nextPageToken":"t\#(page % 2)"}"#)
        }
        let client = try await CSCClient(baseURL: "http://127.0.0.1:1", transport: transport)
        let identifiers = try await client.credentialIDs()
        #expect(identifiers.count == Set(identifiers).count && identifiers.count <= 101)
        #expect(transport.paths.count <= 101)
    }

    /// A service with one implicit credential and one explicit one whose PIN check always fails.
    static func pinService(_ locked: Counter) -> Scripted {
        Scripted { url, body in
            if url.hasSuffix("/info") && !url.contains("credentials") { return (200, Self.info) }
            if url.hasSuffix("credentials/info") {
                let chain = CSCHostileServiceTests.chain.map { "\"\($0)\"" }.joined(separator: ",")
                let explicit = body.contains("explicit")
                return (
                    200,
                    #"{"key":{"status":"enabled","algo":["1.2.840.10045.4.3.2"],"len":256},"cert":{"certificates":[\#(chain)]},"authMode":"\#(explicit ? "explicit" : "implicit")","PIN":{"presence":"\#(explicit)"},"SCAL":"2"}"#
                )
            }
            if url.hasSuffix("credentials/authorize") {
                _ = locked.next()
                return (400, #"{"error":"invalid_pin","error_description":"The PIN is invalid"}"#)
            }
            return (400, #"{"error":"invalid_request","error_description":"Error mapping the request"}"#)
        }
    }

    static let chain: [String] = {
        let pem =
            (try? Data(contentsOf: URL(fileURLWithPath: TestPaths.fixture("pki", "signer-p256.chain.pem")))) ?? Data()
        return Certificate.certificates(pem: Array(pem)).map { Data($0.derBytes).base64EncodedString() }
    }()

    @Test(
        "A wrong PIN is tried once, not once a signature (a service locks after a few); no PIN goes to an implicit credential"
    )
    func pinOnce() async throws {
        let tries = Counter()
        let transport = Self.pinService(tries)
        let client = try await CSCClient(baseURL: "http://127.0.0.1:1", transport: transport)
        let signer = try await CSCSigner(
            client: client, credentialID: "explicit", pin: "0000", allowExpired: true)
        for _ in 0..<3 {
            let code = await Self.code {
                _ = try await signer.cms(for: Array(repeating: 7, count: 32), algorithm: .sha256)
            }
            #expect(code == -125)
        }
        #expect(tries.count == 1)
        let implicit = try await CSCSigner(client: client, credentialID: "implicit", pin: "1234", allowExpired: true)
        _ = await Self.code { _ = try await implicit.cms(for: Array(repeating: 7, count: 32), algorithm: .sha256) }
        let bodies = transport.asked.withLock { $0.filter { $0.url.hasSuffix("authorize") }.map(\.body) }
        #expect(bodies.count == 2 && bodies[1].contains("implicit") && !bodies[1].contains("1234"), "\(bodies)")
    }

    @Test("Error words are read whole ('mapping' is no PIN: −129; 'Credential locked' is −125)")
    func errorWords() async throws {
        for (description, expected) in [("Error mapping the request", -129), ("Credential locked", -125)] {
            let transport = Scripted { url, _ in
                url.hasSuffix("/info") && !url.contains("credentials")
                    ? (200, Self.info)
                    : (400, #"{"error":"invalid_request","error_description":"\#(description)"}"#)
            }
            let client = try await CSCClient(baseURL: "http://127.0.0.1:1", transport: transport)
            #expect(await Self.code { _ = try await client.credential("c") } == expected, "\(description)")
        }
    }

    @Test("A credential whose service gives no certificate is −147, one whose certificate is not one −124")
    func noCertificate() async throws {
        for (cert, expected) in [
            (#"{}"#, -147), (#"{"certificates":[]}"#, -147), (#"{"certificates":["AAEC"]}"#, -124),
        ] {
            let transport = Scripted { url, _ in
                if url.hasSuffix("/info") && !url.contains("credentials") { return (200, Self.info) }
                return (
                    200,
                    #"{"key":{"status":"enabled","algo":["1.2.840.10045.4.3.2"],"len":256},"cert":\#(cert),"authMode":"implicit","SCAL":"1"}"#
                )
            }
            let client = try await CSCClient(baseURL: "http://127.0.0.1:1", transport: transport)
            let code = await Self.code { _ = try await CSCSigner(client: client, credentialID: "c", pin: nil) }
            #expect(code == expected, "\(cert)")
        }
    }

    @Test("A gateway error (503) is −123, the service unreachable")
    func gateway() async throws {
        let transport = Scripted { url, _ in url.hasSuffix("/info") ? (200, Self.info) : (503, "down") }
        let client = try await CSCClient(baseURL: "http://127.0.0.1:1", transport: transport)
        #expect(await Self.code { _ = try await client.credentialIDs() } == -123)
    }
}

extension CSCHostileServiceTests {
    /// Answers `info` and `credentials/info` at once and holds `credentials/authorize` for an hour
    /// (then refuses its PIN): only a cancellation ends a signature before that.
    final class Stalling: HTTPTransport {
        func send(_ request: HTTPClientRequest) async throws(HTTPClientError) -> HTTPClientResponse {
            let body = String(decoding: request.body, as: UTF8.self)
            let answer = CSCHostileServiceTests.pinService(Counter()).answer
            if request.url.hasSuffix("credentials/authorize") {
                try? await Task.sleep(for: .seconds(3600))
            }
            let (status, text) = answer(request.url, body)
            return HTTPClientResponse(status: status, body: Array(text.utf8))
        }
    }

    @Test("A signature cancelled while the service stalls ends cancelled, its own and one waiting behind it")
    func cancelledWhileStalled() async throws {
        let client = try await CSCClient(baseURL: "http://127.0.0.1:1", transport: Stalling())
        let signer = try await CSCSigner(client: client, credentialID: "implicit", allowExpired: true)
        let first = Task { try await signer.cms(for: Array(repeating: 1, count: 32), algorithm: .sha256) }
        try await Task.sleep(for: .milliseconds(200))
        let second = Task { try await signer.cms(for: Array(repeating: 2, count: 32), algorithm: .sha256) }
        try await Task.sleep(for: .milliseconds(200))
        first.cancel()
        second.cancel()
        for task in [first, second] {
            do {
                _ = try await task.value
                Issue.record("a cancelled signature was made")
            } catch let error as SigningError {
                // Without the cancellation, the stalled service's answer would be −125 an hour later.
                #expect(error.code == .cancelled, "\(error.message)")
            }
        }
    }
}
