import Foundation
import PDFTestSupport
import Testing

@testable import AutographCLI
@testable import PDFCore

/// `autograph rewrite` and `autograph metadata` over every corpus file, checked by qpdf.
@Suite(
    "Corpus: rewrite and metadata output passes qpdf --check", .enabled(if: Requirement.corpus, "the corpus is absent"))
struct CorpusWriteTests {
    /// qpdf messages about stream *data* (a corrupt image, a broken content stream) that a writer
    /// carries from its input unchanged; anything else in qpdf's output is a failure of ours.
    static func onlyContentDamage(_ result: Oracle.Result) -> Bool {
        let messages = (result.output + result.errors).split(separator: "\n").filter {
            $0.hasPrefix("WARNING") || $0.hasPrefix("ERROR")
        }
        let contentMarkers = [
            "error decoding stream data", "errors while decoding content stream", "stream will be re-processed",
            "input stream is complete but output may still be valid", "(content, offset",
        ]
        return messages.allSatisfy { message in contentMarkers.contains { message.contains($0) } }
    }

    @Test("every file that opens: rewrite keeps the page count, metadata keeps the bytes, qpdf --check passes")
    func corpusWrites() async throws {
        let root = try #require(TestPaths.corpus)
        let directory = try TestPaths.temporaryDirectory("corpus-writes")
        var counts = (
            inputs: 0, rewrites: 0, rewritesClean: 0, updates: 0, updatesClean: 0, carried: 0, refusedByCertification: 0
        )
        for file in CorpusFile.all(in: root) {
            let password = file.password.flatMap { $0.isEmpty ? nil : $0 }
            let inputCheck = try Oracle.qpdfCheck(file.path, password: password)
            guard inputCheck.status == 0 || inputCheck.status == 3,
                let pages = try? PDFDocument(contentsOfFile: file.path, options: ParseOptions(password: password))
                    .pageCount
            else { continue }
            counts.inputs += 1
            let passwordArguments = password.map { ["--password", $0] } ?? []

            for extra in [[], ["--object-streams"]] {
                let output = directory + "/rewrite.pdf"
                let console = Console.captured()
                let code = await AutographCLI.run(
                    ["rewrite", file.path, "-o", output] + passwordArguments + extra, console: console)
                #expect(code == .success || code == .successWithWarnings, "\(file.name) rewrite: \(console.errors)")
                counts.rewrites += 1
                let check = try Oracle.qpdfCheck(output, password: password)
                if check.status == 0 {
                    counts.rewritesClean += 1
                } else {
                    // Only damage in stream data the input already had may remain.
                    #expect(
                        Self.onlyContentDamage(check) && inputCheck.status != 0,
                        "\(file.name) \(extra): \(check.output)")
                    counts.carried += 1
                }
                #expect(try Oracle.qpdfPageCount(output, password: password) == pages, "\(file.name) \(extra)")
            }

            let output = directory + "/metadata.pdf"
            try? FileManager.default.removeItem(atPath: output)
            var console = Console.captured()
            let arguments =
                ["metadata", file.path, "-o", output, "--set", "Title=Autograph corpus é"] + passwordArguments
            var code = await AutographCLI.run(arguments, console: console)
            if code == .failure, console.errors.contains("(signo -129)") {
                // Certified with no changes permitted: refused, nothing written; --force writes it.
                #expect(!FileManager.default.fileExists(atPath: output), "\(file.name): written though refused")
                counts.refusedByCertification += 1
                console = Console.captured()
                code = await AutographCLI.run(arguments + ["--force"], console: console)
            }
            #expect(code == .success || code == .successWithWarnings, "\(file.name) metadata: \(console.errors)")
            counts.updates += 1
            let original = try Data(contentsOf: URL(fileURLWithPath: file.path))
            let updated = try Data(contentsOf: URL(fileURLWithPath: output))
            #expect(updated.prefix(original.count) == original, "\(file.name): original bytes changed")
            let check = try Oracle.qpdfCheck(output, password: password)
            if check.status == 0 {
                counts.updatesClean += 1
            } else {
                #expect(
                    Self.onlyContentDamage(check) && inputCheck.status != 0, "\(file.name) metadata: \(check.output)")
                counts.carried += 1
            }
            #expect(
                try Oracle.qpdfInfoValue(output, key: "Title", password: password) == "u:Autograph corpus é",
                "\(file.name)")
        }
        print(
            "corpus writes: \(counts.inputs) inputs; rewrite clean \(counts.rewritesClean) / \(counts.rewrites), "
                + "metadata clean \(counts.updatesClean) / \(counts.updates) (\(counts.refusedByCertification) refused by "
                + "a certification, then forced); \(counts.carried) outputs keep stream-data damage of their input"
        )
    }
}
