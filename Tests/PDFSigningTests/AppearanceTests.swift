import Foundation
import PDFAuthoring
import PDFCore
import PDFForms
import PDFTestSupport
import Testing

@testable import PDFSigning

@Suite("Signature appearances, handwriting and biometric data")
struct AppearanceTests {
    static let root = TestPaths.fixture("pki", "root.cert.pem")
    static func pki(_ name: String) -> String { TestPaths.fixture("pki", name) }

    /// A wavy handwriting of `count` points per stroke, in screen coordinates, with pressure.
    static func handwriting(count: Int = 40) -> [InkStroke] {
        [
            InkStroke(
                (0..<count).map { index in
                    let t = Double(index) / Double(count - 1) * 2 * Double.pi
                    return InkPoint(
                        x: 20 + Double(index) * 4, y: 50 + 20 * sin(t * 1.5), time: Double(index) * 16,
                        pressure: 0.3 + 0.6 * abs(sin(t)))
                }),
            InkStroke(
                (0..<count).map { index in
                    InkPoint(x: 60 + Double(index) * 2, y: 80 - Double(index), time: 900 + Double(index) * 16)
                }),
        ]
    }

    static let rect = PDFRectangle(x0: 100, y0: 300, x1: 400, y1: 380)

    /// Signs a two-page document on page 1 with `appearance`; returns the unsigned and signed paths.
    static func sign(_ appearance: SignatureAppearance, biometrics: BiometricCapture? = nil) async throws -> (
        String, String
    ) {
        let directory = try TestPaths.temporaryDirectory("appearance")
        let original = TestDocuments.simple(pages: 2)
        try Data(original).write(to: URL(fileURLWithPath: directory + "/unsigned.pdf"))
        var request = SignatureRequest(fieldName: "Signature", placement: .visible(page: 0, rect: rect))
        request.appearance = appearance
        request.signingTime = PDFDate(seconds: 1_800_000_000, utcOffsetMinutes: 60)
        if let biometrics {
            request.biometrics = biometrics
            request.biometricsCertificate =
                Certificate.certificates(
                    pem: Array(try Data(contentsOf: URL(fileURLWithPath: pki("signer-rsa2048.cert.pem"))))
                ).first?.derBytes
        }
        let signer = try LocalKeySigner(pkcs12: pki("signer-p256.p12"), password: "secret")
        let bytes = try await DocumentSigner(
            document: try PDFDocument(bytes: original), request: request, signer: signer
        ).sign().bytes()
        try Data(bytes).write(to: URL(fileURLWithPath: directory + "/signed.pdf"))
        return (directory + "/unsigned.pdf", directory + "/signed.pdf")
    }

    /// Every changed pixel lies inside the field, and the field has ink.
    static func expectInkOnlyInField(_ unsigned: String, _ signed: String) throws {
        let before = try RenderedPage.render(unsigned, page: 1, dpi: 72)
        let after = try RenderedPage.render(signed, page: 1, dpi: 72)
        let box = after.pixelBox(x0: rect.x0, y0: rect.y0, x1: rect.x1, y1: rect.y1, pageHeight: 792)
        let changed = after.differences(from: before)
        #expect(changed.count > 50, "the field shows almost nothing (\(changed.count) pixels)")
        let outside = changed.filter { $0.x < box.x0 - 1 || $0.x > box.x1 || $0.y < box.y0 - 1 || $0.y > box.y1 }
        #expect(outside.isEmpty, "\(outside.count) pixels changed outside the field, e.g. \(outside.prefix(3))")
    }

    static func expectValid(_ signed: String) throws {
        #expect(try Oracle.qpdfCheck(signed).status == 0)
        #expect(try SignatureOracle.pyhanko(signed, trust: root)["Signature"]?.hasPrefix("INTACT:TRUSTED") == true)
        #expect(try SignatureOracle.pdfsig(signed, trust: root).last.map { $0.valid && $0.trusted } == true)
    }

    @Test("date patterns")
    func datePatterns() {
        let date = PDFDate(seconds: 1_800_000_000, utcOffsetMinutes: 60)  // 2027-01-15 08:00 UTC
        #expect(DatePattern("yyyy-MM-dd HH:mm").format(date) == "2027-01-15 09:00")
        #expect(DatePattern().format(date) == "2027-01-15 09:00 UTC+1")
        #expect(DatePattern("dd.MM.yy h:mm a XXX").format(date) == "15.01.27 9:00 AM +01:00")
        #expect(DatePattern("d MMM yyyy 'at' HH'h'").format(date) == "15 Jan 2027 at 09h")
    }

