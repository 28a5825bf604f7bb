import Foundation
import PDFCore
import PDFGraphics
import PDFRendering
import PDFTestSupport
import Testing

/// Whole pages from PDF bytes: the interpreter's display list rendered by the backend, against MuPDF.
@Suite("Pages through the interpreter and the backend, against MuPDF")
struct PipelineTests {
    /// Sample bytes of a `width`×`height` image with `components` of `bits` bits: a diagonal ramp.
    static func samples(width: Int, height: Int, components: Int, bits: Int) -> [UInt8] {
        let maximum = (1 << bits) - 1
        var bytes: [UInt8] = []
        for y in 0..<height {
            var row: [Int] = []
            for x in 0..<width {
                for component in 0..<components {
                    row.append(((x + y + component * width / 3) * maximum / max(1, width + height - 2)) % (maximum + 1))
                }
            }
            var accumulator = 0
            var filled = 0
            for value in row {
                if bits == 16 {
                    bytes += [UInt8(value >> 8), UInt8(value & 0xFF)]
                    continue
                }
                accumulator = accumulator << bits | value
                filled += bits
                if filled == 8 {
                    bytes.append(UInt8(accumulator))
                    accumulator = 0
                    filled = 0
                }
            }
            if bits < 8, filled > 0 { bytes.append(UInt8(accumulator << (8 - filled))) }
        }
        return bytes
    }

    @Test(
        "images of 1 to 16 bits in grey, RGB and CMYK, with /Decode",
        arguments: [
            (1, "/DeviceGray", 1, ""), (2, "/DeviceGray", 1, ""), (4, "/DeviceRGB", 3, ""), (8, "/DeviceRGB", 3, ""),
            (16, "/DeviceRGB", 3, ""), (8, "/DeviceCMYK", 4, ""), (8, "/DeviceGray", 1, "/Decode [1 0]"),
            (4, "[/Indexed /DeviceRGB 3 <FF000000FF000000FFFFFF00>]", 1, ""),
        ])
    func images(bits: Int, space: String, components: Int, decode: String) throws {
        let bits = space.hasPrefix("[/Indexed") ? 2 : bits
        let data = Self.samples(width: 24, height: 16, components: components, bits: bits)
        let page = HandPage(
            content: "q 160 0 0 120 20 40 cm /Im Do Q", resources: "<< /XObject << /Im 5 0 R >> >>",
            objects: [
                .stream(
                    "/Type /XObject /Subtype /Image /Width 24 /Height 16 /BitsPerComponent \(bits) /ColorSpace \(space) \(decode)",
                    data)
            ])
        try Fidelity.expectMatch(page.rendered(), label: "image \(bits) bits \(space) \(decode)")
    }

    @Test(
        "images far larger than drawn (decoded reduced): 1-bit grey, a stencil mask, 8-bit RGB with /Decode, an /SMask",
        arguments: [300.0, 72.0, 30.0])
    func reducedImages(dpi: Double) throws {
        // 1-bit: vertical bars 3 samples wide, a diagonal band; not a multiple of 8 wide.
        let (width, height) = (1203, 901)
        var bits: [UInt8] = []
        var rgb: [UInt8] = []
        for y in 0..<height {
            var row = [UInt8](repeating: 0, count: (width + 7) / 8)
            for x in 0..<width where (x / 3) % 2 == 0 || abs(x - y) < 40 {
                row[x / 8] |= 0x80 >> UInt8(x % 8)
            }
            bits += row
            for x in 0..<width { rgb += [UInt8(x * 255 / width), UInt8(y * 255 / height), UInt8((x + y) % 256)] }
        }
        let alpha = (0..<(width * height)).map { UInt8(($0 % width) * 255 / width) }
        let page = HandPage(
            content:
                "q 80 0 0 60 10 130 cm /Bits Do Q q 1 0 0 rg 80 0 0 60 110 130 cm /Stencil Do Q q 80 0 0 60 10 10 cm /Colour Do Q q 80 0 0 60 110 10 cm /Soft Do Q",
            resources: "<< /XObject << /Bits 5 0 R /Stencil 6 0 R /Colour 7 0 R /Soft 8 0 R >> >>",
            objects: [
                .stream(
                    "/Type /XObject /Subtype /Image /Width \(width) /Height \(height) /BitsPerComponent 1 /ColorSpace /DeviceGray",
                    bits),
                .stream(
                    "/Type /XObject /Subtype /Image /Width \(width) /Height \(height) /BitsPerComponent 1 /ImageMask true",
                    bits),
                .stream(
                    "/Type /XObject /Subtype /Image /Width \(width) /Height \(height) /BitsPerComponent 8 /ColorSpace /DeviceRGB /Decode [1 0 0 1 0 1]",
                    rgb),
                .stream(
                    "/Type /XObject /Subtype /Image /Width \(width) /Height \(height) /BitsPerComponent 8 /ColorSpace /DeviceRGB /SMask 9 0 R",
                    rgb),
                .stream(
                    "/Type /XObject /Subtype /Image /Width \(width) /Height \(height) /BitsPerComponent 8 /ColorSpace /DeviceGray",
                    alpha),
            ])
        try Fidelity.expectMatch(page.rendered(dpi: dpi), label: "reduced images at \(dpi) dpi")
    }

