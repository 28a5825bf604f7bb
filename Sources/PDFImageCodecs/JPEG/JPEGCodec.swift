internal import CShims
package import PDFCore

#if canImport(Glibc)
    internal import Glibc
#endif

/// JPEG decoding and encoding through libjpeg-turbo: for images that must be scaled before they
/// are placed (photos; JPEGs that fit are placed as they are, never re-encoded), for the renderer's
/// `/DCTDecode` images and for thumbnails.
package enum JPEGCodec {
    /// Decoded pixels above this size are refused (a hostile header can claim 65535×65535).
    package static let maximumBytes = 1 << 28

    /// Decodes `data`, letting the decoder shrink by 1/2, 1/4 or 1/8 while the result keeps at least
    /// `minimumWidth`×`minimumHeight` pixels. CMYK comes back as RGB.
    /// - Parameters:
    ///   - maxPixels: the most pixels the frame header may declare, as libjpeg reads it.
    ///   - frame: the size a caller read from the frame header (``decodeComponents``).
    package static func decode(
        _ data: [UInt8], minimumWidth: Int = .max, minimumHeight: Int = .max, maxPixels: Int = .max,
        frame: (width: Int, height: Int)? = nil
    ) throws(PDFError) -> RasterImage {
        let decoded = try decodeComponents(
            data, minimumWidth: minimumWidth, minimumHeight: minimumHeight, maxPixels: maxPixels, frame: frame)
        switch decoded.components {
        case 1, 3:
            return RasterImage(
                width: decoded.width, height: decoded.height, channels: decoded.components, pixels: decoded.samples,
                alpha: nil)
        default:
            return RasterImage(
                width: decoded.width, height: decoded.height, channels: 3,
                pixels: cmykToRGB(decoded.samples, inverted: decoded.adobeInverted), alpha: nil)
        }
    }

    /// Decodes to the JPEG's own components: 1 (grey), 3 (RGB) or 4 (CMYK, stored inverted when
    /// `adobeInverted`), 8 bits each, rows top to bottom.
    /// - Parameters:
    ///   - colorTransform: PDF's `/ColorTransform` (§7.4.8): 0 when the samples are stored as they
    ///     are, 1 for YCbCr (YCCK); nil lets the JPEG's markers decide.
    ///   - gray: one luminance component from colour data (an image whose colour space is grey).
    ///   - lenient: as PDF readers do, bytes before the start-of-image marker are skipped and data
    ///     that ends early is drawn with the missing rows grey; otherwise both are errors.
    ///   - maxPixels: the most pixels the frame header may declare, checked on the size libjpeg reads
    ///     (`jpeg_read_header`) before anything is allocated for it.
    ///   - frame: the size the caller read from the frame header (and checked): libjpeg must read the same.
    /// - Throws: `.invalidArgument` for a frame of more than `maxPixels` pixels, `.decodeFailed` otherwise.
    package static func decodeComponents(
        _ data: [UInt8], minimumWidth: Int = .max, minimumHeight: Int = .max, colorTransform: Int? = nil,
        gray: Bool = false, lenient: Bool = false, maxPixels: Int = .max, frame: (width: Int, height: Int)? = nil
    ) throws(PDFError) -> (width: Int, height: Int, components: Int, adobeInverted: Bool, samples: [UInt8]) {
        var image = cshim_jpeg_image()
        var start = 0
        if lenient, !(data.count >= 2 && data[0] == 0xFF && data[1] == 0xD8) {
            // A start-of-image marker followed by another marker, within the first 64 KiB.
            let limit = min(data.count - 2, 1 << 16)
            if limit > 0,
                let found = (0..<limit).first(where: {
                    data[$0] == 0xFF && data[$0 + 1] == 0xD8 && data[$0 + 2] == 0xFF
                })
            {
                start = found
            }
        }
        let status = data.withUnsafeBufferPointer { buffer in
            cshim_jpeg_decode(
                buffer.baseAddress.map { $0 + start }, buffer.count - start, Int32(clamping: minimumWidth),
                Int32(clamping: minimumHeight), maximumBytes, max(0, maxPixels),
                Int32(colorTransform.map { $0 == 0 ? 0 : 1 } ?? -1), gray ? 1 : 0, lenient ? 1 : 0, &image)
        }
        guard status == 0, let pixels = image.pixels else {
            let message = withUnsafeBytes(of: image.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if Int(image.frame_width) * Int(image.frame_height) > maxPixels {
                throw PDFError(.invalidArgument, "the JPEG cannot be decoded: \(message)")
            }
            throw PDFError(.decodeFailed, "the JPEG cannot be decoded: \(message)")
        }
        defer { free(pixels) }
        if let frame, frame.width != Int(image.frame_width) || frame.height != Int(image.frame_height) {
            throw PDFError(
                .decodeFailed,
                "the JPEG's frame header reads \(frame.width)×\(frame.height), but libjpeg decodes "
                    + "\(image.frame_width)×\(image.frame_height)")
        }
        let width = Int(image.width)
        let height = Int(image.height)
        let components = Int(image.components)
        guard [1, 3, 4].contains(components) else {
            throw PDFError(.decodeFailed, "a JPEG with \(components) components")
        }
        let samples = Array(UnsafeBufferPointer(start: pixels, count: width * height * components))
        return (width, height, components, image.adobe_inverted != 0, samples)
    }

    /// Encodes grey or RGB pixels (alpha is dropped: JPEG has none).
    package static func encode(_ image: RasterImage, quality: Int = 90) throws(PDFError) -> [UInt8] {
        var output: UnsafeMutablePointer<UInt8>? = nil
        var size: UInt = 0
        var message = [CChar](repeating: 0, count: 200)
        let status = image.pixels.withUnsafeBufferPointer { pixels in
            cshim_jpeg_encode(
                pixels.baseAddress, Int32(image.width), Int32(image.height), Int32(image.channels),
                Int32(max(1, min(100, quality))), &output, &size, &message, message.count)
        }
        guard status == 0, let output else {
            let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw PDFError(.decodeFailed, "the JPEG cannot be encoded: \(text)")
        }
        defer { free(output) }
        return Array(UnsafeBufferPointer(start: output, count: Int(size)))
    }

    /// A naive CMYK → RGB conversion (no ICC profile): enough for a photo's preview.
    private static func cmykToRGB(_ samples: [UInt8], inverted: Bool) -> [UInt8] {
        var rgb = [UInt8]()
        rgb.reserveCapacity(samples.count / 4 * 3)
        var index = 0
        while index + 4 <= samples.count {
            // Adobe's inverted CMYK stores 255 - ink, which is exactly the remaining light.
            let light = (0..<4).map { Int(inverted ? samples[index + $0] : 255 - samples[index + $0]) }
            for channel in 0..<3 { rgb.append(UInt8(light[channel] * light[3] / 255)) }
            index += 4
        }
        return rgb
    }
}
