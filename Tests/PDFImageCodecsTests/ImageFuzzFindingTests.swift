import PDFTestSupport
import Testing

@testable import PDFImageCodecs

/// The inputs `FuzzImages` found, and its seeds made here, replayed through ``ImageFuzzInput``: each
/// decodes or is refused, with as many samples as the image's size calls for, quickly.
@Suite("FuzzImages findings")
struct ImageFuzzFindingTests {
    @Test("each kept input decodes or is refused, quickly", arguments: FuzzFindings.names("FuzzImages"))
    func replay(_ name: String) throws {
        let input = try FuzzFindings.input("FuzzImages", name)
        #expect(FuzzFindings.seconds { ImageFuzzInput.run(input) } < 20)
    }
}
