import AutographJSON
import Foundation
import PDFAuthoring
import PDFCore
import PDFGraphics
import PDFTestSupport
import Synchronization
import Testing

@testable import PDFWeb

/// Each request a hostile client or page was seen to send, answered with a refusal or a success —
/// and the server alive after each.
@Suite struct WebAttackTests {
    static let edgeNumbers = ["1e30", "-1e30", "1e19", "9223372036854775807", "-9223372036854775808", "NaN", "inf"]

    @Test("tile regions at the edges of Int64 and Double are 400 naming the parameter, and the server lives")
    func tileNumbers() async throws {
        let server = try await TestServer()
        defer { Task { await server.stop() } }
        for value in Self.edgeNumbers {
            for key in ["x", "y", "w", "h", "scale"] {
                let reply = try await server.request("/api/pages/0/tile?scale=1&\(key)=\(value)")
                #expect(reply.status == 400, "\(key)=\(value)")
                #expect(reply.json["error"]?["field"]?.stringValue == key, "\(key)=\(value)")
            }
        }
        // A region that starts inside the page and runs past its edge is cut, as before.
        #expect(try await server.request("/api/pages/0/tile?scale=1&x=590&y=0&w=64&h=64").status == 200)
        // A whole page beyond the tile pixel limit (4800×6400 at scale 8 > 25 MP) is refused, not drawn.
        let huge = try await server.request("/api/pages/0/tile?scale=8")
        #expect(huge.status == 400)
        #expect(huge.json["error"]?["field"]?.stringValue == "scale")
        #expect(try await server.request("/api/state").status == 200)
    }

    @Test("a page index of Int.max, Int.min, -1 or 1.5 on every route that takes one is 400 with the right numbers")
    func pageIndices() async throws {
        let server = try await TestServer()
        defer { Task { await server.stop() } }
        _ = try await server.post("/api/notes/start")
        for page in ["9223372036854775807", "-9223372036854775808", "-1", "2", "1.5", "1e300", "\"0\""] {
            let body =
                "{\"page\": \(page), \"name\": \"Extra\", \"rect\": [10, 10, 100, 40], \"strokes\": [[{\"x\": 1, \"y\": 1}]]}"
            for route in ["/api/page", "/api/signature-fields", "/api/notes/stroke"] {
                let reply = try await server.post(route, body)
                #expect(reply.status == 400, "\(route) \(page)")
                #expect(reply.json["error"]?["field"]?.stringValue == "page", "\(route) \(page)")
            }
        }
        // The number as given, even when no Int holds it.
        let huge = try await server.post("/api/page", "{\"page\": 1e300}")
        #expect(huge.json["error"]?["message"]?.stringValue?.contains("page index 1e+300 does not exist") == true)
        let negative = try await server.post("/api/page", "{\"page\": -1}")
        #expect(negative.json["error"]?["message"]?.stringValue?.contains("page index -1 does not exist") == true)
        #expect(negative.json["error"]?["message"]?.stringValue?.contains("0 to 1") == true)
        _ = try await server.post("/api/notes/cancel")
        _ = try await server.post("/api/accept")
        _ = try await server.post("/api/start-signature", "{\"field\": \"Signature1\"}")
        let position = try await server.post(
            "/api/position", "{\"page\": 9223372036854775807, \"rect\": [0, 0, 10, 10]}")
        #expect(position.status == 400 || position.status == 409)
        #expect(try await server.request("/api/state").status == 200)
    }

    @Test("a saved signature at 1e308 is refused (400), so choosing it can never kill the server")
    func hugeSavedSignature() async throws {
        let server = try await TestServer()
        defer { Task { await server.stop() } }
        let points = (0..<12).map {
            "{\"x\": \($0 == 3 ? "1e308" : String($0 * 5)), \"y\": \($0 == 5 ? "-1e308" : "10")}"
        }
        let reply = try await server.post("/api/signatures", "{\"strokes\": [[\(points.joined(separator: ","))]]}")
        #expect(reply.status == 400)
        #expect(reply.json["error"]?["field"]?.stringValue == "strokes")
        #expect(try await server.request("/api/signatures").json.arrayValue?.isEmpty == true)
        let many = (0..<100_001).map { _ in "{\"x\":1,\"y\":1}" }.joined(separator: ",")
        let tooMany = try await server.request(
            "POST", "/api/signatures", body: Array("{\"strokes\": [[\(many)]]}".utf8))
        #expect(tooMany.status == 400)
        let pressure = try await server.post("/api/signatures", "{\"strokes\": [[{\"x\":1,\"y\":1,\"p\":7}]]}")
        #expect(pressure.status == 400)
    }

