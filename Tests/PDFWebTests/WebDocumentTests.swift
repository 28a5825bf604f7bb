import AutographJSON
import Foundation
import PDFCore
import PDFTestSupport
import Testing

@testable import PDFWeb

/// Opening, pages, tiles, fields, search and errors over HTTP.
@Suite struct WebDocumentTests {
    @Test("POST /api/documents opens a PDF; /api/pages gives its page sizes")
    func openAndPages() async throws {
        let server = try await TestServer(document: nil)
        defer { Task { await server.stop() } }
        #expect(try await server.request("/api/pages").status == 404)
        let opened = try await server.request(
            "POST", "/api/documents", body: WebFixtures.form(), headers: ["X-Document-ID: contract-7"])
        #expect(opened.status == 200)
        #expect(opened.json["documentID"]?.stringValue == "contract-7")
        #expect(opened.json["pageCount"]?.intValue == 2)
        let pages = try #require(try await server.request("/api/pages").json.arrayValue)
        #expect(pages.count == 2)
        #expect(pages.map { $0["width"]?.doubleValue } == [600, 600])
        #expect(pages.map { $0["height"]?.doubleValue } == [800, 800])
        #expect(pages[1]["cropBox"] == .array([.int(0), .int(0), .int(600), .int(800)]))
        let state = try await server.request("/api/state").json
        #expect(state["phase"]?.stringValue == "editing")
        #expect(state["pageCount"]?.intValue == 2)
        // Two 600 × 800 pages in a 632-wide viewport, fit to width: zoom 632 / 600; the second page
        // starts after the first (800 × zoom) and the spacing (16 × zoom).
        let layout = try await server.request("/api/layout?width=632&height=500&fit=width&spacing=16").json
        let zoom = 632.0 / 600
        #expect(abs((layout["zoom"]?.doubleValue ?? 0) - zoom) < 1e-9)
        let frames = (layout["pages"]?.arrayValue ?? []).map {
            ($0["frame"]?.arrayValue ?? []).compactMap(\.doubleValue)
        }
        #expect(frames.count == 2)
        if frames.count == 2 {
            #expect(abs(frames[1][1] - (800 * zoom + 16 * zoom)) < 1e-6)
            #expect(abs(frames[1][2] - 632) < 1e-6 && abs(frames[1][3] - 800 * zoom) < 1e-6)
            // PDF (0, 0) lands on the bottom-left corner of the page's frame, (600, 800) on its top right.
            let m = (layout["pages"]?.arrayValue?[1]["pdfToView"]?.arrayValue ?? []).compactMap(\.doubleValue)
            #expect(m.count == 6)
            if m.count == 6 {
                #expect(abs(m[4] - frames[1][0]) < 1e-6 && abs(m[5] - (frames[1][1] + frames[1][3])) < 1e-6)
                #expect(abs(m[0] * 600 + m[4] - (frames[1][0] + 632)) < 1e-6)
                #expect(abs(m[3] * 800 + m[5] - frames[1][1]) < 1e-6)
            }
        }
        #expect(try await server.request("/api/layout?fit=sideways").status == 400)
        // A zoom asked beyond the layout's bounds is the bound, and the bounds come with it.
        let far = try await server.request("/api/layout?width=632&height=500&fit=zoom&zoom=0.05").json
        #expect(far["zoom"]?.doubleValue == far["minZoom"]?.doubleValue && far["minZoom"]?.doubleValue == 0.25)
        #expect(far["maxZoom"]?.doubleValue == 8)
        // The page in view reaches the session (and a bad one is refused).
        #expect(try await server.post("/api/page", #"{"page": 1}"#).status == 200)
        #expect(try await server.request("/api/state").json["currentPage"]?.intValue == 1)
        #expect(try await server.post("/api/page", #"{"page": 7}"#).status == 400)
    }

