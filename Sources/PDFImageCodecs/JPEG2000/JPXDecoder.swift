internal import COpenJPEG
public import PDFCore

/// JPEG 2000 images (`/JPXDecode`, ISO 32000-2 §7.4.9) decoded with OpenJPEG.
public enum JPXDecoder {
    /// Decoded pixels above this many bytes are refused (a hostile header can claim anything).
    static let maximumBytes = 1 << 28

    /// Decodes a JP2 file or a raw J2K codestream (told apart by their signatures; a JP2 that does
    /// not open is tried again as the codestream inside it, as poppler does).
    ///
    /// - Parameters:
    ///   - data: the stream's bytes.
    ///   - decodeArray: `/Decode`, applied to the colour samples when given (pairs per component).
    /// - Returns: the size, the colour components (1 grey, 3 RGB, 4 CMYK), 8-bit samples interleaved
    ///   row by row from the top, and the alpha channel when the image has one (`/SMaskInData`).
    ///   Sub-sampled components are upsampled; sYCC is converted to RGB; ICC profiles are ignored.
    /// - Throws: `PDFError` `.decodeFailed` when OpenJPEG cannot decode the data, `.limitExceeded`
    ///   for images too large, `.unsupported` for component layouts without a PDF meaning.
    public static func decode(_ data: [UInt8], decodeArray: [Double]? = nil) throws(PDFError) -> (
        width: Int, height: Int, components: Int, samples: [UInt8], alpha: [UInt8]?
    ) {
        let isCodestream = data.starts(with: [0xFF, 0x4F, 0xFF, 0x51])
        let image: OpenJPEGImage
        do {
            image = try OpenJPEGImage(data, codestream: isCodestream)
        } catch {
            guard !isCodestream, let start = codestreamStart(data) else { throw error }
            image = try OpenJPEGImage(Array(data[start...]), codestream: true)
        }
        var result = try image.samples()
        if let decodeArray { applyDecode(decodeArray, to: &result.samples, components: result.components) }
        return result
    }

    /// Where a codestream (SOC SIZ markers) starts inside `data`.
    static func codestreamStart(_ data: [UInt8]) -> Int? {
        guard data.count >= 4 else { return nil }
        for index in 0..<(data.count - 3)
        where data[index] == 0xFF && data[index + 1] == 0x4F && data[index + 2] == 0xFF && data[index + 3] == 0x51 {
            return index
        }
        return nil
    }

    /// Maps each 8-bit sample through `/Decode` (ISO 32000-2 §8.9.5.2): 0…255 to Dmin…Dmax.
    static func applyDecode(_ decode: [Double], to samples: inout [UInt8], components: Int) {
        guard decode.count >= 2 * components, components > 0 else { return }
        let identity = (0..<components).allSatisfy { decode[2 * $0] == 0 && decode[2 * $0 + 1] == 1 }
        guard !identity else { return }
        let tables: [[UInt8]] = (0..<components).map { component in
            let (low, high) = (decode[2 * component], decode[2 * component + 1])
            return (0..<256).map { value in
                let mapped = low + Double(value) / 255 * (high - low)
                return UInt8(min(max(mapped, 0), 1) * 255 + 0.5)
            }
        }
        for index in samples.indices { samples[index] = tables[index % components][Int(samples[index])] }
    }
}

/// A decoded `opj_image_t`, owned.
final class OpenJPEGImage {
    let pointer: UnsafeMutablePointer<opj_image_t>

