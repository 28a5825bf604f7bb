import Foundation
import PDFCore
import PDFTestSupport
import Testing

@testable import PDFForms

/// A form that sets `/NeedAppearances true` asks viewers to draw its fields themselves. After a fill
/// the values must show in MuPDF whether it keeps our appearances or makes its own from `/DA`.
@Suite("Filling a /NeedAppearances form: MuPDF shows every value, Latin or not")
struct NeedAppearancesMuPDFTests {
    static let values: [(field: String, text: String)] = [
        ("name", "Ελληνικά κείμενο"), ("address.city", "Кириллица"), ("notes", "漢字とかな"),
        ("short", "right"), ("code", "AB12CD"),
    ]

    @Test("Greek, Cyrillic, CJK and Latin values show in MuPDF, pypdf reads them and qpdf accepts the file")
    func mixedValues() throws {
        let form = try #require(AcroForm(document: try PDFDocument(bytes: TestForms.make(needAppearances: true))))
        #expect(form.needsAppearances)
        var filler = FormFiller(form: form)
        for (field, text) in Self.values { try filler.set(field, to: .text(text)) }
        let path = try TestPaths.temporaryDirectory("forms") + "/need-appearances.pdf"
        try Data(try filler.documentBytes()).write(to: URL(fileURLWithPath: path))

        #expect(try Oracle.qpdfCheck(path).status == 0)
        let read = try Oracle.pypdfFieldValues(path)
        // MuPDF puts each cell of the comb field on a line of its own: compare without white space.
        let text = try Oracle.mutoolText(path).filter { !$0.isWhitespace }
        for (field, value) in Self.values {
            #expect(read[field] == value, "pypdf reads \(read[field] ?? "nothing") for \(field)")
            #expect(text.contains(value.filter { !$0.isWhitespace }), "MuPDF does not show \(value): \(text)")
        }

        // Our appearances are the ones drawn: the flag is gone.
        let filled = try #require(AcroForm(document: try PDFDocument(contentsOfFile: path)))
        #expect(!filled.needsAppearances)
    }

    @Test("a viewer that makes its own appearances from /DA (poppler with /NeedAppearances) shows every value")
    func regeneratedFromDefaultAppearance() throws {
        let form = try #require(AcroForm(document: try PDFDocument(bytes: TestForms.make(needAppearances: true))))
        var filler = FormFiller(form: form)
        for (field, text) in Self.values { try filler.set(field, to: .text(text)) }
        let directory = try TestPaths.temporaryDirectory("forms")
        let path = directory + "/need-appearances-da.pdf"
        try Data(try filler.documentBytes()).write(to: URL(fileURLWithPath: path))

        // Each widget drawn with an embedded font names it in its /DA, size kept, and /DR has it.
        let filled = try #require(AcroForm(document: try PDFDocument(contentsOfFile: path)))
        let resources = try #require(filled.defaultResources)
        let fonts = try #require(filled.document.resolve(resources[.font] ?? .null).dictionaryValue)
        #expect(fonts[PDFName("Helv")] != nil, "the form's own fonts stay")
        for name in ["name", "address.city", "notes"] {
            let widget = try #require(filled.field(named: name)?.widgets.first)
            let da = try #require(widget.dictionary[.da].flatMap { filled.document.resolve($0).stringValue?.text })
            let appearance = DefaultAppearance(da)
            let fontName = try #require(appearance.fontName)
            let font = try #require(filled.document.resolve(fonts[fontName] ?? .null).dictionaryValue)
            #expect(font[.subtype]?.nameValue == PDFName("Type0"), "\(name): \(da)")
            #expect(appearance.fontSize == (name == "notes" ? 10 : 0), "\(name): \(da)")
        }
        #expect(try Oracle.qpdfCheck(path).status == 0)

        // A viewer asked to make the appearances again: poppler regenerates every field from /DA.
        let regenerated = directory + "/regenerated.pdf"
        let script = """
            import sys, pikepdf
            pdf = pikepdf.open(sys.argv[1])
            pdf.Root.AcroForm.NeedAppearances = True
            pdf.save(sys.argv[2])
            """
        let saved = try Oracle.run("python3", ["-c", script, path, regenerated])
        try #require(saved.status == 0, "\(saved.errors)")
        let shown = try Oracle.run("pdftotext", [regenerated, "-"])
        let text = shown.output.filter { !$0.isWhitespace }
        for (_, value) in Self.values {
            #expect(text.contains(value.filter { !$0.isWhitespace }), "poppler does not show \(value): \(shown.output)")
        }
        #expect(!shown.errors.contains("couldn't find a font"), "\(shown.errors)")
    }
}
