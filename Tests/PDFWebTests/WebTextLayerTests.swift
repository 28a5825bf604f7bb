import AutographJSON
import Foundation
import PDFTestSupport
import Testing

@testable import PDFWeb

/// `GET /api/pages/N/text`: the words of a page for the viewer's text layer, judged against
/// poppler's `pdftotext -bbox`, and bounded like a tile.
@Suite(.enabled(if: Requirement.tool("pdftotext"), "pdftotext (poppler-utils) is not installed"))
struct WebTextLayerTests {
    /// poppler's words of page 1: text and box (x0, y0 from the top left, x1, y1), in points; and
    /// the page's height.
    static func popplerWords(_ path: String) throws -> (words: [(text: String, box: [Double])], height: Double) {
        let output = try Oracle.run("pdftotext", ["-bbox", "-f", "1", "-l", "1", path, "-"]).output
        let height = output.firstMatch(of: /<page width="[\d.]+" height="([\d.]+)"/).flatMap { Double($0.1) } ?? 0
        let pattern = /<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/
        let words = output.matches(of: pattern).map { match in
            let text = String(match.5).replacingOccurrences(of: "&amp;", with: "&")
                .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
                .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
            return (text, [Double(match.1)!, Double(match.2)!, Double(match.3)!, Double(match.4)!])
        }
        return (words, height)
    }

    @Test("the words of a page, in poppler's order, each quad over poppler's box; lines as the page has them")
    func wordsMatchPoppler() async throws {
        let path = TestPaths.fixture("pdf", "sample-table.pdf")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let server = try await TestServer(document: bytes)
        defer { Task { await server.stop() } }
        let reply = try await server.request("/api/pages/0/text")
        #expect(reply.status == 200)
        #expect(reply.json["page"]?.intValue == 0)
        #expect(reply.json["truncated"] == .bool(false))
        let lines = reply.json["lines"]?.arrayValue ?? []
        let words = lines.flatMap { $0["words"]?.arrayValue ?? [] }
        let (expected, height) = try Self.popplerWords(path)
        #expect(expected.count > 20)
        #expect(height > 0)
        #expect(words.map { $0["text"]?.stringValue ?? "" } == expected.map(\.text))
        #expect(lines.count > 2 && lines.count < words.count)
        var close = 0
        for (word, theirs) in zip(words, expected) {
            let quad = (word["quads"]?.arrayValue?.first?.arrayValue ?? []).compactMap(\.doubleValue)
            try #require(quad.count == 8)
            // Ours: PDF user space, y up; poppler's: y down from the page's top.
            let xs = stride(from: 0, to: 8, by: 2).map { quad[$0] }
            let ys = stride(from: 1, to: 8, by: 2).map { height - quad[$0] }
            let ours = [xs.min()!, ys.min()!, xs.max()!, ys.max()!]
            let overlapWidth = min(ours[2], theirs.box[2]) - max(ours[0], theirs.box[0])
            let overlapHeight = min(ours[3], theirs.box[3]) - max(ours[1], theirs.box[1])
            let area = { (b: [Double]) in (b[2] - b[0]) * (b[3] - b[1]) }
            let inter = max(0, overlapWidth) * max(0, overlapHeight)
            let iou = inter / (area(ours) + area(theirs.box) - inter)
            #expect(iou > 0.3, "\(word) against poppler's \(theirs)")
            if iou >= 0.6 { close += 1 }
        }
        #expect(Double(close) >= Double(expected.count) * 0.95, "\(close) of \(expected.count) close to poppler's")
    }

    @Test("an unknown page is 404, a page over the budget 503 pageTooComplex, as its tiles")
    func refusals() async throws {
        let server = try await TestServer(document: WebAttackFixtures.heavyPage(segments: 300_000)) {
            $0.maxDisplayItems = 1000
        }
        defer { Task { await server.stop() } }
        #expect(try await server.request("/api/pages/99/text").status == 404)
        #expect(try await server.request("/api/pages/-1/text").status == 404)
        #expect(try await server.request("POST", "/api/pages/0/text").status == 405)
        let heavy = try await server.request("/api/pages/0/text")
        #expect(heavy.status == 503)
        #expect(heavy.errorCode == "pageTooComplex")
        #expect(try await server.request("/api/pages/1/text").status == 200)
    }

    /// One page of Helvetica text in WinAnsiEncoding (bytes above 0x7F as cp1252).
    static func winAnsiPage(_ text: [UInt8]) -> [UInt8] {
        let content: [UInt8] = Array("BT /F1 18 Tf 72 760 Td (".utf8) + text + Array(") Tj ET".utf8)
        var out: [UInt8] = Array("%PDF-1.7\n".utf8)
        var offsets: [Int] = []
        func object(_ body: [UInt8]) {
            offsets.append(out.count)
            out += Array("\(offsets.count) 0 obj\n".utf8) + body + Array("\nendobj\n".utf8)
        }
        object(Array("<< /Type /Catalog /Pages 2 0 R >>".utf8))
        object(Array("<< /Type /Pages /Count 1 /Kids [3 0 R] >>".utf8))
        object(
            Array(
                ("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 "
                    + "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >> >> >> >>").utf8
            ))
        object(Array("<< /Length \(content.count) >>\nstream\n".utf8) + content + Array("\nendstream".utf8))
        let xref = out.count
        var table = "xref\n0 \(offsets.count + 1)\n0000000000 65535 f \n"
        for offset in offsets { table += String(format: "%010d 00000 n \n", offset) }
        table += "trailer\n<< /Size \(offsets.count + 1) /Root 1 0 R >>\nstartxref\n\(xref)\n%%EOF\n"
        return out + Array(table.utf8)
    }

    @Test("search: accents ignored unless diacriticSensitive, whole words when asked, as counted on poppler's text")
    func searchOptions() async throws {
        // "Résumé, resume; résumés and presume."
        let pdf = Self.winAnsiPage(
            [0x52, 0xE9] + Array("sum".utf8) + [0xE9] + Array(", resume; r".utf8) + [0xE9] + Array("sum".utf8) + [0xE9]
                + Array("s and presume.".utf8))
        let directory = try TestPaths.temporaryDirectory("search-options")
        let path = directory + "/resume.pdf"
        try Data(pdf).write(to: URL(fileURLWithPath: path))
        let text = try Oracle.run("pdftotext", [path, "-"]).output
        let folded = text.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil)
        func count(_ haystack: String, _ pattern: some RegexComponent) -> Int { haystack.matches(of: pattern).count }
        let expected = [
            count(folded, /resume/), count(folded, /\bresume\b/), count(text.lowercased(), /\bresume\b/),
        ]
        #expect(expected == [4, 2, 1])
        let server = try await TestServer(document: pdf)
        defer { Task { await server.stop() } }
        var found: [Int] = []
        for query in ["", "&wholeWord=1", "&wholeWord=1&diacriticSensitive=1"] {
            let reply = try await server.request("/api/search?q=resume" + query)
            #expect(reply.status == 200)
            found.append(reply.json.arrayValue?.count ?? -1)
        }
        #expect(found == expected)
        let shown = try await server.request(
            "POST", "/api/search", json: #"{"q": "resume", "wholeWord": true, "diacriticSensitive": true}"#)
        #expect(shown.json["mode"]?["results"]?.arrayValue?.count == 1)
        let wrong = try await server.request("POST", "/api/search", json: #"{"q": "resume", "diacriticSensitive": 1}"#)
        #expect(wrong.status == 400)
    }
}
