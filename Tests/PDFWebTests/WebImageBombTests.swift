import PDFTestSupport
import Testing

@testable import PDFWeb

/// Images uploaded to `autograph serve` whose headers lie: the size checked before decoding is the size
/// decoded, so each is refused from its headers at once and the server goes on answering.
@Suite struct WebImageBombTests {
    typealias Images = HostileImages

    /// Uploads `image` as the photo of the field `comment`.
    private func upload(_ image: [UInt8], to server: TestServer) async throws -> TestServer.Reply {
        try await server.request("POST", "/api/photo/comment", body: image)
    }

    @Test("a 747 KB PNG with IHDR 1×1 then IHDR 16000×16000 is 413 imageTooLarge at once, and the server lives")
    func pngSecondHeader() async throws {
        let server = try await TestServer()
        defer { Task { await server.stop() } }
        #expect(try await server.post("/api/photo-fields", "{\"names\": [\"comment\"]}").status == 200)
        let bomb = Images.pngWithSecondHeader()
        let started = ContinuousClock.now
        let reply = try await upload(bomb, to: server)
        #expect(reply.status == 413, "\(reply.text)")
        #expect(reply.errorCode == "imageTooLarge")
        #expect(ContinuousClock.now - started < .seconds(10))
        #expect(try await server.request("/api/state").status == 200)
        // Two small headers: a bad image (400), not a large one.
        let twice = Images.png([
            Images.ihdr(width: 1, height: 1), Images.ihdr(width: 2, height: 2), Images.zeroImageData(inflatingTo: 14),
        ])
        let bad = try await upload(twice, to: server)
        #expect(bad.status == 400, "\(bad.text)")
        #expect(bad.errorCode == "decodeFailed")
        // A well-formed photo still goes in.
        #expect(try await upload(Images.blackPNG(width: 40, height: 30), to: server).status == 200)
    }

    @Test("a JPEG with a small start-of-frame and a huge one is 413, in either order; two small ones are 400")
    func jpegSecondFrame() async throws {
        let server = try await TestServer()
        defer { Task { await server.stop() } }
        #expect(try await server.post("/api/photo-fields", "{\"names\": [\"comment\"]}").status == 200)
        for frames in [[(64, 40), (60000, 60000)], [(60000, 60000), (64, 40)]] {
            let reply = try await upload(
                try Images.jpeg(frames: frames.map { (width: $0.0, height: $0.1) }), to: server)
            #expect(reply.status == 413, "\(frames): \(reply.text)")
            #expect(reply.errorCode == "imageTooLarge")
        }
        let twice = try await upload(try Images.jpeg(frames: [(64, 40), (64, 40)]), to: server)
        #expect(twice.status == 400, "\(twice.text)")
        #expect(twice.errorCode == "decodeFailed")
        #expect(try await upload(try Images.jpeg(frames: [(64, 40)]), to: server).status == 200)
    }
}
