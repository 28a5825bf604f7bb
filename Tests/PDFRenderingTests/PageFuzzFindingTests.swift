import PDFTestSupport
import Testing

@testable import PDFRendering

/// The inputs `FuzzFonts` and `FuzzContent` found, and their seeds made here, replayed through
/// ``FontFuzzInput`` and ``ContentFuzzInput``: each page is drawn (or its document refused) without
/// a trap, quickly.
@Suite("FuzzFonts and FuzzContent findings")
struct PageFuzzFindingTests {
    @Test("each kept font program or CMap is drawn, quickly", arguments: FuzzFindings.names("FuzzFonts"))
    func font(_ name: String) throws {
        let input = try FuzzFindings.input("FuzzFonts", name)
        #expect(FuzzFindings.seconds { FontFuzzInput.run(input) } < 20)
    }

    @Test("each kept content stream or function is drawn, quickly", arguments: FuzzFindings.names("FuzzContent"))
    func content(_ name: String) throws {
        let input = try FuzzFindings.input("FuzzContent", name)
        #expect(FuzzFindings.seconds { ContentFuzzInput.run(input) } < 20)
    }

    @Test("the fuzzing page is a well-formed document that draws its content")
    func pageOpens() throws {
        let page = FuzzPage(content: Array("0 0 1 rg 0 0 200 200 re f".utf8), resources: "<< >>")
        #expect(page.draw()?.isEmpty == true)
        let content = ContentFuzzInput.functionPage(kind: 2, Array("{dup dup}".utf8))
        #expect(content.draw() != nil)
    }
}