    @Test(
        "handwriting with pressure, a description, display text and a PNG graphic: valid, ink only in the field, text readable"
    )
    func handwritingAppearance() async throws {
        var appearance = SignatureAppearance(mark: .handwriting(Self.handwriting(), yAxisDown: true))
        appearance.description = "Approved by the board"
        appearance.displayText = "Signed on a tablet"
        appearance.graphic = Array(
            try Data(contentsOf: URL(fileURLWithPath: TestPaths.fixture("images", "logo-alpha.png"))))
        let (unsigned, signed) = try await Self.sign(appearance)
        try Self.expectValid(signed)
        try Self.expectInkOnlyInField(unsigned, signed)
        let text = try Oracle.mutoolText(signed)
        for expected in ["Approved by the board", "Signed on a tablet", "2027-01-15 09:00 UTC+1"] {
            #expect(text.contains(expected), "MuPDF does not show \(expected)")
        }
    }

    @Test(
        "the signer's name in any script, with a JPEG graphic", arguments: ["Ada Lovelace", "Ζωή Παπαδοπούλου", "张伟"])
    func nameAppearance(name: String) async throws {
        var appearance = SignatureAppearance(mark: .name(name))
        appearance.graphic = Array(try Data(contentsOf: URL(fileURLWithPath: TestPaths.fixture("images", "photo.jpg"))))
        let (unsigned, signed) = try await Self.sign(appearance)
        try Self.expectValid(signed)
        try Self.expectInkOnlyInField(unsigned, signed)
        #expect(try Oracle.mutoolText(signed).contains(name))
    }

    @Test(
        "a signer's name and display text mixing scripts no single font covers are drawn run by run",
        .enabled(if: Requirement.systemFont(covering: "李"), "no installed font covers CJK"))
    func mixedScriptName() async throws {
        var appearance = SignatureAppearance(mark: .name("Zoë Ζωή 李"))
        appearance.displayText = "Signé par Zoë 李小龍"
        let (unsigned, signed) = try await Self.sign(appearance)
        try Self.expectValid(signed)
        try Self.expectInkOnlyInField(unsigned, signed)
        let text = try Oracle.mutoolText(signed).filter { !$0.isWhitespace }
        for expected in ["ZoëΖωή李", "SignéparZoë李小龍"] { #expect(text.contains(expected), "\(text)") }
        let choice = SignatureAppearance.FontChoice.standard("Helvetica")
        #expect(choice.canDraw("Zoë Ζωή 李"))
        #expect(choice.undrawableCharacter(in: "Zoë \u{E000}") == "\u{E000}")
    }

    @Test("text only (no mark): display text at the bottom, a long description that must shrink, a custom date label")
    func textOnlyAppearance() async throws {
        var appearance = SignatureAppearance(mark: .none)
        appearance.description = String(
            repeating: "Reviewed clause by clause and approved without reservation. ", count: 4)
        appearance.displayText = "Signed with Autograph"
        appearance.displayTextPosition = .bottom
        appearance.dateLabel = "Signed on "
        appearance.datePattern = DatePattern("d MMM yyyy")
        let (unsigned, signed) = try await Self.sign(appearance)
        try Self.expectValid(signed)
        try Self.expectInkOnlyInField(unsigned, signed)
        let text = try Oracle.mutoolText(signed).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for expected in ["Signed with Autograph", "Signed on 15 Jan 2027", "Reviewed clause by clause"] {
            #expect(text.contains(expected), "MuPDF does not show \(expected)")
        }
    }

    @Test("handwriting too short to be a signature is -132")
    func tooShort() async throws {
        let appearance = SignatureAppearance(
            mark: .handwriting([InkStroke([InkPoint(x: 1, y: 1), InkPoint(x: 2, y: 2)])], yAxisDown: true))
        do {
            _ = try await Self.sign(appearance)
            Issue.record("a two-point signature was accepted")
        } catch let error as SigningError {
            #expect(error.code == .captureTooShort && error.signoCode == -132)
        }
    }

    @Test(
        "biometric data decrypts to the exact strokes with the right key, fails cleanly with another, and is covered by the signature"
    )
    func biometrics() async throws {
        let strokes = Self.handwriting()
        let capture = BiometricCapture(strokes: strokes, device: ["model": "Test pen"])
        let (_, signed) = try await Self.sign(
            SignatureAppearance(mark: .handwriting(strokes, yAxisDown: true)), biometrics: capture)
        try Self.expectValid(signed)
        let document = try PDFDocument(contentsOfFile: signed)
        let key = try PrivateKey(
            pem: Array(try Data(contentsOf: URL(fileURLWithPath: Self.pki("signer-rsa2048.key.pem")))), password: nil)
        let (field, json) = try BiometricReader.read(document, fieldName: "Signature", key: key)
        #expect(field == "Signature")
        #expect(json == capture.json)
        let wrong = try PrivateKey(
            pem: Array(try Data(contentsOf: URL(fileURLWithPath: Self.pki("signer-p256.key.pem")))), password: nil)
        #expect(throws: SigningError(.signingFailed, "")) {
            _ = try BiometricReader.read(document, fieldName: nil, key: wrong)
        }

        // Tampering with the encrypted data breaks the signature.
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: signed)))
        let marker = Array("/AutographBiometricData".utf8)
        let position = try #require(
            (0..<(bytes.count - marker.count)).first { bytes[$0..<($0 + marker.count)].elementsEqual(marker) })
        let streamStart =
            try #require(
                (position..<bytes.count).first {
                    bytes[$0..<min($0 + 6, bytes.count)].elementsEqual(Array("stream".utf8))
                }) + 20
        bytes[streamStart] ^= 0xFF
        let tampered = try TestPaths.temporaryDirectory("appearance") + "/tampered.pdf"
        try Data(bytes).write(to: URL(fileURLWithPath: tampered))
        #expect(try SignatureOracle.pyhanko(tampered, trust: Self.root)["Signature"]?.hasPrefix("INTACT") != true)
    }

    @Test("an unreadable biometrics certificate is -131")
    func badBiometricsCertificate() async throws {
        var request = SignatureRequest(placement: .visible(page: 0, rect: Self.rect))
        request.appearance = SignatureAppearance(mark: .handwriting(Self.handwriting(), yAxisDown: true))
        request.biometrics = BiometricCapture(strokes: Self.handwriting())
        request.biometricsCertificate = [0x30, 0x03, 0x02, 0x01, 0x01]
        let signer = try LocalKeySigner(pkcs12: Self.pki("signer-p256.p12"), password: "secret")
        do {
            _ = try await DocumentSigner(
                document: try PDFDocument(bytes: TestDocuments.simple()), request: request, signer: signer
            ).sign()
            Issue.record("a bad biometrics certificate was accepted")
        } catch let error as SigningError {
            #expect(error.code == .biometricsCertificateUnreadable && error.signoCode == -131)
        }
    }
}

