import Foundation
import PDFCore

/// Images made to attack a reader, built in memory by the tests: PNGs whose headers lie about the
/// image decoded (two IHDR chunks, chunks out of order), JPEGs with more than one start-of-frame
/// marker, and zlib data that inflates to far more than it weighs.
public enum HostileImages {
    /// The PNG signature (W3C PNG §5.2).
    public static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// One PNG chunk: length, type, data and CRC-32 (§5.3).
    public static func pngChunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        let crc = body.withUnsafeBytes { Flate.crc32($0) }
        return bigEndian(data.count) + body + bigEndian(Int(crc))
    }

    /// An IHDR chunk: `width`×`height`, 8 bits a sample, of `colorType` (2: RGB), not interlaced.
    public static func ihdr(width: Int, height: Int, colorType: UInt8 = 2) -> [UInt8] {
        pngChunk("IHDR", bigEndian(width) + bigEndian(height) + [8, colorType, 0, 0, 0])
    }

    /// IDAT chunks whose zlib data inflates to `count` zero bytes (filter type 0 rows of black), about
    /// `count` / 1000 bytes of them.
    public static func zeroImageData(inflatingTo count: Int) -> [UInt8] {
        let piece = 1 << 20
        let zeros = [UInt8](repeating: 0, count: piece)
        let data = RepeatedDeflate.zlib(
            [], repeating: zeros, times: count / piece, then: [UInt8](repeating: 0, count: count % piece))
        // Chunks of at most 1 MiB, as encoders write them.
        return stride(from: 0, to: data.count, by: piece).flatMap { start in
            pngChunk("IDAT", Array(data[start..<min(start + piece, data.count)]))
        }
    }

    /// A PNG of `chunks` (each from ``pngChunk(_:_:)``), then IEND.
    public static func png(_ chunks: [[UInt8]]) -> [UInt8] {
        pngSignature + chunks.joined() + pngChunk("IEND", [])
    }

    /// The PNG an upload bomb was: IHDR 1×1, then IHDR `width`×`height` (RGB) with image data for that
    /// size — 747 KB for 16000×16000 — which a decoder that reads the last header decodes to gigabytes.
    public static func pngWithSecondHeader(width: Int = 16000, height: Int = 16000) -> [UInt8] {
        png([
            ihdr(width: 1, height: 1), ihdr(width: width, height: height),
            zeroImageData(inflatingTo: (width * 3 + 1) * height),
        ])
    }

    /// A well-formed `width`×`height` black RGB PNG.
    public static func blackPNG(width: Int, height: Int) -> [UInt8] {
        png([ihdr(width: width, height: height), zeroImageData(inflatingTo: (width * 3 + 1) * height)])
    }

    /// `Tests/Fixtures/images/photo.jpg` (64×40, baseline) with its start-of-frame segment written once for
    /// each size of `frames`, in order (ITU T.81 §B.2.2).
    public static func jpeg(frames: [(width: Int, height: Int)]) throws -> [UInt8] {
        let photo = [UInt8](try Data(contentsOf: URL(fileURLWithPath: TestPaths.fixture("images", "photo.jpg"))))
        guard let start = (2..<(photo.count - 1)).first(where: { photo[$0] == 0xFF && photo[$0 + 1] == 0xC0 }) else {
            throw PDFError(.decodeFailed, "photo.jpg has no SOF0 marker")
        }
        let length = Int(photo[start + 2]) << 8 | Int(photo[start + 3])
        let segment = Array(photo[start..<(start + 2 + length)])
        let copies = frames.map { frame -> [UInt8] in
            var copy = segment
            copy[5] = UInt8(truncatingIfNeeded: frame.height >> 8)
            copy[6] = UInt8(truncatingIfNeeded: frame.height)
            copy[7] = UInt8(truncatingIfNeeded: frame.width >> 8)
            copy[8] = UInt8(truncatingIfNeeded: frame.width)
            return copy
        }
        return Array(photo[..<start]) + copies.joined() + Array(photo[(start + 2 + length)...])
    }

    private static func bigEndian(_ value: Int) -> [UInt8] {
        [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) }
    }
}
