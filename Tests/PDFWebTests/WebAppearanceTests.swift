import AutographJSON
import Foundation
import PDFTestSupport
import Testing

@testable import PDFWeb

/// `GET /api/appearance.png`: the visible signature the positioning box shows, drawn by the session.
@Suite struct WebAppearanceTests {
    @Test(
        "the appearance is a PNG of the box's size at the scale asked (too many pixels: 400), drawn again for the typed name"
    )
    func appearancePNG() async throws {
        let server = try await TestServer()
        defer { Task { await server.stop() } }
        let reply = try await server.request("/api/appearance.png?width=200&height=70")
        #expect(reply.status == 200)
        #expect(reply.headers["content-type"] == "image/png")
        #expect(reply.headers["cache-control"] == "no-store")
        let size = try #require(WebFixtures.pngSize(reply.body))
        #expect(size.width == 200 && size.height == 70)
        let scaled = try await server.request("/api/appearance.png?width=150.5&height=40&scale=2")
        #expect(scaled.status == 200)
        let scaledSize = try #require(WebFixtures.pngSize(scaled.body))
        #expect(scaledSize.width == 301 && scaledSize.height == 80)
        // 2000 × 2000 points at 2 pixels a point: 16 million pixels, refused by the session.
        let huge = try await server.request("/api/appearance.png?width=2000&height=2000&scale=2")
        #expect(huge.status == 400)
        #expect(huge.errorCode == "invalidArgument")
        #expect(try await server.request("POST", "/api/appearance.png?width=200&height=70").status == 405)
        // The person's typed name: the appearance the session would place changes with it.
        #expect(try await server.request("PUT", "/api/fields/name", json: #"{"value": "Ada"}"#).status == 200)
        #expect(try await server.post("/api/accept").json["phase"]?.stringValue == "capturingSignature")
        #expect(
            try await server.post("/api/capture", #"{"name": "Web Typed Name"}"#).json["phase"]?.stringValue
                == "confirming")
        let typed = try await server.request("/api/appearance.png?width=200&height=70")
        #expect(typed.status == 200)
        #expect(typed.body != reply.body)
    }

    @Test(
        "a missing, non-finite or out-of-range size or scale is 400 naming the parameter",
        arguments: [
            ("height=70", "width"), ("width=200", "height"), ("width=0&height=70", "width"),
            ("width=2001&height=70", "width"), ("width=NaN&height=70", "width"), ("width=200&height=inf", "height"),
            ("width=200&height=1e308", "height"), ("width=200&height=70&scale=0", "scale"),
            ("width=200&height=70&scale=8.5", "scale"), ("width=200&height=70&scale=abc", "scale"),
        ])
    func bounds(_ query: String, _ parameter: String) async throws {
        let server = try await TestServer()
        defer { Task { await server.stop() } }
        let reply = try await server.request("/api/appearance.png?" + query)
        #expect(reply.status == 400, "\(query)")
        #expect(reply.errorCode == "badRequest", "\(query)")
        #expect(reply.json["error"]?["field"]?.stringValue == parameter, "\(query)")
    }

    @Test("no document is 404; a finished document, which takes no more signatures, is 409")
    func noDocumentOrFinished() async throws {
        let empty = try await TestServer(document: nil)
        let none = try await empty.request("/api/appearance.png?width=200&height=70")
        #expect(none.status == 404)
        await empty.stop()

        let server = try await TestServer()
        defer { Task { await server.stop() } }
        #expect(try await server.post("/api/complete").json["phase"]?.stringValue == "finished")
        let finished = try await server.request("/api/appearance.png?width=200&height=70")
        #expect(finished.status == 409)
        #expect(finished.errorCode == "invalidState")
    }
}
