import AutographJSON
import Foundation
import PDFCore
import PDFForms
import PDFSigning
import PDFTestSupport
import Testing

@testable import PDFWeb

/// The signature panel's API: verdicts, the signed version's tiles, certifications kept.
@Suite struct WebValidationTests {
    /// The web form signed in `Signature1` (by a request `configure` changes), then `name` filled
    /// in a later revision when `fill` is set.
    static func signedForm(fill: Bool, _ configure: (inout SignatureRequest) -> Void = { _ in }) async throws
        -> [UInt8]
    {
        var request = SignatureRequest(fieldName: "Signature1")
        configure(&request)
        let signed = try await DocumentSigner(
            document: try PDFDocument(bytes: WebFixtures.form()), request: request, signer: try WebFixtures.signer()
        ).sign().bytes()
        guard fill else { return signed }
        let form = try #require(AcroForm(document: try PDFDocument(bytes: signed)))
        var filler = FormFiller(form: form)
        try filler.setValues([("name", .text("Changed after signing"))])
        return try filler.documentBytes()
    }

    @Test("GET /api/validation gives each signature's verdict, changes and summary against the configured roots")
    func verdicts() async throws {
        let server = try await TestServer(document: try await Self.signedForm(fill: true)) {
            $0.trustRoots = Certificate.certificates(
                pem: Array(try! Data(contentsOf: URL(fileURLWithPath: WebFixtures.root))))
        }
        defer { Task { await server.stop() } }
        let reply = try await server.request("/api/validation")
        #expect(reply.status == 200)
        #expect(reply.json["revisions"]?.intValue == 3)
        let signature = try #require(reply.json["signatures"]?.arrayValue?.first)
        #expect(signature["field"]?.stringValue == "Signature1")
        #expect(signature["verdict"]?.stringValue == "validWithAllowedChanges")
        #expect(signature["modificationLevel"]?.stringValue == "formFilling")
        #expect(signature["revision"]?.intValue == 1)
        #expect(signature["summary"]?.stringValue?.contains("form filling on page 1 (allowed)") == true)
        let changes = try #require(signature["changes"]?.arrayValue)
        // The first page: "page": 0 (the API counts from 0), as the summary's "page 1" says for people.
        #expect(changes.contains { $0["reason"]?.stringValue?.contains("'name'") == true && $0["page"]?.intValue == 0 })

        // The signed version's tile differs from today's where the field was filled; unknown revisions are refused.
        let current = try await server.request("/api/pages/0/tile?scale=0.5")
        let signed = try await server.request("/api/pages/0/tile?scale=0.5&revision=1")
        #expect(current.status == 200 && signed.status == 200)
        #expect(current.body != signed.body)
        #expect(current.headers["etag"] != signed.headers["etag"])
        #expect(try await server.request("/api/pages/0/tile?scale=0.5&revision=2").body == current.body)
        #expect(try await server.request("/api/pages/0/tile?scale=0.5&revision=3").status == 404)
        #expect(try await server.request("/api/pages/0/tile?scale=0.5&revision=-1").status == 400)
        #expect(try await server.request("/api/pages/0/tile?scale=0.5&revision=1e300").status == 400)

        // Where page 1 changed since revision 1: around the filled field, not the whole page; page 2 not at all.
        let diff = try await server.request("/api/validation/diff?revision=1&page=0")
        #expect(diff.status == 200, "\(diff.text)")
        let regions = try #require(diff.json["regions"]?.arrayValue)
        #expect(!regions.isEmpty)
        let field = try #require(
            AcroForm(document: try PDFDocument(bytes: try await Self.signedForm(fill: false)))?.field(named: "name")?
                .widgets.first?.rect)
        for region in regions {
            let x = region["x"]?.doubleValue ?? -1
            let y = region["y"]?.doubleValue ?? -1
            let width = region["width"]?.doubleValue ?? 0
            let height = region["height"]?.doubleValue ?? 0
            #expect(x >= field.x0 - 4 && y >= field.y0 - 4 && x + width <= field.x1 + 4 && y + height <= field.y1 + 4)
        }
        #expect((diff.json["changedShare"]?.doubleValue ?? 1) < 0.05)
        let unchanged = try await server.request("/api/validation/diff?revision=1&page=1")
        #expect(unchanged.json["regions"]?.arrayValue?.isEmpty == true)
        #expect(try await server.request("/api/validation/diff?revision=1").status == 400)
        #expect(try await server.request("/api/validation/diff?revision=1&page=9").status == 404)
        #expect(try await server.request("/api/validation/diff?revision=7&page=0").status == 404)
    }

    @Test("the changed regions of a page too large for a tile are found at a lower resolution, never at full size")
    func diffOfLargePage() async throws {
        // The limit stands in for a hostile page size: 400×533 pixels at 48 dpi is over 10,000.
        let server = try await TestServer(document: try await Self.signedForm(fill: true)) { $0.maxTilePixels = 10_000 }
        defer { Task { await server.stop() } }
        #expect(try await server.request("/api/pages/0/tile?scale=1").status == 400)
        let diff = try await server.request("/api/validation/diff?revision=1&page=0")
        #expect(diff.status == 200, "\(diff.text)")
        let regions = try #require(diff.json["regions"]?.arrayValue)
        #expect(!regions.isEmpty)
        // Still in user space: inside the page, around the field (a coarser grid, so a wider margin).
        for region in regions {
            let x = region["x"]?.doubleValue ?? -1
            let width = region["width"]?.doubleValue ?? 1000
            #expect(x >= 0 && x + width <= 600)
        }
    }

    @Test("a document without signatures has an empty panel; without trust roots a signature is signed, not trusted")
    func untrusted() async throws {
        let plain = try await TestServer()
        defer { Task { await plain.stop() } }
        #expect(try await plain.request("/api/validation").json["signatures"]?.arrayValue?.isEmpty == true)
        let server = try await TestServer(document: try await Self.signedForm(fill: false))
        defer { Task { await server.stop() } }
        let signature = try #require(try await server.request("/api/validation").json["signatures"]?.arrayValue?.first)
        #expect(signature["verdict"]?.stringValue == "untrusted")
        #expect(signature["intact"] == .bool(true))
        #expect(signature["trusted"] == .bool(false))
        #expect(signature["trustedBy"] == .null)
    }

    @Test("the server's own demo root is trusted by its panel, said as such; a --trust root as configured")
    func demoRoot() async throws {
        let root = Certificate.certificates(pem: Array(try Data(contentsOf: URL(fileURLWithPath: WebFixtures.root))))
        let document = try await Self.signedForm(fill: false)
        for (demo, expected) in [(true, "demo"), (false, "configured")] {
            let server = try await TestServer(document: document) {
                if demo { $0.demoTrustRoots = root } else { $0.trustRoots = root }
            }
            defer { Task { await server.stop() } }
            let reply = try await server.request("/api/validation")
            let signature = try #require(reply.json["signatures"]?.arrayValue?.first)
            #expect(signature["verdict"]?.stringValue == "valid", "\(reply.text)")
            #expect(signature["trustedBy"]?.stringValue == expected)
        }
    }

    @Test("a P=1 certified document: fields are read-only and a fill is 409 with signo -129")
    func certified() async throws {
        let server = try await TestServer(
            document: try await Self.signedForm(fill: false) { $0.certification = .noChanges })
        defer { Task { await server.stop() } }
        let fields = try #require(try await server.request("/api/fields").json.arrayValue)
        #expect(fields.first { $0["name"]?.stringValue == "name" }?["readOnly"] == .bool(true))
        let reply = try await server.request("PUT", "/api/fields/name", json: #"{"value": "Ada"}"#)
        #expect(reply.status == 409)
        #expect(reply.errorCode == "certificationViolated")
        #expect(reply.signoCode == -129)
    }
}
