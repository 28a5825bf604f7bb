import Foundation
import PDFCore
import PDFTestSupport
import Testing

@testable import PDFForms

/// Values mixing scripts that no installed font covers alone (people's names do) are drawn run by
/// run: the field's font where it has the glyphs, installed fonts for the rest.
@Suite(
    "Filling mixed-script values with a chain of fonts",
    .enabled(if: Requirement.systemFont(covering: "李小龍"), "no installed font covers CJK"))
struct MixedScriptFillingTests {
    static func fill(_ values: [(String, String)]) throws -> String {
        let form = try #require(AcroForm(document: try PDFDocument(bytes: TestForms.make())))
        var filler = FormFiller(form: form)
        for (field, text) in values { try filler.set(field, to: .text(text)) }
        let path = try TestPaths.temporaryDirectory("forms") + "/mixed.pdf"
        try Data(try filler.documentBytes()).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The embedded subsets `pdffonts` lists (a `yes yes` in its emb and sub columns).
    static func embeddedSubsets(_ path: String) throws -> [String] {
        try Oracle.run("pdffonts", [path]).output.split(separator: "\n").filter {
            $0.contains("+") && $0.contains(" yes yes ")
        }.map(String.init)
    }

    // Where one installed font has both "ë" and "李" (check with fc-list), nothing needs a chain.
    @Test(
        "Zoë 李 and Latin mixed with CJK, Greek and Arabic show in MuPDF; comb, wrapping and alignment use each run's font",
        .enabled(if: !Requirement.systemFont(covering: "Zoë 李"), "an installed font covers Zoë 李 alone"))
    func mixedValues() throws {
        let values = [
            ("name", "Zoë 李"), ("address.city", "Ada Lovelace 東京"), ("short", "Zoë李"), ("code", "Zo李12"),
            ("notes", "Ζωή Παπαδοπούλου 李小龍 Ada مرحبا and a line long enough to wrap inside the box"),
        ]
        let path = try Self.fill(values)
        #expect(try Oracle.qpdfCheck(path).status == 0)
        let read = try Oracle.pypdfFieldValues(path)
        let text = try Oracle.mutoolText(path).filter { !$0.isWhitespace }
        for (field, value) in values {
            #expect(read[field] == value, "pypdf reads \(read[field] ?? "nothing") for \(field)")
            if field != "notes" {
                #expect(text.contains(value.filter { !$0.isWhitespace }), "MuPDF does not show \(value): \(text)")
            }
        }
        for word in ["Ζωή", "李小龍", "Ada", "wrap"] { #expect(text.contains(word), "MuPDF does not show \(word)") }
        // Helvetica draws the Latin runs; Greek and Arabic come from one installed font, CJK from another.
        let subsets = try Self.embeddedSubsets(path)
        #expect(subsets.count >= 2, "\(subsets)")

        // The right-aligned field switches fonts between runs.
        let document = try PDFDocument(contentsOfFile: path)
        let form = try #require(AcroForm(document: document))
        let widget = try #require(form.field(named: "short")?.widgets.first)
        let appearance = try #require(widget.dictionary[.ap].flatMap { document.resolve($0).dictionaryValue })
        let stream = try #require(appearance[.n].flatMap { document.resolve($0).streamValue })
        let content = String(decoding: try stream.decodedData(), as: UTF8.self)
        #expect(content.components(separatedBy: " Tf").count - 1 >= 3, "a Tf per run: \(content)")
    }

    @Test("a character no installed font has is refused, named by its code point")
    func missingCharacter() throws {
        let form = try #require(AcroForm(document: try PDFDocument(bytes: TestForms.make())))
        var filler = FormFiller(form: form)
        try filler.set("name", to: .text("Zoë \u{E000}"))
        do {
            _ = try filler.makeUpdate()
            Issue.record("a private-use character was drawn")
        } catch {
            #expect(error.code == .fontUnavailable)
            #expect(error.description.contains("U+E000"), "\(error)")
            #expect(error.field == "name")
        }
    }
}