    @Test("a too-short capture is 400 with signo -132, a signature field on a missing page 400, not 500")
    func inputErrorsAreNot500() async throws {
        let server = try await TestServer()
        defer { Task { await server.stop() } }
        #expect(try await server.request("PUT", "/api/fields/name", json: #"{"value": "Ada"}"#).status == 200)
        _ = try await server.post("/api/accept")
        _ = try await server.post("/api/start-signature", "{\"field\": \"Signature1\"}")
        let short = try await server.post(
            "/api/capture", "{\"strokes\": [[{\"x\": 1, \"y\": 1}, {\"x\": 2, \"y\": 2}]]}")
        #expect(short.status == 400)
        #expect(short.signoCode == -132)
        let missing = try await server.post(
            "/api/signature-fields", "{\"name\": \"X\", \"page\": 7, \"rect\": [0, 0, 10, 10]}")
        #expect(missing.status == 400)
    }

    @Test("another origin, a missing X-Autograph, a cross-site fetch or the cookie alone without Origin cannot write")
    func crossOrigin() async throws {
        let server = try await TestServer()
        defer { Task { await server.stop() } }
        let evil = ["Origin: http://evil.example"]
        let sibling = ["Origin: http://127.0.0.1:\(server.port + 1)"]
        for headers in [evil, sibling, ["Sec-Fetch-Site: same-site"], ["Sec-Fetch-Site: cross-site"]] {
            for auth in [TestServer.Auth.cookie, .bearer] {
                let write = try await server.request("POST", "/api/save", auth: auth, json: "{}", headers: headers)
                #expect(write.status == 403, "\(headers) \(auth)")
                let read = try await server.request("/api/state", auth: auth, headers: headers)
                #expect(read.status == 403, "\(headers) \(auth)")
            }
        }
        let replace = try await server.request(
            "POST", "/api/documents", auth: .cookie, body: WebFixtures.form(), headers: evil)
        #expect(replace.status == 403)
        // Without the custom header (a form post, an <img>, a no-cors fetch cannot add it): refused.
        let unmarked = try await server.request(
            "POST", "/api/signatures", auth: .cookie, json: WebFixtures.scribble,
            headers: ["Origin: \(server.base)"], marked: false)
        #expect(unmarked.status == 403)
        // The cookie with the header but saying nothing of where it comes from: refused.
        #expect(try await server.request("POST", "/api/save", auth: .cookie, json: "{}").status == 403)
        // The viewer's own request: Origin is the server's.
        let own = try await server.request(
            "POST", "/api/save", auth: .cookie, json: "{}", headers: ["Origin: \(server.base)"])
        #expect(own.status == 200)
        let ownFetch = try await server.request(
            "POST", "/api/save", auth: .cookie, json: "{}", headers: ["Sec-Fetch-Site: same-origin"])
        #expect(ownFetch.status == 200)
        // A top-level navigation from elsewhere to the viewer page is allowed; to the API it is not.
        let navigation = ["Sec-Fetch-Site: cross-site", "Sec-Fetch-Mode: navigate", "Sec-Fetch-Dest: document"]
        #expect(try await server.request("/", auth: .cookie, headers: navigation).status == 200)
        #expect(try await server.request("/api/download", auth: .cookie, headers: navigation).status == 403)
        #expect(try await server.request("/api/state").json["documentID"]?.stringValue == "web-test")
        #expect(try await server.request("/api/signatures").json.arrayValue?.isEmpty == true)
    }