    @Test("a tile is a PNG of the size its scale and region ask for, with an ETag answered by 304")
    func tiles() async throws {
        let server = try await TestServer()
        defer { Task { await server.stop() } }
        let whole = try await server.request("/api/pages/0/tile?scale=0.5")
        #expect(whole.status == 200)
        #expect(whole.headers["content-type"] == "image/png")
        #expect(WebFixtures.pngSize(whole.body).map { [$0.width, $0.height] } == [300, 400])
        let region = try await server.request("/api/pages/1/tile?scale=2&x=100&y=40&w=256&h=128")
        #expect(WebFixtures.pngSize(region.body).map { [$0.width, $0.height] } == [256, 128])
        let clamped = try await server.request("/api/pages/1/tile?scale=1&x=500&y=700&w=1000&h=1000")
        #expect(WebFixtures.pngSize(clamped.body).map { [$0.width, $0.height] } == [100, 100])
        let tiny = try await server.request("/api/pages/0/tile?scale=0.001")
        #expect(WebFixtures.pngSize(tiny.body).map { [$0.width, $0.height] } == [30, 40])
        // mutool renders the page at the same resolution to the same size.
        let path = try WebFixtures.write(Data(WebFixtures.form()), server.directory, "form.pdf")
        let reference = try RenderedPage.render(path, page: 1, dpi: 36)
        #expect(WebFixtures.pngSize(whole.body).map { [$0.width, $0.height] } == [reference.width, reference.height])

        let tag = try #require(whole.headers["etag"])
        #expect(whole.headers["cache-control"] == "no-store")
        let again = try await server.request("/api/pages/0/tile?scale=0.5", headers: ["If-None-Match: \(tag)"])
        #expect(again.status == 304)
        #expect(again.body.isEmpty)
        // Another scale, or the document changed: a new tag.
        #expect(try await server.request("/api/pages/0/tile?scale=1", headers: ["If-None-Match: \(tag)"]).status == 200)
        #expect(try await server.request("PUT", "/api/fields/comment", json: #"{"value": "changed"}"#).status == 200)
        let changed = try await server.request("/api/pages/0/tile?scale=0.5", headers: ["If-None-Match: \(tag)"])
        #expect(changed.status == 200)
        #expect(changed.headers["etag"] != tag)
        #expect(try await server.request("/api/pages/2/tile").status == 404)
        #expect(try await server.request("/api/pages/x/tile").status == 404)
    }

