import Foundation
import PDFCore
import PDFFonts
import PDFTestSupport
import Testing

@testable import PDFGraphics

/// `/ActualText` (ISO 32000-2 §14.9.4): the text of marked content replaces what its glyphs say.
@Suite("ActualText")
struct ActualTextTests {
    @Test("a span's text replaces its glyphs' text, over their extent, as pdftotext reads it")
    func replacesText() throws {
        // "O f - c e" is drawn with the hyphen standing for "fi" (as a ligature glyph would), then
        // seven X standing for a word.
        let bytes = TextFixture.page(
            """
            BT /F1 12 Tf 72 700 Td (Of) Tj /Span << /ActualText (fi) >> BDC (\\255) Tj EMC (ce) Tj \
            ( ) Tj /Span << /ActualText (hello) >> BDC (XXXXXXX) Tj EMC ET
            """)
        let page = try TextFixture.ours(bytes)
        #expect(page.words.map(\.text) == ["Office", "hello"])
        // The replacement lies where the seven X were drawn.
        let hello = try #require(page.words.last?.quads.first)
        let helvetica = StandardFont(.helvetica)
        let x0 = 72 + [0x4F, 0x66, 0xAD, 0x63, 0x65, 0x20].reduce(0.0) { $0 + helvetica.width(of: $1) } * 12 / 1000
        let x1 = x0 + 7 * helvetica.width(of: 0x58) * 12 / 1000
        #expect(abs(hello.lowerLeft.x - x0) < 0.5 && abs(hello.lowerRight.x - x1) < 0.5)
        if Requirement.check(
            Requirement.tool("pdftotext"), orWarn: "pdftotext is not installed; poppler's text not compared")
        {
            #expect(comparableWords(try TextFixture.pdftotext(bytes)) == ["Office", "hello"])
        }
    }

    @Test("an empty ActualText removes the text; nested spans give the outer one's text")
    func emptyAndNested() throws {
        let bytes = TextFixture.page(
            """
            BT /F1 12 Tf 72 700 Td (today) Tj /Span << /ActualText () >> BDC (-) Tj EMC \
            0 -20 Td /Span << /ActualText (outer) >> BDC (a) Tj /Span << /ActualText (inner) >> BDC (b) Tj EMC \
            (c) Tj EMC ET
            """)
        #expect(try TextFixture.ours(bytes).words.map(\.text) == ["today", "outer"])
    }

    @Test("right-to-left ActualText reads in its logical order; a marked content dictionary in /Properties counts")
    func rightToLeft() throws {
        // שלום (UTF-16BE) replacing four placeholder glyphs, through a named property list.
        let bytes = TextFixture.page(
            "BT /F1 12 Tf 72 700 Td /Span /P1 BDC (XXXX) Tj EMC ET",
            fonts: "/F1 5 0 R >> /Properties << /P1 6 0 R",
            objects: [TextFixture.helvetica, "<< /ActualText <FEFF05E905DC05D505DD> >>"])
        let page = try TextFixture.ours(bytes)
        #expect(page.plainText == "שלום")
        #expect(page.words.count == 1)
    }
}

extension ActualTextTests {
    /// pyHanko's arabic-box.pdf draws a vowelled Arabic word with HarfBuzz's output: letters right
    /// to left, each mark at an origin apart from its letter, and an `/ActualText` with the word.
    /// Read from the glyphs alone, the word must be the producer's own `/ActualText` (after NFKC:
    /// the glyphs map to presentation forms).
    @Test(
        "marks read from the glyphs of a shaped Arabic word sit after their letters, as its /ActualText says",
        .enabled(if: Requirement.corpus, "the corpus is absent"))
    func marksFollowTheirLetters() throws {
        let root = try #require(TestPaths.corpus)
        let document = try PDFDocument(contentsOfFile: root + "/pyhanko/layout-tests/arabic-box.pdf")
        var glyphsOnly = TextOptions()
        glyphsOnly.usesActualText = false
        let fromGlyphs = TextExtractor(document: document, options: glyphsOnly).text(pageAt: 0).plainText
        let actual = TextExtractor(document: document).text(pageAt: 0).plainText
        #expect(
            actual == "\u{0627}\u{064E}\u{0644}\u{0652}\u{0641}\u{064F}\u{0635}\u{0652}\u{062D}\u{064E}\u{0649}\u{0670}"
        )
        #expect(comparableWords(fromGlyphs) == comparableWords(actual))
    }
}
