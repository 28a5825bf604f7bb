import Foundation
import PDFTestSupport
import Testing

@testable import AutographCLI

@Suite("autograph search")
struct SearchCommandTests {
    /// Two pages of Helvetica text: page 1 has "Résumé" (WinAnsi \351), page 2 a word split by a
    /// hyphen at a line end.
    static func document() throws -> String {
        let font = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"
        let contents = [
            "BT /F1 12 Tf 72 700 Td (My R\\351sum\\351 and a resume) Tj 0 -14 Td (Presumed innocent) Tj ET",
            "BT /F1 12 Tf 14 TL 72 700 Td (The resu-) Tj T* (me follows) Tj ET",
        ]
        var pdf = RawPDF()
        pdf.object(1, "<< /Type /Catalog /Pages 2 0 R >>")
        pdf.object(2, "<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 >>")
        for page in 0..<2 {
            pdf.object(
                3 + page,
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents \(5 + page) 0 R "
                    + "/Resources << /Font << /F1 7 0 R >> >> >>")
        }
        for page in 0..<2 { pdf.stream(5 + page, dictionary: "", data: Array(contents[page].utf8)) }
        pdf.object(7, font)
        pdf.xrefTable(size: 8, trailer: "<< /Size 8 /Root 1 0 R >>")
        let path = try temporaryFile("search.pdf")
        try Data(pdf.bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("prints one 'page N: context' line per hit and the count; exit 0")
    func textOutput() async throws {
        let path = try Self.document()
        let result = await autograph("search", path, "resume")
        #expect(result.code == .success, "\(result.errors)")
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(
            lines == [
                "page 1: My Résumé and a resume Presumed innocent", "page 1: My Résumé and a resume Presumed innocent",
                "page 1: My Résumé and a resume Presumed innocent", "page 2: The resu-me follows", "4 hits",
            ], "\(lines)")
        let whole = await autograph("search", path, "resume", "--whole-word", "--diacritics")
        #expect(
            whole.output.split(separator: "\n").map(String.init) == [
                "page 1: My Résumé and a resume Presumed innocent", "page 2: The resu-me follows", "2 hits",
            ])
        let cased = await autograph("search", path, "Résumé", "--case-sensitive", "--page", "1")
        #expect(cased.output.hasSuffix("1 hit\n") || cased.output.hasSuffix("1 hit"), "\(cased.output)")
    }

    @Test("--json gives page, quads, text and context; quads lie on pdftotext -bbox words")
    func json() async throws {
        let path = try Self.document()
        let result = await autograph("search", path, "RESUME", "--json", "--whole-word")
        #expect(result.code == .success)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        #expect(object["query"] as? String == "RESUME")
        #expect(object["count"] as? Int == 3)
        let results = try #require(object["results"] as? [[String: Any]])
        // JSON counts pages from 0: the text's "page 1" is "page": 0.
        #expect(results.map { $0["page"] as? Int } == [0, 0, 1])
        #expect(results.map { $0["text"] as? String } == ["Résumé", "resume", "resu-\nme"])
        #expect(results.map { ($0["quads"] as? [[Double]])?.count } == [1, 1, 2])
        // Each quad of the whole-word hits on page 1 covers pdftotext's box of the same word.
        let boxes = try Oracle.run("pdftotext", ["-f", "1", "-l", "1", "-bbox", "-enc", "UTF-8", path, "-"]).output
        var theirs: [String: [Double]] = [:]
        for line in boxes.split(separator: "\n") where line.contains("<word ") {
            let values = ["xMin", "yMin", "xMax", "yMax"].map { name -> Double in
                let start = line.range(of: "\(name)=\"")!.upperBound
                return Double(line[start...].prefix { $0 != "\"" })!
            }
            let text = String(line.split(separator: ">")[1].split(separator: "<")[0])
            theirs[text] = values
        }
        for hit in results.prefix(2) {
            let quad = try #require((hit["quads"] as? [[Double]])?.first)
            let box = try #require(theirs[hit["text"] as! String])
            let xs = [quad[0], quad[2], quad[4], quad[6]]
            let ys = [quad[1], quad[3], quad[5], quad[7]].map { 792 - $0 }
            #expect(abs(xs.min()! - box[0]) < 0.1 && abs(xs.max()! - box[2]) < 0.1, "\(xs) \(box)")
            let overlap = min(ys.max()!, box[3]) - max(ys.min()!, box[1])
            #expect(overlap > 0.7 * (box[3] - box[1]), "\(ys) \(box)")
        }
    }

    @Test("exit codes as grep: 1 when nothing is found, 2 for usage errors and unreadable files")
    func exitCodes() async throws {
        let path = try Self.document()
        let none = await autograph("search", path, "absent")
        #expect(none.code == .failure)
        #expect(none.output == "0 hits\n" || none.output == "0 hits")
        let noneJSON = await autograph("search", path, "absent", "--json")
        #expect(noneJSON.code == .failure)
        let object = try JSONSerialization.jsonObject(with: Data(noneJSON.output.utf8)) as? [String: Any]
        #expect(object?["count"] as? Int == 0 && (object?["results"] as? [Any])?.isEmpty == true)
        #expect(await autograph("search", path).code == .usage)
        #expect(await autograph("search", path, "x", "--page", "9").code == .usage)
        #expect(await autograph("search", "/nonexistent/file.pdf", "x").code == .usage)
        #expect(await autograph("search", path, "x", "--bogus").code == .usage)
        let help = await autograph("search", "--help")
        #expect(help.code == .success && help.output.contains("Exit codes (as grep)"))
    }
}
