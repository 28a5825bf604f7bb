package import PDFCore
package import PDFImageCodecs

extension PNGImage {
    /// The XObject: colour samples Flate-compressed (palette images as `/Indexed`), alpha as `/SMask`.
    package func xObject() throws(PDFError) -> ImageXObject {
        let samples = try samples()
        let bytesPerSample = bitDepth == 16 ? 2 : 1
        var colorSamples: [UInt8] = []
        var alpha: [UInt8] = []
        var colorSpace: PDFObject
        var bits = bitDepth
        switch colorType {
        case 4, 6:
            // Split the alpha channel off (8 or 16 bits a sample).
            let colorChannels = colorType == 6 ? 3 : 1
            let pixelBytes = (colorChannels + 1) * bytesPerSample
            colorSamples.reserveCapacity(width * height * colorChannels * bytesPerSample)
            alpha.reserveCapacity(width * height * bytesPerSample)
            var index = 0
            while index + pixelBytes <= samples.count {
                colorSamples.append(contentsOf: samples[index..<(index + colorChannels * bytesPerSample)])
                alpha.append(contentsOf: samples[(index + colorChannels * bytesPerSample)..<(index + pixelBytes)])
                index += pixelBytes
            }
            colorSpace = .name(colorType == 6 ? "DeviceRGB" : "DeviceGray")
        case 3:
            colorSamples = samples
            colorSpace = .array([
                .name("Indexed"), .name("DeviceRGB"), .integer(max(0, palette.count / 3 - 1)),
                .string(PDFString(bytes: palette, isHex: true)),
            ])
            if !transparency.isEmpty {
                // Palette transparency becomes an 8-bit soft mask, one value a pixel.
                alpha.reserveCapacity(width * height)
                let rowBytes = (width * bitDepth + 7) / 8
                for y in 0..<height {
                    for x in 0..<width {
                        let bit = x * bitDepth
                        let value =
                            (Int(samples[y * rowBytes + bit / 8]) >> (8 - bitDepth - bit % 8)) & ((1 << bitDepth) - 1)
                        alpha.append(value < transparency.count ? transparency[value] : 255)
                    }
                }
            }
        default:
            colorSamples = samples
            colorSpace = .name(colorType == 2 ? "DeviceRGB" : "DeviceGray")
        }
        if bits == 16 && colorType == 3 { bits = 8 }
        let image = PDFStream(
            dictionary: [
                .type: .name("XObject"), .subtype: .name("Image"), .width: .integer(width),
                .height: .integer(height), .colorSpace: colorSpace,
                .bitsPerComponent: .integer(bits),
            ], data: colorSamples, compress: true)
        let mask =
            alpha.isEmpty
            ? nil
            : PDFStream(
                dictionary: [
                    .type: .name("XObject"), .subtype: .name("Image"), .width: .integer(width),
                    .height: .integer(height), .colorSpace: .name("DeviceGray"),
                    .bitsPerComponent: .integer(colorType == 3 ? 8 : bits),
                ], data: alpha, compress: true)
        return ImageXObject(width: width, height: height, image: image, softMask: mask)
    }
}
