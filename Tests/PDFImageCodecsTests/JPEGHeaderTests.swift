import PDFCore
import PDFTestSupport
import Testing

@testable import PDFImageCodecs

/// libjpeg's own reading of a frame header (`jpeg_read_header`) is what the pixel limit is checked on,
/// before `jpeg_start_decompress` allocates anything for it.
@Suite("JPEG frame headers as libjpeg reads them")
struct JPEGHeaderTests {
    @Test("a frame header of 60000×60000 is refused by the decoder itself, from libjpeg's reading")
    func libjpegHeaderChecked() throws {
        let jpeg = try HostileImages.jpeg(frames: [(60000, 60000)])
        let clock = ContinuousClock()
        let start = clock.now
        #expect(throws: PDFError(.invalidArgument, "")) {
            _ = try JPEGCodec.decode(jpeg, minimumWidth: 1, minimumHeight: 1, maxPixels: 50_000_000)
        }
        #expect(clock.now - start < .seconds(2))
        let photo = try HostileImages.jpeg(frames: [(64, 40)])
        #expect(throws: PDFError(.invalidArgument, "")) {
            _ = try JPEGCodec.decodeComponents(photo, maxPixels: 64 * 40 - 1)
        }
        #expect(try JPEGCodec.decodeComponents(photo, maxPixels: 64 * 40).width == 64)
    }

    @Test("the size a caller read must be the size libjpeg reads")
    func frameMustMatch() throws {
        let photo = try HostileImages.jpeg(frames: [(64, 40)])
        #expect(throws: PDFError(.decodeFailed, "")) {
            _ = try JPEGCodec.decode(photo, minimumWidth: 1, minimumHeight: 1, frame: (64, 41))
        }
        #expect(try JPEGCodec.decode(photo, minimumWidth: 64, minimumHeight: 40, frame: (64, 40)).width == 64)
    }

    @Test("two start-of-frame markers are refused by libjpeg, in either order")
    func twoFrames() throws {
        for frames in [[(64, 40), (60000, 60000)], [(60000, 60000), (64, 40)]] {
            let jpeg = try HostileImages.jpeg(frames: frames.map { (width: $0.0, height: $0.1) })
            #expect(throws: PDFError.self) { _ = try JPEGCodec.decodeComponents(jpeg) }
        }
    }
}
