import AutographJSON
import Foundation
import PDFCore
import PDFSession
import PDFTestSupport
import Testing

@testable import PDFWeb

/// The token, the Host check, exact routes and the upload limit, seen from curl.
@Suite struct WebSecurityTests {
    @Test("without the token, with a wrong one, or with another Host, every route answers 403")
    func forbidden() async throws {
        let server = try await TestServer()
        defer { Task { await server.stop() } }
        for path in ["/", "/api/state", "/api/nothing", "/api/download"] {
            let missing = try await server.request(path, auth: .none)
            #expect(missing.status == 403, "\(path)")
            #expect(missing.errorCode == "forbidden")
            #expect(try await server.request(path, auth: .wrong).status == 403, "\(path)")
        }
        let rebinding = try await server.request("/api/state", headers: ["Host: attacker.example:\(server.port)"])
        #expect(rebinding.status == 403)
        #expect(rebinding.errorCode == "forbidden")
        #expect(try await server.request("/api/state", headers: ["Host: 127.0.0.1:1"]).status == 403)
        #expect(try await server.request("/api/state", headers: ["Host: localhost:\(server.port)"]).status == 200)
    }

    @Test(
        "a sign-in link is exchanged once for a cookie by a redirect to /; the API takes the bearer token or the cookie"
    )
    func tokenCarriers() async throws {
        let server = try await TestServer()
        defer { Task { await server.stop() } }
        let code = String(server.server.signInLink().dropFirst(8))
        #expect(code.count == 48 && !server.token.contains(code))
        let link = try await server.request("/", auth: .linkCode(code))
        #expect(link.status == 303)
        #expect(link.headers["location"] == "/")
        let cookie = try #require(link.headers["set-cookie"])
        #expect(cookie.hasPrefix(server.cookie + ";"))
        #expect(!cookie.contains(server.token))
        #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict") && cookie.contains("Path=/"))
        // Opened again by a browser that holds the cookie: the redirect still drops the code.
        let again = try await server.request("/", auth: .linkCode(code), headers: ["Cookie: \(server.cookie)"])
        #expect(again.status == 303)
        #expect(again.headers["location"] == "/")
        #expect(again.headers["set-cookie"] == nil)
        // Opened again without the cookie (read from a History): spent, refused.
        let spent = try await server.request("/", auth: .linkCode(code))
        #expect(spent.status == 403)
        #expect(spent.json["error"]?["message"]?.stringValue?.contains("used already") == true)
        // A new link comes from the API token only; the cookie cannot make one.
        let made = try await server.post("/api/links")
        #expect(made.status == 201)
        let fresh = try #require(made.json["url"]?.stringValue)
        #expect(fresh.hasPrefix("/?login=") && !fresh.contains(code))
        #expect(try await server.request("/", auth: .linkCode(String(fresh.dropFirst(8)))).status == 303)
        let byCookie = try await server.request(
            "POST", "/api/links", auth: .cookie, json: "{}", headers: ["Origin: \(server.base)"])
        #expect(byCookie.status == 403)
        let index = try await server.request("/", auth: .cookie)
        #expect(index.status == 200)
        #expect(index.headers["content-type"]?.hasPrefix("text/html") == true)
        for auth in [TestServer.Auth.bearer, .cookie] {
            let state = try await server.request("/api/state", auth: auth)
            #expect(state.status == 200, "\(auth)")
            #expect(state.json["documentID"]?.stringValue == "web-test")
        }
        // The API token in a URL is no credential, not even as a link's code.
        #expect(try await server.request("/api/state", auth: .tokenInQuery).status == 403)
        #expect(try await server.request("/", auth: .tokenInQuery).status == 403)
        #expect(server.token.count == 64 && server.token.allSatisfy(\.isHexDigit))
    }

    @Test("unknown paths and .. are 404, with JSON errors")
    func notFound() async throws {
        let root = try TestPaths.temporaryDirectory("webroot")
        try FileManager.default.createDirectory(atPath: root + "/app", withIntermediateDirectories: true)
        try Data("<title>dev</title>".utf8).write(to: URL(fileURLWithPath: root + "/index.html"))
        try Data("export const x = 1;".utf8).write(to: URL(fileURLWithPath: root + "/app/x.js"))
        try Data("secret".utf8).write(to: URL(fileURLWithPath: root + "/secret.txt"))
        let server = try await TestServer(webRoot: root)
        defer { Task { await server.stop() } }
        let unknown = try await server.request("/api/nope")
        #expect(unknown.status == 404)
        #expect(unknown.errorCode == "notFound")
        #expect(try await server.request("/etc/passwd").status == 404)
        #expect(try await server.request("/app/../secret.txt", extra: ["--path-as-is"]).status == 404)
        #expect(try await server.request("/app/%2e%2e/secret.txt", extra: ["--path-as-is"]).status == 404)
        #expect(try await server.request("/app/./x.js", extra: ["--path-as-is"]).status == 404)
        #expect(try await server.request("/app/../../etc/passwd", extra: ["--path-as-is"]).status == 404)
        #expect(try await server.request("/app/secret.txt").status == 404)
        let module = try await server.request("/app/x.js")
        #expect(module.status == 200)
        #expect(module.text == "export const x = 1;")
        #expect(module.headers["content-type"]?.hasPrefix("text/javascript") == true)
        #expect(try await server.request("/").text == "<title>dev</title>")
        #expect(try await server.request("/api/pages/7/tile").status == 404)
    }

    @Test("a body over the limit is 413, whether its length is announced or it arrives in chunks")
    func uploadLimit() async throws {
        let server = try await TestServer(uploadLimit: 4096)
        defer { Task { await server.stop() } }
        let big = [UInt8](repeating: 0x41, count: 20_000)
        let announced = try await server.request("POST", "/api/documents", body: big)
        #expect(announced.status == 413)
        #expect(announced.errorCode == "tooLarge")
        let chunked = try await server.request(
            "POST", "/api/documents", body: big, headers: ["Transfer-Encoding: chunked"])
        #expect(chunked.status == 413)
        #expect(chunked.errorCode == "tooLarge")
        // Under the limit, the body reaches the route (not a PDF: 400 with signo -120/-121).
        let small = try await server.request("POST", "/api/documents", body: Array("not a pdf".utf8))
        #expect(small.status == 400)
        #expect([-120, -121].contains(small.signoCode ?? 0))
        #expect(try await server.request("/api/state").json["documentID"]?.stringValue == "web-test")
    }
}

@Suite struct WebErrorStatusTests {
    @Test("session errors become statuses: 409 for a wrong phase or a document another session wrote")
    func statuses() {
        #expect(WebError(SessionError(.documentChanged, "")).status == 409)
        #expect(WebError(SessionError(.documentChanged, "")).signoCode == -128)
        #expect(WebError(SessionError(.invalidState, "")).status == 409)
        #expect(WebError(SessionError(.documentNotFound, "")).status == 404)
        #expect(WebError(SessionError(.storeUnavailable, "")).status == 500)
    }
}
