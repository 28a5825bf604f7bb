import PDFAuthoring
import PDFTestSupport
import Testing

@testable import PDFCore

@Suite("Opening documents: cross-reference forms, revisions, pages")
struct DocumentTests {
    @Test("a document with a cross-reference table opens lazily and resolves its pages", arguments: [1, 3, 40])
    func tableDocument(pages: Int) throws {
        let document = try PDFDocument(bytes: TestDocuments.simple(pages: pages))
        #expect(document.pageCount == pages)
        #expect(document.revisions.count == 1)
        #expect(document.revisions[0].form == .table)
        #expect(document.warnings.isEmpty)
        #expect(document.info?.string(PDFName("Title"))?.text == "Test document")
        let content = try #require(
            document.resolve(document.pages[pages - 1].dictionary[.contents] ?? .null).streamValue)
        #expect(String(decoding: try content.decodedData(), as: UTF8.self).contains("(Page \(pages))"))
    }

    @Test("a document with a cross-reference stream opens the same way")
    func streamDocument() throws {
        let document = try PDFDocument(bytes: TestDocuments.simple(pages: 2, xref: .stream))
        #expect(document.revisions[0].form == .stream)
        #expect(document.pageCount == 2)
        #expect(document.warnings.isEmpty)
    }

    @Test("objects in object streams resolve")
    func objectStreams() throws {
        let plain = try PDFDocument(bytes: TestDocuments.simple(pages: 5))
        var options = DocumentWriter.Options(objectStreams: true)
        options.write.deterministicID = true
        let packed = try DocumentWriter(document: plain, options: options).serialized()
        let document = try PDFDocument(bytes: packed)
        #expect(document.pageCount == 5)
        #expect(document.warnings.isEmpty)
        let compressed = document.objectReferences.filter {
            if case .compressed? = document.index[$0.number] { return true } else { return false }
        }
        #expect(compressed.count >= 5)
        for reference in compressed { #expect(!document.object(reference).isNull) }
    }

    @Test("a hybrid file reads objects from its /XRefStm stream")
    func hybridFile() throws {
        var raw = RawPDF()
        raw.object(1, "<< /Type /Catalog /Pages 2 0 R >>")
        raw.object(2, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
        raw.object(3, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] /Resources 4 0 R >>")
        // Object 4 lives only in object stream 5, which only the cross-reference stream 6 lists.
        let inner = "<< /Font << >> >>"
        let header = "4 0 "
        raw.stream(5, dictionary: "/Type /ObjStm /N 1 /First \(header.utf8.count)", data: Array((header + inner).utf8))
        let streamOffset = raw.position
        var rows: [UInt8] = []
        rows += [2, 0, 5, 0]  // object 4: type 2, in stream 5, index 0
        raw.stream(6, dictionary: "/Type /XRef /Size 7 /W [1 2 1] /Index [4 1]", data: rows)
        raw.xrefTable(size: 7, trailer: "<< /Size 7 /Root 1 0 R /XRefStm \(streamOffset) >>", numbers: [0, 1, 2, 3, 5])
        let document = try PDFDocument(bytes: raw.bytes)
        #expect(document.revisions[0].form == .hybrid)
        #expect(document.pages[0].resources?[PDFName("Font")] != nil)
        #expect(document.warnings.isEmpty)
    }

    @Test("each incremental update is a revision ending at its %%EOF, and earlier revisions can be opened")
    func revisions() throws {
        let original = TestDocuments.simple(pages: 1)
        let base = try PDFDocument(bytes: original)
        var update = IncrementalUpdate(base: base)
        update.setDocumentInformation([("Title", "Second")])
        let second = try update.documentBytes()
        var again = IncrementalUpdate(base: try PDFDocument(bytes: second))
        again.setDocumentInformation([("Title", "Third")])
        let third = try again.documentBytes()

        let document = try PDFDocument(bytes: third)
        #expect(document.revisions.map(\.endOffset) == [original.count, second.count, third.count])
        #expect(document.info?.string(PDFName("Title"))?.text == "Third")
        let first = try document.document(asOfRevision: 0)
        #expect(first.info?.string(PDFName("Title"))?.text == "Test document")
        #expect(try document.document(asOfRevision: 1).info?.string(PDFName("Title"))?.text == "Second")
        #expect(throws: PDFError(.invalidArgument, "")) { try document.document(asOfRevision: 3) }
    }

    @Test("a linearized file (made by qpdf) is one revision with two sections")
    func linearized() throws {
        let directory = try TestPaths.temporaryDirectory()
        let input = directory + "/in.pdf"
        let output = directory + "/linearized.pdf"
        try writeFile(input, TestDocuments.simple(pages: 3))
        let result = try Oracle.run("qpdf", ["--linearize", input, output])
        try #require(result.status == 0, "\(result.errors)")
        let document = try PDFDocument(contentsOfFile: output)
        #expect(document.revisions.count == 1)
        #expect(document.revisions[0].sections.count == 2)
        #expect(document.revisions[0].endOffset == document.fileSize)
        #expect(document.pageCount == 3)
        #expect(document.warnings.isEmpty)
    }

    @Test("inherited page attributes come from the tree; rotation is normalised")
    func inheritance() throws {
        var raw = RawPDF()
        raw.object(1, "<< /Type /Catalog /Pages 2 0 R >>")
        raw.object(
            2,
            "<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 /MediaBox [0 0 500 800] /Rotate -90 /Resources << /X 1 >> >>")
        raw.object(3, "<< /Type /Page /Parent 2 0 R /CropBox [10 10 600 700] >>")
        raw.object(4, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 300] /Rotate 450 /UserUnit 2 >>")
        raw.xrefTable(size: 5, trailer: "<< /Size 5 /Root 1 0 R >>")
        let document = try PDFDocument(bytes: raw.bytes)
        let pages = document.pages
        #expect(pages.count == 2)
        #expect(pages[0].mediaBox == PDFRectangle(x0: 0, y0: 0, x1: 500, y1: 800))
        #expect(pages[0].cropBox == PDFRectangle(x0: 10, y0: 10, x1: 500, y1: 700))
        #expect(pages[0].rotation == 270)
        #expect(pages[0].resources?.int(PDFName("X")) == 1)
        #expect(pages[1].rotation == 90)
        #expect(pages[1].userUnit == 2)
        #expect(pages[1].displaySize.width == 600 && pages[1].displaySize.height == 600)
    }

    @Test("a document with zero pages is a valid document")
    func zeroPages() throws {
        var raw = RawPDF()
        raw.object(1, "<< /Type /Catalog /Pages 2 0 R >>")
        raw.object(2, "<< /Type /Pages /Kids [] /Count 0 >>")
        raw.xrefTable(size: 3, trailer: "<< /Size 3 /Root 1 0 R >>")
        let document = try PDFDocument(bytes: raw.bytes)
        #expect(document.pageCount == 0)
        #expect(document.warnings.isEmpty)
    }

    @Test("loops are cut: in the page tree, in /Prev, in references, in object streams")
    func loops() throws {
        var raw = RawPDF()
        raw.object(1, "<< /Type /Catalog /Pages 2 0 R /Self 5 0 R >>")
        raw.object(2, "<< /Type /Pages /Kids [3 0 R 2 0 R 4 0 R] /Count 2 >>")
        raw.object(3, "<< /Type /Page /Parent 2 0 R >>")
        raw.object(4, "<< /Type /Pages /Kids [2 0 R] /Count 0 >>")
        raw.object(5, "6 0 R")
        raw.object(6, "5 0 R")
        // The /Prev of the only section points back at itself.
        let offset = raw.position
        raw.xrefTable(size: 7, trailer: "<< /Size 7 /Root 1 0 R /Prev \(offset) >>")
        let document = try PDFDocument(bytes: raw.bytes)
        #expect(document.pageCount == 1)
        #expect(document.resolve(.reference(PDFReference(5))) == .null)
        #expect(document.warnings.contains { $0.code == .pageTreeInvalid })
        #expect(document.warnings.contains { $0.code == .xrefInvalid })
    }

    @Test("an object stream listed inside another object stream is refused, not followed")
    func nestedObjectStream() throws {
        var raw = RawPDF()
        raw.object(1, "<< /Type /Catalog /Pages 2 0 R /Extra 4 0 R >>")
        raw.object(2, "<< /Type /Pages /Kids [] /Count 0 >>")
        let streamOffset = raw.position
        // Object 3 claims to be in stream 3 itself; object 4 claims to be in stream 3.
        raw.stream(5, dictionary: "/Type /XRef /Size 6 /W [1 2 1] /Index [3 2]", data: [2, 0, 3, 0, 2, 0, 3, 1])
        raw.xrefTable(size: 6, trailer: "<< /Size 6 /Root 1 0 R /XRefStm \(streamOffset) >>", numbers: [0, 1, 2, 5])
        let document = try PDFDocument(bytes: raw.bytes)
        #expect(document.object(PDFReference(4)) == .null)
        #expect(document.warnings.contains { $0.code == .objectStreamInvalid })
    }

    @Test("documents are readable from many tasks at once")
    func concurrentReads() async throws {
        let document = try PDFDocument(bytes: TestDocuments.simple(pages: 30))
        let references = document.objectReferences
        let counts = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    var resolved = 0
                    for reference in references where !document.object(reference).isNull { resolved += 1 }
                    return resolved + document.pageCount
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(Set(counts).count == 1)
        #expect(counts[0] == references.count + 30)
    }
}

func writeFile(_ path: String, _ bytes: [UInt8]) throws {
    let writer = try AtomicFileWriter(path: path)
    try writer.write(bytes)
    try writer.commit()
}
