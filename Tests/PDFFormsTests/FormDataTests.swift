import PDFCore
import PDFTestSupport
import Testing

@testable import PDFForms

@Suite("Form data: JSON and XFDF")
struct FormDataTests {
    @Test("JSON values read and write in order, with escapes")
    func json() throws {
        let values = try FormValues(
            json: #"{"a": "x \"quoted\" \u00e9", "b": true, "c": ["1", "2"], "d": null, "e": 5}"#)
        #expect(values.entries.map(\.name) == ["a", "b", "c", "e"])
        #expect(values.entries[0].value == .text("x \"quoted\" é"))
        #expect(values.entries[1].value == .bool(true))
        #expect(values.entries[2].value == .list(["1", "2"]))
        #expect(values.entries[3].value == .text("5"))
        #expect(try FormValues(json: values.json) == values)
        #expect(throws: FormError(.invalidData, "")) { try FormValues(json: "{\"a\": }") }
        #expect(throws: FormError(.invalidData, "")) { try FormValues(json: "[1, 2]") }
    }

    @Test("values round-trip JSON → XFDF → JSON through a form")
    func roundTrip() throws {
        let form = try #require(AcroForm(document: try PDFDocument(bytes: TestForms.make())))
        let values = try FormValues(
            json: """
                {"name": "Ada & <Co>", "agree": true, "color": "blue", "languages": ["de", "it"], "address.city": "Genève"}
                """)
        let xfdf = XFDF.encode(values, form: form)
        #expect(xfdf.contains("<field name=\"address\">"))
        #expect(xfdf.contains("Ada &amp; &lt;Co&gt;"))
        let decoded = try XFDF.decode(xfdf, form: form)
        #expect(decoded == values)
        #expect(try FormValues(json: decoded.json) == values)
    }

    @Test("exported values of a filled form import back unchanged")
    func exportImport() throws {
        let form = try #require(AcroForm(document: try PDFDocument(bytes: TestForms.make())))
        var filler = FormFiller(form: form)
        try filler.setValues([("name", .text("Ada")), ("agree", .bool(true)), ("languages", .list(["en", "fr"]))])
        let filled = try #require(AcroForm(document: try PDFDocument(bytes: try filler.documentBytes())))
        let exported = FormValues(form: filled)
        #expect(exported.entries.first { $0.name == "name" }?.value == .text("Ada"))
        #expect(exported.entries.first { $0.name == "agree" }?.value == .bool(true))
        #expect(exported.entries.first { $0.name == "languages" }?.value == .list(["en", "fr"]))
        var again = FormFiller(form: filled)
        try again.setValues(try XFDF.decode(XFDF.encode(exported, form: filled), form: filled).entries)
        // Every value is accepted; the read-only field's unchanged value is no change to write.
        #expect(again.values.map(\.name) == exported.entries.map(\.name).filter { $0 != "locked" })
    }

    @Test("XFDF that is not XFDF is refused")
    func badXFDF() {
        #expect(throws: FormError(.invalidData, "")) { try XFDF.decode("<html></html>") }
        #expect(throws: FormError(.invalidData, "")) { try XFDF.decode("<xfdf><fields>") }
    }
}
