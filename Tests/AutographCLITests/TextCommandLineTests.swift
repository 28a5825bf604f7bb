import Foundation
import PDFTestSupport
import Testing

/// `autograph text` in a pipeline beside pdftotext: warnings do not fail a complete extraction, and
/// ligatures are written as the letters they stand for.
@Suite(
    "autograph text in a pipeline", .serialized,
    .enabled(if: BuiltTool.available, "autograph is not built next to the test binary"))
struct TextCommandLineTests {
    static func words(_ text: String) -> [String] {
        text.split(whereSeparator: { $0.isWhitespace }).map(String.init)
    }

    @Test(
        "a page whose content has problems still gives all its text: warnings on standard error, exit 0; --strict exits 3"
    )
    func warningsDoNotFailTheExtraction() throws {
        var pdf = RawPDF()
        pdf.object(1, "<< /Type /Catalog /Pages 2 0 R >>")
        pdf.object(2, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
        pdf.object(
            3,
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Contents 4 0 R "
                + "/Resources << /Font << /F1 5 0 R >> >> >>")
        // /GS9 is in no resource dictionary: the state is left as it is, the text is all there.
        pdf.stream(
            4, dictionary: "",
            data: Array("/GS9 gs BT /F1 14 Tf 20 120 Td (Quarterly report) Tj 0 -30 Td (for the board) Tj ET".utf8))
        pdf.object(5, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
        pdf.xrefTable(size: 6, trailer: "<< /Size 6 /Root 1 0 R >>")
        let directory = try TestPaths.temporaryDirectory("cli-text-warnings")
        let path = directory + "/warned.pdf"
        try Data(pdf.bytes).write(to: URL(fileURLWithPath: path))

        let result = try BuiltTool.run(["text", path])
        #expect(result.status == 0, "exit \(result.status): \(result.errors)")
        #expect(result.errors.contains("warning:"), "standard error: \(result.errors)")
        let theirs = try Oracle.run("pdftotext", ["-enc", "UTF-8", path, "-"]).output
        #expect(Self.words(result.output) == Self.words(theirs), "ours: \(result.output) pdftotext: \(theirs)")
        #expect(Self.words(result.output) == ["Quarterly", "report", "for", "the", "board"])
        let strict = try BuiltTool.run(["text", path, "--strict"])
        #expect(strict.status == 3, "exit \(strict.status)")
        #expect(Self.words(strict.output) == Self.words(result.output))
    }

    @Test(
        "ligatures are written as their letters: 'text F | grep difficult' finds the words 'pdftotext F -' finds",
        .enabled(if: Requirement.corpus, "the corpus is absent"))
    func ligaturesAreLetters() throws {
        let path = try #require(TestPaths.corpus) + "/pdfjs/tracemonkey.pdf"
        let result = try BuiltTool.run(["text", path])
        #expect(result.status == 0, "exit \(result.status): \(result.errors.prefix(400))")
        let theirs = try Oracle.run("pdftotext", ["-enc", "UTF-8", path, "-"]).output
        let ligatures = Set((0xFB00...0xFB06).compactMap(Unicode.Scalar.init))
        #expect(!result.output.unicodeScalars.contains { ligatures.contains($0) })
        // Words set with ligature glyphs in this paper (fi, ff, ffi, fl): found as often as pdftotext finds
        // them. pdftotext joins a word hyphenated at a line's end ("dif-" "ficult"), autograph keeps the
        // line break: both are read with those joined.
        let (ourText, theirText) = (
            result.output.replacingOccurrences(of: "-\n", with: ""),
            theirs.replacingOccurrences(of: "-\n", with: "")
        )
        for word in ["difficult", "efficient", "first", "flow", "different"] {
            let ours = ourText.components(separatedBy: word).count - 1
            let pdftotext = theirText.components(separatedBy: word).count - 1
            #expect(pdftotext > 0, "pdftotext finds no '\(word)'")
            #expect(ours == pdftotext, "'\(word)': \(ours) times, pdftotext \(pdftotext)")
        }
    }

    @Test(
        "ligatures a ToUnicode map names (U+FB00 to U+FB06) are written as letters: pdftotext's text, NFKC-normalised")
    func mappedLigaturesAreLetters() throws {
        let cmap = """
            /CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /Ligatures def
            1 begincodespacerange <00> <FF> endcodespacerange
            7 beginbfchar <41> <FB00> <42> <FB01> <43> <FB02> <44> <FB03> <45> <FB04> <46> <FB05> <47> <FB06> endbfchar
            endcmap CMapName currentdict /CMap defineresource pop end end
            """
        var pdf = RawPDF()
        pdf.object(1, "<< /Type /Catalog /Pages 2 0 R >>")
        pdf.object(2, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
        pdf.object(
            3,
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Contents 4 0 R "
                + "/Resources << /Font << /F1 5 0 R >> >> >>")
        pdf.stream(4, dictionary: "", data: Array("BT /F1 14 Tf 20 100 Td (xAy xBy xCy xDy xEy xFy xGy) Tj ET".utf8))
        pdf.object(5, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /ToUnicode 6 0 R >>")
        pdf.stream(6, dictionary: "", data: Array(cmap.utf8))
        pdf.xrefTable(size: 7, trailer: "<< /Size 7 /Root 1 0 R >>")
        let path = try TestPaths.temporaryDirectory("cli-text-ligatures") + "/ligatures.pdf"
        try Data(pdf.bytes).write(to: URL(fileURLWithPath: path))
        let result = try BuiltTool.run(["text", path])
        #expect(result.status == 0, "exit \(result.status): \(result.errors)")
        #expect(Self.words(result.output) == ["xffy", "xfiy", "xfly", "xffiy", "xffly", "xsty", "xsty"])
        // pdftotext keeps what the map says; its compatibility decomposition is the letters.
        let theirs = try Oracle.run("pdftotext", ["-enc", "UTF-8", path, "-"]).output
        #expect(Self.words(result.output) == Self.words(theirs.precomposedStringWithCompatibilityMapping))
        let grep = try Oracle.run(
            "sh", ["-c", "\"$0\" text \"$1\" | grep -c xffiy", try #require(BuiltTool.path), path])
        #expect(grep.output.trimmingCharacters(in: .whitespacesAndNewlines) == "1", "grep: \(grep.output)")
    }
}
