import Foundation
import PDFAuthoring
import PDFTestSupport
import Testing

@testable import PDFAnnotations
@testable import PDFCore

@Suite("Ink notes")
struct InkNotesTests {
    static let red = InkStyle(width: 3, color: .rgb(1, 0, 0))
    static let blue = InkStyle(width: 6, color: .rgb(0, 0, 1))

    /// A wave from (`x`, `y`) to the right, `count` points.
    static func wave(x: Double, y: Double, count: Int = 30) -> InkStroke {
        InkStroke((0..<count).map { InkPoint(x: x + Double($0) * 5, y: y + 25 * sin(Double($0) / 4)) })
    }

    /// A document whose XMP claims PDF/A `part` and `conformance`, in element or attribute form.
    static func pdfa(part: Int, conformance: String, attributes: Bool) -> [UInt8] {
        var builder = PDFBuilder(version: "1.4")
        builder.addPage(content: Array("BT /F1 12 Tf 72 720 Td (Archived) Tj ET".utf8))
        let metadata = builder.add(
            TestDocuments.pdfAMetadata(part: part, conformance: conformance, attributes: attributes))
        builder.catalogEntries[.metadata] = .reference(metadata)
        return builder.build()
    }

    @Test("the session adds, undoes, redoes, changes style for later notes only, cancels and saves")
    func sessionModel() throws {
        let document = try PDFDocument(bytes: TestDocuments.simple(pages: 2))
        var session = try NotesSession(document: document, style: Self.red)
        #expect(!session.canUndo)
        let undidNothing = session.undo()
        let redidNothing = session.redo()
        #expect(!undidNothing && !redidNothing)
        try session.add([Self.wave(x: 100, y: 500)], onPage: 0)
        session.style = Self.blue
        try session.add([Self.wave(x: 100, y: 300)], onPage: 1)
        #expect(session.notes.map(\.style) == [Self.red, Self.blue], "a style change altered an earlier note")
        let undid = session.undo()
        #expect(undid && session.notes.count == 1 && session.canRedo)
        let redid = session.redo()
        #expect(redid && session.notes.count == 2 && session.notes[1].style == Self.blue)
        session.undo()
        try session.add([Self.wave(x: 100, y: 200)], onPage: 1)
        #expect(!session.canRedo, "adding a note must clear the redo list")
        #expect(!session.cancel().saved)
        #expect(try session.save().saved)

        var empty = try NotesSession(document: document)
        try empty.add([Self.wave(x: 10, y: 10)], onPage: 0)
        empty.undo()
        #expect(try !empty.save().saved, "a session without notes saved something")
        #expect(throws: AnnotationError(.invalidArgument, "")) { try empty.add([Self.wave(x: 1, y: 1)], onPage: 2) }
        #expect(throws: AnnotationError(.invalidArgument, "")) { try empty.add([InkStroke([])], onPage: 0) }
    }

    @Test("saved notes are ink annotations in one update; MuPDF draws them where they were drawn, in their colour")
    func savedNotesRender() throws {
        let original = TestDocuments.simple(pages: 2)
        var session = try NotesSession(document: try PDFDocument(bytes: original), style: Self.red)
        let first = [Self.wave(x: 100, y: 500), Self.wave(x: 100, y: 420)]
        let second = [Self.wave(x: 250, y: 250)]
        try session.add(first, onPage: 0)
        session.style = Self.blue
        try session.add(second, onPage: 1)
        guard case .saved(let update, let count) = try session.save() else {
            Issue.record("nothing saved")
            return
        }
        #expect(count == 2)
        let directory = try TestPaths.temporaryDirectory("ink")
        let path = directory + "/notes.pdf"
        try update.write(to: path)
        try Data(original).write(to: URL(fileURLWithPath: directory + "/original.pdf"))
        #expect(try Oracle.qpdfCheck(path).status == 0)
        let written = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(written.starts(with: original))
        #expect(try PDFDocument(bytes: written).revisions.count == 2, "the notes are not one incremental update")

        for (page, strokes, colour) in [(1, first, (255, 0, 0)), (2, second, (0, 0, 255))] {
            let rendered = try RenderedPage.render(path, page: page, dpi: 72)
            let before = try RenderedPage.render(directory + "/original.pdf", page: page, dpi: 72)
            // Ink at every drawn point, in the note's colour.
            for point in strokes.flatMap(\.points) {
                let near = (-2...2).flatMap { dx in
                    (-2...2).map { dy in
                        rendered.pixel(Int(point.x) + dx, Int(792 - point.y) + dy)
                    }
                }
                #expect(
                    near.contains {
                        abs($0.r - colour.0) < 60 && abs($0.g - colour.1) < 60 && abs($0.b - colour.2) < 60
                    },
                    "page \(page): no ink at (\(point.x), \(point.y))")
            }
            // And nothing anywhere else.
            let bounds = try #require(strokes.bounds)
            let box = rendered.pixelBox(
                x0: bounds.x0 - 4, y0: bounds.y0 - 4, x1: bounds.x1 + 4, y1: bounds.y1 + 4, pageHeight: 792)
            let outside = rendered.differences(from: before).filter {
                $0.x < box.x0 || $0.x > box.x1 || $0.y < box.y0 || $0.y > box.y1
            }
            #expect(outside.isEmpty, "page \(page): \(outside.count) pixels changed away from the strokes")
        }