    @Test("every answer forbids framing and sniffing, sets a CSP with the inline scripts' hashes; tiles are not stored")
    func securityHeaders() async throws {
        let server = try await TestServer()
        defer { Task { await server.stop() } }
        for path in ["/", "/app/viewer.js", "/api/state", "/api/nothing", "/api/pages/0/tile?scale=0.2"] {
            for auth in [TestServer.Auth.bearer, .none] {
                let reply = try await server.request(path, auth: auth)
                let policy = reply.headers["content-security-policy"] ?? ""
                #expect(policy.contains("default-src 'self'") && policy.contains("frame-ancestors 'none'"), "\(path)")
                #expect(reply.headers["x-frame-options"] == "DENY", "\(path)")
                #expect(reply.headers["x-content-type-options"] == "nosniff", "\(path)")
                #expect(reply.headers["cross-origin-resource-policy"] == "same-origin", "\(path)")
            }
        }
        let index = try await server.request("/")
        let hashes = WebAssets.inlineScriptHashes(Array(index.body))
        #expect(hashes.count == 2)
        for hash in hashes { #expect(index.headers["content-security-policy"]?.contains("'sha256-\(hash)'") == true) }
        let tile = try await server.request("/api/pages/0/tile?scale=0.2")
        #expect(tile.headers["cache-control"] == "no-store")
        let favicon = try await server.request("/favicon.ico")
        #expect(favicon.status == 200)
        #expect(favicon.headers["content-type"] == "image/svg+xml")
    }

    @Test("two Host headers, two Content-Lengths, a length with chunking, %00 in a path: 400; 405 names Allow")
    func malformedRequests() async throws {
        let server = try await TestServer()
        defer { Task { await server.stop() } }
        let hosts = try await Self.raw(
            server.port,
            "GET /api/state HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nHost: evil.example\r\n"
                + "Authorization: Bearer \(server.token)\r\n\r\n")
        #expect(hosts.hasPrefix("HTTP/1.1 400"), "\(hosts.prefix(80))")
        let lengths = try await Self.raw(
            server.port,
            "POST /api/save HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nAuthorization: Bearer \(server.token)\r\n"
                + "X-Autograph: 1\r\nContent-Length: 2\r\nContent-Length: 40\r\n\r\n{}")
        #expect(lengths.hasPrefix("HTTP/1.1 400"), "\(lengths.prefix(80))")
        let both = try await Self.raw(
            server.port,
            "POST /api/save HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nAuthorization: Bearer \(server.token)\r\n"
                + "X-Autograph: 1\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n")
        #expect(both.hasPrefix("HTTP/1.1 400"), "\(both.prefix(80))")
        let saved = try await server.post("/api/signatures", WebFixtures.scribble)
        #expect(saved.status == 201)
        let id = try #require(saved.json["id"]?.intValue)
        let cut = try await server.request("DELETE", "/api/signatures/\(id)%00x")
        #expect(cut.status == 400)
        #expect(try await server.request("/api/signatures").json.arrayValue?.count == 1)
        let wrongMethod = try await server.request("GET", "/api/accept")
        #expect(wrongMethod.status == 405)
        #expect(wrongMethod.headers["allow"] == "POST")
        #expect(try await server.request("PATCH", "/api/signatures").headers["allow"] == "GET, HEAD, POST")
    }

    @Test("--web-root never serves a file a symbolic link points to outside the root")
    func webRootSymlinks() async throws {
        let root = try TestPaths.temporaryDirectory("webroot-links")
        let outside = try TestPaths.temporaryDirectory("outside")
        try FileManager.default.createDirectory(atPath: root + "/app", withIntermediateDirectories: true)
        try Data("<title>dev</title>".utf8).write(to: URL(fileURLWithPath: root + "/index.html"))
        try Data("secret".utf8).write(to: URL(fileURLWithPath: outside + "/secret.js"))
        try Data("export const x = 1;".utf8).write(to: URL(fileURLWithPath: root + "/app/inside.js"))
        try FileManager.default.createSymbolicLink(
            atPath: root + "/app/leak.js", withDestinationPath: outside + "/secret.js")
        try FileManager.default.createSymbolicLink(atPath: root + "/app/dir", withDestinationPath: outside)
        try FileManager.default.createSymbolicLink(
            atPath: root + "/app/same.js", withDestinationPath: root + "/app/inside.js")
        let server = try await TestServer(webRoot: root)
        defer { Task { await server.stop() } }
        #expect(try await server.request("/app/leak.js").status == 404)
        #expect(try await server.request("/app/dir/secret.js").status == 404)
        #expect(try await server.request("/app/same.js").status == 200)
        #expect(try await server.request("/app/inside.js").text == "export const x = 1;")
    }

    @Test("a photo declaring 32767×32767 pixels is refused from its header (413) before any decoding")
    func photoBomb() async throws {
        let server = try await TestServer()
        defer { Task { await server.stop() } }
        #expect(try await server.post("/api/photo-fields", "{\"names\": [\"comment\"]}").status == 200)
        let bomb = WebAttackFixtures.pngDeclaring(width: 32767, height: 32767)
        let started = ContinuousClock.now
        let reply = try await server.request("POST", "/api/photo/comment", body: bomb)
        #expect(reply.status == 413)
        #expect(reply.errorCode == "imageTooLarge")
        #expect(ContinuousClock.now - started < .seconds(5))
        #expect(try await server.request("/api/state").status == 200)
        // The same check in the Swift API, without the web layer.
        #expect(throws: PDFError.self) {
            _ = try ImageXObject(data: bomb, maxWidth: 100, maxHeight: 100)
        }
    }

