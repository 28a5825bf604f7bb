import AutographJSON
import Foundation
import PDFCore
import PDFSession
import PDFTestSupport
import Testing

@testable import PDFWeb

/// What a request may hand the server, checked before any work: ids and file names, every string's
/// length and characters, JSON bodies; and a stored document that an upload never replaces.
@Suite struct WebInputBoundsTests {
    /// `json` sent as the body's bytes (a file, not a command-line argument: curl's arguments are
    /// bounded far below 10 MB).
    static func send(_ server: TestServer, _ method: String, _ path: String, _ json: String) async throws
        -> TestServer.Reply
    {
        try await server.request(method, path, body: Array(json.utf8), headers: ["Content-Type: application/json"])
    }

    @Test("an upload under the id of a stored, signed document is 409 and keeps it; the same bytes resume it")
    func signedDocumentIsNeverReplaced() async throws {
        let server = try await TestServer(handwriting: false, document: nil)
        defer { Task { await server.stop() } }
        let form = WebFixtures.form()
        #expect(
            try await server.request("POST", "/api/documents", body: form, headers: ["X-Document-ID: kept"]).status
                == 200)
        #expect(try await server.request("PUT", "/api/fields/name", json: #"{"value": "Ada"}"#).status == 200)
        #expect(try await server.post("/api/accept").status == 200)
        #expect(try await server.post("/api/confirm").status == 200)
        let signed = try await server.request("/api/download").body
        let revisions = try PDFDocument(bytes: Array(signed)).revisions.count

        // Other bytes under the same id, with the browser's own cookie: refused, nothing changes.
        let other = TestForms.agreement(text: ["other"], signatures: [])
        let refused = try await server.request(
            "POST", "/api/documents", auth: .cookie, body: other,
            headers: ["X-Document-ID: kept", "Origin: \(server.base)"])
        #expect(refused.status == 409, "\(refused.text)")
        #expect(refused.errorCode == "documentExists")
        #expect(refused.text.contains("1 signature") && refused.text.contains("--replace"))
        #expect(try await server.request("/api/download").body == signed)
        #expect(try server.backend.controller.documentSummary("kept").revisionCount == revisions - 1)

        // The same bytes under the same id: the stored document comes back as it was left.
        let again = try await server.request("POST", "/api/documents", body: form, headers: ["X-Document-ID: kept"])
        #expect(again.status == 200 && again.json["resumed"]?.boolValue == true, "\(again.text)")
        #expect(try await server.request("/api/download").body == signed)

