import Foundation
import PDFCore
import PDFTestSupport
import Testing

@testable import PDFForms

@Suite("Filling forms: validation, appearances, saving (checked by pypdf, qpdf and MuPDF)")
struct FillingTests {
    static func filler(needAppearances: Bool = false) throws -> (FormFiller, [UInt8]) {
        let bytes = TestForms.make(needAppearances: needAppearances)
        let form = try #require(AcroForm(document: try PDFDocument(bytes: bytes)))
        return (FormFiller(form: form), bytes)
    }

    @Test(
        "invalid values are refused with the field's name and the right code",
        arguments: [
            ("missing", FormInput.text("x"), FormError.Code.unknownField),
            ("locked", .text("x"), .readOnly),
            ("short", .text("too long"), .tooLong),
            ("country", .text("Spain"), .invalidOption),
            ("color", .text("purple"), .invalidOption),
            ("agree", .list(["a", "b"]), .wrongKind),
            ("name", .bool(true), .wrongKind),
            ("country", .list(["France", "Italy"]), .wrongKind),
            ("send", .text("x"), .wrongKind),
            ("signature", .text("x"), .wrongKind),
        ])
    func invalid(name: String, input: FormInput, code: FormError.Code) throws {
        var (filler, _) = try Self.filler()
        do {
            try filler.set(name, to: input)
            Issue.record("\(name) accepted \(input)")
        } catch {
            #expect(error.code == code)
            #expect(error.field == name)
            #expect(error.description.contains(name))
        }
        #expect(filler.values.isEmpty)
    }

    @Test("setValues keeps nothing when one value fails")
    func atomic() throws {
        var (filler, _) = try Self.filler()
        #expect(throws: FormError(.readOnly, "")) {
            try filler.setValues([("name", .text("Ada")), ("locked", .text("no"))])
        }
        #expect(filler.values.isEmpty)
    }

    @Test("filled values are what pypdf reads back, what MuPDF shows, and qpdf accepts the file")
    func fillAndCheck() throws {
        var (filler, original) = try Self.filler()
        try filler.setValues([
            ("name", .text("Ada Lovelace")),
            ("notes", .text("First line of notes, long enough to wrap inside the box.\nSecond line")),
            ("code", .text("AB12CD")), ("short", .text("right")), ("agree", .bool(true)), ("color", .text("green")),
            ("country", .text("Germany")), ("languages", .list(["en", "fr"])), ("address.city", .text("Zürich")),
        ])
        let bytes = try filler.documentBytes()
        #expect(Array(bytes.prefix(original.count)) == original)
        let path = try TestPaths.temporaryDirectory("forms") + "/filled.pdf"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect(try Oracle.qpdfCheck(path).status == 0)
        let values = try Oracle.pypdfFieldValues(path)
        #expect(values["name"] == "Ada Lovelace")
        #expect(values["agree"] == "Yes")
        #expect(values["color"] == "green")
        #expect(values["country"] == "Germany")
        #expect(values["languages"] == "en|fr")
        #expect(values["address.city"] == "Zürich")
        #expect(values["code"] == "AB12CD")
        let text = try Oracle.mutoolText(path)
        for shown in ["Ada Lovelace", "Germany", "Zürich", "English", "Second line", "right"] {
            #expect(text.contains(shown), "MuPDF does not show \(shown): \(text)")
        }
        // The comb field draws one character per cell.
        #expect(text.contains("A") && text.contains("D"))

        // Our own reading agrees, and the radio widgets show only the chosen state.
        let reopened = try #require(AcroForm(document: try PDFDocument(bytes: bytes)))
        let color = try #require(reopened.field(named: "color"))
        #expect(color.value == .state("green"))
        #expect(color.widgets.map(\.appearanceState) == ["Off", "green", "Off"])
        #expect(reopened.field(named: "agree")?.widgets.first?.appearanceState == "Yes")
    }

    @Test("text outside WinAnsi is drawn with an embedded system font that MuPDF can read back")
    func nonLatin() throws {
        var (filler, _) = try Self.filler()
        let samples = ["Ελληνικά κείμενο", "Кириллица", "漢字とかな"]
        try filler.set("name", to: .text(samples[0]))
        try filler.set("address.city", to: .text(samples[1]))
        try filler.set("notes", to: .text(samples[2]))
        let path = try TestPaths.temporaryDirectory("forms") + "/unicode.pdf"
        try Data(try filler.documentBytes()).write(to: URL(fileURLWithPath: path))
        #expect(try Oracle.qpdfCheck(path).status == 0)
        let text = try Oracle.mutoolText(path)
        for sample in samples { #expect(text.contains(sample), "MuPDF does not show \(sample): \(text)") }
        let fonts = try Oracle.run("pdffonts", [path]).output
        #expect(fonts.contains("CID TrueType"))
    }

    @Test("a form with /NeedAppearances gets real appearances and loses the flag; refusing gives -137")
    func needAppearances() throws {
        var (filler, _) = try Self.filler(needAppearances: true)
        try filler.set("name", to: .text("Grace"))
        let document = try PDFDocument(bytes: try filler.documentBytes())
        let form = try #require(AcroForm(document: document))
        #expect(!form.needsAppearances)
        for field in form.fields where field.kind == .text {
            for widget in field.widgets { #expect(widget.dictionary[PDFName("AP")] != nil, "\(field.name)") }
        }
        filler.options.needAppearances = .refuse
        do {
            _ = try filler.makeUpdate()
            Issue.record("expected a refusal")
        } catch {
            #expect(error.code == .needAppearances)
            #expect(error.signoCode == -137)
        }
    }

    @Test("flattening draws the appearances into the page and removes the fields but the signature")
    func flatten() throws {
        var (filler, _) = try Self.filler()
        try filler.set("name", to: .text("Flattened text"))
        let filled = try PDFDocument(bytes: try filler.documentBytes())
        let form = try #require(AcroForm(document: filled))
        let bytes = try FormFlattener(form: form).makeUpdate().documentBytes()
        let path = try TestPaths.temporaryDirectory("forms") + "/flat.pdf"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect(try Oracle.qpdfCheck(path).status == 0)
        #expect(try Oracle.mutoolText(path).contains("Flattened text"))
        let flattened = try #require(AcroForm(document: try PDFDocument(bytes: bytes)))
        #expect(flattened.fields.map(\.name) == ["signature"])
    }
}
