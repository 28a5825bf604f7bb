import Foundation
import PDFCore
import PDFFonts
import PDFRendering
import PDFTestSupport
import Testing

/// Small pages made by the project, rendered and compared with golden PNGs in
/// `Tests/Fixtures/goldens` within a tolerance: a change of the renderer's output shows here even
/// where the oracles are not installed.
///
/// Goldens are recorded with `AUTOGRAPH_RECORD_GOLDENS=1 swift test --filter GoldenTests`, and only
/// when the page matches MuPDF by the fidelity measure; `versions.txt` records the cairo and
/// FreeType they were drawn with. Other versions anti-alias a little differently: the tolerance
/// (0.5 % of the pixels after the 3×3 blur) allows for that, and a note is printed.
@Suite("Golden pages")
struct GoldenTests {
    static let dpi = 144.0
    static let tolerance = 0.005

    static let pages: [(name: String, page: HandPage)] = [
        (
            "paths",
            HandPage(
                content: """
                    4 w 1 J 1 j 0.8 0 0 RG 20 20 m 60 180 l 100 20 l S
                    2 w 0 J 0 j [6 3] 0 d 0 0.5 0 RG 110 20 m 180 60 l 110 100 l S [] 0 d
                    0 0 1 rg 120 120 m 190 190 l 190 120 l 120 190 l h f*
                    q 20 110 80 80 re W n 0.9 0.6 0 rg 60 150 m 60 172 42 190 20 190 c 20 110 l h f Q
                    """)
        ),
        (
            "text",
            HandPage(
                width: 300,
                content: """
                    BT /F1 14 Tf 10 170 Td (Helvetica: Autograph) Tj /F2 14 Tf 0 -22 Td (Times: what you see) Tj
                    /F3 12 Tf 0 -22 Td (Courier: is what you sign) Tj /F4 14 Tf 0 -22 Td (abgdpq) Tj
                    1 Tr 0.5 w /F1 24 Tf 0 -34 Td (Outline) Tj 0 Tr 150 Tz 2 Tc /F2 12 Tf 0 -24 Td (Wide) Tj ET
                    q BT 7 Tr /F1 30 Tf 150 20 Td (Clip) Tj ET 0 0 1 rg 140 10 150 40 re f Q
                    """,
                resources: """
                    << /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>
                    /F2 << /Type /Font /Subtype /Type1 /BaseFont /Times-Italic /Encoding /WinAnsiEncoding >>
                    /F3 << /Type /Font /Subtype /Type1 /BaseFont /Courier >>
                    /F4 << /Type /Font /Subtype /Type1 /BaseFont /Symbol >> >> >>
                    """)
        ),
        (
            "shadings",
            HandPage(
                content: "q 10 10 85 180 re W n /A sh Q q 105 10 85 180 re W n /R sh Q",
                resources: """
                    << /Shading << /A << /ShadingType 2 /ColorSpace /DeviceRGB /Coords [10 0 95 0]
                    /Function << /FunctionType 2 /Domain [0 1] /C0 [1 0 0] /C1 [0 0 1] /N 1 >> /Extend [true true] >>
                    /R << /ShadingType 3 /ColorSpace /DeviceCMYK /Coords [147 100 0 147 100 40]
                    /Function << /FunctionType 2 /Domain [0 1] /C0 [0 0 1 0] /C1 [1 0 0 0.2] /N 1 >> /Extend [false true] >> >> >>
                    """)
        ),
        (
            "transparency",
            HandPage(
                content: """
                    0.9 0.9 0.2 rg 0 0 200 100 re f
                    /Half gs 1 0 0 rg 20 20 100 100 re f 0 0 1 rg 80 80 100 100 re f
                    /Multiply gs 0 0.8 0 rg 50 130 100 50 re f
                    """,
                resources: """
                    << /ExtGState << /Half << /ca 0.5 >> /Multiply << /ca 1 /BM /Multiply >> >> >>
                    """)
        ),
        (
            "images",
            HandPage(
                content: """
                    q 180 0 0 80 10 110 cm /Ramp Do Q q 0 0.4 0.8 rg 80 0 0 80 10 10 cm /Stencil Do Q
                    q 80 0 0 80 110 10 cm /Indexed Do Q
                    """,
                resources: "<< /XObject << /Ramp 5 0 R /Stencil 6 0 R /Indexed 7 0 R >> >>",
                objects: [
                    .stream(
                        "/Type /XObject /Subtype /Image /Width 16 /Height 8 /ColorSpace /DeviceRGB /BitsPerComponent 8",
                        (0..<8).flatMap { y in (0..<16).flatMap { x in [UInt8(x * 16), UInt8(y * 32), 128] } }),
                    .stream(
                        "/Type /XObject /Subtype /Image /Width 8 /Height 8 /ImageMask true /BitsPerComponent 1",
                        [0x18, 0x3C, 0x7E, 0xFF, 0xFF, 0x7E, 0x3C, 0x18]),
                    .stream(
                        "/Type /XObject /Subtype /Image /Width 4 /Height 4 /BitsPerComponent 2 /ColorSpace [/Indexed /DeviceRGB 3 <FF000000FF000000FFFFFF00>]",
                        [0x1B, 0xE4, 0x1B, 0xE4]),
                ])
        ),
    ]

