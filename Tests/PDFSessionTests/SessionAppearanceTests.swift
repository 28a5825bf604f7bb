import Foundation
import PDFAuthoring
import PDFCore
import PDFSigning
import PDFTestSupport
import Testing

@testable import PDFSession

/// WYSIWYS `WYSSignatureAppearanceCreation`: the host's appearance provider, and the preview of the
/// appearance the session would place, checked against what MuPDF draws and reads in the signed file.
@Suite(.serialized) struct SessionAppearanceTests {
    /// The requests a provider received, in order.
    actor Requests {
        private(set) var all: [SignatureAppearanceRequest] = []
        func add(_ request: SignatureAppearanceRequest) { all.append(request) }
    }

    /// A provider that records each request and answers with `make`.
    struct Provider: SignatureAppearanceProvider {
        let requests: Requests
        let make: @Sendable (SignatureAppearanceRequest) -> SignatureAppearance?

        func signatureAppearance(for request: SignatureAppearanceRequest) async -> SignatureAppearance? {
            await requests.add(request)
            return make(request)
        }
    }

    static func configuration(_ provider: Provider?) throws -> SignatureConfiguration {
        var configuration = SignatureConfiguration(signer: try SessionFixtures.signer())
        configuration.capture.displayText = "Session display text"
        configuration.appearanceProvider = provider
        return configuration
    }

    /// Handwriting of two points: shorter than any signature (signo -132).
    static let tooShort = SignatureAppearance(
        mark: .handwriting([InkStroke([InkPoint(x: 0, y: 0), InkPoint(x: 1, y: 1)])], yAxisDown: true))

    @Test("the provider's mark and display text are what the signed widget shows (MuPDF reads them)")
    func providerAppearanceIsSigned() async throws {
        let (controller, directory) = try SessionFixtures.controller()
        let requests = Requests()
        let provider = Provider(requests: requests) { request in
            var appearance = request.proposed
            appearance.mark = .name("Provided Mark Smith")
            appearance.displayText = "Stamped by the host"
            return appearance
        }
        let session = try await controller.open(
            pdf: SessionFixtures.form(), documentID: "provided", signatureConfiguration: Self.configuration(provider))
        let log = EventLog(session)
        try await session.acceptDocument()
        #expect(await session.phase == .confirming)
        try await session.confirmSignature()
        guard case .processDidFinish(_, let signed)? = await log.first("processDidFinish") else {
            let events = await log.events
            Issue.record("not signed: \(events)")
            return
        }
        let path = try SessionFlowTests.validate(signed, in: directory)
        let text = try Oracle.mutoolText(path, page: 2)
        #expect(text.contains("Provided Mark Smith"), "\(text)")
        #expect(text.contains("Stamped by the host"), "\(text)")
        #expect(!text.contains("Session display text"), "\(text)")
        // Asked once, for the existing field, with its widget's size and the session's own appearance.
        let seen = await requests.all
        #expect(seen.count == 1)
        #expect(seen.first?.fieldName == "Signature1")
        #expect(seen.first?.purpose == .accept)
        #expect(seen.first?.size == PDFSize(width: 220, height: 70))
        #expect(seen.first?.proposed.displayText == "Session display text")
        if case .name(let name)? = seen.first?.proposed.mark {
            #expect(name?.isEmpty == false)
        } else {
            Issue.record("the proposed appearance is not a name signature: \(String(describing: seen.first))")
        }
    }

    @Test("a provider that returns nil keeps the session's appearance")
    func nilKeepsTheProposedAppearance() async throws {
        let (controller, directory) = try SessionFixtures.controller()
        let requests = Requests()
        let session = try await controller.open(
            pdf: SessionFixtures.form(), documentID: "kept",
            signatureConfiguration: Self.configuration(Provider(requests: requests) { _ in nil }))
        let log = EventLog(session)
        try await session.acceptDocument()
        try await session.confirmSignature()
        guard case .processDidFinish(_, let signed)? = await log.first("processDidFinish") else {
            Issue.record("not signed")
            return
        }
        let path = try SessionFlowTests.validate(signed, in: directory)
        #expect(try Oracle.mutoolText(path, page: 2).contains("Session display text"))
        #expect(await requests.all.count == 1)
    }

