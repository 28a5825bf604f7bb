import Foundation
import PDFCore
import PDFTestSupport
import Testing

@testable import PDFForms

/// Distinct field dictionaries with one fully qualified name (invalid, but common): one field with
/// all their widgets, filled together, as Acrobat treats them; MuPDF then shows the value in each.
@Suite("Fields sharing a fully qualified name are one field")
struct SameNameFieldTests {
    /// Two text fields named `Name` at the top level, a `Name` kid under `person` twice, and two
    /// checkboxes named `Agree`; each field is merged with its widget.
    static func form(checkboxName: String = "Agree") -> [UInt8] {
        var pdf = RawPDF()
        pdf.object(
            1,
            "<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [5 0 R 6 0 R 7 0 R 11 0 R 8 0 R 9 0 R] /DA (/Helv 0 Tf 0 g) /DR << /Font << /Helv 14 0 R >> >> >> >>"
        )
        pdf.object(2, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
        pdf.object(
            3,
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 400 400] /Contents 4 0 R /Annots [5 0 R 6 0 R 10 0 R 15 0 R 8 0 R 9 0 R] >>"
        )
        pdf.stream(4, dictionary: "", data: [])
        let text = "/FT /Tx /Subtype /Widget /Type /Annot /P 3 0 R /F 4 /DA (/Helv 12 Tf 0 g)"
        pdf.object(5, "<< /T (Name) \(text) /Rect [20 340 220 370] >>")
        pdf.object(6, "<< /T (Name) \(text) /Rect [20 290 220 320] >>")
        // Two `person` parents, each with a kid named `id`: "person.id" twice.
        pdf.object(7, "<< /T (person) /Kids [10 0 R] >>")
        pdf.object(
            8,
            "<< /T (\(checkboxName)) /FT /Btn /Subtype /Widget /Type /Annot /P 3 0 R /F 4 /Rect [20 200 40 220] /AS /Off /AP << /N << /Yes 12 0 R /Off 13 0 R >> >> >>"
        )
        pdf.object(
            9,
            "<< /T (\(checkboxName)) /FT /Btn /Subtype /Widget /Type /Annot /P 3 0 R /F 4 /Rect [60 200 80 220] /AS /Off /AP << /N << /Yes 12 0 R /Off 13 0 R >> >> >>"
        )
        pdf.object(10, "<< /T (id) /Parent 7 0 R \(text) /Rect [20 240 220 270] >>")
        pdf.object(11, "<< /T (person) /Kids [15 0 R] >>")
        pdf.stream(
            12, dictionary: "/Type /XObject /Subtype /Form /BBox [0 0 20 20]", data: Array("0 g 2 2 16 16 re f".utf8))
        pdf.stream(
            13, dictionary: "/Type /XObject /Subtype /Form /BBox [0 0 20 20]", data: Array("0 G 1 1 18 18 re S".utf8))
        pdf.object(14, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
        pdf.object(15, "<< /T (id) /Parent 11 0 R \(text) /Rect [220 240 380 270] >>")
        pdf.xrefTable(size: 16, trailer: "<< /Size 16 /Root 1 0 R >>")
        return pdf.bytes
    }

    @Test("the form lists each name once with every widget; filling sets every field and MuPDF shows each")
    func filledTogether() throws {
        let bytes = Self.form()
        let form = try #require(AcroForm(document: try PDFDocument(bytes: bytes)))
        #expect(form.fields.map(\.name) == ["Name", "person.id", "Agree"])
        let name = try #require(form.field(named: "Name"))
        #expect(name.widgets.count == 2 && name.merged.count == 1)
        #expect(form.field(named: "person.id")?.merged.count == 1)
        #expect(form.field(named: "Agree")?.widgets.count == 2)

        var filler = FormFiller(form: form)
        try filler.setValues([("Name", .text("Ada Lovelace")), ("person.id", .text("ID-1815")), ("Agree", .bool(true))])
        let filled = try filler.documentBytes()
        let path = try TestPaths.temporaryDirectory("forms") + "/same-names.pdf"
        try Data(filled).write(to: URL(fileURLWithPath: path))
        #expect(try Oracle.qpdfCheck(path).status == 0)
        let shown = try Oracle.mutoolText(path)
        #expect(shown.components(separatedBy: "Ada Lovelace").count - 1 == 2, "\(shown)")
        #expect(shown.components(separatedBy: "ID-1815").count - 1 == 2, "\(shown)")

        // Every field dictionary holds the value, and both checkboxes show it.
        let reopened = try PDFDocument(bytes: filled)
        for number in [5, 6] {
            #expect(reopened.object(PDFReference(number, 0)).dictionaryValue?[.v]?.stringValue?.text == "Ada Lovelace")
        }
        for number in [10, 15] {
            #expect(reopened.object(PDFReference(number, 0)).dictionaryValue?[.v]?.stringValue?.text == "ID-1815")
        }
        for number in [8, 9] {
            #expect(reopened.object(PDFReference(number, 0)).dictionaryValue?[.as]?.nameValue?.string == "Yes")
        }
    }

    @Test("fields of different kinds under one name stay apart, with a warning")
    func differentKindsStayApart() throws {
        let form = try #require(AcroForm(document: try PDFDocument(bytes: Self.form(checkboxName: "Name"))))
        #expect(form.fields.filter { $0.name == "Name" }.count == 2)
        #expect(form.warnings.contains { $0.contains("different kinds") })
    }
}
