import AutographJSON
import Foundation
import PDFCore
import PDFTestSupport
import Synchronization
import Testing

@testable import PDFWeb

/// A host answering from a script of answers, recording every question: the in-process form of the
/// embedding page or the host's backend.
final class ScriptedHost: DecisionChannel {
    let answers: Mutex<[String: [JSONValue]]>
    let asked = Mutex<[HostQuestion]>([])

    init(_ answers: [String: [JSONValue]]) { self.answers = Mutex(answers) }

    func ask(_ question: HostQuestion) async -> JSONValue? {
        asked.withLock { $0.append(question) }
        return answers.withLock { answers in
            guard var queue = answers[question.name], !queue.isEmpty else { return nil }
            let next = queue.removeFirst()
            answers[question.name] = queue
            return next
        }
    }

    var names: [String] { asked.withLock { $0.map(\.name) } }
}

/// The host's reach over HTTP: configuration changed while the session runs, decisions answered
/// by the host (or its default), signo's toolbar buttons and viewer rectangles.
@Suite struct WebHostTests {
    @Test("changes made at the same time are all kept: each reads what the one before it wrote")
    func concurrentConfiguration() async throws {
        let server = try await TestServer()
        defer { Task { await server.stop() } }
        let changes: [String] = [
            ##"{"viewer": {"backgroundColor": "#102030"}}"##, #"{"viewer": {"showsPageNumber": false}}"#,
            #"{"viewer": {"acceptsInput": false}}"#, #"{"capture": {"displayText": "I agree"}}"#,
            #"{"capture": {"position": [30, 30, 200, 40]}}"#, #"{"attributes": {"signatureLocation": "Basel"}}"#,
            #"{"attributes": {"signatureReason": "Approved"}}"#, #"{"watermark": {"title": "VOID"}}"#,
        ]
        for _ in 0..<5 {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for change in changes {
                    group.addTask { try await server.backend.configure(try JSONValue.parse(Array(change.utf8))) }
                }
                try await group.waitForAll()
            }
            let now = try await server.request("/api/configuration").json
            #expect(now["viewer"]?["backgroundColor"]?.stringValue == "#102030", "\(now)")
            #expect(now["viewer"]?["showsPageNumber"] == .bool(false) && now["viewer"]?["acceptsInput"] == .bool(false))
            #expect(now["capture"]?["displayText"]?.stringValue == "I agree", "\(now)")
            #expect(now["capture"]?["position"]?.arrayValue?.compactMap(\.doubleValue) == [30, 30, 200, 40])
            #expect(now["attributes"]?["signatureLocation"]?.stringValue == "Basel", "\(now)")
            #expect(now["attributes"]?["signatureReason"]?.stringValue == "Approved", "\(now)")
            #expect(now["watermark"]?["title"]?.stringValue == "VOID", "\(now)")
            // Back to the defaults before the next round.
            try await server.backend.configure(
                try JSONValue.parse(
                    Array(
                        (##"{"viewer": {"backgroundColor": "#FFFFFF", "showsPageNumber": true, "acceptsInput": true},"##
                            + #" "capture": {"displayText": "x"}, "attributes": {"signatureLocation": "x","#
                            + #" "signatureReason": "x"}, "watermark": {"title": "x"}}"#).utf8)))
        }
    }

    @Test("POST /api/configuration changes the viewer and capture now; a bad member changes nothing")
    func configurationAtRunTime() async throws {
        let server = try await TestServer()
        defer { Task { await server.stop() } }
        let changed = try await server.post(
            "/api/configuration",
            ##"{"viewer": {"acceptsInput": false, "backgroundColor": "#102030", "showsPageNumber": false},"##
                + #" "capture": {"displayText": "I agree", "position": [30, 30, 200, 40]},"#
                + #" "attributes": {"signatureLocation": "Basel"}, "watermark": {"title": "VOID"}}"#)
        #expect(changed.status == 200, "\(changed.text)")
        let state = try await server.request("/api/state").json
        #expect(state["viewer"]?["acceptsInput"] == .bool(false))
        #expect(state["viewer"]?["backgroundColor"]?.stringValue == "#102030")
        #expect(state["viewer"]?["showsToolbar"] == .bool(true) && state["viewer"]?["showsPageNumber"] == .bool(false))
        #expect(state["capture"]?["displayText"]?.stringValue == "I agree")
        #expect(state["capture"]?["position"]?.arrayValue?.compactMap(\.doubleValue) == [30, 30, 200, 40])
        let now = try await server.request("/api/configuration").json
        #expect(now["attributes"]?["signatureLocation"]?.stringValue == "Basel")
        #expect(now["watermark"]?["title"]?.stringValue == "VOID")
        let bad = [
            #"{"viewer": {"acceptsInput": "no"}}"#, #"{"viewer": {"acceptInput": false}}"#,
            #"{"capture": {"displayText": "a\u0007"}}"#, #"{"viewer": {"toolbarHeight": 1e308}}"#,
            #"{"capture": {"position": [0, 0, -5, 10]}}"#, #"{"attributes": {"digestAlgorithm": "md5"}}"#,
            #"{"viewer": {"acceptsInput": true}, "viewers": {}}"#, #"[1]"#, #"{"watermark": {"opacity": 0}}"#,
            "{\"capture\": {\"displayText\": \"\(String(repeating: "x", count: 501))\"}}",
        ]
        for body in bad {
            let reply = try await server.post("/api/configuration", body)
            #expect(reply.status == 400, "\(body): \(reply.status) \(reply.text)")
        }
        // None of the refused bodies changed anything, not even their valid members.
        #expect(try await server.request("/api/state").json["viewer"]?["acceptsInput"] == .bool(false))
        // A browser (the cookie) changes how it shows things, not what is signed in the host's name.
        let browser = ["Origin: \(server.base)", "Sec-Fetch-Site: same-origin"]
        let shown = try await server.request(
            "POST", "/api/configuration", auth: .cookie, json: #"{"viewer": {"acceptsInput": true}}"#, headers: browser)
        #expect(shown.status == 200, "\(shown.text)")
        for body in [
            #"{"appearance": {"signerName": "Eve"}}"#, #"{"attributes": {"signatureReason": "x"}}"#,
            #"{"viewer": {"acceptsInput": false}, "watermark": {"title": "x"}}"#,
        ] {
            let reply = try await server.request(
                "POST", "/api/configuration", auth: .cookie, json: body, headers: browser)
            #expect(reply.status == 403, "\(body): \(reply.status) \(reply.text)")
        }
        let after = try await server.request("/api/configuration").json
        #expect(after["appearance"]?["signerName"] == .null && after["viewer"]?["acceptsInput"] == .bool(true))
    }

    @Test("The host answers willConfirmSigning no, then yes; a display text set inside willStartSigning shows")
    func hostDecides() async throws {
        let host = ScriptedHost([
            "willStartSigning": [
                .object([
                    ("answer", .bool(true)),
                    ("configuration", .object([("capture", .object([("displayText", .string("Read and approved"))]))])),
                ]),
                .object([("answer", .bool(true))]),
            ],
            "willConfirmSigning": [.object([("answer", .bool(false))]), .object([("answer", .bool(true))])],
            "signingProcessStarted": [.object([("answer", .array([.string("name"), .int(3)]))])],
        ])
        let server = try await TestServer(host: .channel(host))
        defer { Task { await server.stop() } }
        #expect(try await server.request("PUT", "/api/fields/name", json: #"{"value": "Ada"}"#).status == 200)
        let started = try await server.post("/api/start-signature", #"{"field": "Signature1"}"#)
        #expect(started.json["phase"]?.stringValue == "capturingSignature", "\(started.text)")
        #expect(started.json["capture"]?["displayText"]?.stringValue == "Read and approved", "\(started.text)")
        // No: the signature is discarded, nothing signed.
        let refused = try await server.post("/api/capture", WebFixtures.scribble)
        #expect(refused.json["phase"]?.stringValue == "editing", "\(refused.text)")
        #expect(try await server.request("/api/validation").json.arrayValue?.isEmpty != false)
        // Yes: signed, and the display text the host set is in the signed appearance.
        #expect(try await server.post("/api/start-signature", #"{"field": "Signature1"}"#).status == 200)
        #expect(try await server.post("/api/capture", WebFixtures.scribble).json["phase"]?.stringValue == "confirming")
        #expect(try await server.post("/api/confirm").json["phase"]?.stringValue == "editing")
        #expect(
            host.names == [
                "willStartSigning", "signingProcessStarted", "willConfirmSigning", "willStartSigning",
                "signingProcessStarted", "willConfirmSigning",
            ])
        let path = try WebFixtures.write(
            try await server.request("/api/download").body, server.directory, "host-signed.pdf")
        let verdicts = try SignatureOracle.pyhanko(path, trust: WebFixtures.root)
        #expect(verdicts["Signature1"]?.hasPrefix("INTACT:TRUSTED") == true, "\(verdicts)")
        let text = try Oracle.run("pdftotext", [path, "-"]).output
        #expect(text.contains("Read and approved"), "\(text)")
    }

    @Test("Signature-info, back and viewer rectangles ask the host; pages count from 0; bad input is 400")
    func buttonsAndRectangles() async throws {
        let host = ScriptedHost([
            "signatureInfoPressed": [.object([("answer", .bool(false))])],
            "viewerRectConfirmed": [.object([("answer", .bool(false))])],
        ])
        let server = try await TestServer(host: .channel(host))
        defer { Task { await server.stop() } }
        #expect(try await server.post("/api/buttons/signature-info").json["show"] == .bool(false))
        #expect(try await server.post("/api/buttons/signature-info").json["show"] == .bool(true))
        #expect(try await server.post("/api/buttons/back").status == 200)
        // The session hands out the ids: one rectangle open at a time, named by its id.
        func open() async throws -> Int {
            let opened = try await server.post("/api/viewer-rects")
            #expect(opened.status == 201 && opened.json["mode"]?["name"]?.stringValue == "viewerRect", "\(opened.text)")
            return try #require(opened.json["id"]?.intValue)
        }
        let first = try await open()
        #expect(try await server.post("/api/viewer-rects").status == 409)
        #expect(try await server.post("/api/accept").status == 409)
        #expect(try await server.post("/api/viewer-rects/\(first + 1)", #"{"confirmed": false}"#).status == 409)
        let kept = try await server.post(
            "/api/viewer-rects/\(first)", #"{"confirmed": true, "page": 0, "rect": [100, 100, 300, 170]}"#)
        #expect(kept.json["hide"] == .bool(false), "\(kept.text)")
        // The host said no: the rectangle stays open; the same one is confirmed again, off the pages.
        #expect(try await server.request("/api/state").json["mode"]?["id"]?.intValue == first)
        let offPage = try await server.post("/api/viewer-rects/\(first)", #"{"confirmed": true, "page": null}"#)
        #expect(offPage.json["hide"] == .bool(true), "\(offPage.text)")
        #expect(try await server.request("/api/state").json["mode"]?["name"]?.stringValue == "browsing")
        #expect(try await server.post("/api/viewer-rects/\(first)", #"{"confirmed": false}"#).status == 409)
        let second = try await open()
        #expect(second != first)
        #expect(try await server.post("/api/viewer-rects/\(second)", #"{"confirmed": false}"#).status == 200)
        let rectangles = host.asked.withLock { $0.filter { $0.name.hasPrefix("viewerRect") } }
        #expect(rectangles.map(\.name) == ["viewerRectConfirmed", "viewerRectConfirmed", "viewerRectCancelled"])
        #expect(rectangles.first?.arguments["page"] == .int(0) && rectangles.first?.arguments["id"] == .int(first))
        #expect(rectangles.first?.arguments["rect"]?.arrayValue?.compactMap(\.doubleValue) == [100, 100, 300, 170])
        #expect(rectangles[1].arguments["page"] == .null && rectangles[2].arguments["id"] == .int(second))
        #expect(host.names.contains("backButtonPressed"))
        let third = try await open()
        for (path, body) in [
            ("/api/viewer-rects/\(third)", #"{"confirmed": true, "page": -1, "rect": [0, 0, 10, 10]}"#),
            ("/api/viewer-rects/\(third)", #"{"confirmed": true, "page": 99, "rect": [0, 0, 10, 10]}"#),
            ("/api/viewer-rects/\(third)", #"{"confirmed": true, "page": 0, "rect": [0, 0, 1e300, 10]}"#),
            ("/api/viewer-rects/\(third)", #"{"confirmed": true, "page": 0}"#),
            ("/api/viewer-rects/\(third)", #"{"confirmed": "yes"}"#),
            ("/api/viewer-rects/-4", #"{"confirmed": false}"#),
            ("/api/viewer-rects/99999999999", #"{"confirmed": false}"#),
        ] {
            let reply = try await server.post(path, body)
            #expect([400, 404].contains(reply.status), "\(path) \(body): \(reply.status) \(reply.text)")
        }
        #expect(try await server.post("/api/viewer-rects/\(third)", #"{"confirmed": false}"#).status == 200)
        #expect(try await server.post("/api/buttons/forward").status == 404)
    }

    @Test("The embedding page's channel: no viewer connected is the default at once; an answer by id; a timeout")
    func browserChannel() async throws {
        let hub = EventHub()
        let channel = BrowserDecisions(hub: hub, timeout: .milliseconds(300))
        let question = HostQuestion(name: "willConfirmSigning", documentID: "d", arguments: .object([]))
        #expect(await channel.ask(question) == nil)
        #expect(channel.configurationScope == .viewerAndCapture && NoDecisions().configurationScope == .all)
        let subscription = hub.subscribe(first: [])
        defer { subscription.cancel() }
        let asked = Task { await channel.ask(question) }
        // The reader polls without blocking: a blocked thread of the cooperative pool (two on two
        // cores) could keep the question itself from being asked.
        var event = ""
        for _ in 0..<400 where !event.contains("decision") {
            if case .chunk(let bytes) = subscription.next(timeout: 0.001) {
                event = String(decoding: bytes, as: UTF8.self)
            } else {
                try await Task.sleep(for: .milliseconds(25))
            }
        }
        #expect(event.hasPrefix("event: decision\n"), "\(event)")
        let lines = event.split(separator: "\n")
        let line = try #require(lines.count > 1 ? lines[1] : nil)
        let data = try JSONValue.parse(Array(line.dropFirst(6).utf8))
        let id = try #require(data["id"]?.stringValue)
        #expect(data["decision"]?.stringValue == "willConfirmSigning")
        #expect(!channel.answer(id: "not-" + id, with: .object([])))
        #expect(channel.answer(id: id, with: .object([("answer", .bool(false))])))
        #expect(await asked.value?["answer"] == .bool(false))
        #expect(!channel.answer(id: id, with: .object([])))
        // Unanswered: the default after the timeout.
        let started = ContinuousClock.now
        #expect(await channel.ask(question) == nil)
        #expect(ContinuousClock.now - started >= .milliseconds(250))
    }

    @Test("--embed-origin: that origin alone frames the viewer's page; the API is never framed; the module is public")
    func embeddingPolicy() async throws {
        let server = try await TestServer { $0.embedOrigin = "http://127.0.0.1:9" }
        defer { Task { await server.stop() } }
        let framed = [
            "Sec-Fetch-Site: same-site", "Sec-Fetch-Mode: navigate", "Sec-Fetch-Dest: iframe",
        ]
        let page = try await server.request("/", auth: .cookie, headers: framed, marked: false)
        #expect(page.status == 200)
        #expect(page.headers["content-security-policy"]?.contains("frame-ancestors http://127.0.0.1:9") == true)
        #expect(page.headers["x-frame-options"] == nil)
        let api = try await server.request("/api/state", auth: .cookie)
        #expect(api.headers["x-frame-options"] == "DENY")
        #expect(api.headers["content-security-policy"]?.contains("frame-ancestors 'none'") == true)
        #expect(try await server.request("/api/state").json["embedOrigin"]?.stringValue == "http://127.0.0.1:9")
        // A frame's own requests to the API from another site are still refused.
        let crossAPI = try await server.request(
            "/api/state", auth: .cookie, headers: ["Sec-Fetch-Site: cross-site", "Sec-Fetch-Dest: iframe"])
        #expect(crossAPI.status == 403)
        let module = try await server.request(
            "/embed/autograph-embed.js", auth: .none, headers: ["Origin: http://elsewhere.example"], marked: false)
        #expect(module.status == 200 && module.headers["access-control-allow-origin"] == "*")
        #expect(module.headers["content-type"]?.contains("javascript") == true)
        #expect(try await server.request("POST", "/embed/autograph-embed.js", auth: .none).status == 403)

        let closed = try await TestServer()
        defer { Task { await closed.stop() } }
        #expect(try await closed.request("/", auth: .cookie, headers: framed, marked: false).status == 403)
        let closedPage = try await closed.request("/", auth: .cookie, marked: false)
        #expect(closedPage.headers["content-security-policy"]?.contains("frame-ancestors 'none'") == true)
        #expect(closedPage.headers["x-frame-options"] == "DENY")
    }

    @Test("An answer through the browser cannot change what is signed in the host's name; a forged id is 404")
    func browserAnswerCannotChangeTheSignature() async throws {
        let server = try await TestServer(host: .embeddingPage(timeout: .seconds(30)))
        defer { Task { await server.stop() } }
        let subscription = server.backend.hub.subscribe(first: [])
        defer { subscription.cancel() }
        #expect(try await server.request("PUT", "/api/fields/name", json: #"{"value": "Ada"}"#).status == 200)
        let started = Task { try await server.post("/api/start-signature", #"{"field": "Signature1"}"#) }
        var event = ""
        for _ in 0..<400 where !event.contains("willStartSigning") {
            if case .chunk(let bytes) = subscription.next(timeout: 0.001) {
                event = String(decoding: bytes, as: UTF8.self)
            } else {
                try await Task.sleep(for: .milliseconds(25))
            }
        }
        let line = try #require(event.split(separator: "\n").first { $0.hasPrefix("data: ") })
        let id = try #require(try JSONValue.parse(Array(line.dropFirst(6).utf8))["id"]?.stringValue)
        let browser = ["Origin: \(server.base)", "Sec-Fetch-Site: same-origin"]
        let forged = try await server.request(
            "POST", "/api/decisions/" + String(repeating: "f", count: 5000), auth: .cookie,
            json: #"{"answer": false}"#, headers: browser)
        #expect(forged.status == 404, "\(forged.status)")
        let answer = #"{"answer": true, "configuration": {"appearance": {"signerName": "Eve"}}}"#
        let answered = try await server.request(
            "POST", "/api/decisions/" + id, auth: .cookie, json: answer, headers: browser)
        #expect(answered.status == 200, "\(answered.text)")
        // The next question (signingProcessStarted) is answered too, so nothing waits for the timeout.
        event = ""
        for _ in 0..<400 where !event.contains("signingProcessStarted") {
            if case .chunk(let bytes) = subscription.next(timeout: 0.001) {
                event = String(decoding: bytes, as: UTF8.self)
            } else {
                try await Task.sleep(for: .milliseconds(25))
            }
        }
        let next = try #require(event.split(separator: "\n").first { $0.hasPrefix("data: ") })
        let nextID = try #require(try JSONValue.parse(Array(next.dropFirst(6).utf8))["id"]?.stringValue)
        _ = try await server.request(
            "POST", "/api/decisions/" + nextID, auth: .cookie, json: #"{"answer": []}"#, headers: browser)
        #expect(try await started.value.json["phase"]?.stringValue == "capturingSignature")
        let now = try await server.request("/api/configuration").json
        #expect(now["appearance"]?["signerName"] == .null, "\(now)")
    }

    @Test("EmbedOrigin.parse takes one origin, canonically, and refuses the rest")
    func origins() {
        #expect(EmbedOrigin.parse("https://App.Example.com/") == "https://app.example.com")
        #expect(EmbedOrigin.parse("http://127.0.0.1:9000") == "http://127.0.0.1:9000")
        #expect(EmbedOrigin.parse("https://example.com:443") == "https://example.com")
        #expect(EmbedOrigin.parse("http://[::1]:8080") == "http://[::1]:8080")
        for bad in [
            "*", "https://*.example.com", "example.com", "ftp://example.com", "https://example.com/path",
            "https://user@example.com", "https://example.com:0", "https://example.com:99999", "https://exa mple.com",
            "https://example.com?x", "https://", "https://example.com:80:80", "javascript:alert(1)", "https://a..b",
            "https://example.com;frame-ancestors *", "https://example.com:+80",
        ] {
            #expect(EmbedOrigin.parse(bad) == nil, "\(bad)")
        }
    }
}
