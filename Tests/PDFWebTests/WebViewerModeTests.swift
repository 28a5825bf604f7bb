import AutographJSON
import PDFCore
import Testing

/// The viewer's mode over HTTP: every route that changes it answers it, `/api/state` carries it so
/// a reloaded page draws the same thing, and a mode that does not apply is 409.
@Suite struct WebViewerModeTests {
    @Test("Search mode: POST /api/search shows the hits, step and index move the current one, finish clears")
    func search() async throws {
        let server = try await TestServer()
        defer { Task { await server.stop() } }
        let shown = try await server.post("/api/search", #"{"q": "Page"}"#)
        #expect(shown.status == 200, "\(shown.text)")
        let mode = try #require(shown.json["mode"])
        #expect(mode["name"]?.stringValue == "search" && mode["query"]?.stringValue == "Page")
        #expect(mode["results"]?.arrayValue?.compactMap { $0["page"]?.intValue } == [0, 1])
        #expect(mode["current"] == .null && mode["color"] == .null)
        #expect(mode["results"]?.arrayValue?.first?["quads"]?.arrayValue?.first?.arrayValue?.count == 8)
        let next = try await server.post("/api/search/step", #"{"direction": 1}"#).json["mode"]
        #expect(next?["current"]?.intValue == 0)
        let back = try await server.post("/api/search/step", #"{"direction": -1}"#).json["mode"]
        #expect(back?["current"]?.intValue == 1)
        let colored = try await server.post("/api/search/step", ##"{"index": 0, "color": "#00ff00"}"##).json["mode"]
        #expect(colored?["current"]?.intValue == 0 && colored?["color"]?.stringValue == "#00ff00")
        // A reload finds the same search, the same current result, the same colour.
        let state = try await server.request("/api/state").json["mode"]
        #expect(state == colored)
        for body in [
            #"{"index": 2}"#, #"{"index": -1}"#, #"{"direction": 3}"#, ##"{"index": 0, "color": "red"}"##, "{}",
            #"{"index": 1e300}"#, #"{"index": 9223372036854775807}"#, #"{"direction": 1e308}"#,
        ] {
            let reply = try await server.post("/api/search/step", body)
            #expect(reply.status == 400, "\(body): \(reply.status) \(reply.text)")
        }
        for body in [#"{"q": ""}"#, #"{}"#, #"{"q": "a", "max": 0}"#, #"{"q": "a", "caseSensitive": "yes"}"#] {
            #expect(try await server.post("/api/search", body).status == 400, "\(body)")
        }
        // A new search replaces the old one; a query (GET) leaves the mode alone.
        let replaced = try await server.post("/api/search", #"{"q": "AGREEMENT", "caseSensitive": true}"#).json["mode"]
        #expect(replaced?["results"]?.arrayValue?.isEmpty == true && replaced?["query"]?.stringValue == "AGREEMENT")
        _ = try await server.request("/api/search?q=Page")
        #expect(try await server.request("/api/state").json["mode"]?["query"]?.stringValue == "AGREEMENT")
        let finished = try await server.post("/api/search/finish").json["mode"]
        #expect(finished?["name"]?.stringValue == "browsing")
        #expect(try await server.post("/api/search/step", #"{"direction": 1}"#).status == 409)
        #expect(try await server.request("GET", "/api/search/step").status == 405)
    }

    @Test("Notes mode: the notes come back from the session, after a reload too; nothing else starts meanwhile")
    func notes() async throws {
        let server = try await TestServer()
        defer { Task { await server.stop() } }
        _ = try await server.post("/api/search", #"{"q": "Page"}"#)
        let started = try await server.post("/api/notes/start", ##"{"width": 4, "color": "#0000ff"}"##)
        #expect(started.json["mode"]?["name"]?.stringValue == "notes" && started.json["phase"]?.stringValue == "notes")
        let stroke = #"{"page": 1, "strokes": [[{"x": 100, "y": 300}, {"x": 200, "y": 320}]]}"#
        _ = try await server.post("/api/notes/stroke", stroke)
        _ = try await server.post("/api/notes/stroke", stroke)
        let undone = try await server.post("/api/notes/undo").json["mode"]
        #expect(undone?["canUndo"] == .bool(true) && undone?["canRedo"] == .bool(true))
        let state = try await server.request("/api/state").json["mode"]
        #expect(state == undone)
        let note = try #require(state?["notes"]?.arrayValue?.first)
        #expect(
            note["page"]?.intValue == 1 && note["width"]?.doubleValue == 4 && note["color"]?.stringValue == "#0000ff")
        #expect(note["strokes"]?.arrayValue?.first?.arrayValue?.last?["y"]?.doubleValue == 320)
        #expect(try await server.post("/api/search", #"{"q": "Page"}"#).status == 409)
        #expect(try await server.post("/api/viewer-rects").status == 409)
        #expect(try await server.post("/api/accept").status == 409)
        let cancelled = try await server.post("/api/notes/cancel").json
        #expect(cancelled["mode"]?["name"]?.stringValue == "browsing" && cancelled["phase"]?.stringValue == "editing")
    }

    @Test("Signing has the screen: /api/state says signing while the workflow waits, browsing after")
    func signing() async throws {
        let server = try await TestServer()
        defer { Task { await server.stop() } }
        #expect(try await server.request("PUT", "/api/fields/name", json: #"{"value": "Ada"}"#).status == 200)
        _ = try await server.post("/api/search", #"{"q": "Page"}"#)
        let accepted = try await server.post("/api/accept")
        #expect(accepted.json["phase"]?.stringValue == "capturingSignature", "\(accepted.text)")
        let state = try await server.request("/api/state").json
        #expect(state["phase"]?.stringValue != "editing" && state["mode"]?["name"]?.stringValue == "signing")
        #expect(try await server.post("/api/search", #"{"q": "Page"}"#).status == 409)
        _ = try await server.post("/api/cancel")
        #expect(try await server.request("/api/state").json["mode"]?["name"]?.stringValue == "browsing")
    }
}
