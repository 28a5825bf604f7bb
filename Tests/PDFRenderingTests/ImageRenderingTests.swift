import Foundation
import PDFCore
import PDFGraphics
import PDFRendering
import PDFTestSupport
import Testing

/// Images with alpha and stencil masks against MuPDF.
@Suite("Images against MuPDF")
struct ImageRenderingTests {
    /// A `width`×`height` picture: smooth ramps with coarse blocks, and an alpha ramp.
    static func picture(width: Int, height: Int, block: Int) -> (rgb: [UInt8], alpha: [UInt8], decoded: DecodedImage) {
        var rgb: [UInt8] = []
        var alpha: [UInt8] = []
        var rgba: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                let r = UInt8(x * 255 / max(1, width - 1))
                let g = UInt8(y * 255 / max(1, height - 1))
                let b: UInt8 = (x / block + y / block) % 2 == 0 ? 40 : 220
                let ramp: Int = (x + y) * 175 / max(1, width + height - 2)
                let a = UInt8(min(255, 80 + ramp))
                rgb += [r, g, b]
                alpha.append(a)
                rgba += [r, g, b, a]
            }
        }
        return (rgb, alpha, DecodedImage(width: width, height: height, rgba: rgba))
    }

    @Test("An upscaled image with a soft mask and a downscaled opaque image match MuPDF")
    func imagesWithAlpha() throws {
        let small = Self.picture(width: 16, height: 16, block: 4)
        let large = Self.picture(width: 300, height: 200, block: 50)
        let smallCTM = PDFMatrix(120, 0, 0, 120, 20, 60)
        let largeCTM = PDFMatrix(90, 0, 0, 60, 100, 10)
        let backdrop = TestPath.rectangle(0, 100, 200, 30)
        var opaque: [UInt8] = []
        for index in stride(from: 0, to: large.rgb.count, by: 3) {
            opaque += [large.rgb[index], large.rgb[index + 1], large.rgb[index + 2], 255]
        }
        let largeImage = ImageSource(decoded: DecodedImage(width: 300, height: 200, rgba: opaque))
        let list = DisplayList(items: [
            .fill(backdrop.path, .nonZero, .color(RGB(0, 0, 0.6)), ctm: .identity, state: DrawState()),
            .image(ImageSource(decoded: small.decoded), ctm: smallCTM, state: DrawState()),
            .image(largeImage, ctm: largeCTM, state: DrawState()),
        ])
        let page = HandPage(
            content: """
                0 0 0.6 rg \(backdrop.operators) f
                q 120 0 0 120 20 60 cm /Small Do Q
                q 90 0 0 60 100 10 cm /Large Do Q
                """,
            resources: "<< /XObject << /Small 5 0 R /Large 7 0 R >> >>",
            objects: [
                .stream(
                    "/Type /XObject /Subtype /Image /Width 16 /Height 16 /ColorSpace /DeviceRGB /BitsPerComponent 8 /SMask 6 0 R",
                    small.rgb),
                .stream(
                    "/Type /XObject /Subtype /Image /Width 16 /Height 16 /ColorSpace /DeviceGray /BitsPerComponent 8",
                    small.alpha),
                .stream(
                    "/Type /XObject /Subtype /Image /Width 300 /Height 200 /ColorSpace /DeviceRGB /BitsPerComponent 8",
                    large.rgb),
            ])
        try Fidelity.expectMatch(page.rendered(list), label: "images")
        try Fidelity.expectMatch(page.rendered(list, dpi: 144), label: "images at 144 dpi")
    }

    @Test("A stencil mask painted with a colour, a rotated one and one painted with a shading match MuPDF")
    func stencilMasks() throws {
        // A 1-bit ring: 0 paints (ISO 32000-2 §8.9.6.2, default /Decode [0 1]).
        let size = 24
        var bits: [UInt8] = []
        var rgba: [UInt8] = []
        for y in 0..<size {
            var row = [UInt8](repeating: 0, count: (size + 7) / 8)
            for x in 0..<size {
                let (dx, dy) = (Double(x) - 11.5, Double(y) - 11.5)
                let distance = (dx * dx + dy * dy).squareRoot()
                let paints = (distance > 6 && distance < 11) || (x == y)
                if !paints { row[x / 8] |= 0x80 >> UInt8(x % 8) }
                rgba += [0, 0, 0, paints ? 255 : 0]
            }
            bits += row
        }
        let mask = ImageSource(decoded: DecodedImage(width: size, height: size, rgba: rgba))
        let shading = Shading(
            geometry: .axial(start: PDFPoint(110, 0), end: PDFPoint(190, 0), t0: 0, t1: 1, extend: (true, true)),
            color: { t in RGB(1 - t, t, 0) })
        let list = DisplayList(items: [
            .stencilMask(mask, .color(RGB(0.8, 0, 0.2)), ctm: PDFMatrix(80, 0, 0, 80, 10, 110), state: DrawState()),
            .stencilMask(
                mask, .color(RGB(0, 0.3, 0.8)), ctm: PDFMatrix(50, 50, -50, 50, 60, 10), state: .with(alpha: 0.7)),
            .stencilMask(
                mask, .shading(shading, matrix: .identity), ctm: PDFMatrix(80, 0, 0, 80, 110, 110), state: DrawState()),
        ])
        let page = HandPage(
            content: """
                q 0.8 0 0.2 rg 80 0 0 80 10 110 cm /M Do Q
                q /Alpha gs 0 0.3 0.8 rg 50 50 -50 50 60 10 cm /M Do Q
                q /Pattern cs /P scn 80 0 0 80 110 110 cm /M Do Q
                """,
            resources: """
                << /XObject << /M 5 0 R >> /ExtGState << /Alpha << /ca 0.7 >> >>
                /Pattern << /P << /PatternType 2 /Shading << /ShadingType 2 /ColorSpace /DeviceRGB
                /Coords [110 0 190 0] /Extend [true true]
                /Function << /FunctionType 2 /Domain [0 1] /C0 [1 0 0] /C1 [0 1 0] /N 1 >> >> >> >> >>
                """,
            objects: [
                .stream(
                    "/Type /XObject /Subtype /Image /Width \(size) /Height \(size) /ImageMask true /BitsPerComponent 1",
                    bits)
            ])
        try Fidelity.expectMatch(page.rendered(list), label: "stencil masks")
    }
}
