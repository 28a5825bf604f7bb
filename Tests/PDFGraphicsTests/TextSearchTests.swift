import Foundation
import PDFAuthoring
import PDFCore
import PDFTestSupport
import Synchronization
import Testing

@testable import PDFGraphics

/// Counts the pages a search extracted.
final class PageCounter: Sendable {
    private let pages = Mutex<[Int]>([])
    func record(_ page: Int) { pages.withLock { $0.append(page) } }
    var extracted: [Int] { pages.withLock { $0 } }
}

@Suite("Text search")
struct TextSearchTests {
    /// Helvetica's advance widths (its AFM, /1000 em) for the letters used here, to place hits
    /// independently of the extractor.
    static let helveticaWidths: [Character: Double] = [
        " ": 278, "-": 333, "A": 667, "F": 611, "H": 722, "W": 944, "a": 556, "b": 556, "c": 500, "d": 556, "e": 556,
        "f": 278, "g": 556, "h": 556, "i": 222, "j": 222, "k": 500, "l": 222, "m": 833, "n": 556, "o": 556, "p": 556,
        "q": 556, "r": 333, "s": 500, "t": 278, "u": 556, "v": 500, "w": 722, "x": 500, "y": 500, "z": 500,
    ]

    static func width(_ text: String, size: Double = 12) -> Double {
        text.reduce(0) { $0 + helveticaWidths[$1]! } / 1000 * size
    }

    static func search(_ bytes: [UInt8], options: TextOptions = TextOptions()) throws -> TextSearch {
        TextSearch(document: try PDFDocument(bytes: bytes), options: options)
    }

