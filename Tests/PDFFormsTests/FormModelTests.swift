import PDFAuthoring
import PDFCore
import PDFTestSupport
import Testing

@testable import PDFForms

@Suite("Form model: the field tree, kinds, flags, queries")
struct FormModelTests {
    static func form(needAppearances: Bool = false) throws -> AcroForm {
        try #require(AcroForm(document: try PDFDocument(bytes: TestForms.make(needAppearances: needAppearances))))
    }

    @Test("every terminal field is listed with its fully qualified name and kind")
    func fields() throws {
        let form = try Self.form()
        let kinds = Dictionary(uniqueKeysWithValues: form.fields.map { ($0.name, $0.kind) })
        #expect(
            kinds == [
                "name": .text, "notes": .text, "code": .text, "short": .text, "locked": .text, "agree": .checkbox,
                "color": .radio, "country": .comboBox, "languages": .listBox, "send": .pushButton,
                "signature": .signature, "address.city": .text,
            ])
        let color = try #require(form.field(named: "color"))
        #expect(color.states == ["red", "green", "blue"])
        #expect(color.widgets.count == 3)
        #expect(color.flags.contains(.noToggleToOff))
        let languages = try #require(form.field(named: "languages"))
        #expect(languages.options.map(\.exportValue) == ["de", "en", "fr", "it"])
        #expect(languages.options.map(\.displayText) == ["Deutsch", "English", "Français", "Italiano"])
        #expect(languages.flags.contains(.multiSelect))
        #expect(form.field(named: "code")?.maxLength == 6)
        #expect(form.field(named: "short")?.alignment == .right)
        #expect(form.field(named: "locked")?.value == .text("fixed"))
        let name = try #require(form.field(named: "name"))
        #expect(name.widgets.first?.pageIndex == 0)
        #expect(name.widgets.first?.rect == PDFRectangle(x0: 72, y0: 700, x1: 322, y1: 722))
    }

    @Test("the seeds' queries: editable fields, signature fields, required fields still empty")
    func queries() throws {
        let form = try Self.form()
        #expect(
            form.editableFields.map(\.name).sorted() == [
                "address.city", "agree", "code", "color", "country", "languages", "name", "notes", "short",
            ])
        #expect(form.signatureFields.map(\.name) == ["signature"])
        #expect(form.signatureFields.first?.value == .signature(signed: false))
        #expect(form.missingRequiredFields.isEmpty)
    }

    @Test("a cycle in /Kids is cut with a warning")
    func cycle() throws {
        var raw = RawPDF()
        raw.object(1, "<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [4 0 R] >> >>")
        raw.object(2, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
        raw.object(3, "<< /Type /Page /Parent 2 0 R >>")
        raw.object(4, "<< /T (a) /Kids [5 0 R] >>")
        raw.object(5, "<< /T (b) /Kids [4 0 R 6 0 R] >>")
        raw.object(6, "<< /T (c) /FT /Tx /V (x) >>")
        raw.xrefTable(size: 7, trailer: "<< /Size 7 /Root 1 0 R >>")
        let form = try #require(AcroForm(document: try PDFDocument(bytes: raw.bytes)))
        #expect(form.fields.map(\.name) == ["a.b.c"])
        #expect(!form.warnings.isEmpty)
    }

    @Test("required fields that are empty are reported, filled ones are not")
    func required() throws {
        var raw = RawPDF()
        raw.object(1, "<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [4 0 R 5 0 R 6 0 R] >> >>")
        raw.object(2, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
        raw.object(3, "<< /Type /Page /Parent 2 0 R >>")
        raw.object(4, "<< /T (empty) /FT /Tx /Ff 2 >>")
        raw.object(5, "<< /T (filled) /FT /Tx /Ff 2 /V (yes) >>")
        raw.object(6, "<< /T (box) /FT /Btn /Ff 2 /V /Off >>")
        raw.xrefTable(size: 7, trailer: "<< /Size 7 /Root 1 0 R >>")
        let form = try #require(AcroForm(document: try PDFDocument(bytes: raw.bytes)))
        #expect(form.missingRequiredFields.map(\.name) == ["empty", "box"])
    }
}