    init(_ data: [UInt8], codestream: Bool) throws(PDFError) {
        guard let codec = opj_create_decompress(codestream ? OPJ_CODEC_J2K : OPJ_CODEC_JP2) else {
            throw PDFError(.decodeFailed, "OpenJPEG could not make a decoder")
        }
        defer { opj_destroy_codec(codec) }
        let messages = OpenJPEGMessages()
        let messagesPointer = Unmanaged.passUnretained(messages).toOpaque()
        opj_set_error_handler(
            codec,
            { message, context in
                guard let message, let context else { return }
                Unmanaged<OpenJPEGMessages>.fromOpaque(context).takeUnretainedValue().errors.append(
                    String(cString: message).trimmingSuffixNewlines())
            }, messagesPointer)
        var parameters = opj_dparameters_t()
        opj_set_default_decoder_parameters(&parameters)
        let reader = MemoryReader(data)
        let result = withExtendedLifetime((messages, reader)) { () -> UnsafeMutablePointer<opj_image_t>? in
            guard opj_setup_decoder(codec, &parameters) != 0, let stream = reader.makeStream() else { return nil }
            defer { opj_stream_destroy(stream) }
            var image: UnsafeMutablePointer<opj_image_t>? = nil
            guard opj_read_header(stream, codec, &image) != 0, let header = image else {
                if let image { opj_image_destroy(image) }
                return nil
            }
            let width = Int(header.pointee.x1) - Int(header.pointee.x0)
            let height = Int(header.pointee.y1) - Int(header.pointee.y0)
            let components = Int(header.pointee.numcomps)
            guard width > 0, height > 0, components > 0,
                width.multipliedReportingOverflow(by: height).partialValue <= JPXDecoder.maximumBytes
                    / max(1, components)
            else {
                messages.errors.append("an image of \(width)×\(height)×\(components) is too large or empty")
                opj_image_destroy(header)
                return nil
            }
            // No opj_end_decompress: after the codestream it reads trailing JP2 boxes, and OpenJPEG
            // 2.5 asserts (aborts) on some files there; poppler does not call it either.
            guard opj_decode(codec, stream, header) != 0 else {
                opj_image_destroy(header)
                return nil
            }
            return header
        }
        guard let result else {
            throw PDFError(
                .decodeFailed, "the JPEG 2000 image cannot be decoded: \(messages.errors.joined(separator: "; "))")
        }
        pointer = result
    }

    deinit { opj_image_destroy(pointer) }

    /// The image as 8-bit samples (see ``JPXDecoder/decode(_:decodeArray:)``).
    func samples() throws(PDFError) -> (width: Int, height: Int, components: Int, samples: [UInt8], alpha: [UInt8]?) {
        let image = pointer.pointee
        let width = Int(image.x1) - Int(image.x0)
        let height = Int(image.y1) - Int(image.y0)
        let count = Int(image.numcomps)
        guard let comps = image.comps, count > 0 else {
            throw PDFError(.decodeFailed, "a JPEG 2000 image without components")
        }
        let components = (0..<count).map { comps[$0] }
        guard components.allSatisfy({ $0.data != nil && $0.w > 0 && $0.h > 0 && $0.prec > 0 && $0.prec <= 31 }) else {
            throw PDFError(.decodeFailed, "a JPEG 2000 image with missing component data")
        }
        // Which components are colour and which alpha: the cdef box's marks, else by count.
        var colorIndices = components.indices.filter { components[$0].alpha == 0 }
        var alphaIndex = components.indices.first { components[$0].alpha != 0 }
        if alphaIndex == nil && (count == 2 || (count == 4 && image.color_space == OPJ_CLRSPC_SRGB) || count == 5) {
            alphaIndex = count - 1
            colorIndices = Array(0..<(count - 1))
        }
        switch colorIndices.count {
        case 1, 3, 4: break
        case let n where n > 4: colorIndices = Array(colorIndices.prefix(image.color_space == OPJ_CLRSPC_CMYK ? 4 : 3))
        default: throw PDFError(.unsupported, "a JPEG 2000 image with \(count) components")
        }
        let pixelCount = width * height
        var samples = [UInt8](repeating: 0, count: pixelCount * colorIndices.count)
        for (position, index) in colorIndices.enumerated() {
            OpenJPEGImage.resample(components[index], width: width, height: height) { pixel, value in
                samples[pixel * colorIndices.count + position] = value
            }
        }
        var alpha: [UInt8]? = nil
        if let alphaIndex {
            var channel = [UInt8](repeating: 255, count: pixelCount)
            OpenJPEGImage.resample(components[alphaIndex], width: width, height: height) { pixel, value in
                channel[pixel] = value
            }
            alpha = channel
        }
        if image.color_space == OPJ_CLRSPC_SYCC && colorIndices.count == 3 { OpenJPEGImage.yccToRGB(&samples) }
        return (width, height, colorIndices.count, samples, alpha)
    }