        // Even an untouched stored document is never replaced by an upload of other bytes.
        #expect(
            try await server.request("POST", "/api/documents", body: form, headers: ["X-Document-ID: fresh"]).status
                == 200)
        let replaced = try await server.request(
            "POST", "/api/documents", body: other, headers: ["X-Document-ID: fresh"])
        #expect(replaced.status == 409 && replaced.errorCode == "documentExists", "\(replaced.text)")
        #expect(try await server.request("/api/download").body == Data(form))
        // The ids serve gives its own documents are not for uploads.
        for id in ["demo-form", "file-0123456789abcdef", "show-x"] {
            let reserved = try await server.request(
                "POST", "/api/documents", body: other, headers: ["X-Document-ID: \(id)"])
            #expect(reserved.status == 400 && reserved.json["error"]?["field"]?.stringValue == "X-Document-ID", "\(id)")
        }
    }

    @Test("the same encrypted bytes resume a stored document only with its password")
    func resumingAsksThePassword() async throws {
        let server = try await TestServer(document: nil)
        defer { Task { await server.stop() } }
        let plain = server.directory + "/plain.pdf"
        let locked = server.directory + "/locked.pdf"
        try Data(WebFixtures.form()).write(to: URL(fileURLWithPath: plain))
        try Oracle.qpdfEncrypt(plain, locked, user: "user secret", owner: "owner secret", ["256"])
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: locked)))
        let opened = try await server.request(
            "POST", "/api/documents", body: bytes,
            headers: ["X-Document-ID: locked", "X-Document-Password: user secret"])
        #expect(opened.status == 200, "\(opened.text)")
        #expect(try await server.request("PUT", "/api/fields/name", json: #"{"value": "Ada"}"#).status == 200)
        for headers in [["X-Document-ID: locked"], ["X-Document-ID: locked", "X-Document-Password: wrong"]] {
            let refused = try await server.request("POST", "/api/documents", body: bytes, headers: headers)
            #expect(refused.status == 400 && refused.signoCode == -122, "\(headers): \(refused.text)")
        }
        let again = try await server.request(
            "POST", "/api/documents", body: bytes,
            headers: ["X-Document-ID: locked", "X-Document-Password: user secret"])
        #expect(again.status == 200 && again.json["resumed"]?.boolValue == true, "\(again.text)")
        let fields = try await server.request("/api/fields").json.arrayValue ?? []
        #expect(fields.first { $0["name"]?.stringValue == "name" }?["value"]?.stringValue == "Ada")
    }

    @Test(
        "ids with a path separator, a control or formatting character, spaces at an end, or too long are 400",
        arguments: [
            "../etc", "a/b", #"a\b"#, "..", "bell\u{07}", "esc\u{1B}[31m", "rtl\u{202E}fdp.exe", " lead", "trail ",
            String(repeating: "x", count: 201),
        ])
    func badIDs(_ id: String) async throws {
        let server = try await TestServer(document: nil)
        defer { Task { await server.stop() } }
        // curl cannot send a raw control character in a header: those are checked in process.
        let request = HTTPRequest(
            method: "POST", path: "/api/documents",
            headers: [
                "host": "127.0.0.1:\(server.port)", "authorization": "Bearer " + server.token, "x-autograph": "1",
                "x-document-id": id,
            ], body: WebFixtures.form())
        let response = await server.server.handle(request)
        #expect(response.status == 400, "\(id.debugDescription)")
        guard case .bytes(let bytes) = response.body else { return }
        let json = try JSONValue.parse(bytes)
        #expect(json["error"]?["field"]?.stringValue == "X-Document-ID", "\(json.serialized())")
        #expect(try server.backend.controller.documentsInProgress().isEmpty)
    }

    @Test("the download's file name is ASCII with the whole id in filename*, whatever the id holds")
    func downloadName() async throws {
        let server = try await TestServer(document: nil)
        defer { Task { await server.stop() } }
        let id = "Vertrag für Ada \"2026\"; x=1"
        let opened = await server.server.handle(
            HTTPRequest(
                method: "POST", path: "/api/documents",
                headers: [
                    "host": "127.0.0.1:\(server.port)", "authorization": "Bearer " + server.token,
                    "x-autograph": "1", "x-document-id": id,
                ], body: WebFixtures.form()))
        #expect(opened.status == 200)
        let reply = try await server.request("/api/download")
        let disposition = reply.headers["content-disposition"] ?? ""
        #expect(
            disposition
                == #"attachment; filename="Vertrag_f_r_Ada__2026___x_1.pdf"; filename*=UTF-8''Vertrag%20f%C3%BCr%20Ada%20%222026%22%3B%20x%3D1.pdf"#,
            "\(disposition)")
        #expect(disposition.unicodeScalars.allSatisfy { $0.isASCII && $0.value >= 0x20 })
        // A signed document's copy never takes the unsigned one's name.
        #expect(
            WebRouter.attachment(named: "Vertrag für Ada", suffix: "-signed")
                == #"attachment; filename="Vertrag_f_r_Ada-signed.pdf"; filename*=UTF-8''Vertrag%20f%C3%BCr%20Ada-signed.pdf"#
        )
    }

    @Test("every string is bounded before any work: a 10 MB field value or typed name is 400 at once")
    func stringsAreBounded() async throws {
        let server = try await TestServer(handwriting: true)
        defer { Task { await server.stop() } }
        let huge = String(repeating: "A", count: 10 << 20)
        /// Sent in process, timed: the server's own work, not the transfer.
        func timed(_ method: String, _ path: String, _ json: String) async -> (Int, Duration) {
            let request = HTTPRequest(
                method: method, path: path,
                headers: [
                    "host": "127.0.0.1:\(server.port)", "authorization": "Bearer " + server.token, "x-autograph": "1",
                    "content-type": "application/json",
                ], body: Array(json.utf8))
            let start = ContinuousClock.now
            let response = await server.server.handle(request)
            return (response.status, ContinuousClock.now - start)
        }
        let (valueStatus, valueTime) = await timed("PUT", "/api/fields/name", #"{"value": "\#(huge)"}"#)
        #expect(valueStatus == 413, "\(valueStatus)")
        #expect(valueTime < .milliseconds(500), "a 10 MB value took \(valueTime) to refuse")
        let bounded = String(repeating: "A", count: 64 * 1024 + 1)
        let long = try await Self.send(server, "PUT", "/api/fields/name", #"{"value": "\#(bounded)"}"#)
        #expect(long.status == 400 && long.json["error"]?["field"]?.stringValue == "value", "\(long.text.prefix(300))")
        #expect(try await server.request("PUT", "/api/fields/name", json: #"{"value": "Ada"}"#).status == 200)
        #expect(try await server.post("/api/accept").status == 200)
        let (nameStatus, nameTime) = await timed("POST", "/api/capture", #"{"name": "\#(huge)"}"#)
        #expect(nameStatus == 413, "\(nameStatus)")
        #expect(nameTime < .milliseconds(500), "a 10 MB typed name took \(nameTime) to refuse")
        let (sevenStatus, sevenTime) = await timed(
            "POST", "/api/capture", #"{"name": "\#(String(repeating: "A", count: 7 << 20))"}"#)
        #expect(sevenStatus == 400 && sevenTime < .seconds(1), "7 MB: \(sevenStatus) after \(sevenTime)")
        let named = try await Self.send(
            server, "POST", "/api/capture", #"{"name": "\#(String(repeating: "é", count: 600))"}"#)
        #expect(
            named.status == 400 && named.json["error"]?["field"]?.stringValue == "name", "\(named.text.prefix(300))")
        // Still capturing: the refused names changed nothing.
        #expect(try await server.request("/api/state").json["phase"]?.stringValue == "capturingSignature")
        #expect(try await server.post("/api/cancel").status == 200)
        // A JSON body past 1 MiB to a call that takes none that large: 413 before it is parsed.
        let padding = String(repeating: " ", count: 2 << 20)
        #expect(try await Self.send(server, "POST", "/api/accept", "{\(padding)}").status == 413)
        // Search queries.
        let query = String(repeating: "q", count: 5000)
        #expect(try await server.request("/api/search?q=\(query)").status == 400)
        #expect(try await Self.send(server, "POST", "/api/search", #"{"q": "\#(query)"}"#).status == 400)
    }

    @Test("control characters in new field names and display texts are 400; autograph fields shows them escaped")
    func controlCharacters() async throws {
        let server = try await TestServer()
        defer { Task { await server.stop() } }
        let field = try await server.post(
            "/api/signature-fields", #"{"name": "esc\u001b[2Jcleared", "page": 0, "rect": [10, 10, 110, 60]}"#)
        #expect(field.status == 400, "\(field.text)")
        let text = try await server.post("/api/configuration", #"{"capture": {"displayText": "a\u0007b"}}"#)
        #expect(text.status == 400, "\(text.text)")
        let fields = try await server.request("/api/fields").json.arrayValue ?? []
        #expect(!fields.contains { ($0["name"]?.stringValue ?? "").contains("esc") })
    }
}
