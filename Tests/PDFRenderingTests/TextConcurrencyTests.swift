import PDFCore
import PDFRendering
import Testing

/// Text drawn from several tasks at once: the shared ``FontRenderer`` (FreeType faces, cairo-ft
/// scaled fonts) gives the same pixels as drawing one page after another.
@Suite("Text rendering from concurrent tasks")
struct TextConcurrencyTests {
    /// Four pages, each with its own fonts (standard 14 substitutes, a substituted TrueType font,
    /// an embedded TrueType subset when fontconfig finds DejaVu Sans) and the same text.
    static func pages() throws -> [[UInt8]] {
        let source = SubsetSource.load()
        return try (0..<4).map { index in
            var objects = PageObjects()
            var resources = "/F0 \(TextRenderingTests.standardFont(TextRenderingTests.standard14[index * 3]))"
            resources += " /F1 \(TextRenderingTests.standardFont(TextRenderingTests.standard14[index * 3 + 1]))"
            let descriptor = objects.add(
                "<< /Type /FontDescriptor /FontName /Verdana /Flags \(index % 2 == 0 ? 32 : 34) /FontBBox [0 -200 1000 900] /ItalicAngle 0 /Ascent 900 /Descent -200 /CapHeight 700 /StemV 80 >>"
            )
            resources +=
                " /F2 << /Type /Font /Subtype /TrueType /BaseFont /Verdana \(TextSubstituteFontTests.widths(source)) /Encoding /WinAnsiEncoding /FontDescriptor \(descriptor) 0 R >>"
            var content = "BT /F0 14 Tf 10 270 Td (Page \(index): Sphinx of black quartz) Tj ET\n"
            content += "BT /F1 22 Tf 0.9 0.2 -0.2 0.9 20 200 Tm (judge my vow, 0123456789) Tj ET\n"
            content += "BT /F2 12 Tf 1 Tr 0.4 w 10 150 Td (Stroked substitute text) Tj ET\n"
            if let source {
                let text = "Embedded \(index) αβπ"
                let glyphs = text.unicodeScalars.map(source.glyph)
                let file = objects.add(stream: "", try source.program(glyphs: Set(glyphs)))
                let fontDescriptor = objects.add(source.descriptor(name: "EEEEEE+DejaVuSans", flags: 4, file: file))
                let widths = Set(glyphs).sorted().map { "\($0) [\(source.width(ofGlyph: $0))]" }
                let cidFont = objects.add(
                    "<< /Type /Font /Subtype /CIDFontType2 /BaseFont /EEEEEE+DejaVuSans /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /FontDescriptor \(fontDescriptor) 0 R /W [\(widths.joined(separator: " "))] /CIDToGIDMap /Identity >>"
                )
                resources +=
                    " /F3 << /Type /Font /Subtype /Type0 /BaseFont /EEEEEE+DejaVuSans /Encoding /Identity-H /DescendantFonts [\(cidFont) 0 R] >>"
                let codes = glyphs.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }.hex
                content += "BT /F3 18 Tf 10 100 Td <\(codes)> Tj ET\n"
            }
            content += "q BT /F0 30 Tf 10 30 Td 7 Tr (CLIPPED) Tj ET 0 0 1 rg 0 0 300 80 re f Q"
            return TextPage(
                width: 300, height: 300, content: content, resources: "<< /Font << \(resources) >> >>",
                objects: objects.objects
            ).bytes()
        }
    }

    @Test("4 tasks rendering text pages at once give the pixels of sequential renders, with fresh font caches")
    func concurrentRenders() async throws {
        let pages = try Self.pages()
        let options = {
            var options = RenderOptions()
            options.dpi = 110
            return options
        }()
        // Sequential, with one font renderer.
        let sequentialFonts = FontRenderer()
        let sequential = try pages.map { bytes in
            try DocumentRenderer(document: PDFDocument(bytes: bytes), fonts: sequentialFonts).render(
                pageAt: 0, options: options
            ).image.rgba
        }
        for round in 0..<3 {
            // A fresh renderer each round, so faces are loaded while other tasks load and draw.
            let fonts = FontRenderer()
            let documents = try pages.map { try PDFDocument(bytes: $0) }
            let concurrent = await withTaskGroup(of: (Int, [UInt8]).self) { group in
                for (index, document) in documents.enumerated() {
                    group.addTask {
                        let renderer = DocumentRenderer(document: document, fonts: fonts)
                        return (index, renderer.render(pageAt: 0, options: options).image.rgba)
                    }
                }
                var results = [[UInt8]](repeating: [], count: documents.count)
                for await (index, pixels) in group { results[index] = pixels }
                return results
            }
            for index in pages.indices {
                #expect(concurrent[index] == sequential[index], "round \(round), page \(index) differs")
            }
        }
        #expect(
            sequential.allSatisfy { pixels in pixels.enumerated().contains { $0.offset % 4 == 3 && $0.element > 0 } })
        // The pages differ from each other, so equal results are not four copies of one render.
        #expect(Set(sequential).count == pages.count)
    }
}