    @Test("masks: a stencil mask, a colour key, an explicit /Mask and an /SMask of another size")
    func masks() throws {
        let rgb = Self.samples(width: 16, height: 16, components: 3, bits: 8)
        var checker: [UInt8] = []
        for y in 0..<8 { checker.append(y % 2 == 0 ? 0b1010_1010 : 0b0101_0101) }
        let page = HandPage(
            content:
                "0 0 1 rg q 80 0 0 80 10 110 cm /Stencil Do Q q 80 0 0 80 110 110 cm /Keyed Do Q q 80 0 0 80 10 10 cm /Masked Do Q q 80 0 0 80 110 10 cm /Soft Do Q",
            resources: "<< /XObject << /Stencil 5 0 R /Keyed 6 0 R /Masked 7 0 R /Soft 9 0 R >> >>",
            objects: [
                .stream("/Type /XObject /Subtype /Image /Width 8 /Height 8 /ImageMask true", checker),
                .stream(
                    "/Type /XObject /Subtype /Image /Width 16 /Height 16 /BitsPerComponent 8 /ColorSpace /DeviceRGB /Mask [0 120 0 255 0 255]",
                    rgb),
                .stream(
                    "/Type /XObject /Subtype /Image /Width 16 /Height 16 /BitsPerComponent 8 /ColorSpace /DeviceRGB /Mask 8 0 R",
                    rgb),
                .stream("/Type /XObject /Subtype /Image /Width 8 /Height 8 /ImageMask true", checker),
                .stream(
                    "/Type /XObject /Subtype /Image /Width 16 /Height 16 /BitsPerComponent 8 /ColorSpace /DeviceRGB /SMask 10 0 R",
                    rgb),
                .stream(
                    "/Type /XObject /Subtype /Image /Width 4 /Height 4 /BitsPerComponent 8 /ColorSpace /DeviceGray",
                    [0, 80, 160, 255, 80, 160, 255, 0, 160, 255, 0, 80, 255, 0, 80, 160]),
            ])
        try Fidelity.expectMatch(page.rendered(), label: "masks")
    }

    @Test("an inline image and a JPEG (DCT) image")
    func inlineAndJPEG() throws {
        var jpegPixels: [UInt8] = []
        for y in 0..<32 { for x in 0..<48 { jpegPixels += [UInt8(x * 5), UInt8(y * 7), 128] } }
        let jpeg = try JPEGTestEncoder.encode(width: 48, height: 32, rgb: jpegPixels)
        let page = HandPage(
            content:
                "q 90 0 0 60 10 120 cm BI /W 4 /H 2 /BPC 8 /CS /RGB /F /AHx ID 0000FF FF0000 00FF00 FFFFFF 000000 808080 FFFF00 00FFFF> EI Q q 120 0 0 80 40 20 cm /Photo Do Q",
            resources: "<< /XObject << /Photo 5 0 R >> >>",
            objects: [
                .stream(
                    "/Type /XObject /Subtype /Image /Width 48 /Height 32 /BitsPerComponent 8 /ColorSpace /DeviceRGB /Filter /DCTDecode",
                    jpeg)
            ])
        try Fidelity.expectMatch(page.rendered(), label: "inline and DCT")
    }

    @Test("forms with a matrix and bounding box, a transparency group with alpha, an ExtGState soft mask")
    func formsAndTransparency() throws {
        let page = HandPage(
            content:
                "q 0.5 0 0 0.5 20 20 cm /F1 Do Q /GS1 gs q 1 0 0 1 60 60 cm /Group Do Q /GS0 gs /SM gs 0 0.6 0 rg 0 100 200 60 re f",
            resources:
                "<< /XObject << /F1 5 0 R /Group 6 0 R >> /ExtGState << /GS1 << /ca 0.5 >> /GS0 << /ca 1 >> /SM << /SMask << /S /Luminosity /G 7 0 R >> >> >> >>",
            objects: [
                .stream(
                    "/Type /XObject /Subtype /Form /BBox [0 0 100 100] /Matrix [1 0 0 1 10 10]",
                    Array("1 0 0 rg -50 -50 300 300 re f".utf8)),
                .stream(
                    "/Type /XObject /Subtype /Form /BBox [0 0 120 120] /Group << /S /Transparency >>",
                    Array("0 0 1 rg 0 0 80 80 re f 1 0 0 rg 40 40 80 80 re f".utf8)),
                .stream(
                    "/Type /XObject /Subtype /Form /BBox [0 0 200 200] /Group << /S /Transparency /CS /DeviceGray >>",
                    Array("1 g 0 100 100 60 re f 0.5 g 100 100 100 60 re f".utf8)),
            ])
        try Fidelity.expectMatch(page.rendered(), label: "forms and transparency")
    }

