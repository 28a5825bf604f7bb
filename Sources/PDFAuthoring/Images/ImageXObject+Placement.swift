public import PDFCore
import PDFImageCodecs

extension ImageXObject {
    /// Reads JPEG or PNG bytes to be shown in at most `maxWidth`×`maxHeight` pixels, as the image
    /// is seen (its EXIF orientation applied). A larger image is scaled down, aspect kept (a JPEG
    /// decoded, scaled and encoded again at `jpegQuality`); one that fits is placed as it is.
    /// - Throws: `.decodeFailed` for other formats or damaged images, `.invalidArgument` for a
    ///   maximum below one pixel.
    public init(
        data: [UInt8], maxWidth: Int, maxHeight: Int, jpegQuality: Int = 90,
        maxPixels: Int = ImageXObject.defaultMaximumPixels
    ) throws(PDFError) {
        guard maxWidth > 0, maxHeight > 0 else {
            throw PDFError(.invalidArgument, "the maximum image size must be at least 1×1 pixel")
        }
        let original = try ImageXObject(data: data, maxPixels: maxPixels)
        let scale = min(
            1, Double(maxWidth) / Double(original.displayWidth), Double(maxHeight) / Double(original.displayHeight))
        guard scale < 1 else {
            // Placed as it is, but decoded once (at 1/8 scale: quick) so damaged data is refused
            // here rather than shown broken.
            if data.starts(with: [0xFF, 0xD8]) {
                _ = try JPEGCodec.decode(
                    data, minimumWidth: 1, minimumHeight: 1, maxPixels: maxPixels,
                    frame: (original.width, original.height))
            }
            self = original
            return
        }
        let targetWidth = max(1, Int((Double(original.width) * scale).rounded()))
        let targetHeight = max(1, Int((Double(original.height) * scale).rounded()))
        if data.starts(with: [0xFF, 0xD8]) {
            let decoded = try JPEGCodec.decode(
                data, minimumWidth: targetWidth, minimumHeight: targetHeight, maxPixels: maxPixels,
                frame: (original.width, original.height))
            let scaled = decoded.downscaled(toWidth: targetWidth, height: targetHeight)
            var jpeg = try ImageXObject.jpeg(try JPEGCodec.encode(scaled, quality: jpegQuality))
            jpeg = ImageXObject(
                width: jpeg.width, height: jpeg.height, image: jpeg.image, softMask: nil,
                orientation: original.orientation)
            self = jpeg
        } else {
            self = try PNGImage(data, maxPixels: maxPixels).raster().downscaled(
                toWidth: targetWidth, height: targetHeight
            )
            .flateXObject()
        }
    }

    /// The width in pixels as the image is seen (orientations 5 to 8 turn it a quarter).
    public var displayWidth: Int { orientation >= 5 ? height : width }
    /// The height in pixels as the image is seen.
    public var displayHeight: Int { orientation >= 5 ? width : height }

    /// The `cm` matrix that draws the image (the unit square of ISO 32000-2 §8.9.4) as large as
    /// fits in `rect`, aspect kept, centred, turned by its orientation. With `alignBottom`, the
    /// image sits on the bottom edge instead of the centre.
    public func matrix(fitting rect: PDFRectangle, alignBottom: Bool = false) -> [Double] {
        let scale = min(rect.width / Double(displayWidth), rect.height / Double(displayHeight))
        let w = Double(displayWidth) * scale
        let h = Double(displayHeight) * scale
        let x = rect.x0 + (rect.width - w) / 2
        let y = alignBottom ? rect.y0 : rect.y0 + (rect.height - h) / 2
        // Where the unit square's axes go for each EXIF orientation (TIFF 6.0 tag 274).
        switch orientation {
        case 2: return [-w, 0, 0, h, x + w, y]
        case 3: return [-w, 0, 0, -h, x + w, y + h]
        case 4: return [w, 0, 0, -h, x, y + h]
        case 5: return [0, -h, -w, 0, x + w, y + h]
        case 6: return [0, -h, w, 0, x, y + h]
        case 7: return [0, h, w, 0, x, y]
        case 8: return [0, h, -w, 0, x + w, y]
        default: return [w, 0, 0, h, x, y]
        }
    }
}

extension ImageXObject {
    /// The most pixels a placed image may declare by default: beyond it, decoding alone would take
    /// gigabytes (a 1 MB PNG can declare 32767×32767 pixels, 3.2 GB once decoded).
    public static let defaultMaximumPixels = 50_000_000

    /// The width and height a JPEG (its start-of-frame marker) or PNG (its `IHDR` chunk) declares, read
    /// without decoding anything; nil when the bytes are neither, or when their headers are out of order
    /// (more than one start-of-frame marker or IHDR chunk, chunks out of PNG's order), which decoding refuses.
    public static func declaredSize(of data: [UInt8]) -> (width: Int, height: Int)? {
        if data.starts(with: [0xFF, 0xD8]) {
            return JPEGFrame(data).map { ($0.width, $0.height) }
        }
        guard data.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]),
            let chunks = try? PNGChunks(data), chunks.problem == nil, let header = chunks.headers.first
        else { return nil }
        return (header.width, header.height)
    }

    /// Refuses an image that declares more than `maxPixels` pixels, before any decoding: every size its
    /// headers give counts (each start-of-frame marker of a JPEG, each `IHDR` of a PNG), and headers out of
    /// order are refused too, so the size checked is the size decoded. Bytes that are neither JPEG nor PNG
    /// pass (decoding refuses them).
    /// - Throws: `.invalidArgument` naming the size; `.decodeFailed` for more than one start-of-frame marker,
    ///   a PNG whose chunks are out of order (W3C PNG §5.6) or truncated.
    public static func checkDeclaredSize(of data: [UInt8], maxPixels: Int) throws(PDFError) {
        var sizes: [(width: Int, height: Int)] = []
        var problem: String? = nil
        if data.starts(with: [0xFF, 0xD8]) {
            let frames = JPEGFrame.markers(data)?.frames ?? []
            sizes = frames.map { ($0.width, $0.height) }
            if frames.count > 1 { problem = "the JPEG has \(frames.count) start-of-frame markers, not one" }
        } else if data.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            let chunks = try PNGChunks(data)
            sizes = chunks.headers.map { ($0.width, $0.height) }
            problem = chunks.problem
        }
        // Each side is at most 2³² − 1, so the product cannot overflow an Int.
        for size in sizes where size.width * size.height > maxPixels {
            throw PDFError(
                .invalidArgument,
                "the image declares \(size.width)×\(size.height) pixels, more than the \(maxPixels) allowed")
        }
        if let problem { throw PDFError(.decodeFailed, problem) }
    }
}
