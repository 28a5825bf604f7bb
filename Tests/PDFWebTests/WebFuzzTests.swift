import PDFCore
import PDFTestSupport
import Testing

@testable import PDFWeb

/// Random requests to the whole server in process (policy, router, session): every answer a status
/// the API documents, never 500, and the server answering after each.
@Suite struct WebFuzzTests {
    /// Deterministic, so that a failure can be replayed by its seed.
    typealias Generator = SplitMix64

    static let routes = [
        "/api/state", "/api/documents", "/api/pages", "/api/layout", "/api/pages/0/tile", "/api/pages/1/tile",
        "/api/pages/-1/tile", "/api/fields", "/api/fields/name", "/api/fields/Signature1", "/api/save", "/api/page",
        "/api/download", "/api/preview.png", "/api/appearance.png", "/api/accept", "/api/refuse", "/api/select-field",
        "/api/capture",
        "/api/choose-signature", "/api/position", "/api/confirm", "/api/cancel", "/api/start-signature",
        "/api/signature-fields", "/api/search", "/api/notes/start", "/api/notes/stroke", "/api/notes/undo",
        "/api/notes/redo", "/api/notes/style", "/api/notes/save", "/api/notes/cancel", "/api/photo/comment",
        "/api/photo-fields", "/api/signatures", "/api/signatures/1", "/", "/app/viewer.js", "/favicon.ico",
        "/api/../etc/passwd", "/api/%00",
    ]
    static let numbers = [
        "0", "1", "-1", "2", "0.5", "1e308", "-1e308", "1e19", "9223372036854775807", "-9223372036854775808",
        "9223372036854775808", "4.9e-324", "NaN", "Infinity", "-0", "1e-7", "\"1\"", "null", "true", "[]", "{}",
    ]
    static let keys = [
        "page", "rect", "strokes", "name", "value", "id", "field", "names", "maxWidth", "maxHeight", "width", "color",
        "x", "y", "t", "p",
    ]

    static func value(_ random: inout Generator, depth: Int = 0) -> String {
        switch Int.random(in: 0..<10, using: &random) {
        case 0...3: return numbers.randomElement(using: &random)!
        case 4:
            return "\"" + ["Signature1", "name", "comment", "#ff0000", "", "\\u0000", "é"].randomElement(
                using: &random)! + "\""
        case 5...6 where depth < 4:
            let count = Int.random(in: 0..<5, using: &random)
            return "[" + (0..<count).map { _ in value(&random, depth: depth + 1) }.joined(separator: ",") + "]"
        case 7...8 where depth < 4:
            let count = Int.random(in: 0..<4, using: &random)
            let members = (0..<count).map { _ in
                "\"\(keys.randomElement(using: &random)!)\": \(value(&random, depth: depth + 1))"
            }
            return "{" + members.joined(separator: ",") + "}"
        case 9: return String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        default: return numbers.randomElement(using: &random)!
        }
    }

    static func body(_ random: inout Generator) -> String {
        let count = Int.random(in: 0..<5, using: &random)
        let members = (0..<count).map { _ in "\"\(keys.randomElement(using: &random)!)\": \(value(&random))" }
        return "{" + members.joined(separator: ",") + "}"
    }

    @Test("5000 random requests: routes, methods, bodies, numbers at the edges of Int64 and Double, deep nesting")
    func randomRequests() async throws {
        let server = try await TestServer()
        defer { Task { await server.stop() } }
        var random = Generator(state: 20_261_201)
        let host = "127.0.0.1:\(server.port)"
        var statuses: [Int: Int] = [:]
        for round in 0..<5000 {
            var path = Self.routes.randomElement(using: &random)!
            // Mostly a method the route takes, so that requests reach the routes' own checks.
            let allowed = WebRouter.methods(for: path)
            let method =
                Int.random(in: 0..<5, using: &random) > 0 && !allowed.isEmpty
                ? allowed.randomElement(using: &random)!
                : ["GET", "POST", "PUT", "DELETE", "HEAD", "PATCH", "OPTIONS"].randomElement(using: &random)!
            var query: [String: String] = [:]
            for key in ["scale", "x", "y", "w", "h", "width", "height", "zoom", "spacing", "fit", "q", "max"]
            where Bool.random(using: &random) && Bool.random(using: &random) {
                query[key] = Self.numbers.randomElement(using: &random)!
            }
            if round % 97 == 0 { path += "/extra" }
            var headers = ["host": host, "authorization": "Bearer " + server.token, "x-autograph": "1"]
            if round % 13 == 0 { headers["origin"] = "http://evil.example" }
            if round % 17 == 0 { headers["x-autograph"] = nil }
            let body = Bool.random(using: &random) ? Array(Self.body(&random).utf8) : []
            let request = HTTPRequest(method: method, path: path, query: query, headers: headers, body: body)
            let reply = await server.server.handle(request)
            statuses[reply.status, default: 0] += 1
            #expect(
                (200..<500).contains(reply.status) || reply.status == 503,
                "round \(round): \(method) \(path) \(query) \(String(decoding: body, as: UTF8.self)) → \(reply.status)")
            if round % 100 == 0 {
                let alive = await server.server.handle(
                    HTTPRequest(
                        method: "GET", path: "/api/state",
                        headers: ["host": host, "authorization": "Bearer " + server.token]))
                #expect(alive.status == 200)
            }
        }
        print("web fuzz statuses: \(statuses.sorted { $0.key < $1.key })")
        #expect(try await server.request("/api/state").status == 200)
    }
}