        // pypdf reads the annotations: subtype, ink list and colour.
        let script = """
            import sys, pypdf
            reader = pypdf.PdfReader(sys.argv[1])
            for page in reader.pages:
                for annotation in page.get("/Annots", []):
                    a = annotation.get_object()
                    print(a["/Subtype"], len(a["/InkList"]), [len(s) for s in a["/InkList"]], [float(c) for c in a["/C"]], float(a["/BS"]["/W"]))
            """
        let result = try Oracle.run("python3", ["-c", script, path])
        #expect(result.status == 0, "pypdf failed: \(result.errors)")
        #expect(
            result.output.split(separator: "\n") == [
                "/Ink 2 [60, 60] [1.0, 0.0, 0.0] 3.0", "/Ink 1 [60] [0.0, 0.0, 1.0] 6.0",
            ])
    }

    @Test("a page whose /Annots is an object of its own keeps its annotations")
    func indirectAnnotationArray() throws {
        var builder = PDFBuilder()
        let page = builder.reserve()
        let link = builder.add(
            .dictionary([
                .type: .name("Annot"), .subtype: .name("Link"),
                PDFName("Rect"): PDFRectangle(x0: 72, y0: 72, x1: 144, y1: 96).object,
            ]))
        let annotations = builder.add(.array([.reference(link)]))
        builder.set(
            page,
            to: .dictionary([
                .type: .name(.page), .parent: .reference(builder.pages),
                .mediaBox: PDFRectangle(x0: 0, y0: 0, x1: 612, y1: 792).object,
                PDFName("Annots"): .reference(annotations),
            ]))
        builder.appendPage(page)
        let original = builder.build()
        let update = try InkAnnotator(document: try PDFDocument(bytes: original))
            .makeUpdate(notes: [InkNote(pageIndex: 0, strokes: [Self.wave(x: 200, y: 400)])])
        let document = try PDFDocument(bytes: try update.documentBytes())
        let list = try #require(document.resolve(document.pages[0].dictionary[PDFName("Annots")] ?? .null).arrayValue)
        #expect(list.count == 2 && list[0] == .reference(link))
        #expect(document.resolve(list[1]).dictionaryValue?[.subtype] == .name("Ink"))
    }

    @Test(
        "PDF/A-1 documents are refused, PDF/A-2 ones are not",
        arguments: [
            (1, "B", false, true), (1, "B", true, true), (1, "A", false, true), (2, "B", false, false),
            (2, "U", true, false),
        ])
    func pdfaRefusal(part: Int, conformance: String, attributes: Bool, refused: Bool) throws {
        let document = try PDFDocument(bytes: Self.pdfa(part: part, conformance: conformance, attributes: attributes))
        #expect(document.pdfaIdentification == PDFAIdentification(part: part, conformance: conformance))
        do {
            _ = try NotesSession(document: document)
            #expect(!refused, "PDF/A-\(part)\(conformance) was accepted")
        } catch {
            #expect(refused && error.code == .pdfA1, "PDF/A-\(part)\(conformance): \(error)")
        }
        let notes = [InkNote(pageIndex: 0, strokes: [Self.wave(x: 100, y: 100)])]
        let written = Result { try InkAnnotator(document: document).makeUpdate(notes: notes) }
        if case .failure(let error) = written {
            #expect(refused && (error as? AnnotationError)?.code == .pdfA1, "\(error)")
        } else {
            #expect(!refused)
        }
    }

    @Test(
        "real PDF/A files: PDF/A-1a refused, PDF/A-2b accepted",
        .enabled(if: Requirement.corpus, "the corpus is absent"))
    func corpusPDFA() throws {
        let corpus = try #require(TestPaths.corpus)
        for (name, part, refused) in [("pdfjs/issue17671.pdf", 1, true), ("pdfjs/issue13242.pdf", 2, false)] {
            let path = corpus + "/" + name
            guard FileManager.default.fileExists(atPath: path) else { continue }
            let document = try PDFDocument(contentsOfFile: path)
            #expect(document.pdfaIdentification?.part == part, "\(name)")
            #expect((try? NotesSession(document: document)) == nil ? refused : !refused, "\(name)")
        }
    }
}
