import Foundation
import PDFTestSupport
import Testing

@testable import PDFCore

/// The shared corpus of real-world PDFs (../shared/corpus), compared with qpdf. Skipped when the
/// corpus is absent.
@Suite(
    "Corpus: every file qpdf accepts opens with qpdf's page count",
    .enabled(if: Requirement.corpus, "the corpus is absent"))
struct CorpusTests {
    @Test("open, count pages and resolve every object within 2 seconds; decode every stream without a crash")
    func openCorpus() throws {
        let root = try #require(TestPaths.corpus)
        let files = CorpusFile.all(in: root)
        try #require(!files.isEmpty)
        var accepted = 0
        var opened = 0
        var openedTotal = 0
        var slowest: (name: String, seconds: Double) = ("", 0)
        for file in files {
            let password = file.password.flatMap { $0.isEmpty ? nil : $0 }
            let check = try Oracle.qpdfCheck(file.path, password: password)
            let qpdfAccepts = check.status == 0 || check.status == 3
            if qpdfAccepts { accepted += 1 }
            let clock = ContinuousClock()
            let start = clock.now
            let document: PDFDocument
            do {
                document = try PDFDocument(contentsOfFile: file.path, options: ParseOptions(password: password))
            } catch {
                #expect(!qpdfAccepts, "\(file.name): qpdf accepts it but it failed to open: \(error)")
                continue
            }
            openedTotal += 1
            let pages = document.pageCount
            document.resolveAllObjects()
            let seconds = (clock.now - start) / .seconds(1)
            // Every stream decodes or fails cleanly (speed is measured by `make bench`, not here).
            for reference in document.objectReferences {
                if let stream = document.object(reference).streamValue { _ = try? stream.partiallyDecodedData() }
            }
            if seconds > slowest.seconds { slowest = (file.name, seconds) }
            // A guard against a hang, not a speed target (`make bench` measures speed beside qpdf).
            #expect(seconds < 60, "\(file.name) took \(seconds) s")
            guard qpdfAccepts else { continue }
            opened += 1
            let qpdfPages = try Oracle.qpdfPageCount(file.path, password: password)
            #expect(
                pages == qpdfPages, "\(file.name): \(pages) pages, qpdf says \(qpdfPages.map(String.init) ?? "nothing")"
            )
        }
        print(
            "corpus: opened \(opened) / \(accepted) files qpdf accepts (\(openedTotal) of \(files.count) in all); slowest \(slowest.name) \(slowest.seconds) s"
        )
        #expect(opened == accepted)
    }

    @Test("files with a known password open with it")
    func passwords() throws {
        let root = try #require(TestPaths.corpus)
        let protected = CorpusFile.all(in: root).filter { $0.password.map { !$0.isEmpty } ?? false }
        for file in protected {
            let check = try Oracle.qpdfCheck(file.path, password: file.password)
            guard check.status == 0 || check.status == 3 else { continue }
            let document = try PDFDocument(contentsOfFile: file.path, options: ParseOptions(password: file.password))
            #expect(document.encryption != nil, "\(file.name)")
            do {
                _ = try PDFDocument(contentsOfFile: file.path)
                Issue.record("\(file.name) opened without its password")
            } catch {
                #expect(error.code == .passwordRequired, "\(file.name): \(error)")
            }
        }
        print("corpus: \(protected.count) files with a known password")
    }
}
