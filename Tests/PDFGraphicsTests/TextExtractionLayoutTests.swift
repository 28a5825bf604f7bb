import Foundation
import PDFCore
import PDFTestSupport
import Testing

@testable import PDFGraphics

@Suite("Text extraction: positions and reading order")
struct TextExtractionLayoutTests {
    /// Every word of ours has a pdftotext -bbox word with the same text at IoU ≥ 0.5 (in
    /// pdftotext's page coordinates).
    func expectQuadsMatch(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let document = try PDFDocument(bytes: bytes)
        let page = document.pages[0]
        let ours = TextExtractor(document: document).text(pageAt: 0).words
        let theirs = try TextFixture.pdftotextBoxes(bytes)
        #expect(!ours.isEmpty && ours.count == theirs.count, "\(ours.map(\.text)) vs \(theirs.map(\.text))")
        for word in ours {
            let points = word.quads.flatMap(\.points).map { displayPoint($0, page: page) }
            let box = PDFRectangle(
                x0: points.map(\.x).min()!, y0: points.map(\.y).min()!, x1: points.map(\.x).max()!,
                y1: points.map(\.y).max()!)
            let best = theirs.filter { $0.text == word.text }.map { intersectionOverUnion($0.box, box) }.max() ?? 0
            #expect(best >= 0.5, "\(word.text): \(box) IoU \(best)", sourceLocation: sourceLocation)
        }
    }

    @Test("word quads overlap pdftotext -bbox word boxes")
    func quadsAgree() throws {
        let bytes = TextFixture.page(
            "BT /F1 12 Tf 72 700 Td (Quads of words) Tj 0 -30 Td /F1 24 Tf (Bigger text) Tj 200 0 Td 2 Ts (Risen) Tj ET"
        )
        try expectQuadsMatch(bytes)
        let word = try #require(try TextFixture.ours(bytes).words.first)
        // Helvetica's AFM: Q 778, u 556, a 556, d 556, s 500 (/1000 em), ascender 718, descender -207.
        let width = (778 + 556 + 556 + 556 + 500) / 1000 * 12.0
        #expect(abs(word.quads[0].lowerRight.x - word.quads[0].lowerLeft.x - width) < 0.01)
    }

    @Test("letter-spaced glyphs make one word; dots far apart (a leader) stay apart, as in pdftotext")
    func spacedGlyphs() throws {
        // Each glyph shown on its own: "SPACED" 0.3 em apart, then five dots 1.5 em apart.
        var content = "BT /F1 10 Tf "
        for (index, letter) in "SPACED".enumerated() { content += "1 0 0 1 \(72 + index * 10) 700 Tm (\(letter)) Tj " }
        for index in 0..<5 { content += "1 0 0 1 \(72 + index * 18) 660 Tm (.) Tj " }
        let bytes = TextFixture.page(content + "ET")
        #expect(try TextFixture.ours(bytes).words.map(\.text) == ["SPACED", ".", ".", ".", ".", "."])
        try expectQuadsMatch(bytes)
    }

    @Test("on a page with /Rotate 90, text and quads agree with pdftotext")
    func rotatedPage() throws {
        // Text that reads upright once the page is turned: drawn upwards in user space.
        let bytes = TextFixture.page(
            "BT /F1 12 Tf 0 1 -1 0 100 100 Tm (First line of text) Tj 0 -14 Td (Second line) Tj ET",
            pageExtra: "/MediaBox [0 0 612 792] /Rotate 90")
        let text = try TextFixture.ours(bytes)
        #expect(text.plainText == "First line of text\nSecond line")
        #expect(comparableWords(text.plainText) == comparableWords(try TextFixture.pdftotext(bytes)))
        try expectQuadsMatch(bytes)
        let quad = try #require(text.words.first?.quads.first)
        #expect(abs(quad.lowerRight.x - quad.lowerLeft.x) < 1e-9 && quad.lowerRight.y > quad.lowerLeft.y)
    }

    @Test("rotated text matrices: lines follow their own baseline; 90° text agrees with pdftotext")
    func rotatedTextMatrix() throws {
        let bytes = TextFixture.page(
            """
            BT /F1 12 Tf 0 1 -1 0 300 100 Tm (Going up the page) Tj ET
            BT /F1 12 Tf 0.7071 0.7071 -0.7071 0.7071 100 400 Tm (Slanted words here) Tj 0 -14 Td (and below) Tj ET
            """)
        let text = try TextFixture.ours(bytes)
        let lines = text.blocks.flatMap(\.lines).map(\.text)
        #expect(Set(lines) == ["Going up the page", "Slanted words here", "and below"], "\(lines)")
        let slanted = try #require(text.blocks.first { $0.lines.first?.text == "Slanted words here" })
        #expect(slanted.lines.map(\.text) == ["Slanted words here", "and below"])
        // pdftotext handles multiples of 90° only (it cuts the 45° words into pieces).
        #expect(try TextFixture.pdftotext(bytes).contains("Going up the page"))
        let quad = try #require(slanted.lines.first?.quad)
        let direction = PDFPoint(quad.lowerRight.x - quad.lowerLeft.x, quad.lowerRight.y - quad.lowerLeft.y)
        #expect(abs(direction.x - direction.y) < 1e-6 && direction.x > 0, "\(direction)")
    }

