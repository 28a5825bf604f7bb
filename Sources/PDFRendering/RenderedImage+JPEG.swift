import PDFCore
import PDFImageCodecs

extension RenderedImage {
    /// The image as a baseline JPEG (for thumbnails), composited over white; `quality` from 1 to 100.
    /// Empty when the image cannot be encoded.
    public func jpegData(quality: Int) -> [UInt8] {
        guard width > 0, height > 0, rgba.count >= width * height * 4 else { return [] }
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        for pixel in 0..<(width * height) {
            // Premultiplied: over white, each channel is c + (255 - a).
            let transparency = 255 - Int(rgba[pixel * 4 + 3])
            for channel in 0..<3 {
                rgb[pixel * 3 + channel] = UInt8(min(255, Int(rgba[pixel * 4 + channel]) + transparency))
            }
        }
        let image = RasterImage(width: width, height: height, channels: 3, pixels: rgb, alpha: nil)
        return (try? JPEGCodec.encode(image, quality: quality)) ?? []
    }
}