    /// Calls `store` with each output pixel's 8-bit value of `component`, scaled from its precision
    /// and signedness and upsampled (nearest sample) when the component is sub-sampled.
    private static func resample(
        _ component: opj_image_comp_t, width: Int, height: Int, _ store: (Int, UInt8) -> Void
    ) {
        let (w, h) = (Int(component.w), Int(component.h))
        let precision = Int(component.prec)
        let offset = component.sgnd != 0 ? 1 << (precision - 1) : 0
        let maximum = (1 << precision) - 1
        let data = component.data!
        let columns = (0..<width).map { min(w - 1, $0 * w / width) }
        for y in 0..<height {
            let row = min(h - 1, y * h / height) * w
            for x in 0..<width {
                let value = min(max(Int(data[row + columns[x]]) + offset, 0), maximum)
                let scaled = precision == 8 ? value : precision > 8 ? value >> (precision - 8) : value * 255 / maximum
                store(y * width + x, UInt8(scaled))
            }
        }
    }

    /// sYCC (ITU-R BT.601 full range) to RGB, in place.
    private static func yccToRGB(_ samples: inout [UInt8]) {
        var index = 0
        while index + 2 < samples.count {
            let y = Double(samples[index])
            let cb = Double(samples[index + 1]) - 128
            let cr = Double(samples[index + 2]) - 128
            samples[index] = channel((y + 1.402 * cr) / 255)
            samples[index + 1] = channel((y - 0.344136 * cb - 0.714136 * cr) / 255)
            samples[index + 2] = channel((y + 1.772 * cb) / 255)
            index += 3
        }
    }
}

/// Errors OpenJPEG reports while decoding.
private final class OpenJPEGMessages {
    var errors: [String] = []
}

/// An OpenJPEG input stream over bytes in memory.
private final class MemoryReader {
    let data: [UInt8]
    var position = 0

    init(_ data: [UInt8]) { self.data = data }

    /// A stream reading from this object, which must outlive it.
    func makeStream() -> UnsafeMutablePointer<opj_stream_t?>? {
        guard let stream = opj_stream_create(1 << 16, 1) else { return nil }
        opj_stream_set_user_data(stream, Unmanaged.passUnretained(self).toOpaque(), nil)
        opj_stream_set_user_data_length(stream, UInt64(data.count))
        opj_stream_set_read_function(stream) { buffer, count, context in
            let reader = Unmanaged<MemoryReader>.fromOpaque(context!).takeUnretainedValue()
            let available = reader.data.count - reader.position
            // End of data is (size_t)-1. OPJ_SIZE_T comes into Swift as Int, so that is -1, not
            // .max: Int.max would tell OpenJPEG it has 2^63 bytes buffered, and it reads on past the
            // end until an assertion aborts the process.
            guard available > 0, let buffer else { return -1 }
            let length = min(Int(count), available)
            reader.data.withUnsafeBytes { bytes in
                buffer.copyMemory(from: bytes.baseAddress! + reader.position, byteCount: length)
            }
            reader.position += length
            return OPJ_SIZE_T(length)
        }
        opj_stream_set_skip_function(stream) { count, context in
            let reader = Unmanaged<MemoryReader>.fromOpaque(context!).takeUnretainedValue()
            let target = min(max(reader.position + Int(count), 0), reader.data.count)
            let skipped = target - reader.position
            // Nothing to skip at the end is -1 too: OpenJPEG loops while a skip returns 0.
            guard skipped > 0 || count <= 0 else { return -1 }
            reader.position = target
            return Int64(skipped)
        }
        opj_stream_set_seek_function(stream) { offset, context in
            let reader = Unmanaged<MemoryReader>.fromOpaque(context!).takeUnretainedValue()
            guard offset >= 0, offset <= reader.data.count else { return 0 }
            reader.position = Int(offset)
            return 1
        }
        return stream
    }
}

extension String {
    fileprivate func trimmingSuffixNewlines() -> String {
        var text = self
        while text.last == "\n" { text.removeLast() }
        return text
    }
}

/// `value` in 0…1 as an 8-bit sample, rounded; NaN reads as 0.
private func channel(_ value: Double) -> UInt8 {
    value.isNaN ? 0 : UInt8(min(max(value, 0), 1) * 255 + 0.5)
}
