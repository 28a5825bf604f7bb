import Foundation
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

    /// Hostile images kept as regression inputs, by file name: the selector byte, then the image.
    static let hostile: [(name: String, make: @Sendable () throws -> [UInt8])] = [
        // IHDR 1×1, then IHDR 4000×4000 with image data for that size (47 KB).
        ("regression-png-second-ihdr", { [3] + HostileImages.pngWithSecondHeader(width: 4000, height: 4000) }),
        // A 1×1 PNG whose image data inflates to 64 MiB.
        (
            "regression-png-image-data-bomb",
            {
                [3]
                    + HostileImages.png([
                        HostileImages.ihdr(width: 1, height: 1), HostileImages.zeroImageData(inflatingTo: 64 << 20),
                    ])
            }
        ),
        // A JPEG with a 64×40 start-of-frame marker, then a 60000×60000 one.
        ("regression-jpeg-two-frames", { [0] + (try HostileImages.jpeg(frames: [(64, 40), (60000, 60000)])) }),
    ]

    @Test("the hostile images kept are what HostileImages makes (AUTOGRAPH_WRITE_SEEDS=1 writes them)")
    func keptHostileImages() throws {
        for image in Self.hostile {
            let input = try image.make()
            let path = TestPaths.fixture("fuzz", "FuzzImages/\(image.name)")
            if ProcessInfo.processInfo.environment["AUTOGRAPH_WRITE_SEEDS"] != nil {
                try Data(input).write(to: URL(fileURLWithPath: path))
            }
            let kept = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            #expect(
                kept == input, "\(path) is not what HostileImages makes: run this test with AUTOGRAPH_WRITE_SEEDS=1")
        }
    }
}
