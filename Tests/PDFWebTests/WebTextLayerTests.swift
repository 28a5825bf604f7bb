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
}
