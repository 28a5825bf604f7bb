import AutographJSON
import Foundation
import PDFAuthoring
import PDFCore
import PDFTestSupport
import Testing

@testable import PDFWeb

/// The HTTP API's starts of a signature: refused while a required check box is unticked (409
/// `requiredFieldsEmpty`, signo -129) whoever asks — the browser's cookie, the API token, a host
/// page that decides — and signing once it is ticked; a document without a signature field is
/// signed by the sign button as by Accept, its new field proposed away from the page's text.
@Suite(.serialized) struct WebRequiredFieldsTests {
    static let starts: [(path: String, body: String)] = [
        ("/api/accept", "{}"), ("/api/start-signature", "{}"), ("/api/start-signature", #"{"field": "signature"}"#),
    ]

    static func expectRefused(_ reply: TestServer.Reply, _ what: String) {
        #expect(reply.status == 409, "\(what): \(reply.text)")
        #expect(reply.errorCode == "requiredFieldsEmpty" && reply.signoCode == -129, "\(what): \(reply.text)")
        #expect(reply.json["error"]?["message"]?.stringValue?.contains("agree") == true, "\(what): \(reply.text)")
    }

    @Test("every start is refused while the required check box is unticked; ticked, signing works (pypdf: on)")
    func everyStartThenSign() async throws {
        let server = try await TestServer(handwriting: false, document: try TestForms.make(required: ["agree"]))
        defer { Task { await server.stop() } }
        let before = try await server.request("/api/download").body
        for (path, body) in Self.starts {
            Self.expectRefused(try await server.request("POST", path, json: body), "API token \(path) \(body)")
            let browser = try await server.request(
                "POST", path, auth: .cookie, json: body, headers: ["Origin: \(server.base)"])
            Self.expectRefused(browser, "cookie \(path) \(body)")
            #expect(try await server.request("/api/state").json["phase"]?.stringValue == "editing")
        }
        #expect(try await server.request("/api/download").body == before, "a refused start wrote something")

        #expect(try await server.request("PUT", "/api/fields/agree", json: #"{"value": true}"#).status == 200)
        let started = try await server.post("/api/start-signature", #"{"field": "signature"}"#)
        #expect(started.json["phase"]?.stringValue == "capturingSignature", "\(started.text)")
        #expect(try await server.post("/api/capture", WebFixtures.scribble).json["phase"]?.stringValue == "confirming")
        #expect(try await server.post("/api/confirm").json["phase"]?.stringValue == "editing")
        let signed = try await server.request("/api/download").body
        let path = try WebFixtures.write(signed, server.directory, "required-signed.pdf")
        #expect(try Oracle.qpdfCheck(path).status == 0)
        #expect(try Oracle.pypdfFieldValues(path)["agree"] == "Yes")
        #expect(try SignatureOracle.pyhanko(path, trust: WebFixtures.root)["signature"]?.hasPrefix("INTACT") == true)
    }

    @Test("a host page that decides is not asked: refused at once, missingRequiredFormField and no decision sent")
    func hostIsNotAsked() async throws {
        let server = try await TestServer(
            handwriting: false, document: try TestForms.make(required: ["agree"]),
            host: .embeddingPage(timeout: .seconds(30)))
        defer { Task { await server.stop() } }
        // A page listening: a decision asked would wait for its answer (up to 30 s).
        let subscription = server.backend.hub.subscribe(first: [])
        defer { subscription.cancel() }
        let started = ContinuousClock.now
        Self.expectRefused(
            try await server.post("/api/start-signature", #"{"field": "signature"}"#), "embedding page")
        #expect(ContinuousClock.now - started < .seconds(15), "willStartSigning was asked")
        var stream = ""
        for _ in 0..<200 where !stream.contains("missingRequiredFormField") {
            if case .chunk(let bytes) = subscription.next(timeout: 0.001) {
                stream += String(decoding: bytes, as: UTF8.self)
            } else {
                try await Task.sleep(for: .milliseconds(25))
            }
        }
        #expect(stream.contains("event: missingRequiredFormField"), "\(stream)")
        #expect(!stream.contains("willStartSigning"), "\(stream)")
    }

    /// One page of lines of text across its lower half, where a centred signature would go, and no form.
    static func fieldless() -> [UInt8] {
        var builder = PDFBuilder()
        let lines = (0..<12).map {
            "BT /F1 14 Tf 60 \(60 + $0 * 18) Td (Line \($0) of the agreement, written across the page width) Tj ET"
        }
        _ = builder.addPage(width: 595, height: 842, content: Array(lines.joined(separator: "\n").utf8))
        return builder.build()
    }

    @Test("no signature field: the sign button places a new one as Accept does, proposed away from the text")
    func signButtonPlacesANewField() async throws {
        let server = try await TestServer(handwriting: false, document: Self.fieldless())
        defer { Task { await server.stop() } }
        let started = try await server.post("/api/start-signature")
        #expect(started.status == 200, "\(started.text)")
        #expect(started.json["phase"]?.stringValue == "positioning", "\(started.text)")
        #expect(started.json["page"]?.intValue == 0)
        let numbers = (started.json["rect"]?.arrayValue ?? []).compactMap { $0.doubleValue }
        try #require(numbers.count == 4)
        let rect = PDFRectangle(x0: numbers[0], y0: numbers[1], x1: numbers[2], y1: numbers[3])
        #expect(rect.x0 >= 0 && rect.y0 >= 0 && rect.x1 <= 595 && rect.y1 <= 842 && rect.width > 100)
        // pdftotext's word boxes (top-left origin): none meets the proposed rectangle.
        let source = try WebFixtures.write(Data(Self.fieldless()), server.directory, "fieldless.pdf")
        let words = try Self.wordBoxes(source, pageHeight: 842)
        #expect(words.count > 50)
        let covered = words.filter { $0.intersects(rect) }
        #expect(covered.isEmpty, "the proposal \(rect) covers \(covered)")

        let placed = #"{"page": 0, "rect": [\#(rect.x0), \#(rect.y0), \#(rect.x1), \#(rect.y1)]}"#
        #expect(try await server.post("/api/position", placed).json["phase"]?.stringValue == "confirming")
        #expect(try await server.post("/api/confirm").json["phase"]?.stringValue == "editing")
        let signed = try await server.request("/api/download").body
        let path = try WebFixtures.write(signed, server.directory, "fieldless-signed.pdf")
        let verdicts = try SignatureOracle.pyhanko(path, trust: WebFixtures.root)
        #expect(verdicts.count == 1 && verdicts.values.allSatisfy { $0.hasPrefix("INTACT") }, "\(verdicts)")
    }

    /// Every word's box of page 1 as `pdftotext -bbox` gives it, in PDF user space.
    static func wordBoxes(_ path: String, pageHeight: Double) throws -> [PDFRectangle] {
        let html = try Oracle.run("pdftotext", ["-bbox", "-f", "1", "-l", "1", path, "-"]).output
        let pattern = #/<word xMin="([0-9.]+)" yMin="([0-9.]+)" xMax="([0-9.]+)" yMax="([0-9.]+)">/#
        return html.matches(of: pattern).compactMap { match in
            guard let x0 = Double(match.1), let top = Double(match.2), let x1 = Double(match.3),
                let bottom = Double(match.4)
            else { return nil }
            return PDFRectangle(x0: x0, y0: pageHeight - bottom, x1: x1, y1: pageHeight - top)
        }
    }
}
