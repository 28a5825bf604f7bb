import Foundation
import PDFAuthoring
import PDFTestSupport
import Testing

@testable import PDFAnnotations
@testable import PDFCore

@Suite("Refusal watermarks")
struct WatermarkTests {
    static let date = PDFDate(seconds: 1_800_000_000, utcOffsetMinutes: 60)

    /// Four pages: plain, turned by /Rotate 90, turned by /Rotate 270 with a crop box, and one whose
    /// content leaves the graphics state changed (a scale and a fill colour, no Q).
    static func pages() -> [UInt8] {
        var builder = PDFBuilder()
        builder.addPage(content: Array("BT /F1 12 Tf 72 720 Td (Plain) Tj ET".utf8))
        builder.addPage(content: Array("BT /F1 12 Tf 72 720 Td (Turned) Tj ET".utf8), extra: [.rotate: 90])
        builder.addPage(
            content: Array("BT /F1 12 Tf 150 600 Td (Cropped) Tj ET".utf8),
            extra: [.rotate: 270, PDFName("CropBox"): PDFRectangle(x0: 100, y0: 200, x1: 500, y1: 700).object])
        builder.addPage(content: Array("q 0.2 0 0 0.2 0 0 cm 0 1 0 rg BT /F1 12 Tf 72 720 Td (Untidy) Tj ET".utf8))
        return builder.build()
    }

    static func watermark(_ original: [UInt8], _ appearance: WatermarkAppearance) throws -> (String, String) {
        let directory = try TestPaths.temporaryDirectory("watermark")
        let bytes = try Watermarker(document: try PDFDocument(bytes: original), appearance: appearance, date: date)
            .makeUpdate().documentBytes()
        try Data(original).write(to: URL(fileURLWithPath: directory + "/original.pdf"))
        try Data(bytes).write(to: URL(fileURLWithPath: directory + "/watermarked.pdf"))
        return (directory + "/original.pdf", directory + "/watermarked.pdf")
    }

    @Test("the title and date are on every page, the original bytes stay, qpdf finds nothing")
    func everyPage() throws {
        let original = Self.pages()
        var appearance = WatermarkAppearance(title: "REFUSED")
        appearance.datePattern = DatePattern("dd.MM.yyyy")
        let (_, path) = try Self.watermark(original, appearance)
        #expect(try Oracle.qpdfCheck(path).status == 0)
        let written = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(written.starts(with: original))
        #expect(try PDFDocument(bytes: written).revisions.count == 2)
        for page in 1...4 {
            let text = try Oracle.mutoolText(path, page: page)
            #expect(text.contains("REFUSED") && text.contains("15.01.2027"), "page \(page) shows: \(text)")
            // Poppler puts each letter of slanted text on a line of its own.
            let poppler = try Oracle.run("pdftotext", ["-raw", "-f", String(page), "-l", String(page), path, "-"])
            #expect(poppler.output.filter { !$0.isWhitespace }.contains("REFUSED15.01.2027"), "pdftotext page \(page)")
        }
    }

