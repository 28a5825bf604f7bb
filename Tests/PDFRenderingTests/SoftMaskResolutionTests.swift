import PDFCore
import PDFRendering
import PDFTestSupport
import Testing

/// An image whose soft mask (or stencil mask) has more pixels than the image: the mask's edges
/// are drawn at the mask's resolution, as poppler and MuPDF draw them, not sampled down to the
/// image's few pixels.
@Suite("Masks finer than their image")
struct SoftMaskResolutionTests {
    /// A 4×4 RGB image (a colour per quarter) masked by a `size`×`size` mask: a disc (8-bit soft
    /// mask with a soft rim), or a ring (1-bit stencil `/Mask`), drawn over 180 points.
    static func page(size: Int, stencil: Bool, side: Int = 180) -> HandPage {
        var image: [UInt8] = []
        for y in 0..<4 {
            for x in 0..<4 {
                image += x < 2 ? (y < 2 ? [220, 30, 30] : [30, 160, 40]) : (y < 2 ? [30, 60, 220] : [240, 200, 20])
            }
        }
        var mask: [UInt8] = []
        let centre = Double(size) / 2
        if stencil {
            let rowBytes = (size + 7) / 8
            mask = [UInt8](repeating: 0, count: rowBytes * size)
            for y in 0..<size {
                for x in 0..<size {
                    let r =
                        ((Double(x) + 0.5 - centre) * (Double(x) + 0.5 - centre)
                        + (Double(y) + 0.5 - centre) * (Double(y) + 0.5 - centre)).squareRoot() / centre
                    // 1 masks out (the default /Decode): all but a ring.
                    if !(0.55...0.9).contains(r) { mask[y * rowBytes + x / 8] |= 0x80 >> UInt8(x % 8) }
                }
            }
        } else {
            for y in 0..<size {
                for x in 0..<size {
                    let r =
                        ((Double(x) + 0.5 - centre) * (Double(x) + 0.5 - centre)
                        + (Double(y) + 0.5 - centre) * (Double(y) + 0.5 - centre)).squareRoot() / centre
                    mask.append(UInt8(max(0, min(255, (1 - r) * 4 * 255))))
                }
            }
        }
        let maskKey = stencil ? "/Mask" : "/SMask"
        let maskDictionary =
            stencil
            ? "/Type /XObject /Subtype /Image /Width \(size) /Height \(size) /ImageMask true"
            : "/Type /XObject /Subtype /Image /Width \(size) /Height \(size) /ColorSpace /DeviceGray /BitsPerComponent 8"
        return HandPage(
            width: 200, height: 200, content: "q \(side) 0 0 \(side) 10 10 cm /Im0 Do Q",
            resources: "<< /XObject << /Im0 5 0 R >> >>",
            objects: [
                .stream(
                    "/Type /XObject /Subtype /Image /Width 4 /Height 4 /ColorSpace /DeviceRGB /BitsPerComponent 8 \(maskKey) 6 0 R",
                    image),
                .stream(maskDictionary, mask),
            ])
    }

    @Test("a soft mask of 90×90 pixels over a 4×4 image: a round, soft-edged disc, as poppler and MuPDF draw it")
    func softMask() throws {
        for poppler in [true, false] {
            let pair = try Self.page(size: 90, stencil: false).rendered(poppler: poppler)
            try Fidelity.expectMatch(pair, tolerance: 0.01, label: "soft mask (\(poppler ? "poppler" : "MuPDF"))")
        }
    }

    @Test("a 1000×1000 soft mask drawn over 40 points (decoded reduced): still a round disc, as poppler and MuPDF")
    func reducedMask() throws {
        for poppler in [true, false] {
            let pair = try Self.page(size: 1000, stencil: false, side: 40).rendered(poppler: poppler)
            try Fidelity.expectMatch(pair, tolerance: 0.01, label: "reduced mask (\(poppler ? "poppler" : "MuPDF"))")
        }
    }

    @Test(
        "a mask declaring 65536 × 65536 samples over a 1×1 image is refused with a warning, never decoded whole",
        arguments: ["/SMask", "/Mask"])
    func hugeMask(_ key: String) throws {
        let page = HandPage(
            width: 200, height: 200, content: "q 180 0 0 180 10 10 cm /Im0 Do Q 1 0 0 rg 10 10 40 40 re f",
            resources: "<< /XObject << /Im0 5 0 R >> >>",
            objects: [
                .stream(
                    "/Type /XObject /Subtype /Image /Width 1 /Height 1 /ColorSpace /DeviceRGB /BitsPerComponent 8 \(key) 6 0 R",
                    [200, 30, 30]),
                .stream(
                    key == "/SMask"
                        ? "/Type /XObject /Subtype /Image /Width 65536 /Height 65536 /ColorSpace /DeviceGray /BitsPerComponent 8"
                        : "/Type /XObject /Subtype /Image /Width 65536 /Height 65536 /ImageMask true",
                    []),
            ])
        let renderer = DocumentRenderer(document: try PDFDocument(bytes: page.bytes()))
        let (image, warnings) = renderer.render(pageAt: 0)
        #expect(warnings.contains { $0.contains("too large") }, "\(warnings)")
        // The rest of the page is drawn: the red square (10…50 points from the lower left).
        let scale = Double(image.width) / 200
        let x = Int(30 * scale)
        let y = image.height - 1 - Int(30 * scale)
        try #require(image.width > 0 && image.rgba.count == image.width * image.height * 4)
        let pixel = Array(image.rgba[((y * image.width + x) * 4)...].prefix(3))
        #expect(pixel[0] > 200 && pixel[1] < 60 && pixel[2] < 60, "\(pixel) at \(x),\(y)")
    }

    @Test("a 1-bit stencil /Mask of 120×120 pixels over a 4×4 image: a thin ring, as poppler and MuPDF draw it")
    func stencilMask() throws {
        for poppler in [true, false] {
            let pair = try Self.page(size: 120, stencil: true).rendered(poppler: poppler)
            try Fidelity.expectMatch(pair, tolerance: 0.01, label: "stencil mask (\(poppler ? "poppler" : "MuPDF"))")
        }
    }
}
