import Foundation
import PDFTestSupport
import Testing

@testable import AutographCLI

@Suite("autograph fields, fill, export-values")
struct FormCommandTests {
    static func formFile() throws -> (directory: String, path: String) {
        let directory = try TestPaths.temporaryDirectory("cli-forms")
        let path = directory + "/form.pdf"
        try Data(TestForms.make()).write(to: URL(fileURLWithPath: path))
        return (directory, path)
    }

    @Test("fields --json lists each terminal field with its type, value, options, flags and widgets")
    func fields() async throws {
        let (_, path) = try Self.formFile()
        let result = await autograph("fields", path, "--json")
        #expect(result.code == .success)
        let list = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: Any]])
        let byName = Dictionary(uniqueKeysWithValues: list.map { ($0["name"] as! String, $0) })
        #expect(byName["country"]?["type"] as? String == "combo")
        #expect(byName["country"]?["options"] as? [String] == ["France", "Germany", "Italy"])
        #expect(byName["locked"]?["readOnly"] as? Bool == true)
        #expect(byName["locked"]?["value"] as? String == "fixed")
        #expect(byName["signature"]?["value"] as? Bool == false)
        let widget = try #require((byName["name"]?["widgets"] as? [[String: Any]])?.first)
        #expect(widget["page"] as? Int == 0)  // the first page: JSON counts from 0
        #expect(widget["rect"] as? [Double] == [72, 700, 322, 722])
        #expect(await autograph("fields", path).output.contains("12 fields, 9 editable, 1 signature"))
    }

    @Test("fill from JSON, then export-values gives the values back; XFDF works the same")
    func fillAndExport() async throws {
        let (directory, path) = try Self.formFile()
        let values = directory + "/values.json"
        try Data(#"{"name": "Ada", "agree": true, "languages": ["en"], "color": "red"}"#.utf8).write(
            to: URL(fileURLWithPath: values))
        let filled = directory + "/filled.pdf"
        #expect(await autograph("fill", path, "--values", values, "-o", filled).code == .success)
        #expect(try Oracle.qpdfCheck(filled).status == 0)
        let exported = await autograph("export-values", filled, "-o", "-")
        #expect(exported.output.contains("\"name\": \"Ada\""))
        #expect(exported.output.contains("\"agree\": true"))
        #expect(exported.output.contains("\"languages\": [\"en\"]"))

        let xfdf = directory + "/values.xfdf"
        #expect(await autograph("export-values", filled, "--xfdf", "-o", xfdf).code == .success)
        let refilled = directory + "/refilled.pdf"
        #expect(await autograph("fill", path, "--values", xfdf, "-o", refilled).code == .success)
        #expect(try Oracle.pypdfFieldValues(refilled)["name"] == "Ada")
        #expect(try Oracle.pypdfFieldValues(refilled)["color"] == "red")
    }

    @Test("a bad value stops fill with exit 1, naming the field, and writes nothing")
    func badValue() async throws {
        let (directory, path) = try Self.formFile()
        let values = directory + "/values.json"
        try Data(#"{"name": "ok", "short": "far too long"}"#.utf8).write(to: URL(fileURLWithPath: values))
        let output = directory + "/out.pdf"
        let result = await autograph("fill", path, "--values", values, "-o", output)
        #expect(result.code == .failure)
        #expect(result.errors.contains("'short'"))
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test("fill --flatten leaves no fields but the signature, and MuPDF still shows the text")
    func flatten() async throws {
        let (directory, path) = try Self.formFile()
        let values = directory + "/values.json"
        try Data(#"{"name": "Flat Ada"}"#.utf8).write(to: URL(fileURLWithPath: values))
        let output = directory + "/flat.pdf"
        #expect(await autograph("fill", path, "--values", values, "-o", output, "--flatten").code == .success)
        #expect(try Oracle.qpdfCheck(output).status == 0)
        #expect(try Oracle.mutoolText(output).contains("Flat Ada"))
        #expect(await autograph("fields", output).output.contains("1 fields"))
    }

    @Test("--font draws text with the given TrueType font")
    func callerFont() async throws {
        let (directory, path) = try Self.formFile()
        let values = directory + "/values.json"
        try Data(#"{"name": "Ωμέγα"}"#.utf8).write(to: URL(fileURLWithPath: values))
        let output = directory + "/font.pdf"
        let font = "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"
        try #require(FileManager.default.fileExists(atPath: font), "fonts-dejavu-core is not installed")
        #expect(await autograph("fill", path, "--values", values, "-o", output, "--font", font).code == .success)
        #expect(try Oracle.run("pdffonts", [output]).output.contains("DejaVuSerif"))
        #expect(try Oracle.mutoolText(output).contains("Ωμέγα"))
    }
}