    @Test("the angle is as seen: page rotation is taken into account; the mark is centred on the crop box")
    func rotationAndCropBox() throws {
        var appearance = WatermarkAppearance(title: "REFUSED AND RETURNED")
        appearance.rotation = 0
        appearance.showsDate = false
        appearance.opacity = 1
        let (before, after) = try Self.watermark(Self.pages(), appearance)
        for page in 1...4 {
            let rendered = try RenderedPage.render(after, page: page, dpi: 36)
            let changed = rendered.differences(from: try RenderedPage.render(before, page: page, dpi: 36))
            let bounds = try #require(RenderedPage.bounds(of: changed), "page \(page) has no watermark")
            let width = bounds.x1 - bounds.x0
            let height = bounds.y1 - bounds.y0
            #expect(width > 3 * height, "page \(page): the title is not horizontal as seen (\(width)×\(height))")
            // Centred on what is shown (the crop box, turned).
            let centreX = Double(bounds.x0 + bounds.x1) / 2
            let centreY = Double(bounds.y0 + bounds.y1) / 2
            #expect(abs(centreX - Double(rendered.width) / 2) < 6, "page \(page): off centre horizontally")
            #expect(abs(centreY - Double(rendered.height) / 2) < 6, "page \(page): off centre vertically")
            #expect(width < rendered.width && bounds.x0 > 0, "page \(page): the title leaves the page")
        }

        appearance.rotation = 90
        let (_, turned) = try Self.watermark(Self.pages(), appearance)
        let rendered = try RenderedPage.render(turned, page: 1, dpi: 36)
        let bounds = try #require(
            RenderedPage.bounds(of: rendered.differences(from: try RenderedPage.render(before, page: 1, dpi: 36))))
        #expect(bounds.y1 - bounds.y0 > 3 * (bounds.x1 - bounds.x0), "a 90° title is not vertical")
    }

    @Test(
        "a title outside Latin is drawn with an embedded system font", arguments: ["ΑΠΟΡΡΙΦΘΗΚΕ", "Отклонено", "拒绝签署"])
    func anyScript(title: String) throws {
        let (_, path) = try Self.watermark(TestDocuments.simple(pages: 2), WatermarkAppearance(title: title))
        #expect(try Oracle.qpdfCheck(path).status == 0)
        for page in 1...2 {
            #expect(try Oracle.mutoolText(path, page: page).contains(title), "page \(page)")
        }
    }

    @Test(
        "real documents: the title on every page, qpdf clean, original bytes kept",
        .enabled(if: Requirement.corpus, "the corpus is absent"))
    func corpus() throws {
        let corpus = try #require(TestPaths.corpus)
        var checked = 0
        var pages = 0
        for file in CorpusFile.all(in: corpus) where file.password == nil {
            guard checked < 12, let document = try? PDFDocument(contentsOfFile: file.path), document.warnings.isEmpty,
                (2...40).contains(document.pageCount), document.encryption == nil,
                (try? Oracle.qpdfCheck(file.path).status) == 0
            else { continue }
            let directory = try TestPaths.temporaryDirectory("watermark-corpus")
            let output = directory + "/out.pdf"
            try Watermarker(document: document, appearance: WatermarkAppearance(title: "REFUSED"), date: Self.date)
                .makeUpdate().write(to: output)
            #expect(try Oracle.qpdfCheck(output).status == 0, "\(file): qpdf --check")
            let original = Array(try Data(contentsOf: URL(fileURLWithPath: file.path)))
            #expect(Array(try Data(contentsOf: URL(fileURLWithPath: output))).starts(with: original), "\(file)")
            for page in 1...document.pageCount {
                #expect(try Oracle.mutoolText(output, page: page).contains("REFUSED"), "\(file) page \(page)")
            }
            checked += 1
            pages += document.pageCount
        }
        print("watermarked \(checked) corpus documents, \(pages) pages")
        #expect(checked >= 5)
    }
}

@Suite(
    "Watermarks in mixed scripts",
    .enabled(if: Requirement.systemFont(covering: "李"), "no installed font covers CJK"))
struct MixedScriptWatermarkTests {
    @Test("a title mixing Latin and CJK is drawn run by run and MuPDF shows it")
    func mixedTitle() throws {
        var appearance = WatermarkAppearance(title: "REFUSED Zoë 李")
        appearance.rotation = 0
        let (_, path) = try WatermarkTests.watermark(WatermarkTests.pages(), appearance)
        #expect(try Oracle.qpdfCheck(path).status == 0)
        let text = try Oracle.mutoolText(path, page: 1).filter { !$0.isWhitespace }
        #expect(text.contains("REFUSEDZoë李"), "\(text)")
    }

    @Test("a character no installed font has is refused, named by its code point")
    func missingCharacter() throws {
        let document = try PDFDocument(bytes: WatermarkTests.pages())
        #expect {
            _ = try Watermarker(document: document, appearance: WatermarkAppearance(title: "A \u{E000}")).makeUpdate()
        } throws: { error in
            (error as? AnnotationError)?.code == .fontUnavailable && "\(error)".contains("U+E000")
        }
    }
}
