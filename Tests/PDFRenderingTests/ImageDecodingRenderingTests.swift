import Foundation
import PDFCore
import PDFGraphics
import PDFImageCodecs
import PDFRendering
import PDFTestSupport
import Testing

/// Images that real files carry in ways a strict decoder refuses, drawn as MuPDF and poppler draw
/// them; and an image nothing can decode, which is a warning naming it, never a silent blank.
@Suite("Images as readers draw them: DCT parameters and damage, ICC images with soft masks in forms")
struct ImageDecodingRenderingTests {
    /// A 64×48 JPEG of colour ramps.
    static func jpeg() throws -> [UInt8] {
        var pixels: [UInt8] = []
        for y in 0..<48 {
            for x in 0..<64 { pixels += [UInt8(x * 4), UInt8(y * 5), 200] }
        }
        return try JPEGCodec.encode(
            RasterImage(width: 64, height: 48, channels: 3, pixels: pixels, alpha: nil), quality: 65)
    }

    /// A page drawing one 64×48 DCT image with `entries` in its dictionary.
    static func page(_ data: [UInt8], entries: String = "") -> HandPage {
        HandPage(
            content: "q 160 0 0 120 20 40 cm /Im0 Do Q",
            resources: "<< /XObject << /Im0 5 0 R >> >>",
            objects: [
                .stream(
                    "/Type /XObject /Subtype /Image /Width 64 /Height 48 /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /DCTDecode \(entries)",
                    data)
            ])
    }

    enum Variant: String, CaseIterable, CustomStringConvertible {
        case quality, qualityInArrays, colorTransformZero, missingEndMarker, trailingZeros
        var description: String { rawValue }
    }

    @Test(
        "DCT images drawn as MuPDF draws them: /Quality, arrays, /ColorTransform 0, no EOI, padding",
        arguments: Variant.allCases)
    func dctVariants(_ variant: Variant) throws {
        let jpeg = try Self.jpeg()
        let page: HandPage
        switch variant {
        case .quality: page = Self.page(jpeg, entries: "/DecodeParms << /Quality 65 >>")
        case .qualityInArrays:
            var hand = Self.page(jpeg)
            hand.objects = [
                .stream(
                    "/Type /XObject /Subtype /Image /Width 64 /Height 48 /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter [/DCTDecode] /DecodeParms [<< /Quality 65 >>]",
                    jpeg)
            ]
            page = hand
        case .colorTransformZero: page = Self.page(jpeg, entries: "/DecodeParms << /ColorTransform 0 >>")
        case .missingEndMarker: page = Self.page(Array(jpeg.dropLast(2)))
        case .trailingZeros: page = Self.page(jpeg + [UInt8](repeating: 0, count: 100))
        }
        try Fidelity.expectMatch(page.rendered(), tolerance: 0.01, label: "DCT \(variant)")
    }

    @Test("bytes before the JPEG's start-of-image marker are skipped, as poppler does")
    func leadingBytes() throws {
        let page = Self.page([0, 0, 0x0D, 0x0A] + (try Self.jpeg()))
        try Fidelity.expectMatch(page.rendered(poppler: true), tolerance: 0.01, label: "DCT after 4 stray bytes")
    }

    @Test("hostile JPEG data for the lenient decoder: empty, one byte, a lone SOI, stray bytes and nothing else")
    func hostileLenientJPEG() {
        for data: [UInt8] in [
            [], [0xFF], [0xFF, 0xD8], [0, 0, 0xFF, 0xD8], [0, 0xFF, 0xD8, 0xFF], Array(repeating: 0xFF, count: 70_000),
        ] {
            #expect(throws: PDFError.self) { _ = try JPEGCodec.decodeComponents(data, lenient: true) }
        }
    }

    @Test("an 8-bit ICCBased RGB Flate image with a soft mask inside a form is drawn")
    func iccImageWithSoftMaskInForm() throws {
        let size = 32
        var rgb: [UInt8] = []
        var alpha: [UInt8] = []
        for y in 0..<size {
            for x in 0..<size {
                rgb += [UInt8(x * 8), UInt8(y * 8), 128]
                alpha.append((x + y) % 8 < 6 ? 255 : 0)
            }
        }
        let profile = TestProfiles.sRGB
        let page = HandPage(
            content: "q 1 0 0 1 25 25 cm /Fm0 Do Q",
            resources: "<< /XObject << /Fm0 5 0 R >> >>",
            objects: [
                .stream(
                    "/Type /XObject /Subtype /Form /BBox [0 0 150 150] /Resources << /XObject << /Im0 6 0 R >> >>",
                    Array("q 150 0 0 150 0 0 cm /Im0 Do Q".utf8)),
                .stream(
                    "/Type /XObject /Subtype /Image /Width \(size) /Height \(size) /ColorSpace [/ICCBased 8 0 R] /BitsPerComponent 8 /Filter /FlateDecode /SMask 7 0 R",
                    Flate.compress(rgb)),
                .stream(
                    "/Type /XObject /Subtype /Image /Width \(size) /Height \(size) /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode",
                    Flate.compress(alpha)),
                .stream("/N 3", profile),
            ])
        let pair = try page.rendered()
        #expect(Fidelity.inkedPixels(pair.ours) > 10_000)
        try Fidelity.expectMatch(pair, tolerance: 0.01, label: "ICC image with a soft mask in a form")
    }

    @Test("an image nothing decodes is a warning naming it (the page is drawn without it); the CLI exits 3")
    func undecodableImageWarns() throws {
        let page = Self.page(Array("\u{FF}\u{D8}not a JPEG at all".utf8) + [UInt8](repeating: 0x41, count: 200))
        let renderer = DocumentRenderer(document: try PDFDocument(bytes: page.bytes()))
        let (_, warnings) = renderer.render(pageAt: 0)
        #expect(warnings.contains { $0.contains("image /Im0 (object 5)") && $0.contains("not drawn") }, "\(warnings)")
        let jpx = HandPage(
            content: "q 100 0 0 100 50 50 cm /Im0 Do Q", resources: "<< /XObject << /Im0 5 0 R >> >>",
            objects: [
                .stream(
                    "/Type /XObject /Subtype /Image /Width 10 /Height 10 /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /JPXDecode",
                    Array("garbage".utf8))
            ])
        let jpxWarnings = DocumentRenderer(document: try PDFDocument(bytes: jpx.bytes())).render(pageAt: 0).warnings
        #expect(jpxWarnings.contains { $0.contains("image /Im0") }, "\(jpxWarnings)")
    }
}
