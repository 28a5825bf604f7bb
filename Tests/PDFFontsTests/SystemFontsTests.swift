import PDFAuthoring
import PDFCore
import Testing

@testable import PDFFonts

@Suite("SystemFonts: fontconfig finds an installed font that covers a text")
struct SystemFontsTests {
    @Test("Greek, Cyrillic and Arabic are covered by DejaVu Sans (TrueType)")
    func europeanAndArabic() throws {
        let text = "Ελληνικά Кириллица العربية"
        let file = try #require(SystemFonts.font(covering: text))
        #expect(file.path.hasSuffix("/DejaVuSans.ttf"), "\(file.path)")
        #expect(file.index == 0)
        let font = try EmbeddedFont(fontFile: file)
        #expect(font.canEncode(text))
    }

    @Test("Han and kana are covered by Droid Sans Fallback")
    func cjk() throws {
        let file = try #require(SystemFonts.font(covering: "漢字かな"))
        #expect(file.path.hasSuffix("/DroidSansFallbackFull.ttf"), "\(file.path)")
        #expect(try EmbeddedFont(fontFile: file).canEncode("漢字かな"))
    }

    @Test("a private-use character that no font has gives nil", arguments: ["\u{E000}", "abc\u{10FFFD}"])
    func uncovered(text: String) {
        #expect(SystemFonts.font(covering: text) == nil)
    }

    @Test("a generic family prefers TrueType outlines over CFF fonts that cover as much")
    func prefersTrueType() throws {
        let file = try #require(SystemFonts.font(covering: "Hello", family: "serif"))
        #expect(TrueTypeFile.outlineFormat(ofFileAt: file.path, index: file.index) == .trueType, "\(file.path)")
    }

    @Test("a family named explicitly wins, in TrueType when it exists, else in CFF")
    func namedFamily() throws {
        let serif = try #require(SystemFonts.font(covering: "Hello", family: "DejaVu Serif"))
        #expect(serif.path.hasSuffix("/DejaVuSerif.ttf"), "\(serif.path)")
        // Nimbus Sans is installed as OpenType/CFF and Type 1 only: the CFF file is returned.
        let nimbus = try #require(SystemFonts.font(covering: "Hello", family: "Nimbus Sans"))
        #expect(nimbus.path.hasSuffix(".otf"), "\(nimbus.path)")
        #expect(TrueTypeFile.outlineFormat(ofFileAt: nimbus.path, index: nimbus.index) == .cff)
    }

    @Test("lookups from many tasks at once agree")
    func concurrent() async {
        let results = await withTaskGroup(of: SystemFonts.FontFile?.self) { group in
            for index in 0..<16 {
                group.addTask { SystemFonts.font(covering: index % 2 == 0 ? "Ελληνικά" : "漢字") }
            }
            var results: [SystemFonts.FontFile?] = []
            for await result in group { results.append(result) }
            return results
        }
        #expect(results.count == 16)
        #expect(Set(results.compactMap { $0?.path }).count == 2)
    }
}
