import Foundation
import PDFRendering
import PDFTestSupport
import Testing

/// Our PNG writer against Pillow (and zlib's checks of the checksums): banded deflating must give
/// one valid stream whose pixels are the image's, opaque or not.
@Suite("PNG encoder")
struct PNGEncoderTests {
    /// A 1400×1000 image (5.6 MB: several bands) with gradients, a blank margin and, unless
    /// `opaque`, an alpha ramp; premultiplied as rendered images are.
    static func image(opaque: Bool) -> RenderedImage {
        let (width, height) = (1400, 1000)
        var rgba = [UInt8](repeating: 255, count: width * height * 4)
        for y in 100..<height {
            for x in 0..<width {
                let alpha = opaque ? 255 : (x + y) % 256
                let index = (y * width + x) * 4
                rgba[index] = UInt8(x % 256 * alpha / 255)
                rgba[index + 1] = UInt8(y % 256 * alpha / 255)
                rgba[index + 2] = UInt8((x ^ y) % 256 * alpha / 255)
                rgba[index + 3] = UInt8(alpha)
            }
        }
        return RenderedImage(width: width, height: height, rgba: rgba)
    }

    /// The pixels of `path` as Pillow reads them (straight RGBA), hex-encoded SHA-256.
    static func pillowDigest(_ path: String) throws -> String? {
        let script = """
            import sys, hashlib
            from PIL import Image
            image = Image.open(sys.argv[1]); image.load()
            print(image.mode, hashlib.sha256(image.convert("RGBA").tobytes()).hexdigest())
            """
        let result = try Oracle.run("python3", ["-c", script, path])
        return result.status == 0 ? result.output.trimmingCharacters(in: .whitespacesAndNewlines) : nil
    }

    @Test(
        "bands deflated on threads give the same pixels as one band",
        .enabled(if: Requirement.python("PIL"), "Pillow is not installed"), arguments: [true, false])
    func bandsMatchOneStream(opaque: Bool) throws {
        let image = Self.image(opaque: opaque)
        let directory = NSTemporaryDirectory() + "png-encoder-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var digests: [String] = []
        for threads in [1, 3, 8] {
            let png = image.pngData(maxThreads: threads)
            let path = "\(directory)/\(threads).png"
            try Data(png).write(to: URL(fileURLWithPath: path))
            let digest = try #require(try Self.pillowDigest(path), "Pillow cannot read the PNG of \(threads) bands")
            digests.append(digest)
            // Our reader too (it un-premultiplies back): the same size.
            let decoded = try #require(RenderedImage(pngData: png))
            #expect(decoded.width == image.width && decoded.height == image.height)
        }
        #expect(digests[0].hasPrefix(opaque ? "RGB " : "RGBA "))
        #expect(Set(digests).count == 1, "\(digests)")
    }
}
