import Foundation
import PDFAuthoring
import PDFTestSupport
import Testing

@testable import AutographCLI
@testable import PDFCore

/// The signature and the reason pypdf reads from each signature field.
func pypdfSignatureReasons(_ path: String) throws -> [String] {
    let script = """
        import sys, pypdf
        reader = pypdf.PdfReader(sys.argv[1])
        for field in reader.get_fields().values():
            value = field.get("/V")
            if field.get("/FT") == "/Sig" and value is not None:
                print(value.get_object().get("/Reason"))
        """
    let result = try Oracle.run("python3", ["-c", script, path])
    return result.output.split(separator: "\n").map(String.init)
}

@Suite("autograph watermark, refuse, sign --appearance, biometrics, photo and ink")
struct AnnotationCommandTests {
    static func pki(_ name: String) -> String { TestPaths.fixture("pki", name) }
    static let root = pki("root.cert.pem")

    @Test("refuse: a watermark on every page and an invisible signature with reason 'refused' that validates")
    func refuse() async throws {
        let directory = try TestPaths.temporaryDirectory("cli-refuse")
        _ = await autograph("sample", "-o", directory + "/sample.pdf")
        let output = directory + "/refused.pdf"
        let result = await autograph(
            "refuse", directory + "/sample.pdf", "-o", output, "--title", "ABGELEHNT", "--p12",
            Self.pki("signer-p256.p12"), "--p12-password", "secret")
        #expect(result.code == .success, "\(result.errors)")
        #expect(try Oracle.qpdfCheck(output).status == 0)
        for page in 1...3 { #expect(try Oracle.mutoolText(output, page: page).contains("ABGELEHNT"), "page \(page)") }
        let verdicts = try SignatureOracle.pyhanko(output, trust: Self.root)
        #expect(verdicts.count == 1 && verdicts.values.allSatisfy { $0.hasPrefix("INTACT:TRUSTED") }, "\(verdicts)")
        // pdfsig also lists the sample's unsigned field.
        #expect(try SignatureOracle.pdfsig(output, trust: Self.root).filter { $0.valid && $0.trusted }.count == 1)
        #expect(try pypdfSignatureReasons(output) == ["refused"])
        let original = Array(try Data(contentsOf: URL(fileURLWithPath: directory + "/sample.pdf")))
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: output))).starts(with: original))
        #expect(await autograph("verify", output, "--trust", Self.root).code == .success)
    }

    @Test("watermark options; a bad rotation is a usage error")
    func watermark() async throws {
        let directory = try TestPaths.temporaryDirectory("cli-watermark")
        _ = await autograph("sample", "-o", directory + "/sample.pdf")
        let output = directory + "/marked.pdf"
        let result = await autograph(
            "watermark", directory + "/sample.pdf", "-o", output, "--title", "DRAFT", "--rotation", "30",
            "--date-pattern", "yyyy", "--color", "#1A1ACC", "--opacity", "0.5")
        #expect(result.code == .success, "\(result.errors)")
        #expect(try Oracle.qpdfCheck(output).status == 0)
        for page in 1...3 {
            let text = try Oracle.mutoolText(output, page: page)
            #expect(text.contains("DRAFT") && text.contains("20"), "page \(page): \(text)")
        }
        #expect(
            await autograph("watermark", directory + "/sample.pdf", "-o", output, "--title", "X", "--rotation", "up")
                .code == .usage)
        #expect(await autograph("watermark", directory + "/sample.pdf", "-o", output).code == .usage)
    }

    @Test(
        "sign --appearance with handwriting and --biometrics-cert; biometrics reads the strokes back with the key only")
    func handwrittenSignatureWithBiometrics() async throws {
        let directory = try TestPaths.temporaryDirectory("cli-appearance")
        _ = await autograph("sample", "-o", directory + "/sample.pdf")
        let appearance = """
            {"handwriting": [[[10, 40, 0, 0.4], [20, 22, 8, 0.6], [30, 10, 16, 0.8], [40, 20, 24, 0.7],
                              [50, 35, 32, 0.6], [60, 25, 40, 0.8], [70, 12, 48, 0.9], [90, 38, 64, 0.5]],
                             [[20, 25, 200, 0.5], [85, 22, 216, 0.7]]],
             "yAxisDown": true, "description": "Read and approved", "datePattern": "dd.MM.yyyy",
             "markColor": "#0A1A73", "device": {"model": "Test pen"}}
            """
        try Data(appearance.utf8).write(to: URL(fileURLWithPath: directory + "/appearance.json"))
        let signed = directory + "/signed.pdf"
        let result = await autograph(
            "sign", directory + "/sample.pdf", "-o", signed, "--field", "Signature1", "--p12",
            Self.pki("signer-p256.p12"), "--p12-password", "secret", "--appearance", directory + "/appearance.json",
            "--biometrics-cert", Self.pki("signer-rsa2048.cert.pem"))
        #expect(result.code == .success, "\(result.errors)")
        #expect(try Oracle.qpdfCheck(signed).status == 0)
        #expect(
            try SignatureOracle.pyhanko(signed, trust: Self.root)["Signature1"]?.hasPrefix("INTACT:TRUSTED") == true)
        #expect(try SignatureOracle.pdfsig(signed, trust: Self.root).map { $0.valid && $0.trusted } == [true])
        // The appearance draws ink only inside the field (the sample's Signature1 rectangle).
        let before = try RenderedPage.render(directory + "/sample.pdf", page: 3)
        let after = try RenderedPage.render(signed, page: 3)
        let changed = after.differences(from: before)
        let sample = try PDFDocument(contentsOfFile: directory + "/sample.pdf")
        let annotations = sample.resolve(sample.pages[2].dictionary[PDFName("Annots")] ?? .null).arrayValue ?? []
        let widgets = annotations.compactMap { sample.resolve($0).dictionaryValue }
        let widget = try #require(widgets.first { $0[PDFName("T")]?.stringValue?.text == "Signature1" })
        let rect = (widget[PDFName("Rect")]?.arrayValue ?? []).compactMap(\.numberValue)
        try #require(rect.count == 4)
        let box = after.pixelBox(x0: rect[0], y0: rect[1], x1: rect[2], y1: rect[3], pageHeight: 842)
        #expect(changed.count > 100, "the field shows almost nothing")
        #expect(changed.allSatisfy { $0.x >= box.x0 - 1 && $0.x <= box.x1 && $0.y >= box.y0 - 1 && $0.y <= box.y1 })
        #expect(try Oracle.mutoolText(signed, page: 3).contains("Read and approved"))

        let read = await autograph("biometrics", signed, "--key", Self.pki("signer-rsa2048.key.pem"))
        #expect(read.code == .success, "\(read.errors)")
        #expect(read.output.contains("Test pen") && read.output.contains("[70, 12, 48, 0.9]"), "\(read.output)")
        let wrong = await autograph("biometrics", signed, "--key", Self.pki("signer-p384.key.pem"))
        #expect(wrong.code == .failure && !wrong.errors.isEmpty)
        let unreadable = await autograph(
            "sign", directory + "/sample.pdf", "-o", directory + "/x.pdf", "--field", "Signature1", "--p12",
            Self.pki("signer-p256.p12"), "--p12-password", "secret", "--appearance", directory + "/appearance.json",
            "--biometrics-cert", directory + "/appearance.json")
        #expect(unreadable.code == .failure && unreadable.errors.contains("-131"), "\(unreadable.errors)")
    }

    @Test("photo puts an image into a field; unknown fields and missing options are clear errors")
    func photo() async throws {
        let directory = try TestPaths.temporaryDirectory("cli-photo")
        _ = await autograph("sample", "-o", directory + "/sample.pdf")
        let output = directory + "/photo.pdf"
        let image = TestPaths.fixture("images", "photo.jpg")
        let result = await autograph(
            "photo", directory + "/sample.pdf", "-o", output, "--field", "Name", "--image", image, "--max-width", "32",
            "--max-height", "32")
        #expect(result.code == .success, "\(result.errors)")
        #expect(try Oracle.qpdfCheck(output).status == 0)
        let unknown = await autograph(
            "photo", directory + "/sample.pdf", "-o", output, "--field", "Nope", "--image", image)
        #expect(unknown.code == .failure && unknown.errors.contains("no field named 'Nope'"))
        let signature = await autograph(
            "photo", directory + "/sample.pdf", "-o", output, "--field", "Signature1", "--image", image)
        #expect(signature.code == .failure && signature.errors.contains("takes no photo"))
        #expect(await autograph("photo", directory + "/sample.pdf", "-o", output, "--field", "Name").code == .usage)
        #expect(
            await autograph(
                "photo", directory + "/sample.pdf", "-o", output, "--field", "Name", "--image", image, "--max-width",
                "0"
            )
            .code == .usage)
    }

    @Test("ink adds a note pypdf reads; a PDF/A-1b document is refused")
    func ink() async throws {
        let directory = try TestPaths.temporaryDirectory("cli-ink")
        _ = await autograph("sample", "-o", directory + "/sample.pdf")
        try Data("[[[100, 100], [150, 160], [200, 120]], [[100, 300, 0, 0.2], [150, 350, 10, 0.9]]]".utf8)
            .write(to: URL(fileURLWithPath: directory + "/strokes.json"))
        let output = directory + "/ink.pdf"
        let result = await autograph(
            "ink", directory + "/sample.pdf", "-o", output, "--page", "2", "--strokes", directory + "/strokes.json",
            "--width", "2.5", "--color", "#00AA00")
        #expect(result.code == .success, "\(result.errors)")
        #expect(try Oracle.qpdfCheck(output).status == 0)
        let script = """
            import sys, pypdf
            page = pypdf.PdfReader(sys.argv[1]).pages[1]
            for a in page.get("/Annots", []):
                a = a.get_object()
                print(a["/Subtype"], [len(s) // 2 for s in a["/InkList"]], float(a["/BS"]["/W"]))
            """
        #expect(try Oracle.run("python3", ["-c", script, output]).output == "/Ink [3, 2] 2.5\n")
        #expect(
            await autograph(
                "ink", directory + "/sample.pdf", "-o", output, "--page", "9", "--strokes", directory + "/strokes.json"
            )
            .code == .usage)  // page 9 of 3: counted from 1, as --page is (PageNumberTests)

        // The sample with PDF/A-1b identification in its XMP (written by our metadata update).
        var builder = PDFBuilder(version: "1.4")
        builder.addPage(content: Array("BT /F1 12 Tf 72 720 Td (Archived) Tj ET".utf8))
        let xmp = """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description rdf:about="" xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/"><pdfaid:part>1</pdfaid:part><pdfaid:conformance>B</pdfaid:conformance></rdf:Description>
            </rdf:RDF></x:xmpmeta>
            """
        builder.catalogEntries[.metadata] = .reference(
            builder.add(
                .stream(
                    PDFStream(
                        dictionary: [.type: .name("Metadata"), .subtype: .name("XML")], data: Array(xmp.utf8),
                        compress: false))))
        try Data(builder.build()).write(to: URL(fileURLWithPath: directory + "/archive.pdf"))
        let refused = await autograph(
            "ink", directory + "/archive.pdf", "-o", output, "--page", "1", "--strokes", directory + "/strokes.json")
        #expect(refused.code == .failure && refused.errors.contains("PDF/A-1b"), "\(refused.errors)")
    }
}