    @Test("case and diacritics are ignored by default, and matter when asked")
    func folding() throws {
        // WinAnsi \351 is é.
        let search = try Self.search(TextFixture.page("BT /F1 12 Tf 72 700 Td (R\\351sum\\351 and RESUME) Tj ET"))
        #expect(search.results(onPage: 0, for: "resume").map(\.text) == ["Résumé", "RESUME"])
        #expect(search.results(onPage: 0, for: "RÉSUMÉ").count == 2)
        #expect(
            search.results(onPage: 0, for: "resume", options: .init(diacriticSensitive: true)).map(\.text) == ["RESUME"]
        )
        #expect(
            search.results(onPage: 0, for: "résumé", options: .init(diacriticSensitive: true)).map(\.text) == ["Résumé"]
        )
        #expect(search.results(onPage: 0, for: "resume", options: .init(caseSensitive: true)).isEmpty)
        #expect(search.results(onPage: 0, for: "Résumé", options: .init(caseSensitive: true)).map(\.text) == ["Résumé"])
        // A combining acute after a plain e is the same text as the precomposed é.
        #expect(
            search.results(onPage: 0, for: "Re\u{301}sume\u{301}", options: .init(diacriticSensitive: true)).count == 1)
        // With diacritics kept, "resum" must not take the e of é away from its accent.
        #expect(search.results(onPage: 0, for: "re", options: .init(diacriticSensitive: true)).map(\.text) == ["RE"])
    }

    @Test("whole words: hits inside longer words are left out")
    func wholeWord() throws {
        let search = try Self.search(TextFixture.page("BT /F1 12 Tf 72 700 Td (cat concatenate cat. cats 2cat) Tj ET"))
        #expect(search.results(onPage: 0, for: "cat").count == 5)
        let whole = search.results(onPage: 0, for: "cat", options: .init(wholeWord: true))
        #expect(whole.map(\.text) == ["cat", "cat"])
        #expect(whole.map(\.context).allSatisfy { $0 == "cat concatenate cat. cats 2cat" })
    }

    @Test("a query with a space finds words across a line break; one quad per line")
    func acrossLines() throws {
        let bytes = TextFixture.page("BT /F1 12 Tf 14 TL 72 700 Td (Hello big) Tj T* (world here) Tj ET")
        let search = try Self.search(bytes)
        let hits = search.results(onPage: 0, for: "big   world")
        #expect(hits.count == 1)
        let hit = try #require(hits.first)
        #expect(hit.text == "big\nworld")
        #expect(hit.context == "Hello big world here")
        #expect(hit.quads.count == 2)
        // "big" starts after "Hello " on the first line; "world" starts the second line, 14 below.
        let first = hit.quads[0]
        #expect(abs(first.lowerLeft.x - 72 - Self.width("Hello ")) < 0.01, "\(first)")
        #expect(abs(hit.quads[1].lowerLeft.x - 72) < 0.01 && first.lowerLeft.y - hit.quads[1].lowerLeft.y > 13.9)
        #expect(search.results(onPage: 0, for: "bigworld").isEmpty)
    }

    @Test("a hyphen at a line end is skipped (or matched by a hyphen in the query)")
    func hyphenAtLineEnd() throws {
        let bytes = TextFixture.page("BT /F1 12 Tf 14 TL 72 700 Td (A long signa-) Tj T* (ture of text) Tj ET")
        let search = try Self.search(bytes)
        let hit = try #require(search.results(onPage: 0, for: "signature").first)
        #expect(hit.text == "signa-\nture")
        #expect(hit.context == "A long signa-ture of text")
        #expect(hit.quads.count == 2)
        // The first quad ends after the hyphen, the second covers "ture" from the line start.
        let hyphenEnd = 72 + Self.width("A long signa") + 333 / 1000 * 12
        #expect(abs(hit.quads[0].lowerRight.x - hyphenEnd) < 0.01, "\(hit.quads[0])")
        #expect(abs(hit.quads[1].lowerRight.x - 72 - Self.width("ture")) < 0.01, "\(hit.quads[1])")
        #expect(search.results(onPage: 0, for: "signa-ture").count == 1)
        #expect(search.results(onPage: 0, for: "long signature of").count == 1)
        #expect(search.results(onPage: 0, for: "signa", options: .init(wholeWord: true)).isEmpty)
        #expect(search.results(onPage: 0, for: "signature", options: .init(wholeWord: true)).count == 1)
    }

    @Test("a ligature glyph matches its letters; a hit that begins inside it covers the whole glyph")
    func ligature() throws {
        let cmap = TextFixture.toUnicode(
            "2 beginbfchar <01> <FB01> <02> <FB04> endbfchar 1 beginbfrange <61> <7A> <0061> endbfrange")
        let font = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /ToUnicode 6 0 R >>"
        let bytes = TextFixture.page(
            "BT /F1 12 Tf 72 700 Td (\\001nd a \\002e) Tj ET", objects: [font, ""], streams: [6: cmap])
        let search = try Self.search(bytes)
        let page = search.extractor.text(pageAt: 0)
        let ligatureGlyph = try #require(page.glyphs.first { $0.text == "\u{FB01}" })
        let find = try #require(search.results(onPage: 0, for: "find").first)
        #expect(find.text == "\u{FB01}nd")
        let inside = try #require(search.results(onPage: 0, for: "ind").first)
        #expect(inside.text == "\u{FB01}nd")
        #expect(abs(inside.quads[0].lowerLeft.x - ligatureGlyph.quad.lowerLeft.x) < 1e-9)
        #expect(inside.quads == find.quads)
        #expect(search.results(onPage: 0, for: "ind", options: .init(wholeWord: true)).isEmpty)
        let ffle = search.results(onPage: 0, for: "fle")
        #expect(ffle.map(\.text) == ["\u{FB04}e"])
        #expect(search.results(onPage: 0, for: "f").count == 3, "ﬁ, and twice in ﬄ")
        // The same page extracted with ligatures decomposed gives the same hits.
        var options = TextOptions()
        options.decomposeLigatures = true
        #expect(try Self.search(bytes, options: options).results(onPage: 0, for: "find").map(\.text) == ["find"])
    }

    @Test("rotated text: the quads follow the baseline up the page")
    func rotatedText() throws {
        let bytes = TextFixture.page(
            "BT /F1 12 Tf 0 1 -1 0 100 100 Tm (First line of text) Tj ET",
            pageExtra: "/MediaBox [0 0 612 792] /Rotate 90")
        let hit = try #require(try Self.search(bytes).results(onPage: 0, for: "line").first)
        let quad = try #require(hit.quads.first)
        #expect(hit.quads.count == 1)
        #expect(abs(quad.lowerLeft.x - quad.lowerRight.x) < 1e-9 && abs(quad.upperLeft.x - quad.upperRight.x) < 1e-9)
        #expect(abs(quad.lowerLeft.y - 100 - Self.width("First ")) < 0.01, "\(quad)")
        #expect(abs(quad.lowerRight.y - quad.lowerLeft.y - Self.width("line")) < 0.01, "\(quad)")
        // Ascent is towards -x for text going up: the upper edge lies left of the baseline.
        #expect(quad.upperLeft.x < 100 && quad.lowerLeft.x > 100, "\(quad)")
    }

    @Test("several hits on a page come in reading order and lie on pdftotext's word boxes")
    func severalHits() throws {
        let bytes = TextFixture.page(
            "BT /F1 12 Tf 14 TL 72 700 Td (one two one three) Tj T* (four one) Tj ET BT /F1 12 Tf 72 400 Td (last one) Tj ET"
        )
        let hits = try Self.search(bytes).results(onPage: 0, for: "one")
        #expect(hits.count == 4)
        let starts = hits.map { $0.quads[0].lowerLeft }
        #expect(starts[0].x < starts[1].x && starts[0].y == starts[1].y)
        #expect(starts[1].y > starts[2].y && starts[2].y > starts[3].y)
        #expect(hits.allSatisfy { $0.pageIndex == 0 && $0.text == "one" })
        let boxes = try TextFixture.pdftotextBoxes(bytes).filter { $0.text == "one" }.map(\.box)
        #expect(boxes.count == 4)
        for (hit, box) in zip(hits, boxes) {
            let bounds = hit.quads[0].bounds
            // pdftotext's y grows downwards from the top of the 792 pt page.
            let ours = PDFRectangle(x0: bounds.x0, y0: 792 - bounds.y1, x1: bounds.x1, y1: 792 - bounds.y0)
            #expect(abs(ours.x0 - box.x0) < 0.05 && abs(ours.x1 - box.x1) < 0.05, "\(ours) \(box)")
            #expect(intersectionOverUnion(ours, box) > 0.7, "\(ours) \(box)")
        }
        #expect(try Self.search(bytes).results(onPage: 0, for: "one", options: .init(maxResults: 2)).count == 2)
    }

    @Test("hidden text (an OCR layer) is searched; left out when extraction leaves it out")
    func hiddenText() throws {
        let bytes = TextFixture.page("BT /F1 12 Tf 72 700 Td 3 Tr (Secret words) Tj 0 Tr 0 -20 Td (Shown) Tj ET")
        #expect(try Self.search(bytes).results(onPage: 0, for: "secret").count == 1)
        var options = TextOptions()
        options.includeHidden = false
        #expect(try Self.search(bytes, options: options).results(onPage: 0, for: "secret").isEmpty)
    }

    static func pages(_ count: Int) throws -> PDFDocument {
        var builder = PDFBuilder()
        for page in 1...count {
            builder.addPage(content: Array("BT /F1 12 Tf 72 700 Td (Page \(page) has a needle) Tj ET".utf8))
        }
        return try PDFDocument(bytes: builder.build())
    }

    @Test("the stream gives every page's hits in page order, reading pages only as hits are asked for")
    func streamInOrder() async throws {
        let counter = PageCounter()
        var search = TextSearch(document: try Self.pages(12))
        search.pageExtracted = { counter.record($0) }
        var pages: [Int] = []
        for await hit in search.results(for: "needle") { pages.append(hit.pageIndex) }
        #expect(pages == Array(0..<12))
        #expect(counter.extracted == Array(0..<12))
        var limited: [SearchResult] = []
        for await hit in search.results(for: "NEEDLE", options: .init(maxResults: 3)) { limited.append(hit) }
        #expect(limited.map(\.pageIndex) == [0, 1, 2])
        #expect(counter.extracted.count == 15, "the limit stops extraction")
    }

    @Test("stopping the iteration or cancelling its task stops extraction early")
    func cancellation() async throws {
        let document = try Self.pages(40)
        let counter = PageCounter()
        var search = TextSearch(document: document)
        search.pageExtracted = { counter.record($0) }
        for await hit in search.results(for: "needle") {
            #expect(hit.pageIndex == 0)
            break
        }
        #expect(counter.extracted == [0])

        let cancelled = PageCounter()
        search.pageExtracted = { cancelled.record($0) }
        let stream = search.results(for: "needle")
        let task = Task {
            var count = 0
            for await _ in stream {
                count += 1
                if count == 2 { withUnsafeCurrentTask { $0?.cancel() } }
            }
            return count
        }
        let count = await task.value
        #expect(count == 2)
        #expect(cancelled.extracted == [0, 1], "no page after the cancellation is read")
    }

    @Test("an empty or blank query gives no results and reads no page")
    func emptyQuery() async throws {
        let counter = PageCounter()
        var search = TextSearch(document: try Self.pages(3))
        search.pageExtracted = { counter.record($0) }
        for query in ["", "   ", "\n\t"] {
            var hits = 0
            for await _ in search.results(for: query) { hits += 1 }
            #expect(hits == 0)
            #expect(search.results(onPage: 0, for: query).isEmpty)
        }
        #expect(counter.extracted.isEmpty)
        #expect(search.results(onPage: 7, for: "needle").isEmpty)
    }
}