/// WYSIWYS's font sizes (signer name 48, date 28) are points on a signature 512 points wide: a
/// field of another width scales them, and a smaller or larger setting changes what is drawn.
@Suite struct AppearanceFontSizeTests {
    /// The sizes of the `Tf` operators of the appearance drawn for a `width` × `height` field.
    static func sizes(_ appearance: SignatureAppearance, width: Double, height: Double) throws -> [String: Double] {
        let renderer = SignatureAppearanceRenderer(
            appearance: appearance, signerName: nil, date: PDFDate(seconds: 1_800_000_000, utcOffsetMinutes: 0))
        var objects: [PDFObject] = []
        let made = try renderer.make(width: width, height: height, rotation: 0) { object in
            objects.append(object)
            return PDFReference(objects.count)
        }
        guard case .stream(let stream) = made else { return [:] }
        let text = String(decoding: try stream.decodedData(), as: UTF8.self)
        var sizes: [String: Double] = [:]
        let words = text.split(whereSeparator: \.isWhitespace)
        for index in words.indices.dropFirst(2) where words[index] == "Tf" {
            sizes[String(words[index - 2])] = Double(words[index - 1])
        }
        return sizes
    }

    @Test("the name and the date stop at 48 and 28 seed points, scaled to the field's width")
    func sizesFollowTheSeed() throws {
        var appearance = SignatureAppearance(mark: .name("Ada"))
        let wide = try Self.sizes(appearance, width: 512, height: 400)
        #expect(wide["/F2"] == 48 && wide["/F1"] == 28, "\(wide)")
        let usual = try Self.sizes(appearance, width: 200, height: 160)
        #expect(abs((usual["/F2"] ?? 0) - 18.75) < 0.01 && abs((usual["/F1"] ?? 0) - 10.9375) < 0.01, "\(usual)")
        appearance.markFontSize = 20
        appearance.textFontSize = 12
        let smaller = try Self.sizes(appearance, width: 512, height: 400)
        #expect(smaller["/F2"] == 20 && smaller["/F1"] == 12, "\(smaller)")
        appearance.markFontSize = .nan
        #expect(throws: SigningError.self) { try Self.sizes(appearance, width: 512, height: 400) }
    }
}