    @Test("shading and tiling patterns as fills, sh, and an uncoloured pattern")
    func patterns() throws {
        let page = HandPage(
            content:
                "/Pattern cs /P1 scn 10 10 80 80 re f /Pattern cs /P2 scn 110 10 80 80 re f q 10 110 80 80 re W n /Sh sh Q /UP cs 0 0.5 0 /P3 scn 110 110 80 80 re f",
            resources:
                "<< /ColorSpace << /UP [/Pattern /DeviceRGB] >> /Pattern << /P1 5 0 R /P2 6 0 R /P3 7 0 R >> /Shading << /Sh << /ShadingType 3 /ColorSpace /DeviceRGB /Coords [50 150 0 50 150 40] /Function << /FunctionType 2 /Domain [0 1] /C0 [1 1 0] /C1 [0 0 1] /N 1 >> /Extend [true true] >> >> >>",
            objects: [
                .body(
                    "<< /PatternType 2 /Shading << /ShadingType 2 /ColorSpace /DeviceRGB /Coords [10 0 90 0] /Function << /FunctionType 2 /Domain [0 1] /C0 [1 0 0] /C1 [0 0 1] /N 1 >> /Extend [true true] >> >>"
                ),
                .stream(
                    "/PatternType 1 /PaintType 1 /TilingType 1 /BBox [0 0 10 10] /XStep 10 /YStep 10 /Resources << >>",
                    Array("1 0 0 rg 0 0 5 5 re f 0 0 1 rg 5 5 5 5 re f".utf8)),
                .stream(
                    "/PatternType 1 /PaintType 2 /TilingType 1 /BBox [0 0 8 8] /XStep 8 /YStep 8 /Resources << >>",
                    Array("0 0 4 4 re f".utf8)),
            ])
        try Fidelity.expectMatch(page.rendered(), label: "patterns")
    }

    @Test("optional content: a hidden group's marked content and form are not drawn")
    func optionalContent() throws {
        var page = HandPage(
            content:
                "/OC /Off BDC 1 0 0 rg 10 10 180 180 re f EMC /OC /On BDC 0 0 1 rg 50 50 100 100 re f EMC /Hidden Do",
            resources:
                "<< /Properties << /Off 5 0 R /On 6 0 R >> /XObject << /Hidden 7 0 R >> >>",
            objects: [
                .body("<< /Type /OCG /Name (Off) >>"), .body("<< /Type /OCG /Name (On) >>"),
                .stream(
                    "/Type /XObject /Subtype /Form /BBox [0 0 200 200] /OC 5 0 R",
                    Array("0 1 0 rg 0 0 200 20 re f".utf8)),
            ])
        page.catalogEntries = "/OCProperties << /OCGs [5 0 R 6 0 R] /D << /OFF [5 0 R] >> >>"
        try Fidelity.expectMatch(page.rendered(), label: "optional content")
    }

    @Test("annotation appearances: shown, hidden, NoView and print-only, as on screen and as printed")
    func annotations() throws {
        var page = HandPage(content: "0.9 g 0 0 200 200 re f")
        page.objects = [
            .stream(
                "/Type /XObject /Subtype /Form /BBox [0 0 10 10]", Array("0 0 1 rg 0 0 10 10 re f".utf8)),
            .stream(
                "/Type /XObject /Subtype /Form /BBox [0 0 10 10] /Matrix [0 1 -1 0 10 0]",
                Array("1 0 0 rg 0 0 10 5 re f".utf8)),
        ]
        page.pageEntries =
            "/Annots [<< /Type /Annot /Subtype /Square /Rect [10 10 60 60] /F 4 /AP << /N 5 0 R >> >> << /Type /Annot /Subtype /Square /Rect [70 10 120 60] /F 2 /AP << /N 5 0 R >> >> << /Type /Annot /Subtype /Square /Rect [130 10 180 60] /F 32 /AP << /N 5 0 R >> >> << /Type /Annot /Subtype /Stamp /Rect [10 100 110 150] /F 0 /AP << /N 6 0 R >> >>]"
        try Fidelity.expectMatch(page.rendered(), label: "annotations on screen")
    }
}

/// JPEG bytes from a tool no one here wrote: Python's PIL when installed, else ImageMagick.
enum JPEGTestEncoder {
    static func encode(width: Int, height: Int, rgb: [UInt8]) throws -> [UInt8] {
        let directory = try TestPaths.temporaryDirectory("jpeg")
        let raw = directory + "/pixels.rgb"
        let output = directory + "/image.jpg"
        try Data(rgb).write(to: URL(fileURLWithPath: raw))
        let script = """
            import sys
            from PIL import Image
            data = open(sys.argv[1], 'rb').read()
            Image.frombytes('RGB', (int(sys.argv[2]), int(sys.argv[3])), data).save(sys.argv[4], quality=90)
            """
        let result = try Oracle.run("python3", ["-c", script, raw, String(width), String(height), output])
        guard result.status == 0 else { throw TestFailure("PIL could not write a JPEG: \(result.errors)") }
        return Array(try Data(contentsOf: URL(fileURLWithPath: output)))
    }
}
