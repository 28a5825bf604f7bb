import Foundation
import PDFAnnotations
import PDFAuthoring
import PDFCore
import PDFSigning
import PDFTestSupport
import Testing

@testable import PDFSession

/// The configuration's colours and fonts as the oracles see them in the signed file: MuPDF draws the
/// signature, pikepdf and pdffonts read the fonts of its appearance and of the refusal watermark.
@Suite(.serialized) struct SessionVisualTests {
    /// A text-showing operator: the font's `/BaseFont`, the `Tf` size and the bytes shown (Latin-1).
    typealias Shown = (font: String, size: Double, text: String)

    /// One line per text-showing operator of the page's content (`page N`, from 1) or of a field's
    /// normal appearance (`field NAME`), Form XObjects included: `BaseFont|size|text`.
    static func shownText(_ path: String, _ kind: String, _ target: String) throws -> [Shown] {
        let script = """
            import pikepdf, sys
            pdf = pikepdf.open(sys.argv[1])
            def walk(obj, inherited):
                res = obj.get('/Resources', inherited)
                font, size = '?', 0.0
                for operands, op in pikepdf.parse_content_stream(obj):
                    op = str(op)
                    if op == 'Tf':
                        entry = res.get('/Font', {}).get(operands[0])
                        font = str(entry.get('/BaseFont')) if entry is not None else '?'
                        size = float(operands[1])
                    elif op in ('Tj', "'", '"'):
                        print(f'{font}|{size}|{bytes(operands[-1]).decode("latin-1")}')
                    elif op == 'TJ':
                        text = b''.join(bytes(x) for x in operands[0] if isinstance(x, pikepdf.String))
                        print(f'{font}|{size}|{text.decode("latin-1")}')
                    elif op == 'Do':
                        xobject = res.get('/XObject', {}).get(operands[0])
                        if xobject is not None and xobject.get('/Subtype') == '/Form':
                            walk(xobject, res)
            if sys.argv[2] == 'page':
                walk(pdf.pages[int(sys.argv[3]) - 1].obj, pikepdf.Dictionary())
            else:
                def widgets(field):
                    kids = field.get('/Kids')
                    return [k for k in kids] if kids is not None else [field]
                for field in pdf.Root.AcroForm.Fields:
                    if str(field.get('/T')) == sys.argv[3]:
                        for widget in widgets(field):
                            walk(widget.AP.N, pikepdf.Dictionary())
            """
        let result = try Oracle.run("python3", ["-c", script, path, kind, target])
        try #require(result.status == 0, "pikepdf: \(result.errors)")
        return result.output.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: "|", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3, let size = Double(parts[1]) else { return nil }
            return (String(parts[0]), size, String(parts[2]))
        }
    }

    /// Signs `Signature1` of the session form, drawing `scribble` (or typing `typed`) when asked for
    /// the handwriting; returns the signed file's path and the widget's rectangle on page 2.
    static func sign(_ configuration: SignatureConfiguration, typed: String? = nil, id: String) async throws
        -> (path: String, rect: PDFRectangle)
    {
        let (controller, directory) = try SessionFixtures.controller()
        let session = try await controller.open(
            pdf: SessionFixtures.form(), documentID: id, signatureConfiguration: configuration)
        let log = EventLog(session)
        let field = try #require(await session.signatureFields().first { $0.name == "Signature1" })
        let rect = try #require(field.rect)
        #expect(field.pageIndex == 1)
        try await session.acceptDocument()
        if configuration.appearance.handwrittenSignatureEnabled {
            try #require(await log.first("signatureCaptureRequired") != nil)
            if let typed {
                try await session.typeSignature(typed)
            } else {
                try await session.captureSignature(SessionFixtures.scribble())
            }
        }
        try await session.confirmSignature()
        guard case .processDidFinish(_, let signed)? = await log.first("processDidFinish") else {
            Issue.record("not signed: \(await log.events.map(EventLog.name))")
            return ("", rect)
        }
        return (try SessionFlowTests.validate(signed, in: directory), rect)
    }

    /// MuPDF's pixels inside `rect` on page 2 (A4) close to `colour` (0…255 each).
    static func pixels(near colour: (r: Int, g: Int, b: Int), in path: String, rect: PDFRectangle) throws -> Int {
        let rendered = try RenderedPage.render(path, page: 2)
        let box = rendered.pixelBox(x0: rect.x0, y0: rect.y0, x1: rect.x1, y1: rect.y1, pageHeight: 842)
        var count = 0
        for y in box.y0..<box.y1 {
            for x in box.x0..<box.x1 {
                let pixel = rendered.pixel(x, y)
                if abs(pixel.r - colour.r) < 40, abs(pixel.g - colour.g) < 40, abs(pixel.b - colour.b) < 40 {
                    count += 1
                }
            }
        }
        return count
    }

    static let red = (r: 255, g: 0, b: 0)
    /// `SignatureCaptureConfiguration.signatureColor`'s default, rgb(0.05, 0.1, 0.45).
    static let darkBlue = (r: 13, g: 26, b: 115)

    @Test(
        "signatureColor inks the handwriting and a typed name in the signed widget; the default is dark blue",
        arguments: [nil, "Ada Lovelace"])
    func signatureColorInksTheMark(typed: String?) async throws {
        var configuration = SignatureConfiguration(signer: try SessionFixtures.signer())
        configuration.appearance.handwrittenSignatureEnabled = true
        let plain = try await Self.sign(configuration, typed: typed, id: "default-ink")
        #expect(try Self.pixels(near: Self.red, in: plain.path, rect: plain.rect) == 0)
        #expect(try Self.pixels(near: Self.darkBlue, in: plain.path, rect: plain.rect) > 50)

        configuration.capture.signatureColor = .rgb(1, 0, 0)
        let red = try await Self.sign(configuration, typed: typed, id: "red-ink")
        #expect(try Self.pixels(near: Self.red, in: red.path, rect: red.rect) > 50)
        #expect(try Self.pixels(near: Self.darkBlue, in: red.path, rect: red.rect) == 0)
    }

    @Test("dateFont draws the display text, the date and the description; signerNameFont draws the name")
    func dateFontDrawsTheTextLines() async throws {
        var configuration = SignatureConfiguration(signer: try SessionFixtures.signer())
        configuration.appearance.dateFont = .standard("Courier")
        configuration.appearance.signerNameFont = .standard("Times-Bold")
        configuration.appearance.signerName = "Ada Lovelace"
        configuration.appearance.signatureDescription = "Approved by the board"
        configuration.capture.displayText = "Read and approved"
        let signed = try await Self.sign(configuration, id: "fonts")
        let shown = try Self.shownText(signed.path, "field", "Signature1")
        func font(of text: String) -> String? { shown.first { $0.text.contains(text) }?.font }
        #expect(font(of: "Read and approved") == "/Courier", "\(shown)")
        #expect(font(of: "2026-09-21") == "/Courier", "\(shown)")
        #expect(font(of: "Approved by the board") == "/Courier", "\(shown)")
        #expect(font(of: "Ada Lovelace") == "/Times-Bold", "\(shown)")
        #expect(Set(shown.map(\.font)) == ["/Courier", "/Times-Bold"], "\(shown)")
        // Poppler finds on page 2 the same two fonts added by signing, and no other.
        func fonts(_ path: String) throws -> Set<String> {
            let listing = try Oracle.run("pdffonts", ["-f", "2", "-l", "2", path]).output
            return Set(
                listing.split(separator: "\n").dropFirst(2).compactMap {
                    $0.split(separator: " ").first.map(String.init)
                })
        }
        let unsigned = try SessionFixtures.write(
            SessionFixtures.form(), try TestPaths.temporaryDirectory("fonts"), "form.pdf")
        #expect(try fonts(signed.path).subtracting(fonts(unsigned)) == ["Courier", "Times-Bold"])
    }

    @Test("the refusal watermark's date is drawn in dateFont at 0.3 × titleSize (Courier 24 under an 80 title)")
    func watermarkDateFontAndSize() async throws {
        let (controller, directory) = try SessionFixtures.controller()
        var configuration = SignatureConfiguration(signer: try SessionFixtures.signer())
        configuration.watermark.dateFont = "Courier"
        configuration.watermark.titleSize = 80
        let session = try await controller.open(
            pdf: SessionFixtures.form(), documentID: "refused", signatureConfiguration: configuration)
        let log = EventLog(session)
        try await session.refuseDocument()
        try await session.confirmSignature()
        guard case .processDidFinish(_, let signed)? = await log.first("processDidFinish") else {
            Issue.record("not refused: \(await log.events.map(EventLog.name))")
            return
        }
        let path = try SessionFlowTests.validate(signed, in: directory)
        for page in ["1", "2"] {
            let shown = try Self.shownText(path, "page", page)
            let date = try #require(shown.first { $0.text == "2026-09-21 14:13:20" }, "page \(page): \(shown)")
            #expect(date.font == "/Courier", "page \(page): \(date)")
            #expect(date.size == 24, "page \(page): \(date)")
            let title = try #require(shown.first { $0.text == "REFUSED" }, "page \(page): \(shown)")
            #expect(title.font == "/Helvetica-Bold" && title.size == 80, "page \(page): \(title)")
        }
    }
}
