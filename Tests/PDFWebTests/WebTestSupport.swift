import AutographJSON
import Foundation
import PDFCore
import PDFSession
import PDFSigning
import PDFTestSupport

@testable import PDFWeb

/// A server started in process on a free port, with its own store, driven by curl.
final class TestServer: @unchecked Sendable {
    let server: WebServer
    let backend: WebBackend
    let port: Int
    let directory: String
    var base: String { "http://127.0.0.1:\(port)" }
    var token: String { server.token }

    init(
        uploadLimit: Int? = nil, webRoot: String? = nil, keepAlive: Double = 15, handwriting: Bool = true,
        document: [UInt8]? = WebFixtures.form(), host: WebBackend.HostLink = .none, provider: ProviderSigning? = nil,
        configure: (inout WebServer.Configuration) -> Void = { _ in }
    ) async throws {
        directory = try TestPaths.temporaryDirectory("web")
        let controller = try SessionController(
            username: "ada", storageKey: [UInt8](repeating: 9, count: 64), storePath: directory + "/store.sqlite")
        var signature = SignatureConfiguration(signer: try WebFixtures.signer())
        signature.appearance.handwrittenSignatureEnabled = handwriting
        backend = WebBackend(
            controller: controller, signatureConfiguration: signature, host: host, providerSigning: provider)
        if let document { try await backend.open(pdf: document, documentID: "web-test") }
        var configuration = WebServer.Configuration()
        if let uploadLimit { configuration.uploadLimit = uploadLimit }
        configuration.webRoot = webRoot
        configuration.keepAliveInterval = keepAlive
        // Tests that are not about the render budget must not meet it: on a busy two-core machine,
        // with other suites' renders on the same threads, a tile can wait longer than 4 s.
        configuration.renderTimeLimit = .seconds(60)
        configuration.maxTileWait = .seconds(60)
        configure(&configuration)
        server = WebServer(backend: backend, configuration: configuration)
        port = try server.start(host: "127.0.0.1", port: 0)
    }

    func stop() async {
        server.stop()
        await backend.close()
    }

    struct Reply {
        var status: Int
        var headers: [String: String]
        var body: Data
        var text: String { String(decoding: body, as: UTF8.self) }
        var json: JSONValue { (try? JSONValue.parse(Array(body))) ?? .null }
        /// The error's `code`, `signoCode` of a JSON error.
        var errorCode: String? { json["error"]?["code"]?.stringValue }
        var signoCode: Int? { json["error"]?["signoCode"]?.intValue }
    }

    /// `link`: a new sign-in link's code in the query; `linkCode(c)`: that code; `tokenInQuery`: the
    /// API token where a link's code goes (never a credential).
    enum Auth { case none, link, linkCode(String), tokenInQuery, bearer, cookie, wrong }

    /// The browser's cookie (`name=value`), as the link's redirect sets it.
    var cookie: String { server.policy.cookieName + "=" + server.policy.cookieSecret }

    /// One request with curl: the token as asked, optional body (bytes) and headers; `X-Autograph: 1`
    /// unless `marked` is false.
    func request(
        _ method: String = "GET", _ path: String, auth: Auth = .bearer, body: [UInt8]? = nil, json: String? = nil,
        headers: [String] = [], extra: [String] = [], marked: Bool = true
    ) async throws -> Reply {
        let stamp = UUID().uuidString
        let headerFile = directory + "/h-" + stamp
        let bodyFile = directory + "/b-" + stamp
        var arguments = [
            "-s", "-X", method, "-D", headerFile, "-o", bodyFile, "-w", "%{http_code}", "--max-time", "60",
        ]
        var url = base + path
        switch auth {
        case .none: break
        case .link: url += (path.contains("?") ? "&" : "?") + "login=" + server.signInLink().dropFirst(8)
        case .linkCode(let code): url += (path.contains("?") ? "&" : "?") + "login=" + code
        case .tokenInQuery: url += (path.contains("?") ? "&" : "?") + "login=" + token + "&token=" + token
        case .bearer: arguments += ["-H", "Authorization: Bearer " + token]
        case .cookie: arguments += ["-b", cookie]
        case .wrong: arguments += ["-H", "Authorization: Bearer " + String(token.reversed())]
        }
        if marked { arguments += ["-H", "X-Autograph: 1"] }
        for header in headers { arguments += ["-H", header] }
        if let json { arguments += ["-H", "Content-Type: application/json", "--data-binary", json] }
        if let body {
            let input = directory + "/in-" + stamp
            try Data(body).write(to: URL(fileURLWithPath: input))
            arguments += ["--data-binary", "@" + input]
        }
        let result = try await Self.runOffPool("curl", arguments + extra + [url])
        var parsed: [String: String] = [:]
        let headerText = (try? String(contentsOfFile: headerFile, encoding: .utf8)) ?? ""
        for line in headerText.split(separator: "\r\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            parsed[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let data = (try? Data(contentsOf: URL(fileURLWithPath: bodyFile))) ?? Data()
        return Reply(status: Int(result.output) ?? 0, headers: parsed, body: data)
    }

    func request(
        _ path: String, auth: Auth = .bearer, headers: [String] = [], extra: [String] = [], marked: Bool = true
    ) async throws -> Reply {
        try await request("GET", path, auth: auth, headers: headers, extra: extra, marked: marked)
    }

    func post(_ path: String, _ json: String = "{}") async throws -> Reply {
        try await request("POST", path, json: json)
    }

    /// Runs a program on a thread of its own: `Oracle.run` blocks, and a blocked cooperative pool
    /// (two threads on a two-core machine) could not run the server's handlers it waits for.
    static func runOffPool(_ program: String, _ arguments: [String], timeout: Double = 90) async throws
        -> Oracle.Result
    {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                continuation.resume(with: Result { try Oracle.run(program, arguments, timeout: timeout) })
            }
            thread.start()
        }
    }
}

enum WebFixtures {
    static let pki = TestPaths.fixture("pki", "")
    static let root = pki + "root.cert.pem"

    static func signer() throws -> LocalKeySigner {
        try LocalKeySigner(pkcs12: pki + "signer-p256.p12", password: "secret")
    }

    /// Two 600×800 pages: "Page one" with text fields `name` (required) and `comment`; "Page two"
    /// with the given signature fields.
    static func form(signatures: [String] = ["Signature1"]) -> [UInt8] {
        TestForms.agreement(
            width: 600, height: 800, required: ["name"], signatures: signatures, fieldTop: 600,
            labels: ("Page one", "Page two of the agreement"), labelY: 700)
    }

    /// A handwritten scribble of 40 points (capture-pad pixels, y down).
    static let scribble: String = {
        let points = (0..<40).map { index in
            "{\"x\": \(index * 6), \"y\": \(40 + Int(25 * sin(Double(index) / 3))), \"t\": \(Double(index) * 0.016), \"p\": 0.5}"
        }
        return "{\"strokes\": [[" + points.joined(separator: ", ") + "]]}"
    }()

    /// Width and height from a PNG's IHDR chunk (nil when it is not a PNG).
    static func pngSize(_ data: Data) -> (width: Int, height: Int)? {
        let bytes = [UInt8](data)
        guard bytes.count > 24, bytes[0..<8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A],
            String(decoding: bytes[12..<16], as: UTF8.self) == "IHDR"
        else { return nil }
        func int(_ at: Int) -> Int { bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
        return (int(16), int(20))
    }

    static func write(_ data: Data, _ directory: String, _ name: String) throws -> String {
        let path = directory + "/" + name
        try data.write(to: URL(fileURLWithPath: path))
        return path
    }
}
