import Foundation
import PDFAuthoring
import PDFCore
import PDFFonts
import PDFTestSupport
import Testing

@testable import PDFGraphics

/// One-page documents for text extraction tests, and the oracle's view of them.
enum TextFixture {
    /// A page (612×792 unless `pageExtra` says otherwise) with `content`, `/Font << fonts >>`, and
    /// further objects numbered from 5.
    static func page(
        _ content: String, fonts: String = "/F1 5 0 R", objects: [String] = [helvetica], streams: [Int: String] = [:],
        pageExtra: String = "/MediaBox [0 0 612 792]"
    ) -> [UInt8] {
        var pdf = RawPDF()
        pdf.object(1, "<< /Type /Catalog /Pages 2 0 R >>")
        pdf.object(2, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
        pdf.object(
            3, "<< /Type /Page /Parent 2 0 R \(pageExtra) /Contents 4 0 R /Resources << /Font << \(fonts) >> >> >>")
        pdf.stream(4, dictionary: "", data: Array(content.utf8))
        var number = 5
        for body in objects {
            if let stream = streams[number] {
                pdf.stream(number, dictionary: body, data: Array(stream.utf8))
            } else {
                pdf.object(number, body)
            }
            number += 1
        }
        pdf.xrefTable(size: number, trailer: "<< /Size \(number) /Root 1 0 R >>")
        return pdf.bytes
    }

    static let helvetica = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"

    static func ours(_ bytes: [UInt8], options: TextOptions = TextOptions()) throws -> PageText {
        TextExtractor(document: try PDFDocument(bytes: bytes), options: options).text(pageAt: 0)
    }

    static func write(_ bytes: [UInt8]) throws -> String {
        let path = try TestPaths.temporaryDirectory("textx") + "/page.pdf"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// `pdftotext -enc UTF-8` of the page (non-layout mode).
    static func pdftotext(_ bytes: [UInt8]) throws -> String {
        try Oracle.run("pdftotext", ["-enc", "UTF-8", try write(bytes), "-"]).output
    }

    /// `pdftotext -bbox` words of the page.
    static func pdftotextBoxes(_ bytes: [UInt8]) throws -> [(text: String, box: PDFRectangle)] {
        pdftotextBoxes_(try Oracle.run("pdftotext", ["-bbox", "-enc", "UTF-8", try write(bytes), "-"]).output)
    }

    private static func pdftotextBoxes_(_ html: String) -> [(text: String, box: PDFRectangle)] {
        PDFGraphicsTests.pdftotextBoxes(html).first ?? []
    }

    /// A ToUnicode CMap with the given `bfchar` and `bfrange` lines.
    static func toUnicode(codespace: String = "<00> <FF>", _ lines: String) -> String {
        """
        /CIDInit /ProcSet findresource begin 12 dict begin begincmap
        /CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def
        /CMapName /Test-UCS def /CMapType 2 def
        1 begincodespacerange \(codespace) endcodespacerange
        \(lines)
        endcmap CMapName currentdict /CMap defineresource pop end end
        """
    }
}

@Suite("Text extraction")
struct TextExtractionTests {
    /// Our words and pdftotext's, compared as sequences after NFKC.
    func expectSameWords(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let ours = comparableWords(try TextFixture.ours(bytes).plainText(joiningHyphenatedLines: true))
        let theirs = comparableWords(try TextFixture.pdftotext(bytes))
        #expect(!theirs.isEmpty, sourceLocation: sourceLocation)
        #expect(ours == theirs, sourceLocation: sourceLocation)
    }

    @Test(
        "WinAnsi, MacRoman and Standard encodings give pdftotext's text",
        arguments: [
            ("WinAnsiEncoding", #"(\223Quoted\224 \200 caf\351 na\357ve \226 \205) Tj"#),
            ("MacRomanEncoding", #"(\322Quoted\323 \333 caf\216 na\225ve \320 \311) Tj"#),
            ("StandardEncoding", #"(\252Quoted\272 \256nd \257ow \247 it\047s) Tj"#),
        ])
    func simpleEncodings(encoding: String, show: String) throws {
        let font = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /\(encoding) >>"
        try expectSameWords(TextFixture.page("BT /F1 12 Tf 72 700 Td \(show) ET", objects: [font]))
    }

    @Test("/Differences with Adobe Glyph List and uniXXXX names give pdftotext's text")
    func differences() throws {
        let font = """
            << /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding << /Type /Encoding \
            /BaseEncoding /WinAnsiEncoding /Differences [65 /Aring /uni0416 /afii10017 /Euro /uni00E9 /germandbls] >> >>
            """
        try expectSameWords(TextFixture.page("BT /F1 12 Tf 72 700 Td (ABCDEF xyz) Tj ET", objects: [font]))
    }

    @Test("/ToUnicode bfchar, bfrange and the array form of bfrange give pdftotext's text")
    func toUnicode() throws {
        let cmap = TextFixture.toUnicode(
            """
            2 beginbfchar <41> <0416> <47> <D83DDE00> endbfchar
            2 beginbfrange <42> <44> <03B1> <45> <46> [<0066006C> <2603>] endbfrange
            """)
        let font = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /ToUnicode 6 0 R >>"
        let bytes = TextFixture.page(
            "BT /F1 12 Tf 72 700 Td (ABCDEFG) Tj 0 -20 Td (A B C) Tj ET", objects: [font, ""], streams: [6: cmap])
        try expectSameWords(bytes)
        #expect(try TextFixture.ours(bytes).words.first?.text == "Жαβγfl☃😀")
    }

    static let cidFont: [String] = [
        "<< /Type /Font /Subtype /Type0 /BaseFont /Test /Encoding /Identity-H /DescendantFonts [6 0 R] /ToUnicode 7 0 R >>",
        """
        << /Type /Font /Subtype /CIDFontType2 /BaseFont /Test /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) \
        /Supplement 0 >> /DW 1000 /FontDescriptor 8 0 R >>
        """,
        "",
        "<< /Type /FontDescriptor /FontName /Test /Flags 4 /FontBBox [0 -200 1000 800] /ItalicAngle 0 /Ascent 800 /Descent -200 /CapHeight 700 /StemV 80 >>",
    ]
    static let cidCMap = TextFixture.toUnicode(
        codespace: "<0000> <FFFF>", "1 beginbfrange <0001> <0003> [<65E5> <672C> <8A9E>] endbfrange")

    @Test("a CID font with Identity-H and a ToUnicode CMap gives pdftotext's text")
    func cidFont() throws {
        let bytes = TextFixture.page(
            "BT /F1 20 Tf 72 700 Td <000100020003> Tj ET", objects: Self.cidFont, streams: [7: Self.cidCMap])
        try expectSameWords(bytes)
        #expect(try TextFixture.ours(bytes).plainText == "日本語")
    }

    @Test("vertical text (Identity-V) reads top to bottom, its quads going down the page")
    func verticalText() throws {
        var objects = Self.cidFont
        objects[0] = objects[0].replacingOccurrences(of: "Identity-H", with: "Identity-V")
        let bytes = TextFixture.page(
            "BT /F1 20 Tf 300 700 Td <000100020003> Tj ET", objects: objects, streams: [7: Self.cidCMap])
        let text = try TextFixture.ours(bytes)
        // The CMap above maps 1, 2, 3 to 日, 本, 語; they are drawn downwards from y = 700.
        #expect(text.plainText == "日本語")
        let tops = text.glyphs.map { $0.quad.bounds.y1 }
        #expect(tops == tops.sorted(by: >) && tops.count == 3, "\(tops)")
        #expect(abs(tops[0] - tops[1] - 20) < 0.01)
        let quad = try #require(text.glyphs.first?.quad)
        #expect(quad.lowerRight.y < quad.lowerLeft.y, "the baseline direction of vertical text is down")
    }

    @Test("ligatures are decomposed on request; pdftotext's text is the same after NFKC")
    func ligatures() throws {
        let cmap = TextFixture.toUnicode(
            "2 beginbfchar <01> <FB01> <02> <FB04> endbfchar 1 beginbfrange <61> <7A> <0061> endbfrange")
        let font = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /ToUnicode 6 0 R >>"
        let bytes = TextFixture.page(
            "BT /F1 12 Tf 72 700 Td (\\001nd a \\002e) Tj ET", objects: [font, ""], streams: [6: cmap])
        try expectSameWords(bytes)
        #expect(try TextFixture.ours(bytes).plainText == "\u{FB01}nd a \u{FB04}e")
        var options = TextOptions()
        options.decomposeLigatures = true
        let decomposed = try TextFixture.ours(bytes, options: options)
        #expect(decomposed.plainText == "find a ffle")
        #expect(decomposed.glyphs.count == 6, "a ligature stays one glyph")
    }

    @Test("TJ adjustments wider than 0.1 em become spaces, narrower ones do not (as in pdftotext)")
    func adjustmentsMakeSpaces() throws {
        let bytes = TextFixture.page(
            "BT /F1 12 Tf 72 700 Td [(Hello)-300(World)-50(Again)200(Tight)-1500(Far)] TJ ET")
        try expectSameWords(bytes)
        #expect(try TextFixture.ours(bytes).words.map(\.text) == ["Hello", "WorldAgainTight", "Far"])
    }

    @Test("invisible text (3 Tr) is extracted and marked hidden, or left out on request")
    func hiddenText() throws {
        let bytes = TextFixture.page("BT /F1 12 Tf 72 700 Td 3 Tr (Secret words) Tj 0 Tr 0 -20 Td (Shown) Tj ET")
        try expectSameWords(bytes)
        let text = try TextFixture.ours(bytes)
        #expect(text.words.map(\.isHidden) == [true, true, false])
        #expect(text.glyphs.filter(\.isHidden).count == 11)
        var options = TextOptions()
        options.includeHidden = false
        #expect(try TextFixture.ours(bytes, options: options).plainText == "Shown")
    }

    @Test("text that Type 3 glyph procedures show is not text of the page (as in pdftotext)")
    func typeThreeProcedures() throws {
        let type3 = """
            << /Type /Font /Subtype /Type3 /FontBBox [0 0 1000 1000] /FontMatrix [0.001 0 0 0.001 0 0] \
            /FirstChar 97 /LastChar 98 /Widths [1000 1000] /Encoding << /Differences [97 /a /b] >> \
            /CharProcs << /a 7 0 R /b 7 0 R >> /Resources << /Font << /F1 5 0 R >> >> >>
            """
        let procedure = "1000 0 d0 0 0 500 500 re f BT /F1 300 Tf 0 600 Td (zz) Tj ET"
        let bytes = TextFixture.page(
            "BT /T3 12 Tf 72 700 Td (abba) Tj /F1 12 Tf 52 0 Td (Hello) Tj ET", fonts: "/F1 5 0 R /T3 6 0 R",
            objects: [TextFixture.helvetica, type3, ""], streams: [7: procedure])
        try expectSameWords(bytes)
        #expect(try TextFixture.ours(bytes).plainText == "abba Hello")
    }

    @Test("pages extracted concurrently from one extractor equal those extracted one by one")
    func concurrentPages() async throws {
        var builder = PDFBuilder()
        for page in 1...8 {
            builder.addPage(content: Array("BT /F1 12 Tf 72 700 Td (Page \(page) says hello) Tj ET".utf8))
        }
        let extractor = TextExtractor(document: try PDFDocument(bytes: builder.build()))
        let sequential = (0..<8).map { extractor.text(pageAt: $0).plainText }
        let concurrent = await withTaskGroup(of: (Int, String).self) { group in
            for index in 0..<8 { group.addTask { (index, extractor.text(pageAt: index).plainText) } }
            var texts = Array(repeating: "", count: 8)
            for await (index, text) in group { texts[index] = text }
            return texts
        }
        #expect(concurrent == sequential)
        #expect(sequential[2] == "Page 3 says hello")
        #expect(extractor.text(pageAt: 8).warnings.first?.contains("does not exist") == true)
    }

    @Test("a line ending with a hyphen is marked, and joined to the next one when asked (as pdftotext does)")
    func hyphenation() throws {
        let bytes = TextFixture.page("BT /F1 12 Tf 14 TL 72 700 Td (A long exam-) Tj T* (ple of text) Tj ET")
        try expectSameWords(bytes)
        let text = try TextFixture.ours(bytes)
        #expect(text.blocks.flatMap(\.lines).map(\.endsWithHyphen) == [true, false])
        #expect(text.plainText == "A long exam-\nple of text")
    }
}