    @Test("an invalid appearance from the provider is a typed error (-132) and changes nothing")
    func invalidAppearanceIsRefused() async throws {
        let (controller, _) = try SessionFixtures.controller()
        let requests = Requests()
        let session = try await controller.open(
            pdf: SessionFixtures.form(), documentID: "invalid",
            signatureConfiguration: Self.configuration(Provider(requests: requests) { _ in Self.tooShort }))
        let log = EventLog(session)
        let before = await session.documentBytes
        try await session.acceptDocument()
        guard case .processDidFail(let error)? = await log.first("processDidFail") else {
            let events = await log.events
            Issue.record("no failure: \(events)")
            return
        }
        #expect(error.code == .invalidArgument)
        #expect(error.signoCode == -132)
        #expect(error.message.contains("appearance provider"), "\(error.message)")
        #expect(await session.phase == .editing)
        #expect(await session.documentBytes == before)
        #expect(try controller.documentBytes(documentID: "invalid") == before)
        #expect(!(await log.events).contains { EventLog.name($0) == "onConfirmationRequired" })
        // The preview asks the same provider and refuses the same way.
        let previewError = await #expect(throws: SessionError.self) {
            try await session.appearancePreview(width: 200, height: 70, scale: 1)
        }
        #expect(previewError?.code == .invalidArgument)
        #expect(previewError?.signoCode == -132)
    }

    @Test(
        "a provider's handwriting out of bounds or a stroke width that is no width is refused",
        arguments: [
            SignatureAppearance(
                mark: .handwriting(
                    [InkStroke((0..<20).map { InkPoint(x: Double($0) * 1e7, y: 0) })], yAxisDown: true)),
            {
                var appearance = SignatureAppearance(mark: .name("Width"))
                appearance.strokeWidth = .nan
                return appearance
            }(),
        ])
    func uncheckedAppearanceIsRefused(_ appearance: SignatureAppearance) async throws {
        let (controller, _) = try SessionFixtures.controller()
        let session = try await controller.open(
            pdf: SessionFixtures.form(), documentID: "unchecked",
            signatureConfiguration: Self.configuration(Provider(requests: Requests()) { _ in appearance }))
        let error = await #expect(throws: SessionError.self) {
            try await session.appearancePreview(width: 200, height: 70, scale: 1)
        }
        #expect(error?.code == .invalidArgument)
    }

    @Test(
        "the preview's size and scale are bounded",
        arguments: [
            (0.0, 70.0, 1.0), (2001, 70, 1), (.nan, 70, 1), (200, .infinity, 1), (200, 70, 0), (200, 70, 9),
            (200, 70, .nan), (2000, 2000, 2),
        ])
    func previewBounds(_ width: Double, _ height: Double, _ scale: Double) async throws {
        let (controller, _) = try SessionFixtures.controller()
        let session = try await controller.open(
            pdf: SessionFixtures.form(), documentID: "bounds", signatureConfiguration: Self.configuration(nil))
        let error = await #expect(throws: SessionError.self) {
            try await session.appearancePreview(width: width, height: height, scale: scale)
        }
        #expect(error?.code == .invalidArgument)
    }

    @Test("no preview for a document shown read-only, an invisible signature or a finished document")
    func previewWhereNothingIsPlaced() async throws {
        let (controller, _) = try SessionFixtures.controller()
        let shown = try await controller.show(pdf: SessionFixtures.form())
        let readOnly = await #expect(throws: SessionError.self) {
            try await shown.appearancePreview(width: 200, height: 70, scale: 1)
        }
        #expect(readOnly?.code == .invalidState)

        var invisible = try Self.configuration(nil)
        invisible.appearance.invisibleSignature = true
        let hidden = try await controller.open(
            pdf: SessionFixtures.form(), documentID: "invisible", signatureConfiguration: invisible)
        let none = await #expect(throws: SessionError.self) {
            try await hidden.appearancePreview(width: 200, height: 70, scale: 1)
        }
        #expect(none?.code == .invalidState)

        let session = try await controller.open(
            pdf: SessionFixtures.form(), documentID: "completed", signatureConfiguration: Self.configuration(nil))
        try await session.completeDocument()
        let finished = await #expect(throws: SessionError.self) {
            try await session.appearancePreview(width: 200, height: 70, scale: 1)
        }
        #expect(finished?.code == .invalidState)
    }

    @Test(
        "the positioning preview is the signed widget: PIL reads its size, MuPDF draws the same ink there",
        .enabled(if: Requirement.python("PIL"), "Pillow is not installed"))
    func previewMatchesTheSignedWidget() async throws {
        let (controller, directory) = try SessionFixtures.controller()
        let requests = Requests()
        let provider = Provider(requests: requests) { request in
            var appearance = request.proposed
            appearance.description = "Provider line"
            return appearance
        }
        var configuration = try Self.configuration(provider)
        configuration.appearance.handwrittenSignatureEnabled = true
        let session = try await controller.open(
            pdf: SessionFixtures.form(signatures: []), documentID: "placed", signatureConfiguration: configuration)
        let log = EventLog(session)
        // Before signing: the signer's name. Then the typed name of the plan.
        let before = try await session.appearancePreview(width: 180, height: 60, scale: 1)
        try await session.acceptDocument()
        try await session.typeSignature("Preview Typed Name")
        #expect(await session.phase == .positioning)
        let png = try await session.appearancePreview(width: 180, height: 60, scale: 2)
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        #expect(png != before)
        let rect = PDFRectangle(x0: 300, y0: 200, x1: 480, y1: 260)
        try await session.signaturePositioned(pageIndex: 0, rect: rect)
        try await session.confirmSignature()
        guard case .processDidFinish(_, let signed)? = await log.first("processDidFinish") else {
            let events = await log.events
            Issue.record("not signed: \(events)")
            return
        }
        let path = try SessionFlowTests.validate(signed, in: directory)
        let text = try Oracle.mutoolText(path, page: 1)
        #expect(text.contains("Preview Typed Name") && text.contains("Provider line"), "\(text)")

        // The provider saw the preview's box (a new field: no name) and then the placed rectangle.
        let seen = await requests.all
        #expect(seen.map(\.size).suffix(2) == [PDFSize(width: 180, height: 60), PDFSize(width: 180, height: 60)])
        #expect(seen.allSatisfy { $0.fieldName == nil && $0.purpose == .accept })

        // PIL decodes the PNG: 360 × 120 pixels; over white, its ink is where MuPDF draws the widget's.
        let preview = try Pixels(png: png, in: directory)
        #expect(preview.width == 360 && preview.height == 120)
        let page = try RenderedPage.render(path, page: 1, dpi: 144)
        let box = page.pixelBox(x0: rect.x0, y0: rect.y0, x1: rect.x1, y1: rect.y1, pageHeight: 842)
        let mupdf = Pixels(
            width: box.x1 - box.x0, height: box.y1 - box.y0,
            ink: (box.y0..<box.y1).flatMap { y in (box.x0..<box.x1).map { x in Pixels.isInk(page.pixel(x, y)) } })
        #expect(preview.inkCount > 300, "the preview is blank")
        #expect(mupdf.inkCount > 300, "MuPDF draws no signature")
        // Within a pixel (the renderers' anti-aliasing differs): another name drawn in the same place
        // leaves about 4 % of either image's ink uncovered.
        #expect(preview.covered(by: mupdf) > 0.99)
        #expect(mupdf.covered(by: preview) > 0.99)
        let ratio = Double(preview.inkCount) / Double(mupdf.inkCount)
        #expect(ratio > 0.85 && ratio < 1.15, "ink \(preview.inkCount) vs MuPDF's \(mupdf.inkCount)")
    }
}

