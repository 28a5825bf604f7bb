import PDFCore
import PDFTestSupport
import Testing

@testable import PDFImageCodecs

/// PNG's chunk order (W3C PNG §5.6) is enforced, so the size checked before decoding is the size decoded,
/// and image data is inflated no further than that size needs.
@Suite("PNG chunks in order, and no more image data than the header needs")
struct PNGChunkOrderTests {
    typealias Images = HostileImages

    static let idat = Images.zeroImageData(inflatingTo: (2 * 3 + 1) * 2)
    static let palette = Images.pngChunk("PLTE", [0, 0, 0, 255, 255, 255])

    @Test("IHDR 1×1 then IHDR 16000×16000 (747 KB) is refused at once, not decoded from the second header")
    func secondHeader() throws {
        let bomb = Images.pngWithSecondHeader()
        #expect(bomb.count < 800_000)
        let clock = ContinuousClock()
        let start = clock.now
        #expect(throws: PDFError(.decodeFailed, "")) { _ = try PNGImage(bomb).samples() }
        #expect(clock.now - start < .seconds(2))
        let chunks = try PNGChunks(bomb)
        #expect(chunks.headers.map(\.width) == [1, 16000])
        #expect(chunks.problem?.contains("more than one IHDR") == true)
    }

    @Test(
        "chunks out of PNG's order are refused",
        arguments: [
            (
                "tEXt before IHDR",
                [Images.pngChunk("tEXt", Array("a\u{0}b".utf8)), Images.ihdr(width: 2, height: 2), idat]
            ),
            ("PLTE after IDAT", [Images.ihdr(width: 2, height: 2, colorType: 3), idat, palette]),
            ("two PLTE", [Images.ihdr(width: 2, height: 2, colorType: 3), palette, palette, idat]),
            ("IDATs apart", [Images.ihdr(width: 2, height: 2), idat, Images.pngChunk("tEXt", [0x61, 0]), idat]),
            (
                "a second IHDR of the same size",
                [Images.ihdr(width: 2, height: 2), Images.ihdr(width: 2, height: 2), idat]
            ),
            ("no IHDR", [idat]),
        ] as [(String, [[UInt8]])]
    )
    func outOfOrder(_ what: String, chunks: [[UInt8]]) throws {
        let png = Images.png(chunks)
        #expect(throws: PDFError(.decodeFailed, ""), "\(what)") { _ = try PNGImage(png) }
        #expect(try PNGChunks(png).problem != nil, "\(what)")
    }

    @Test("in order, a PNG decodes; what follows IEND is not read, a second IHDR there included")
    func inOrder() throws {
        let plain = Images.png([Images.ihdr(width: 2, height: 2), Self.idat])
        #expect(try PNGImage(plain).samples() == [UInt8](repeating: 0, count: 12))
        let indexed = Images.png([Images.ihdr(width: 2, height: 2, colorType: 3), Self.palette, Self.idat])
        #expect(try PNGImage(indexed).raster().pixels == [UInt8](repeating: 0, count: 12))
        let trailing = plain + Images.ihdr(width: 16000, height: 16000) + Self.idat
        #expect(try PNGImage(trailing).width == 2)
        #expect(try PNGChunks(trailing).headers.count == 1)
    }

    @Test("a 1×1 PNG whose image data inflates to 1 GiB decodes its one pixel at once")
    func imageDataBomb() throws {
        let png = Images.png([Images.ihdr(width: 1, height: 1), Images.zeroImageData(inflatingTo: 1 << 30)])
        #expect(png.count < 1_200_000)
        let clock = ContinuousClock()
        let start = clock.now
        #expect(try PNGImage(png).samples() == [0, 0, 0])
        #expect(clock.now - start < .seconds(2))
    }

    @Test("more pixels than allowed is refused from the header")
    func pixelLimit() throws {
        let png = Images.blackPNG(width: 300, height: 200)
        #expect(throws: PDFError(.invalidArgument, "")) { _ = try PNGImage(png, maxPixels: 59_999) }
        #expect(try PNGImage(png, maxPixels: 60_000).width == 300)
    }

    @Test("each prefix of a PNG reads or is refused, never crashes")
    func truncationSweep() throws {
        let png = Images.png([Images.ihdr(width: 2, height: 2, colorType: 3), Self.palette, Self.idat])
        for end in 0...png.count {
            let prefix = Array(png[..<end])
            _ = try? PNGChunks(prefix)
            _ = try? PNGImage(prefix).raster()
        }
    }
}
