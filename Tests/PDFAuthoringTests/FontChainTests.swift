import PDFCore
import PDFFonts
import PDFTestSupport
import Testing

@testable import PDFAuthoring

@Suite("FontChain: text split into runs, each with the first font that has its glyphs")
struct FontChainTests {
    static let helvetica = StandardFont(.helvetica)

    @Test(
        "Latin stays with the first font, CJK goes to the next, white space stays in its run",
        .enabled(if: Requirement.systemFont(covering: "李"), "no installed font covers CJK"))
    func runs() throws {
        let chain = try FontChain.covering("Zoë 李 Ada", primary: Self.helvetica) {
            (file) throws(PDFError) -> any PDFFont in try EmbeddedFont(fontFile: file)
        }
        try #require(chain.fonts.count == 2)
        #expect(chain.fonts[0] is StandardFont)
        #expect(
            chain.runs("Zoë 李 Ada") == [
                .init(font: 0, text: "Zoë "), .init(font: 1, text: "李 "), .init(font: 0, text: "Ada"),
            ])
        // Widths add up run by run, each with its own font.
        let expected =
            Self.helvetica.width(of: "Zoë ") + chain.fonts[1].width(of: "李 ") + Self.helvetica.width(of: "Ada")
        #expect(abs(chain.width(of: "Zoë 李 Ada") - expected) < 0.001)
        var content = ContentStreamBuilder()
        chain.show("Zoë 李", names: [PDFName("F1"), PDFName("F2")], size: 12, into: &content)
        let operators = String(decoding: content.bytes, as: UTF8.self)
        #expect(operators.contains("/F1 12 Tf") && operators.contains("/F2 12 Tf"), "\(operators)")
    }

    @Test("a font that has everything is used alone; a character no font has is named")
    func singleAndMissing() throws {
        let chain = try FontChain.covering("Ada Lovelace", primary: Self.helvetica) {
            (file) throws(PDFError) -> any PDFFont in try EmbeddedFont(fontFile: file)
        }
        #expect(chain.fonts.count == 1 && chain.runs("Ada Lovelace").count == 1)
        #expect(FontChain.describe("\u{E000}") == "U+E000 \"\u{E000}\"")
        do {
            _ = try FontChain.covering("Ada \u{E000}", primary: Self.helvetica) {
                (file) throws(PDFError) -> any PDFFont in try EmbeddedFont(fontFile: file)
            }
            Issue.record("a private-use character found a font")
        } catch {
            guard case .missing(let character) = error else { Issue.record("\(error)"); return }
            #expect(character == "\u{E000}")
            #expect(error.message(in: "Ada \u{E000}").contains("U+E000"))
        }
    }
}
