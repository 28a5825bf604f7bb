import Foundation
import PDFTestSupport
import Testing

/// Every command that takes a page counts it from 1, as its options do, and says so when the page
/// does not exist: "page 5 does not exist: the document has 3 pages", a usage error (exit 2).
@Suite(
    "page numbers in the commands' errors", .serialized,
    .enabled(if: BuiltTool.available, "autograph is not built next to the test binary"))
struct PageNumberTests {
    @Test("render, text, search, ink, sign and prepare: page 5 of 3 is a usage error counted from 1")
    func aMissingPageIsAUsageError() throws {
        let directory = try BuiltTool.sampleDirectory("cli-page-numbers")
        let sample = directory + "/sample.pdf"
        try BuiltTool.write("[[[100,100],[200,200],[220,150]]]", to: directory + "/strokes.json")
        let key = ["--p12", BuiltTool.pki("signer-p256.p12"), "--p12-password", "secret"]
        let commands: [[String]] = [
            ["render", sample, "-o", directory + "/page.png", "--page", "5"],
            ["render", sample, "-o", directory + "/page.png", "--pages", "2-5"],
            ["text", sample, "--page", "5"],
            ["search", sample, "agreement", "--page", "5"],
            ["ink", sample, "-o", directory + "/out.pdf", "--page", "5", "--strokes", directory + "/strokes.json"],
            ["sign", sample, "-o", directory + "/out.pdf", "--field", "New", "--page", "5", "--rect", "10,10,200,60"]
                + key,
            [
                "prepare", sample, "-o", directory + "/out.pdf", "--state", directory + "/state.json", "--field",
                "New", "--page", "5", "--rect", "10,10,200,60",
            ],
        ]
        for arguments in commands {
            let result = try BuiltTool.run(arguments)
            let name = arguments.prefix(1) + arguments.dropFirst(2).prefix(1)
            #expect(result.status == 2, "\(name): exit \(result.status), \(result.errors)")
            #expect(
                result.errors.contains("page 5 does not exist: the document has 3 pages"),
                "\(name): \(result.errors)")
            #expect(!result.errors.contains("-129"), "\(name): \(result.errors)")
            #expect(!FileManager.default.fileExists(atPath: directory + "/out.pdf"), "\(name) wrote its output")
        }
        // Page 3 is there: the same commands take it.
        let last = try BuiltTool.run(["text", sample, "--page", "3"])
        #expect(last.status == 0, "\(last.errors)")
        let zero = try BuiltTool.run(["render", sample, "-o", directory + "/page.png", "--page", "0"])
        #expect(zero.status == 2 && zero.errors.contains("from 1"), "\(zero.errors)")
    }
}