    static var directory: String { TestPaths.fixture("goldens", "") }

    @Test(
        "pages drawn by paths, text, shadings, transparency and images match their goldens",
        arguments: pages.map(\.name))
    func golden(_ name: String) throws {
        let page = try #require(Self.pages.first { $0.name == name }?.page)
        let renderer = DocumentRenderer(document: try PDFDocument(bytes: page.bytes()))
        var options = RenderOptions()
        options.dpi = Self.dpi
        let (ours, warnings) = renderer.render(pageAt: 0, options: options)
        #expect(warnings.isEmpty, "\(name): \(warnings)")
        // Our PNG encoder, read back by libpng (through cairo), gives the same pixels.
        let decoded = try #require(RenderedImage(pngData: ours.pngData()), "\(name): our PNG does not decode")
        #expect(decoded.width == ours.width && decoded.height == ours.height && decoded.rgba == ours.rgba)
        let path = Self.directory + "\(name).png"
        if ProcessInfo.processInfo.environment["AUTOGRAPH_RECORD_GOLDENS"] != nil {
            // A golden is recorded only when MuPDF agrees with it.
            let theirs = try page.mutool(dpi: Self.dpi)
            let comparison = try #require(Fidelity.compare(ours, theirs))
            #expect(comparison.fraction <= 0.02, "\(name) against MuPDF: \(comparison)")
            guard comparison.fraction <= 0.02 else { return }
            try Data(ours.pngData()).write(to: URL(fileURLWithPath: path))
            let versions = "cairo \(RenderingLibraries.cairo)\nfreetype \(RenderingLibraries.freeType)\n"
            try versions.write(toFile: Self.directory + "versions.txt", atomically: true, encoding: .utf8)
            print("\(name): recorded (MuPDF: \(comparison))")
            return
        }
        let bytes = try #require(
            FileManager.default.contents(atPath: path), "no golden \(path): record with AUTOGRAPH_RECORD_GOLDENS=1")
        let golden = try #require(RenderedImage(pngData: Array(bytes)), "\(path) is not a PNG")
        let recorded = (try? String(contentsOfFile: Self.directory + "versions.txt", encoding: .utf8)) ?? ""
        let current = "cairo \(RenderingLibraries.cairo)\nfreetype \(RenderingLibraries.freeType)\n"
        if recorded != current {
            print(
                "notice: goldens were drawn with \(recorded.split(separator: "\n")), this is \(current.split(separator: "\n"))"
            )
        }
        let reference = OracleImage(width: golden.width, height: golden.height, pixels: Fidelity.rgb(golden))
        let comparison = try #require(
            Fidelity.compare(ours, reference),
            "\(name): \(ours.width)×\(ours.height), golden \(golden.width)×\(golden.height)")
        print("\(name) against its golden: \(comparison)")
        #expect(comparison.fraction <= Self.tolerance, "\(name): \(comparison)")
        #expect(Fidelity.inkedPixels(reference) > 100, "\(name): the golden is nearly blank")
    }
}
