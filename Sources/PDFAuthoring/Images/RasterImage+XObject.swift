import PDFCore
package import PDFImageCodecs

extension RasterImage {
    /// The XObject: colour samples Flate-compressed, alpha as `/SMask`.
    package func flateXObject() -> ImageXObject {
        func stream(_ data: [UInt8], colorSpace: PDFName) -> PDFStream {
            PDFStream(
                dictionary: [
                    .type: .name("XObject"), .subtype: .name("Image"), .width: .integer(width),
                    .height: .integer(height), .colorSpace: .name(colorSpace),
                    .bitsPerComponent: .integer(8),
                ], data: data, compress: true)
        }
        let opaque = alpha?.allSatisfy { $0 == 255 } ?? true
        return ImageXObject(
            width: width, height: height, image: stream(pixels, colorSpace: channels == 1 ? "DeviceGray" : "DeviceRGB"),
            softMask: opaque ? nil : alpha.map { stream($0, colorSpace: "DeviceGray") })
    }
}
