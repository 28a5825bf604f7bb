import PDFCore
import PDFTestSupport
import Testing

@testable import PDFAuthoring

/// The size an image is checked for before it is placed is the size decoded: every start-of-frame marker
/// of a JPEG and every IHDR of a PNG count, and headers out of order are refused (libjpeg's own reading of
/// the frame header is checked too: `JPEGHeaderTests`).
@Suite("Placed images: every header counts")
struct ImageHeaderTests {
    typealias Images = HostileImages

    @Test("a PNG with IHDR 1×1 then 16000×16000 is refused from its headers, before any decoding")
    func pngSecondHeader() throws {
        let bomb = Images.pngWithSecondHeader()
        #expect(ImageXObject.declaredSize(of: bomb) == nil)
        #expect(throws: PDFError(.invalidArgument, "")) {
            try ImageXObject.checkDeclaredSize(of: bomb, maxPixels: ImageXObject.defaultMaximumPixels)
        }
        let clock = ContinuousClock()
        let start = clock.now
        #expect(throws: PDFError(.invalidArgument, "")) {
            _ = try ImageXObject(data: bomb, maxWidth: 200, maxHeight: 200)
        }
        #expect(throws: PDFError(.invalidArgument, "")) { _ = try ImageXObject(data: bomb) }
        #expect(clock.now - start < .seconds(5))
        // Two small headers: within the limit, but out of order all the same.
        let twice = Images.png([
            Images.ihdr(width: 1, height: 1), Images.ihdr(width: 2, height: 2),
            Images.zeroImageData(inflatingTo: 14),
        ])
        #expect(throws: PDFError(.decodeFailed, "")) { try ImageXObject.checkDeclaredSize(of: twice, maxPixels: 100) }
        #expect(throws: PDFError(.decodeFailed, "")) { _ = try ImageXObject(data: twice) }
    }

    @Test("a JPEG with a small start-of-frame and a huge one, in either order, is refused from its headers")
    func jpegSecondFrame() throws {
        for frames in [[(64, 40), (60000, 60000)], [(60000, 60000), (64, 40)]] {
            let jpeg = try Images.jpeg(frames: frames.map { (width: $0.0, height: $0.1) })
            #expect(ImageXObject.declaredSize(of: jpeg) == nil)
            #expect(throws: PDFError(.invalidArgument, ""), "\(frames)") {
                try ImageXObject.checkDeclaredSize(of: jpeg, maxPixels: ImageXObject.defaultMaximumPixels)
            }
            #expect(throws: PDFError(.invalidArgument, "")) {
                _ = try ImageXObject(data: jpeg, maxWidth: 10, maxHeight: 10)
            }
        }
        let twice = try Images.jpeg(frames: [(64, 40), (64, 40)])
        #expect(throws: PDFError(.decodeFailed, "")) {
            try ImageXObject.checkDeclaredSize(of: twice, maxPixels: 10_000)
        }
        #expect(JPEGFrame(twice) == nil)
    }

    @Test("well-formed images within the limit are placed as before; above it they are refused")
    func wellFormed() throws {
        let jpeg = try Images.jpeg(frames: [(64, 40)])
        let placed = try ImageXObject(data: jpeg, maxWidth: 100, maxHeight: 100)
        #expect((placed.width, placed.height) == (64, 40))
        #expect(placed.image.encodedBytes() == jpeg)
        let scaled = try ImageXObject(data: Images.blackPNG(width: 300, height: 200), maxWidth: 30, maxHeight: 30)
        #expect((scaled.width, scaled.height) == (30, 20))
        let png = Images.blackPNG(width: 300, height: 200)
        #expect(ImageXObject.declaredSize(of: png)! == (300, 200))
        #expect(throws: PDFError(.invalidArgument, "")) { _ = try ImageXObject(data: png, maxPixels: 59_999) }
        #expect(try ImageXObject(data: png, maxPixels: 60_000).width == 300)
    }
}
