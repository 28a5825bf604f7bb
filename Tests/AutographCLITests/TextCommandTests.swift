import Foundation
import PDFTestSupport
import Testing

@testable import AutographCLI

@Suite("autograph text")
struct TextCommandTests {
    static func words(_ text: String) -> [String] {
        text.precomposedStringWithCompatibilityMapping.split(whereSeparator: { $0.isWhitespace }).map(String.init)
    }

    static func sample() async throws -> String {
        let path = try temporaryFile("text-sample.pdf")
        #expect(await autograph("sample", "-o", path).code == .success)
        return path
    }

    @Test("prints every page's words as pdftotext does, pages ended by form feeds")
    func plainText() async throws {
        let path = try await Self.sample()
        let result = await autograph("text", path)
        #expect(result.code == .success, "\(result.errors)")
        let theirs = try Oracle.run("pdftotext", ["-enc", "UTF-8", path, "-"]).output
        let ourPages = result.output.components(separatedBy: "\u{0C}").dropLast()
        let theirPages = theirs.components(separatedBy: "\u{0C}").dropLast()
        #expect(ourPages.count == 3 && theirPages.count == 3)
        for (ours, theirs) in zip(ourPages, theirPages) {
            #expect(Self.words(ours) == Self.words(theirs))
        }
        #expect(!Self.words(result.output).isEmpty)
    }

    @Test("--page N prints that page only; a page out of range is a usage error")
    func onePage() async throws {
        let path = try await Self.sample()
        let result = await autograph("text", path, "--page", "2")
        #expect(result.code == .success)
        let theirs = try Oracle.run("pdftotext", ["-f", "2", "-l", "2", "-enc", "UTF-8", path, "-"]).output
        #expect(Self.words(result.output) == Self.words(theirs))
        let missing = await autograph("text", path, "--page", "9")
        #expect(missing.code == .usage)
        #expect(missing.errors.contains("page 9 does not exist"))
    }

    @Test("--json gives words with quads that overlap pdftotext -bbox boxes")
    func json() async throws {
        let path = try await Self.sample()
        let result = await autograph("text", path, "--json", "--page", "1")
        #expect(result.code == .success)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        let pages = try #require(object["pages"] as? [[String: Any]])
        #expect(pages.count == 1 && pages[0]["page"] as? Int == 0)  // --page 1 is "page": 0 in JSON
        let words = try #require(pages[0]["words"] as? [[String: Any]])
        #expect(!words.isEmpty)
        let boxes = try Oracle.run("pdftotext", ["-f", "1", "-l", "1", "-bbox", "-enc", "UTF-8", path, "-"]).output
        let theirs = boxes.split(separator: "\n").compactMap { line -> (String, [Double])? in
            guard line.contains("<word ") else { return nil }
            let numbers = ["xMin", "yMin", "xMax", "yMax"].map { name -> Double in
                let start = line.range(of: "\(name)=\"")!.upperBound
                return Double(line[start...].prefix { $0 != "\"" })!
            }
            let text = line.split(separator: ">")[1].split(separator: "<")[0]
            return (String(text), numbers)
        }
        // The sample's pages are unrotated: pdftotext's y grows downwards from the top of the page.
        let heightStart = try #require(boxes.range(of: "<page width=\"")).upperBound
        let afterWidth = try #require(boxes[heightStart...].range(of: "height=\"")).upperBound
        let height = try #require(Double(boxes[afterWidth...].prefix { $0 != "\"" }))
        var matched = 0
        for word in words {
            let text = try #require(word["text"] as? String)
            let quads = try #require(word["quads"] as? [[Double]])
            #expect(word["hidden"] as? Bool == false)
            #expect(quads.count >= 1 && quads.allSatisfy { $0.count == 8 })
            let xs = quads.flatMap { [$0[0], $0[2], $0[4], $0[6]] }
            let ys = quads.flatMap { [$0[1], $0[3], $0[5], $0[7]] }.map { height - $0 }
            let box = (xs.min()!, ys.min()!, xs.max()!, ys.max()!)
            let overlaps = theirs.contains { other in
                guard other.0 == text else { return false }
                let b = other.1
                let width = min(box.2, b[2]) - max(box.0, b[0])
                let height = min(box.3, b[3]) - max(box.1, b[1])
                guard width > 0, height > 0 else { return false }
                let inter = width * height
                let union = (box.2 - box.0) * (box.3 - box.1) + (b[2] - b[0]) * (b[3] - b[1]) - inter
                return inter / union >= 0.5
            }
            if overlaps { matched += 1 }
        }
        #expect(matched == words.count, "\(matched) of \(words.count) words overlap pdftotext's boxes")
    }

    @Test("--layout keeps words of a row on one line")
    func layout() async throws {
        let path = try await Self.sample()
        let plain = await autograph("text", path, "--page", "1")
        let laidOut = await autograph("text", path, "--page", "1", "--layout")
        #expect(laidOut.code == .success)
        #expect(Self.words(laidOut.output).sorted() == Self.words(plain.output).sorted())
    }

    @Test("bad input: a missing file fails with one line (exit 1), bad options are usage errors (exit 2)")
    func badInput() async throws {
        let missing = await autograph("text", "/nonexistent/file.pdf")
        #expect(missing.code == .failure)
        #expect(missing.errors.split(separator: "\n").count == 1 && missing.errors.hasPrefix("autograph text:"))
        let path = try await Self.sample()
        #expect(await autograph("text", path, "--page", "x").code == .usage)
        #expect(await autograph("text", path, "--json", "--layout").code == .usage)
        #expect(await autograph("text").code == .usage)
        let notPDF = try temporaryFile("not.pdf")
        try Data("hello".utf8).write(to: URL(fileURLWithPath: notPDF))
        #expect(await autograph("text", notPDF).code == .failure)
    }

    @Test("a FreeText annotation without an appearance stream is text of its page, as pdftotext reads it")
    func freeTextWithoutAppearance() async throws {
        var pdf = RawPDF()
        pdf.object(1, "<< /Type /Catalog /Pages 2 0 R >>")
        pdf.object(2, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
        pdf.object(
            3,
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Contents 4 0 R /Annots [5 0 R] >>")
        pdf.stream(4, dictionary: "", data: [])
        pdf.object(
            5,
            "<< /Type /Annot /Subtype /FreeText /Rect [20 40 280 180] /F 4 /DA (/Helv 14 Tf 0 0 1 rg) "
                + "/Contents (Reviewed by the audit committee on Tuesday) >>")
        pdf.xrefTable(size: 6, trailer: "<< /Size 6 /Root 1 0 R >>")
        let path = try temporaryFile("freetext.pdf")
        try Data(pdf.bytes).write(to: URL(fileURLWithPath: path))
        let result = await autograph("text", path)
        #expect(result.code == .success, "\(result.errors)")
        let theirs = try Oracle.run("pdftotext", ["-enc", "UTF-8", path, "-"]).output
        #expect(Self.words(theirs).contains("committee"), "pdftotext: \(theirs)")
        #expect(Self.words(result.output) == Self.words(theirs))
    }
}
