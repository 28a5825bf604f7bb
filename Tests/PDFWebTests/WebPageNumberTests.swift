import AutographJSON
import Foundation
import PDFCore
import PDFForms
import PDFSigning
import PDFTestSupport
import Testing

@testable import PDFWeb

/// The API's one page rule (docs/web-api.md): every page a route takes or gives and every event
/// carries counts from 0; only text for people counts from 1.
@Suite struct WebPageNumberTests {
    /// Every page number `value` holds, however deep: the members `page` and `currentPage`, and the
    /// items of `pages` (the counts `pageCount` and `changedPageCount` are not pages).
    static func pageNumbers(in value: JSONValue) -> [JSONValue] {
        switch value {
        case .array(let items): return items.flatMap(pageNumbers)
        case .object(let members):
            return members.flatMap { name, member -> [JSONValue] in
                switch name {
                case "page", "currentPage": [member]
                case "pages": member.arrayValue?.filter { $0.intValue != nil || $0 == .null } ?? []
                default: pageNumbers(in: member)
                }
            }
        default: return []
        }
    }

    @Test(
        "the second page is 1 in every route and event: the page in view, fields, a signature and its preview, validation after it, search"
    )
    func theSecondPageIsOneEverywhere() async throws {
        // Signature1 is signed before the server opens the document; Signature2, also on page two,
        // is signed through the API afterwards: a change on page two after a signature. The required
        // name is filled first, so signing needs no change on page one.
        var filler = FormFiller(
            form: try #require(
                AcroForm(document: try PDFDocument(bytes: WebFixtures.form(signatures: ["Signature1", "Signature2"])))))
        try filler.set("name", to: .text("Ada"))
        let signed = try await DocumentSigner(
            document: try PDFDocument(bytes: try filler.documentBytes()),
            request: SignatureRequest(fieldName: "Signature1"), signer: try WebFixtures.signer()
        ).sign().bytes()
        let server = try await TestServer(keepAlive: 0.5, document: signed) {
            $0.trustRoots = Certificate.certificates(
                pem: Array(try! Data(contentsOf: URL(fileURLWithPath: WebFixtures.root))))
        }
        defer { Task { await server.stop() } }
        let base = server.base
        let reader = Task {
            try await TestServer.runOffPool(
                "curl", ["-s", "-N", "--max-time", "60", "-b", server.cookie, base + "/api/events"])
        }
        try await Task.sleep(for: .milliseconds(800))

        // Every answer below concerns page two only, so every page number in it must be 1.
        var answers: [(String, JSONValue)] = []
        func call(_ method: String, _ path: String, _ json: String? = nil) async throws -> JSONValue {
            let reply = try await server.request(method, path, json: json)
            #expect(reply.status == 200, "\(method) \(path): \(reply.status) \(reply.text)")
            answers.append(("\(method) \(path)", reply.json))
            return reply.json
        }
        #expect(try await call("POST", "/api/page", #"{"page": 1}"#)["page"] == .int(1))
        #expect(try await call("GET", "/api/state")["currentPage"] == .int(1))
        let fields = try #require(try await server.request("/api/fields").json.arrayValue)
        let second = try #require(fields.first { $0["name"]?.stringValue == "Signature2" })
        answers.append(("GET /api/fields (Signature2)", second))
        #expect(second["page"] == .int(1))
        #expect(try await call("POST", "/api/start-signature", #"{"field": "Signature2"}"#)["phase"] != nil)
        #expect(try await call("POST", "/api/capture", WebFixtures.scribble)["phase"] == .string("confirming"))
        let confirming = try await call("GET", "/api/state")
        #expect(confirming["page"] == .int(1) && confirming["pages"] == .array([.int(1)]))
        #expect(try await call("POST", "/api/confirm")["phase"] == .string("editing"))

        // Signature1's panel: the new signature is a change on page two, "page": 1; the diff of
        // page 1 (from 0) is where it changed, page 0 did not.
        let validation = try await call("GET", "/api/validation")
        let first = try #require(validation["signatures"]?.arrayValue?.first)
        #expect(first["field"] == .string("Signature1"))
        let changes = try #require(first["changes"]?.arrayValue)
        #expect(changes.contains { $0["kind"] == .string("signature") && $0["page"] == .int(1) }, "\(changes)")
        let diff = try await call("GET", "/api/validation/diff?revision=1&page=1")
        #expect(diff["regions"]?.arrayValue?.isEmpty == false, "\(diff)")
        let unchanged = try await server.request("/api/validation/diff?revision=1&page=0").json
        #expect(unchanged["page"] == .int(0) && unchanged["regions"] == .array([]))
        let hits = try await call("GET", "/api/search?q=agreement")
        #expect(hits.arrayValue?.count == 1)

        for (what, answer) in answers {
            let numbers = Self.pageNumbers(in: answer)
            #expect(numbers.allSatisfy { $0 == .int(1) || $0 == .null }, "\(what): \(numbers) in \(answer)")
        }

        // The events: the page in view, the signed field and the preview all name page 1.
        try await Task.sleep(for: .milliseconds(600))
        server.backend.hub.finishAll()
        let lines = try await reader.value.output.split(separator: "\n").map(String.init)
        var events: [(name: String, data: JSONValue)] = []
        for (index, line) in lines.enumerated() where line.hasPrefix("event: ") && index + 1 < lines.count {
            let data = lines[index + 1]
            guard data.hasPrefix("data: ") else { continue }
            events.append((String(line.dropFirst(7)), try JSONValue.parse(Array(data.dropFirst(6).utf8))))
        }
        #expect(events.first { $0.name == "pageChanged" }?.data == .object([("page", .int(1))]), "\(events)")
        let preview = try #require(events.first { $0.name == "onConfirmationRequired" }?.data)
        #expect(preview["page"] == .int(1) && preview["pages"] == .array([.int(1)]))
        for (name, data) in events {
            let numbers = Self.pageNumbers(in: data)
            #expect(numbers.allSatisfy { $0 == .int(1) || $0 == .null }, "\(name): \(numbers) in \(data)")
            #expect(data["index"] == nil, "\(name) names a page `index`: \(data)")
        }
    }
}
