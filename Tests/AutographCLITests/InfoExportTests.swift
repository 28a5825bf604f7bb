import Foundation
import PDFTestSupport
import Testing

/// `autograph info` shows the document information dictionary, as `pdfinfo` does, and
/// `autograph export-values` writes to standard output when no file is named.
@Suite(
    "info's document information, export-values to standard output", .serialized,
    .enabled(if: BuiltTool.available, "autograph is not built next to the test binary"))
struct InfoExportTests {
    /// A one-page document whose information dictionary has every entry `info` shows: PDFDocEncoding
    /// (é, “ ” at 0x8D, 0x8E), UTF-16BE, control characters (ESC, BEL: in UTF-16BE, since PDFDocEncoding
    /// has ˘ ˇ ˆ ˙ … at 0x18 to 0x1F) and dates.
    static func documentWithInformation(_ path: String) throws {
        let subject =
            "<FEFF" + "Minutes\u{1B}]0;owned\u{07} of May".utf16.map { String(format: "%04X", $0) }.joined() + ">"
        var pdf = RawPDF()
        pdf.object(1, "<< /Type /Catalog /Pages 2 0 R >>")
        pdf.object(2, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
        pdf.object(3, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] >>")
        pdf.object(
            4,
            "<< /Title (Caf\\351 \\215menu\\216) /Author <FEFF005A006F00EB0020674E> "
                + "/Subject \(subject) /Keywords (board, minutes) /Creator (Writer) "
                + "/Producer (Autograph tests) /CreationDate (D:20240102030405+01'00') /ModDate (D:20250607080910Z) >>")
        pdf.xrefTable(size: 5, trailer: "<< /Size 5 /Root 1 0 R /Info 4 0 R >>")
        try Data(pdf.bytes).write(to: URL(fileURLWithPath: path))
    }

    /// `pdfinfo -enc UTF-8`'s value for `key`.
    static func pdfinfo(_ path: String, _ key: String) throws -> String? {
        let output = try Oracle.run("pdfinfo", ["-enc", "UTF-8", path]).output
        guard let line = output.split(separator: "\n").first(where: { $0.hasPrefix(key + ":") }) else { return nil }
        return line.dropFirst(key.count + 1).trimmingCharacters(in: .whitespaces)
    }

    @Test("info shows Title, Author … decoded as pdfinfo decodes them, control characters escaped, in text and JSON")
    func documentInformation() throws {
        let directory = try TestPaths.temporaryDirectory("cli-info-dictionary")
        let path = directory + "/minutes.pdf"
        try Self.documentWithInformation(path)
        let text = try BuiltTool.run(["info", path])
        #expect(text.status == 0, "exit \(text.status): \(text.errors)")
        let lines = text.output.split(separator: "\n").map(String.init)
        func shown(_ key: String) -> String? {
            lines.first { $0.hasPrefix(key + ":") }.map {
                $0.dropFirst(key.count + 1).trimmingCharacters(in: .whitespaces)
            }
        }
        #expect(shown("Title") == "Café “menu”")
        #expect(shown("Title") == (try Self.pdfinfo(path, "Title")))
        #expect(shown("Author") == "Zoë 李")
        #expect(shown("Author") == (try Self.pdfinfo(path, "Author")))
        #expect(shown("Keywords") == "board, minutes" && shown("Creator") == "Writer")
        #expect(shown("Producer") == "Autograph tests")
        #expect(shown("CreationDate") == "2024-01-02 03:04 +01:00")
        #expect(shown("ModDate") == "2025-06-07 08:09 UTC")
        #expect(shown("Subject") == "Minutes\\u{1B}]0;owned\\u{7} of May")
        #expect(!text.output.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })

        let json = try BuiltTool.run(["info", path, "--json"])
        #expect(json.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        let information = try #require(object["information"] as? [String: String])
        #expect(information["Title"] == "Café “menu”" && information["Author"] == "Zoë 李")
        #expect(information["Subject"] == "Minutes\u{1B}]0;owned\u{07} of May")
        #expect(information["CreationDate"] == "2024-01-02 03:04 +01:00")
        #expect(information.count == 8)
        // The JSON's own bytes carry the escape as \u001b, never the character itself.
        #expect(!json.output.unicodeScalars.contains { $0.value == 0x1B })
    }

    @Test("export-values without -o writes the values to standard output")
    func exportValuesToStandardOutput() throws {
        let directory = try BuiltTool.sampleDirectory("cli-export-stdout")
        try BuiltTool.write(#"{"Name": "Ada Lovelace"}"#, to: directory + "/values.json")
        let filled = try BuiltTool.run([
            "fill", directory + "/sample.pdf", "--values", directory + "/values.json", "-o", directory + "/filled.pdf",
        ])
        try #require(filled.status == 0, "fill: \(filled.errors)")
        let result = try BuiltTool.run(["export-values", directory + "/filled.pdf"])
        #expect(result.status == 0, "exit \(result.status): \(result.errors)")
        let values = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        #expect(values["Name"] as? String == "Ada Lovelace", "\(result.output)")
        #expect(try Oracle.pypdfFieldValues(directory + "/filled.pdf")["Name"] == "Ada Lovelace")
        let xfdf = try BuiltTool.run(["export-values", directory + "/filled.pdf", "--xfdf"])
        #expect(xfdf.status == 0 && xfdf.output.contains("Ada Lovelace") && xfdf.output.contains("<xfdf"))
    }
}