/// An image as ink (dark pixels over white).
struct Pixels {
    var width: Int
    var height: Int
    var ink: [Bool]

    struct Unreadable: Error, CustomStringConvertible {
        var description: String
    }

    var inkCount: Int { ink.count { $0 } }

    static func isInk(_ pixel: (r: Int, g: Int, b: Int)) -> Bool { pixel.r + pixel.g + pixel.b < 3 * 180 }

    /// A PNG decoded by Pillow, composited over white.
    init(png: [UInt8], in directory: String) throws {
        let path = try SessionFixtures.write(png, directory, "appearance.png")
        let script = """
            import sys
            from PIL import Image
            image = Image.open(sys.argv[1])
            white = Image.new('RGBA', image.size, 'white')
            white.alpha_composite(image.convert('RGBA'))
            rgb = white.convert('RGB')
            print(image.format, image.size[0], image.size[1])
            print(''.join('1' if sum(p) < 3 * 180 else '0' for p in rgb.getdata()))
            """
        let result = try Oracle.run("python3", ["-c", script, path])
        let lines = result.output.split(separator: "\n")
        let header = lines.first?.split(separator: " ") ?? []
        guard lines.count == 2, header.count == 3, header[0] == "PNG", let width = Int(header[1]),
            let height = Int(header[2]), lines[1].utf8.count == width * height
        else { throw Unreadable(description: "PIL cannot read the PNG: \(result.errors)") }
        self.init(width: width, height: height, ink: lines[1].utf8.map { $0 == UInt8(ascii: "1") })
    }

    init(width: Int, height: Int, ink: [Bool]) {
        self.width = width
        self.height = height
        self.ink = ink
    }

    /// The share of this image's ink with ink of `other` (same size) within a pixel.
    func covered(by other: Pixels) -> Double {
        guard other.width == width, other.height == height, inkCount > 0 else { return 0 }
        var near = 0
        for y in 0..<height {
            for x in 0..<width where ink[y * width + x] {
                var found = false
                for dy in -1...1 where !found {
                    for dx in -1...1 where !found {
                        let (nx, ny) = (x + dx, y + dy)
                        if nx >= 0, ny >= 0, nx < width, ny < height, other.ink[ny * width + nx] { found = true }
                    }
                }
                if found { near += 1 }
            }
        }
        return Double(near) / Double(inkCount)
    }
}