    @Test("two columns read column by column, like pdftotext")
    func columns() throws {
        var content = "BT /F1 16 Tf 72 740 Td (A title over both columns) Tj ET BT /F1 10 Tf 12 TL 72 700 Td "
        for line in 1...6 { content += "(Left column line \(line) with words) ' " }
        content += "ET BT /F1 10 Tf 12 TL 320 700 Td "
        for line in 1...6 { content += "(Right column line \(line) here) ' " }
        content += "ET"
        let bytes = TextFixture.page(content)
        let text = try TextFixture.ours(bytes)
        #expect(comparableWords(text.plainText) == comparableWords(try TextFixture.pdftotext(bytes)))
        #expect(text.blocks.count == 3)
        #expect(text.blocks.map { $0.lines.count } == [1, 6, 6])
    }

    @Test("Hebrew drawn right to left comes out in logical order, as pdftotext gives it")
    func rightToLeft() throws {
        // Codes 1…5 are ש ל ו ם ! (ToUnicode); each glyph is placed left of the one before.
        let cmap = TextFixture.toUnicode("1 beginbfrange <01> <05> [<05E9> <05DC> <05D5> <05DD> <0021>] endbfrange")
        let font =
            "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /ToUnicode 6 0 R /FirstChar 1 /LastChar 5 /Widths [600 600 600 600 600] >>"
        var content = "BT /F1 20 Tf "
        for (index, code) in [1, 2, 3, 4].enumerated() {
            content += "1 0 0 1 \(300 - 12 * index) 700 Tm <0\(code)> Tj "
        }
        content += "ET"
        let bytes = TextFixture.page(content, objects: [font, ""], streams: [6: cmap])
        let text = try TextFixture.ours(bytes)
        #expect(text.plainText == "שלום")
        #expect(comparableWords(text.plainText) == comparableWords(try TextFixture.pdftotext(bytes)))
    }

    @Test("a page of 300 000 glyphs is grouped without quadratic work")
    func manyGlyphs() throws {
        var content = "BT /F1 2 Tf 2.4 TL 10 780 Td "
        let line = "(" + String(repeating: "word ", count: 60) + ") '"
        for _ in 0..<1000 { content += line + " " }
        content += "ET"
        // 1000 lines of 300 glyphs (spaces included).
        let bytes = TextFixture.page(content)
        let document = try PDFDocument(bytes: bytes)
        let list = GraphicsDocument(document: document, options: GraphicsOptions()).displayList(pageAt: 0)
        let glyphs = TextExtractor.glyphs(of: list, crop: nil, options: TextOptions())
        #expect(glyphs.count == 300_000)
        let started = Date()
        var analysis = TextAnalysis(glyphs: glyphs)
        let blocks = analysis.run()
        let seconds = Date().timeIntervalSince(started)
        #expect(blocks.flatMap(\.lines).reduce(0) { $0 + $1.words.count } == 60_000)
        // A guard against quadratic grouping (hours at this size), not a speed target.
        #expect(seconds < 120, "grouping took \(seconds) s")
        print("grouping 300 000 glyphs took \(String(format: "%.2f", seconds)) s")
    }

    @Test("layout text keeps columns apart on their rows")
    func layoutText() throws {
        let bytes = TextFixture.page(
            "BT /F1 10 Tf 72 700 Td (Name) Tj 200 0 Td (Value) Tj -200 -14 Td (Alpha) Tj 200 0 Td (1.5) Tj ET")
        let text = try TextFixture.ours(bytes)
        let rows = text.layoutText().split(separator: "\n").map(String.init)
        #expect(rows.count == 2)
        #expect(rows[0].hasPrefix("Name") && rows[1].hasPrefix("Alpha"))
        let column = try #require(rows[0].range(of: "Value")).lowerBound.utf16Offset(in: rows[0])
        #expect(try #require(rows[1].range(of: "1.5")).lowerBound.utf16Offset(in: rows[1]) == column)
        #expect(column > 20)
    }
}
