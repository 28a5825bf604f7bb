import Foundation
import PDFTestSupport
import Testing

@testable import AutographCLI

/// `autograph sign --appearance FILE`: the schema of docs/appearance.md, the web API's names for the
/// same things, and a key it does not know refused by name.
@Suite(
    "sign --appearance files", .serialized,
    .enabled(if: BuiltTool.available, "autograph is not built next to the test binary"))
struct AppearanceFileTests {
    /// Signs the sample with `appearance` as the file's text in a new visible field at `rect` on page 1.
    static func sign(_ appearance: String, in directory: String, rect: [Int] = [300, 40, 580, 180]) throws
        -> Oracle.Result
    {
        try BuiltTool.write(appearance, to: directory + "/appearance.json")
        try? FileManager.default.removeItem(atPath: directory + "/signed.pdf")
        return try BuiltTool.run([
            "sign", directory + "/sample.pdf", "-o", directory + "/signed.pdf", "--field", "Approval", "--page", "1",
            "--rect", rect.map(String.init).joined(separator: ","), "--appearance", directory + "/appearance.json",
            "--p12", BuiltTool.pki("signer-p256.p12"), "--p12-password", "secret",
        ])
    }

    @Test("the web API's names (signerName, signatureDescription, dateTimePattern, …) draw what they name")
    func webNamesAreTaken() throws {
        let directory = try BuiltTool.sampleDirectory("cli-appearance-web-names")
        let rect = [300, 40, 580, 180]
        let result = try Self.sign(
            """
            {"signerName": "Grace Hopper", "signatureDescription": "Checked by audit", "dateTimePattern": "yyyy",
             "signatureColor": "#102030", "signerNameFontSize": 40, "dateFontSize": 20}
            """, in: directory, rect: rect)
        #expect(result.status == 0, "exit \(result.status): \(result.errors)")
        let lines = try SignCommandLineTests.pdftotextLines(directory + "/signed.pdf", inside: rect)
        #expect(lines.contains("Grace Hopper"), "pdftotext: \(lines)")
        #expect(lines.contains("Checked by audit"), "pdftotext: \(lines)")
        // dateTimePattern "yyyy": the date line is the year alone.
        #expect(lines.contains { $0.hasPrefix("Date: ") && $0.count == "Date: 2026".count }, "pdftotext: \(lines)")
    }

    @Test(
        "an unknown key, a key given twice, a wrong type or a size out of range is a usage error naming the key",
        arguments: [
            (##"{"colour": "#000000"}"##, "'colour'"),
            (#"{"name": "Ada", "signerName": "Ada"}"#, "'name' twice"),
            (#"{"showDate": "yes"}"#, "'showDate'"),
            (#"{"markFontSize": 0}"#, "'markFontSize'"),
            (#"{"dateFontSize": 1e9}"#, "'dateFontSize'"),
            (#"{"strokeWidth": -2}"#, "'strokeWidth'"),
            (#"{"displayTextPosition": "left"}"#, "'displayTextPosition'"),
            (#"["name"]"#, "JSON object"),
        ])
    func mistakesAreNamed(_ appearance: String, _ named: String) throws {
        let directory = try BuiltTool.sampleDirectory("cli-appearance-mistakes")
        let result = try Self.sign(appearance, in: directory)
        #expect(result.status == 2, "\(appearance): exit \(result.status), \(result.errors)")
        #expect(result.errors.contains(named), "\(appearance): \(result.errors)")
        #expect(!FileManager.default.fileExists(atPath: directory + "/signed.pdf"))
    }

    @Test("docs/appearance.md documents every key the file takes, and each web API name")
    func documentedKeys() throws {
        let text = try String(contentsOfFile: TestPaths.repository + "/docs/appearance.md", encoding: .utf8)
        for key in AppearanceFile.keys {
            #expect(text.contains("| `\(key.name)`"), "docs/appearance.md has no row for \(key.name)")
            if let web = key.webName { #expect(text.contains("`\(web)`"), "docs/appearance.md does not name \(web)") }
        }
    }
}