    @Test("uploads beyond the number allowed at once are 503 with Retry-After; the others go through")
    func uploadsAtOnce() async throws {
        let server = try await TestServer { $0.concurrentUploads = 1 }
        defer { Task { await server.stop() } }
        // A client that announces 1 MB, sends 10 bytes and waits 10 s holds the only place.
        let port = server.port
        let token = server.token
        // Started at once as a process of its own: a task could wait behind the other suites' work.
        // It writes "sent" to a file once its bytes are out; the test waits for that before asking,
        // so a slow start of the process (a loaded machine) cannot leave the place free meanwhile.
        let signal = FileManager.default.temporaryDirectory.appendingPathComponent("holder-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: signal) }
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        holder.arguments =
            [
                "-c",
                "import socket,sys,time;s=socket.create_connection(('127.0.0.1',int(sys.argv[1])));"
                    + "s.sendall(('POST /api/documents HTTP/1.1\\r\\nHost: 127.0.0.1:'+sys.argv[1]+'\\r\\n"
                    + "Authorization: Bearer '+sys.argv[2]+'\\r\\nX-Autograph: 1\\r\\nContent-Length: 1000000\\r\\n\\r\\n"
                    + "0123456789').encode());open(sys.argv[3],'w').write('sent');time.sleep(10);s.close()",
                String(port), token, signal.path,
            ]
        try holder.run()
        for _ in 0..<600 where !FileManager.default.fileExists(atPath: signal.path) {
            try await Task.sleep(for: .milliseconds(50))
        }
        var refused: TestServer.Reply?
        for _ in 0..<50 where refused == nil {
            try await Task.sleep(for: .milliseconds(100))
            let reply = try await server.request(
                "POST", "/api/documents", body: Array("%PDF-".utf8) + [UInt8](repeating: 0x20, count: 70_000))
            if reply.status == 503 { refused = reply }
        }
        let busy = try #require(refused)
        #expect(busy.errorCode == "busy")
        #expect(busy.headers["retry-after"] == "1")
        holder.waitUntilExit()
        // The place is free again once the slow client has gone.
        #expect(try await server.request("POST", "/api/documents", body: WebFixtures.form()).status == 200)
    }

    @Test("a flood of 400 idle connections (the limit is 256) leaves the server answering once it ends")
    func connectionFlood() async throws {
        let server = try await TestServer()
        defer { Task { await server.stop() } }
        let result = try await TestServer.runOffPool(
            "python3",
            [
                "-c",
                "import socket,sys,time\nopen_=[]\nfor i in range(400):\n"
                    + "    try: open_.append(socket.create_connection(('127.0.0.1',int(sys.argv[1])),timeout=2))\n"
                    + "    except OSError: pass\ntime.sleep(1)\nprint(len(open_))\nfor s in open_: s.close()",
                String(server.port),
            ])
        #expect(result.status == 0)
        try await Task.sleep(for: .milliseconds(300))
        #expect(try await server.request("/api/state").status == 200)
    }

    /// Sends `text` as it is on a TCP connection and returns what comes back first.
    static func raw(_ port: Int, _ text: String) async throws -> String {
        let result = try await TestServer.runOffPool(
            "python3",
            [
                "-c",
                "import socket,sys;s=socket.create_connection(('127.0.0.1',int(sys.argv[1])));s.settimeout(10);"
                    + "s.sendall(sys.argv[2].encode());print(s.recv(65536).decode('latin-1'))",
                String(port), text,
            ])
        return result.output
    }
}

/// The render budget, on the process's rendering threads: `make test` runs this suite on its own, so
/// that its heavy pages never hold up another suite's tiles, and its tests one after another — they
/// share `TileWorkers.shared`, so a heavy page of one took the threads another's first tile timed, which
/// then spent its time waiting, not drawing, and rightly left no verdict against its page.
@Suite(.serialized) struct WebRenderBudgetTests {
    @Test("a page too heavy for the budget is a clear 503, not an empty PNG; the next page still draws")
    func renderBudget() async throws {
        // Two million segments take far longer than 3 s to read in a debug build; a rectangle, far less
        // (even with the other suites' renders on the same threads).
        let server = try await TestServer(document: WebAttackFixtures.heavyPage(segments: 2_000_000)) {
            $0.renderTimeLimit = .seconds(3)
        }
        defer { Task { await server.stop() } }
        let heavy = try await server.request("/api/pages/0/tile?scale=1")
        #expect(heavy.status == 503)
        #expect(heavy.errorCode == "pageTooComplex")
        #expect(try await server.request("/api/pages/1/tile?scale=1").status == 200)
        let small = try await TestServer(document: WebAttackFixtures.heavyPage(segments: 300_000)) {
            $0.maxDisplayItems = 1000
        }
        defer { Task { await small.stop() } }
        let items = try await small.request("/api/pages/0/tile?scale=1")
        #expect(items.status == 503)
        #expect(items.json["error"]?["message"]?.stringValue?.contains("drawing operations") == true)
        // A search leaves the page out and says so, in ranges; the other page is searched.
        let search = try await small.request("/api/search?q=anything")
        #expect(search.status == 200)
        #expect(search.headers["x-autograph-pages-skipped"] == "0")
    }

