/// One fuzzing input for the image formats decoded by C libraries and PNG, shared by the fuzzer
/// (`Sources/FuzzImages`) and the tests that replay what it found. The first byte chooses the
/// decoder, the rest is the encoded image:
///
/// - selector % 4 = 0: DCT (`/DCTDecode`, libjpeg-turbo) to the JPEG's own components;
/// - 1: DCT decoded to grey or RGB, letting the decoder shrink it (to at least 1 + selector / 4
///   pixels each way, as thumbnails and placed photos do);
/// - 2: JPX (`/JPXDecode`, OpenJPEG), with a `/Decode` array when selector bit 2 is set;
/// - 3: PNG (the images a signer or a stamp brings).
///
/// A decoded image must have as many samples as its size and components call for.
package enum ImageFuzzInput {
    /// Decodes `input` as the selector says; returns how many samples came out (nil: refused).
    @discardableResult
    package static func run(_ input: [UInt8]) -> Int? {
        guard let selector = input.first else { return nil }
        let body = Array(input.dropFirst())
        switch selector % 4 {
        case 0:
            guard let image = try? JPEGCodec.decodeComponents(body) else { return nil }
            precondition(image.samples.count == image.width * image.height * image.components)
            return image.samples.count
        case 1:
            let minimum = 1 + Int(selector / 4)
            guard let image = try? JPEGCodec.decode(body, minimumWidth: minimum, minimumHeight: minimum) else {
                return nil
            }
            precondition(image.pixels.count == image.width * image.height * image.channels)
            return image.pixels.count
        case 2:
            let decode: [Double]? = selector & 4 != 0 ? [1, 0, 1, 0, 1, 0, 1, 0] : nil
            guard let image = try? JPXDecoder.decode(body, decodeArray: decode) else { return nil }
            precondition(image.samples.count == image.width * image.height * image.components)
            if let alpha = image.alpha { precondition(alpha.count == image.width * image.height) }
            return image.samples.count
        default:
            guard let image = try? PNGImage(body), let raster = try? image.raster() else { return nil }
            precondition(raster.pixels.count == raster.width * raster.height * raster.channels)
            return raster.pixels.count
        }
    }
}