    @Test("fields come with their widgets; an edit is saved and read back by pypdf from the download")
    func fields() async throws {
        let server = try await TestServer()
        defer { Task { await server.stop() } }
        let fields = try #require(try await server.request("/api/fields").json.arrayValue)
        #expect(fields.compactMap { $0["name"]?.stringValue } == ["name", "comment", "Signature1"])
        let name = try #require(fields.first)
        #expect(name["required"] == .bool(true))
        #expect(name["kind"]?.stringValue == "text")
        #expect(name["widgets"]?.arrayValue?.first?["page"]?.intValue == 0)
        #expect(name["widgets"]?.arrayValue?.first?["rect"] == .array([.int(72), .int(600), .int(372), .int(624)]))
        let edited = try await server.request("PUT", "/api/fields/name", json: #"{"value": "Grace Hopper"}"#)
        #expect(edited.status == 200)
        #expect(edited.json["value"]?.stringValue == "Grace Hopper")
        #expect(try await server.request("PUT", "/api/fields/name", json: #"{"value": 3}"#).status == 400)
        #expect(try await server.request("PUT", "/api/fields/name", json: "{nope").status == 400)
        let unknown = try await server.request("PUT", "/api/fields/missing", json: #"{"value": "x"}"#)
        #expect(unknown.status == 400)
        #expect(try await server.post("/api/save").json["saved"] == .bool(true))

        let download = try await server.request("/api/download")
        #expect(download.headers["content-type"] == "application/pdf")
        #expect(download.headers["content-disposition"]?.hasPrefix("attachment") == true)
        let path = try WebFixtures.write(download.body, server.directory, "filled.pdf")
        #expect(try Oracle.pypdfFieldValues(path)["name"] == "Grace Hopper")
        #expect(try Oracle.qpdfCheck(path).status == 0)
    }

    @Test(
        "an encrypted upload opens with X-Document-Password (-122 without or with a wrong one); edits keep it encrypted"
    )
    func encryptedUpload() async throws {
        let server = try await TestServer()
        defer { Task { await server.stop() } }
        let plain = try WebFixtures.write(Data(WebFixtures.form()), server.directory, "plain.pdf")
        let locked = server.directory + "/locked.pdf"
        try Oracle.qpdfEncrypt(plain, locked, user: "user secret", owner: "owner secret", ["256"])
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: locked)))
        let missing = try await server.request("POST", "/api/documents", body: bytes)
        #expect(missing.status == 400)
        #expect(missing.signoCode == -122)
        let wrong = try await server.request(
            "POST", "/api/documents", body: bytes, headers: ["X-Document-Password: nope"])
        #expect(wrong.signoCode == -122)
        let opened = try await server.request(
            "POST", "/api/documents", body: bytes, headers: ["X-Document-Password: user secret"])
        #expect(opened.status == 200)
        #expect(opened.json["pageCount"]?.intValue == 2)
        #expect(try await server.request("PUT", "/api/fields/name", json: #"{"value": "Ada"}"#).status == 200)
        #expect(try await server.request("/api/pages/0/tile?scale=0.3").status == 200)
        let download = try await server.request("/api/download")
        let path = try WebFixtures.write(download.body, server.directory, "locked-filled.pdf")
        #expect(try Oracle.qpdfCheck(path, password: "user secret").status == 0)
        #expect(try Oracle.pypdfFieldValues(path, password: "user secret")["name"] == "Ada")
        #expect(try Oracle.qpdfCheck(path).status != 0)  // still encrypted: no password, no reading
    }

    @Test("search gives each hit with quads around the text where the page draws it")
    func search() async throws {
        let server = try await TestServer()
        defer { Task { await server.stop() } }
        let hits = try #require(try await server.request("/api/search?q=agreement").json.arrayValue)
        #expect(hits.count == 1)
        let hit = try #require(hits.first)
        #expect(hit["page"]?.intValue == 1)
        #expect(hit["text"]?.stringValue?.lowercased() == "agreement")
        let quad = try #require(hit["quads"]?.arrayValue?.first?.arrayValue?.compactMap { $0.doubleValue })
        try #require(quad.count == 8)
        // The text starts at (72, 700) in 18-point Helvetica: "Page two of the " is ~130 points wide.
        let xs = stride(from: 0, to: 8, by: 2).map { quad[$0] }
        let ys = stride(from: 1, to: 8, by: 2).map { quad[$0] }
        #expect(xs.min()! > 150 && xs.max()! < 320)
        #expect(ys.min()! > 690 && ys.min()! < 700 && ys.max()! > 710 && ys.max()! < 725)
        #expect(try await server.request("/api/search?q=AGREEMENT&caseSensitive=1").json.arrayValue?.isEmpty == true)
        #expect(try await server.request("/api/search?q=Page").json.arrayValue?.count == 2)
        #expect(try await server.request("/api/search").status == 400)
    }

    @Test("errors carry the session's codes: -130 for a field not offered, 409 when nothing waits")
    func errors() async throws {
        let server = try await TestServer(
            handwriting: false, document: WebFixtures.form(signatures: ["Signature1", "Signature2"]))
        defer { Task { await server.stop() } }
        let confirm = try await server.post("/api/confirm")
        #expect(confirm.status == 409)
        #expect(confirm.errorCode == "invalidState")
        #expect(confirm.signoCode == -150)
        // A required field is empty: accepting is refused (409, signo -129) and the session stays editing.
        let refused = try await server.post("/api/accept")
        #expect(refused.status == 409 && refused.errorCode == "requiredFieldsEmpty" && refused.signoCode == -129)
        #expect(try await server.request("/api/state").json["phase"]?.stringValue == "editing")
        #expect(try await server.request("PUT", "/api/fields/name", json: #"{"value": "Ada"}"#).status == 200)
        let accepted = try await server.post("/api/accept").json
        #expect(accepted["phase"]?.stringValue == "selectingField")
        #expect(accepted["candidates"] == .array([.string("Signature1"), .string("Signature2")]))
        let wrong = try await server.post("/api/select-field", #"{"name": "Nope"}"#)
        #expect(wrong.status == 400)
        #expect(wrong.errorCode == "invalidField")
        #expect(wrong.signoCode == -130)
        #expect(try await server.post("/api/select-field", "{}").status == 400)
        #expect(try await server.post("/api/cancel").json["phase"]?.stringValue == "editing")
        let created = try await server.post(
            "/api/signature-fields", #"{"name": "Witness", "page": 0, "rect": [300, 100, 500, 160]}"#)
        #expect(created.status == 200)
        #expect(created.json["kind"]?.stringValue == "signature")
        #expect(created.json["widgets"]?.arrayValue?.count == 1)
        #expect(try await server.request("DELETE", "/api/signatures/99").status == 404)
        #expect(try await server.request("GET", "/api/accept").status == 405)
    }

    @Test("a photo posted to a declared photo field is placed as an image; other fields refuse it")
    func photo() async throws {
        let server = try await TestServer()
        defer { Task { await server.stop() } }
        let png = try await server.request("/api/pages/0/tile?scale=0.2").body
        let undeclared = try await server.request("POST", "/api/photo/comment", body: Array(png))
        #expect(undeclared.status == 400)
        #expect(undeclared.errorCode == "invalidField")
        let declared = try await server.post(
            "/api/photo-fields", #"{"names": ["comment"], "maxWidth": 64, "maxHeight": 64}"#)
        #expect(declared.status == 200)
        #expect(try await server.request("/api/state").json["photoFields"] == .array([.string("comment")]))
        #expect(try await server.request("POST", "/api/photo/comment", body: Array(png)).status == 200)
        let path = try WebFixtures.write(try await server.request("/api/download").body, server.directory, "photo.pdf")
        let images = try await TestServer.runOffPool("pdfimages", ["-list", path])
        let rows = images.output.split(separator: "\n").dropFirst(2)
        #expect(rows.count == 1, "\(images.output)")
        let columns = rows.first?.split(separator: " ", omittingEmptySubsequences: true) ?? []
        #expect(
            columns.count > 4 && Int(columns[3]).map { $0 <= 64 } == true && Int(columns[4]).map { $0 <= 64 } == true)
    }
}