    @Test("a page that spent its budget is refused at once from then on; light tiles stay fast beside a loop of it")
    func overBudgetPageIsRemembered() async throws {
        let server = try await TestServer(document: WebAttackFixtures.heavyPage(segments: 2_000_000)) {
            $0.renderTimeLimit = .seconds(2)
        }
        defer { Task { await server.stop() } }
        let first = try await server.request("/api/pages/0/tile?scale=1")
        #expect(first.status == 503 && first.errorCode == "pageTooComplex")
        // The same page of the same revision, at any scale or region: at once, no thread taken.
        for query in ["scale=1", "scale=2", "scale=0.5&x=0&y=0&w=10&h=10"] {
            let start = ContinuousClock.now
            let again = try await server.request("/api/pages/0/tile?\(query)")
            let took = ContinuousClock.now - start
            #expect(again.status == 503 && again.errorCode == "pageTooComplex", "\(query)")
            #expect(took < .milliseconds(500), "\(query): \(took)")
        }
        // Four clients asking for it in a loop for 4 s; a light page's tiles beside them.
        let end = ContinuousClock.now + .seconds(4)
        let loops = (0..<4).map { client in
            Task {
                var count = 0
                while ContinuousClock.now < end {
                    _ = try? await server.request(
                        "/api/pages/0/tile?scale=\(1 + Double(client) / 10 + Double(count % 5) / 100)")
                    count += 1
                }
                return count
            }
        }
        var slowest = Duration.zero
        var scale = 1.0
        while ContinuousClock.now < end {
            let start = ContinuousClock.now
            let light = try await server.request("/api/pages/1/tile?scale=\(scale)")
            #expect(light.status == 200)
            slowest = max(slowest, ContinuousClock.now - start)
            scale += 0.01
        }
        var asked = 0
        for loop in loops { asked += await loop.value }
        #expect(asked > 20, "the heavy page was asked \(asked) times")
        #expect(slowest < .seconds(1), "the slowest light tile took \(slowest)")
    }

