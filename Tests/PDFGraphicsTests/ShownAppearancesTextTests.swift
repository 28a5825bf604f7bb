import Foundation
import PDFCore
import PDFForms
import PDFTestSupport
import Testing

@testable import PDFGraphics

/// A form that sets `/NeedAppearances` shows its values only once a viewer makes their
/// appearances: text extraction reads it that way, as poppler does.
@Suite("Text of /NeedAppearances forms")
struct ShownAppearancesTextTests {
    /// The test form with `name` set to `value` and no appearance for it.
    static func form(needAppearances: Bool, value: String) throws -> PDFDocument {
        let base = try PDFDocument(bytes: TestForms.make(needAppearances: needAppearances))
        let field = try #require(AcroForm(document: base)?.field(named: "name"))
        let reference = try #require(field.reference)
        var dictionary = try #require(base.resolve(.reference(reference)).dictionaryValue)
        dictionary[PDFName("V")] = .string(PDFString(text: value))
        dictionary[PDFName("AP")] = nil
        var update = IncrementalUpdate(base: base)
        update.replace(reference, with: .dictionary(dictionary))
        return try PDFDocument(bytes: update.documentBytes())
    }

    static func words(_ document: PDFDocument) -> [String] {
        TextExtractor(document: document).text(pageAt: 0).words.map(\.text)
    }

    @Test("the value of a field without an appearance is extracted when the form needs appearances")
    func valueIsExtracted() throws {
        let document = try Self.form(needAppearances: true, value: "Lovelace")
        #expect(!Self.words(document).contains("Lovelace"))
        let shown = document.withShownFieldAppearances()
        #expect(Self.words(shown).contains("Lovelace"))
        // poppler reads the same file so.
        if Requirement.check(
            Requirement.tool("pdftotext"), orWarn: "pdftotext is not installed; poppler's text not compared")
        {
            let path = NSTemporaryDirectory() + "need-appearances-\(UUID().uuidString).pdf"
            try document.withBytes { try Data($0).write(to: URL(fileURLWithPath: path)) }
            defer { try? FileManager.default.removeItem(atPath: path) }
            #expect(try Oracle.run("pdftotext", [path, "-"]).output.contains("Lovelace"))
        }
    }

    @Test("a form that does not need appearances is read as it is")
    func otherFormsUnchanged() throws {
        let document = try Self.form(needAppearances: false, value: "Lovelace")
        #expect(document.withShownFieldAppearances() === document)
    }
}
