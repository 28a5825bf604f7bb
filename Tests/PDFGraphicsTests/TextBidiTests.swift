import Foundation
import PDFCore
import PDFTestSupport
import Testing

@testable import PDFGraphics

/// Reading order by Unicode bidirectional class: every script whose letters are R or AL reads
/// right to left, digits keep their order, and combining marks stay on the letter they are drawn
/// over whichever side of it the producer wrote them.
@Suite("Text direction by bidirectional class, and marks on their letters")
struct TextBidiTests {
    /// A page drawing `scalars` (given in logical order) right to left, one glyph per position from
    /// x = 400 leftwards, in drawing order `order` (indices into `scalars`); marks take no room.
    static func page(_ scalars: [UInt32], order: [Int]? = nil, markOffset: Double = 3) -> [UInt8] {
        func utf16(_ value: UInt32) -> String {
            guard value >= 0x10000 else { return String(format: "%04X", value) }
            let v = value - 0x10000
            return String(format: "%04X%04X", 0xD800 + (v >> 10), 0xDC00 + (v & 0x3FF))
        }
        let codes = Array(Set(scalars)).sorted()
        let code = Dictionary(uniqueKeysWithValues: codes.enumerated().map { ($1, $0 + 1) })
        let lines = codes.map { String(format: "<%02X> <", code[$0]!) + utf16($0) + ">" }.joined(separator: " ")
        let cmap = TextFixture.toUnicode("\(codes.count) beginbfchar \(lines) endbfchar")
        func isMark(_ value: UInt32) -> Bool { Bidi.isMark(Unicode.Scalar(value)!) }
        let widths = codes.map { isMark($0) ? "0" : "500" }.joined(separator: " ")
        let font =
            "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /ToUnicode 6 0 R /FirstChar 1 /LastChar \(codes.count) /Widths [\(widths)] >>"
        // Positions in logical order: each letter 10 pt left of the one before; a mark over its letter.
        var x = 400.0
        var positions: [Double] = []
        for scalar in scalars {
            if isMark(scalar) {
                positions.append((positions.last ?? x) + markOffset)
            } else {
                x -= 10
                positions.append(x)
            }
        }
        var content = "BT /F1 20 Tf "
        for index in order ?? Array(scalars.indices.reversed()) {
            content += String(format: "1 0 0 1 %.1f 700 Tm <%02X> Tj ", positions[index], code[scalars[index]]!)
        }
        content += "ET"
        return TextFixture.page(content, objects: [font, ""], streams: [6: cmap])
    }

    static func text(_ bytes: [UInt8]) throws -> String { try TextFixture.ours(bytes).plainText }

    @Test(
        "Syriac, Thaana, N'Ko, Samaritan, Old Hungarian and Adlam drawn right to left read in logical order",
        arguments: [
            [0x0710, 0x0712, 0x0713, 0x0715], [0x0780, 0x0781, 0x0782, 0x0783], [0x07CA, 0x07CB, 0x07CC, 0x07CD],
            [0x0800, 0x0801, 0x0802, 0x0803], [0x10C80, 0x10C81, 0x10C82, 0x10C83],
            [0x1E922, 0x1E923, 0x1E924, 0x1E925],
        ] as [[UInt32]])
    func rightToLeftScripts(_ scalars: [UInt32]) throws {
        let bytes = Self.page(scalars)
        let expected = String(String.UnicodeScalarView(scalars.compactMap(Unicode.Scalar.init)))
        #expect(try Self.text(bytes) == expected)
        // pdftotext reorders Syriac and Thaana as well; N'Ko and the others it leaves as drawn.
        if scalars[0] < 0x07C0 {
            #expect(comparableWords(try Self.text(bytes)) == comparableWords(try TextFixture.pdftotext(bytes)))
        }
    }

    @Test("the class decides, not the block: Arabic-Indic digits (AN) keep the order they are drawn in")
    func digitsKeepTheirOrder() throws {
        // ١٢٣ drawn left to right, as a number is: ٣ rightmost.
        let bytes = Self.page([0x0663, 0x0662, 0x0661])
        #expect(try Self.text(bytes) == "\u{0661}\u{0662}\u{0663}")
        #expect(comparableWords(try Self.text(bytes)) == comparableWords(try TextFixture.pdftotext(bytes)))
        #expect(Bidi.direction(["\u{0661}\u{0662}"]) == 0)
        #expect(Bidi.isRightToLeft("\u{07CA}") && Bidi.isRightToLeft("\u{10C80}") && Bidi.isRightToLeft("\u{1E922}"))
        #expect(Bidi.isRightToLeft("\u{FB1D}") && !Bidi.isRightToLeft("\u{0300}") && !Bidi.isRightToLeft("A"))
    }

    @Test("Arabic marks stay on their letters whether written after their base (HarfBuzz) or before it")
    func marksOnTheirLetters() throws {
        // بَّتثِ: beh with shadda and fatha, teh, theh with kasra (logical order).
        let logical: [UInt32] = [0x0628, 0x0651, 0x064E, 0x062A, 0x062B, 0x0650]
        let expected = "\u{0628}\u{0651}\u{064E}\u{062A}\u{062B}\u{0650}"
        // Visual order with each mark after its base, as HarfBuzz emits glyphs.
        let afterBase = Self.page(logical, order: [4, 5, 3, 0, 1, 2])
        #expect(try Self.text(afterBase) == expected)
        // The whole run reversed: each mark before its base.
        let beforeBase = Self.page(logical, order: [5, 4, 3, 2, 1, 0])
        #expect(
            try Self.text(beforeBase).precomposedStringWithCanonicalMapping
                == expected.precomposedStringWithCanonicalMapping)
        // A mark is no letter: three letters and three marks still read right to left.
        #expect(Bidi.direction([expected]) == -3)
    }

    /// The words of the fixture's HTML source, paragraph after paragraph: what a reader reads.
    static func sourceWords(_ html: String) -> [String] {
        var words: [String] = []
        var rest = Substring(html)
        while let open = rest.range(of: "<p"), let start = rest[open.upperBound...].firstIndex(of: ">"),
            let close = rest[start...].range(of: "</p>")
        {
            words += comparableWords(String(rest[rest.index(after: start)..<close.lowerBound]))
            rest = rest[close.upperBound...]
        }
        return words
    }

    @Test("text shaped by HarfBuzz (Chromium's PDF) reads as written, marks on their letters, right column first")
    func shapedByHarfBuzz() throws {
        let path = TestPaths.fixture("pdf", "shaped-rtl.pdf")
        let expected = Self.sourceWords(
            try String(contentsOfFile: TestPaths.fixture("pdf", "shaped-rtl.html"), encoding: .utf8))
        let document = try PDFDocument(contentsOfFile: path)
        let ours = comparableWords(TextExtractor(document: document).text(pageAt: 0).plainText)
        #expect(expected.count == 25)
        #expect(ours == expected)
        // The references misplace the marks (pdftotext) or keep the drawing order and the
        // presentation forms (MuPDF): ours agrees with the source at least as well as either.
        let poppler = comparableWords(try Oracle.run("pdftotext", ["-enc", "UTF-8", path, "-"]).output)
        let mupdf = comparableWords(try Oracle.run("mutool", ["draw", "-q", "-F", "txt", "-o", "-", path]).output)
        let scores = (wordF1(ours, expected).f1, wordF1(poppler, expected).f1, wordF1(mupdf, expected).f1)
        print("word F1 against the source: ours \(scores.0), pdftotext \(scores.1), MuPDF \(scores.2)")
        #expect(scores.0 >= scores.1 && scores.0 >= scores.2)
    }
}