    @Test("a page's verdict holds for its revision only; only a stop after a quarter of the limit in CPU counts")
    func overBudgetVerdicts() {
        let pages = OverBudgetPages()
        let key = PageKey(revision: 1, page: 0)
        pages.record(key, stop: .timeLimit, cpu: .milliseconds(100), limit: .seconds(4))
        #expect(
            pages.verdict(key) == nil, "a stop that cost little CPU (a wait, a busy machine) says nothing of its page")
        pages.record(key, stop: .cancelled, cpu: .seconds(9), limit: .seconds(4))
        #expect(pages.verdict(key) == nil)
        pages.record(key, stop: .timeLimit, cpu: .seconds(1), limit: .seconds(4))
        #expect(pages.verdict(key) == .timeLimit)
        #expect(pages.verdict(PageKey(revision: 2, page: 0)) == nil)
        pages.record(PageKey(revision: 2, page: 3), stop: .sizeLimit, cpu: .zero, limit: .seconds(4))
        #expect(pages.verdict(PageKey(revision: 2, page: 3)) == .sizeLimit)
    }

    @Test("skipped pages are written as ranges, one for a run however long")
    func skippedRanges() {
        var skipped = SkippedPages()
        skipped.add(3..<4)
        skipped.add(7..<8)
        skipped.add(8..<10)
        skipped.add(12..<1_000_000)
        #expect(skipped.description == "3,7-9,12-999999")
    }

    @Test("a render is stopped when its client leaves, at the budget's next check")
    func disconnectCancels() async throws {
        let server = try await TestServer(document: WebAttackFixtures.heavyPage(segments: 2_000_000)) {
            $0.renderTimeLimit = .seconds(120)
        }
        defer { Task { await server.stop() } }
        let before = TileWorkers.cancelledRenders.load(ordering: .relaxed)
        let started = ContinuousClock.now
        let gone = try await server.request("/api/pages/0/tile?scale=2", extra: ["--max-time", "1"])
        #expect(gone.status == 0)  // curl gave up
        var stopped = false
        while !stopped, ContinuousClock.now - started < .seconds(20) {
            try await Task.sleep(for: .milliseconds(100))
            stopped = TileWorkers.cancelledRenders.load(ordering: .relaxed) > before
        }
        #expect(stopped)
        // Stopped long before the 120 s budget: the render noticed its client had left.
        #expect(ContinuousClock.now - started < .seconds(20))
        #expect(try await server.request("/api/pages/1/tile?scale=0.5").status == 200)
    }
}

enum WebAttackFixtures {
    /// A PNG whose header declares `width`×`height` pixels, followed by 1 MB of zlib-compressed zeros.
    static func pngDeclaring(width: Int, height: Int) -> [UInt8] {
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let length = UInt32(data.count)
            let body = Array(type.utf8) + data
            return [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: length >> $0) } + body
                + [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: crc32(body) >> $0) }
        }
        let be = { (value: Int) in [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }
        let header = be(width) + be(height) + [8, 2, 0, 0, 0]
        let zeros = Flate.compress([UInt8](repeating: 0, count: 64 << 20))
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", zeros)
            + chunk("IEND", [])
    }

    /// The CRC-32 of PNG chunks (ISO 3309).
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    /// Two 612×792 pages: the first draws `segments` short strokes (about 4 operators each), the
    /// second a rectangle.
    static func heavyPage(segments: Int) -> [UInt8] {
        var content = "0.1 w\n"
        content.reserveCapacity(segments * 28)
        var state: UInt64 = 1
        for _ in 0..<segments {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let x = Int(state >> 40) % 600
            let y = Int(state >> 20 & 0xFFFFF) % 780
            content += "\(x) \(y) m \(x + 3) \(y + 2) l S\n"
        }
        var pdf = RawPDF()
        pdf.object(1, "<< /Type /Catalog /Pages 2 0 R >>")
        pdf.object(2, "<< /Type /Pages /Kids [3 0 R 5 0 R] /Count 2 >>")
        pdf.object(3, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>")
        pdf.stream(4, dictionary: "", data: Array(content.utf8))
        pdf.object(5, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 6 0 R >>")
        pdf.stream(6, dictionary: "", data: Array("0 0 1 rg 100 100 200 200 re f".utf8))
        pdf.xrefTable(size: 7, trailer: "<< /Size 7 /Root 1 0 R >>")
        return pdf.bytes
    }

    /// The CPU time this process has used (user + system), from /proc/self/stat.
    static func cpuSeconds() -> Double {
        guard let text = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return 0 }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // After the name: state is field 3 of the file, utime 14 and stime 15.
        let ticks = (Double(fields[11]) ?? 0) + (Double(fields[12]) ?? 0)
        return ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}
