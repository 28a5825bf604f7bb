import Foundation
import PDFAuthoring
import PDFCore
import PDFGraphics
import PDFTestSupport
import Testing

/// A rectangle painted in one colour for the rendering oracles.
struct Swatch: Sendable {
    /// Which renderer is the reference for a swatch (the other must agree too when it agrees with it).
    enum Reference: Sendable {
        /// Both renderers, within the tolerance.
        case both
        /// MuPDF: its CMYK → RGB formula is the one we follow; poppler converts CMYK its own way.
        case mupdf
        /// poppler: it applies tint transforms and CIE conversions as ISO 32000-2 defines them, while
        /// MuPDF 1.21 (built here without ICC support) does not evaluate an RGB-based spot colour's
        /// tint transform at the tint (a red spot from C0 [0 0 0] to C1 [1 0 0] at tint 0.5 comes
        /// out (255, 128, 128), not (128, 0, 0)), treats CalRGB as DeviceRGB and Lab with a rough formula.
        case poppler
    }

    var label: String
    /// The colour space as the content names it: a device family name, or a definition put in the
    /// page's `/ColorSpace` resources.
    var space: PDFObject
    var components: [Double]
    var reference: Reference = .both
}

/// Pages of swatches rendered by MuPDF and poppler, compared with what ``ColorSpace`` computes.
enum SwatchPage {
    static let size = 40.0
    static let pageSize = 400.0

    static func origin(_ index: Int) -> (x: Double, y: Double) {
        (10 + Double(index % 6) * 60, pageSize - 60 - Double(index / 6) * 60)
    }

    /// Builds the page; `make` may add objects (function streams) and returns the swatches.
    static func build(_ make: (inout PDFBuilder) -> [Swatch]) throws -> (
        path: String, swatches: [Swatch], resources: PDFDictionary, document: PDFDocument
    ) {
        var builder = PDFBuilder()
        let swatches = make(&builder)
        var spaces = PDFDictionary()
        var content = ""
        for (index, swatch) in swatches.enumerated() {
            let (x, y) = origin(index)
            let name: String
            if case .name(let family) = swatch.space {
                name = family.string
            } else {
                name = "CS\(index)"
                spaces[PDFName(name)] = swatch.space
            }
            let operands = swatch.components.map { PDFReal.format($0) }.joined(separator: " ")
            content += "/\(name) cs \(operands) scn \(x) \(y) \(size) \(size) re f\n"
        }
        let resources: PDFDictionary = ["ColorSpace": .dictionary(spaces)]
        builder.addPage(width: pageSize, height: pageSize, content: Array(content.utf8), resources: resources)
        let bytes = builder.build()
        let path = try TestPaths.temporaryDirectory("color") + "/swatches.pdf"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return (path, swatches, resources, try PDFDocument(bytes: bytes))
    }

    /// The swatch's centre pixel in a rendering at 72 dpi.
    static func center(_ index: Int, in pixels: (Int, Int) -> (r: Int, g: Int, b: Int)) -> [Int] {
        let (x, y) = origin(index)
        let pixel = pixels(Int(x + size / 2), Int(pageSize - y - size / 2))
        return [pixel.r, pixel.g, pixel.b]
    }

    /// poppler's rendering (`pdftoppm -r 72`, PPM output), the second oracle.
    static func poppler(_ path: String) throws -> PopplerRaster {
        let prefix = try TestPaths.temporaryDirectory("poppler") + "/page"
        let result = try Oracle.run("pdftoppm", ["-r", "72", "-singlefile", path, prefix])
        guard result.status == 0 else { throw PopplerRaster.Failure(message: "pdftoppm failed: \(result.errors)") }
        let data = Array(try Data(contentsOf: URL(fileURLWithPath: prefix + ".ppm")))
        var fields: [String] = []
        var index = 0
        while fields.count < 4 {
            while index < data.count, [0x20, 0x0A, 0x0D, 0x09].contains(data[index]) { index += 1 }
            let start = index
            while index < data.count, ![0x20, 0x0A, 0x0D, 0x09].contains(data[index]) { index += 1 }
            fields.append(String(decoding: data[start..<index], as: UTF8.self))
        }
        index += 1
        guard fields[0] == "P6", let width = Int(fields[1]), let height = Int(fields[2]) else {
            throw PopplerRaster.Failure(message: "pdftoppm wrote no P6 image")
        }
        return PopplerRaster(width: width, height: height, pixels: Array(data[index..<(index + width * height * 3)]))
    }

    static func bytes(_ rgb: RGB) -> [Int] {
        [rgb.r, rgb.g, rgb.b].map { Int(($0 * 255).rounded()) }
    }

    static func distance(_ a: [Int], _ b: [Int]) -> Int { zip(a, b).map { abs($0 - $1) }.max() ?? 0 }

    /// Renders the page with both oracles and checks each swatch against its reference within
    /// `tolerance` (0–255 per channel), and against the other renderer where the two agree.
    static func compare(
        _ page: (path: String, swatches: [Swatch], resources: PDFDictionary, document: PDFDocument), tolerance: Int,
        icc: (any ICCConverterFactory)? = nil
    ) throws {
        let mupdf = try RenderedPage.render(page.path, page: 1)
        let poppler = try SwatchPage.poppler(page.path)
        for (index, swatch) in page.swatches.enumerated() {
            let space = try ColorSpace.resolve(
                swatch.space, resources: page.resources, document: page.document, icc: icc)
            let ours = bytes(space.rgb(swatch.components))
            let mu = center(index, in: mupdf.pixel)
            let pop = center(index, in: poppler.pixel)
            let agree = distance(mu, pop) <= tolerance
            if swatch.reference != .poppler || agree {
                #expect(distance(ours, mu) <= tolerance, "\(swatch.label): ours \(ours), MuPDF \(mu), poppler \(pop)")
            }
            if swatch.reference != .mupdf || agree {
                #expect(distance(ours, pop) <= tolerance, "\(swatch.label): ours \(ours), poppler \(pop), MuPDF \(mu)")
            }
        }
    }
}

/// An RGB rendering by pdftoppm.
struct PopplerRaster {
    struct Failure: Error { var message: String }
    var width: Int
    var height: Int
    var pixels: [UInt8]

    func pixel(_ x: Int, _ y: Int) -> (r: Int, g: Int, b: Int) {
        let index = (min(max(y, 0), height - 1) * width + min(max(x, 0), width - 1)) * 3
        return (Int(pixels[index]), Int(pixels[index + 1]), Int(pixels[index + 2]))
    }
}

@Suite(
    "Colour spaces against MuPDF and poppler",
    .enabled(if: Requirement.tools("mutool", "pdftoppm"), "mutool or pdftoppm is not installed"))
struct ColorSpaceOracleTests {
    @Test("device, Indexed, Separation and DeviceN colours match MuPDF within 8/255, and poppler where it agrees")
    func deviceBasedSpaces() throws {
        let page = try SwatchPage.build { builder in
            let exponential = builder.add(
                FunctionFixtures.exponential(c0: [0, 0, 0, 0], c1: [0.2, 0.9, 0.1, 0.05], n: 1))
            let calculator = builder.add(
                FunctionFixtures.postScript(
                    "{ dup 0.5 mul exch 1 exch sub 0.3 }", domain: [0, 1], range: [0, 1, 0, 1, 0, 1]))
            let twoInks = builder.add(
                FunctionFixtures.postScript("{ 0 0 }", domain: [0, 1, 0, 1], range: [0, 1, 0, 1, 0, 1, 0, 1]))
            let sampled = builder.add(
                .stream(
                    PDFStream(
                        dictionary: [
                            "FunctionType": 0, "Domain": [0, 1], "Range": [0, 1, 0, 1, 0, 1], "Size": [2],
                            "BitsPerSample": 8,
                        ], data: [255, 255, 255, 20, 60, 160], compress: true)))
            let whiteToColor = builder.add(FunctionFixtures.exponential(c0: [1, 1, 1], c1: [0.1, 0.3, 0.8], n: 1))
            let lookup = PDFObject.string(PDFString(bytes: [255, 0, 0, 0, 128, 0, 30, 60, 90, 250, 240, 10]))
            let indexed: PDFObject = [.name("Indexed"), .name("DeviceRGB"), 3, lookup]
            let indexedStream = builder.add(
                .stream(
                    PDFStream(data: [0, 0, 0, 0, 0.0, 200, 20, 0, 40, 90, 10, 0].map { UInt8($0) }, compress: true)))
            return [
                Swatch(label: "DeviceRGB", space: .name("DeviceRGB"), components: [0.2, 0.6, 0.9]),
                Swatch(label: "DeviceGray", space: .name("DeviceGray"), components: [0.3]),
                Swatch(
                    label: "DeviceCMYK", space: .name("DeviceCMYK"), components: [0.1, 0.5, 0.2, 0.3], reference: .mupdf
                ),
                Swatch(
                    label: "DeviceCMYK 2", space: .name("DeviceCMYK"), components: [0.8, 0.1, 0, 0], reference: .mupdf),
                Swatch(label: "Indexed 1", space: indexed, components: [1]),
                Swatch(label: "Indexed 2", space: indexed, components: [2]),
                Swatch(label: "Indexed 3", space: indexed, components: [3]),
                Swatch(
                    label: "Indexed over CMYK (stream)",
                    space: [.name("Indexed"), .name("DeviceCMYK"), 2, .reference(indexedStream)], components: [1],
                    reference: .mupdf),
                Swatch(
                    label: "Separation, type 2 → CMYK",
                    space: [.name("Separation"), .name("Spot"), .name("DeviceCMYK"), .reference(exponential)],
                    components: [0.7], reference: .mupdf),
                Swatch(
                    label: "Separation, type 4 → RGB",
                    space: [.name("Separation"), .name("Spot"), .name("DeviceRGB"), .reference(calculator)],
                    components: [0.4], reference: .poppler),
                Swatch(
                    label: "Separation, type 0 → RGB",
                    space: [.name("Separation"), .name("Spot"), .name("DeviceRGB"), .reference(sampled)],
                    components: [0.5], reference: .poppler),
                Swatch(
                    label: "DeviceN → CMYK",
                    space: [
                        .name("DeviceN"), [.name("Cyan"), .name("Magenta")], .name("DeviceCMYK"), .reference(twoInks),
                    ],
                    components: [0.4, 0.7], reference: .mupdf),
                Swatch(
                    label: "Separation, white to colour → RGB",
                    space: [.name("Separation"), .name("Spot"), .name("DeviceRGB"), .reference(whiteToColor)],
                    components: [0.6], reference: .poppler),
            ]
        }
        try SwatchPage.compare(page, tolerance: 8)
    }

    @Test("CIE-based colours (Lab, CalRGB) match poppler's colour-managed rendering within 3/255, CalGray MuPDF's")
    func cieBasedSpaces() throws {
        let d50 = FunctionFixtures.numbers([0.9642, 1, 0.8249])
        let d65 = FunctionFixtures.numbers([0.9505, 1, 1.089])
        let lab: PDFObject = [.name("Lab"), .dictionary(["WhitePoint": d50, "Range": [-128, 127, -128, 127]])]
        let labD65: PDFObject = [.name("Lab"), .dictionary(["WhitePoint": d65])]
        let srgbLike: PDFObject = [
            .name("CalRGB"),
            .dictionary([
                "WhitePoint": d65, "Gamma": FunctionFixtures.numbers([2.2, 2.2, 2.2]),
                "Matrix": FunctionFixtures.numbers([
                    0.4124, 0.2126, 0.0193, 0.3576, 0.7152, 0.1192, 0.1805, 0.0722, 0.9505,
                ]),
            ]),
        ]
        let calRGBD50: PDFObject = [
            .name("CalRGB"),
            .dictionary([
                "WhitePoint": d50, "Gamma": FunctionFixtures.numbers([1.8, 1.8, 1.8]),
                "Matrix": FunctionFixtures.numbers([
                    0.4361, 0.2225, 0.0139, 0.3851, 0.7169, 0.0971, 0.1431, 0.0606, 0.7141,
                ]),
            ]),
        ]
        let calGray: PDFObject = [.name("CalGray"), .dictionary(["WhitePoint": d65, "Gamma": 2.2])]
        let page = try SwatchPage.build { _ in
            [
                Swatch(label: "Lab D50 50 20 −30", space: lab, components: [50, 20, -30], reference: .poppler),
                Swatch(label: "Lab D50 80 −40 60", space: lab, components: [80, -40, 60], reference: .poppler),
                Swatch(label: "Lab D50 30 0 0", space: lab, components: [30, 0, 0], reference: .poppler),
                Swatch(label: "Lab D50 100 0 0", space: lab, components: [100, 0, 0], reference: .poppler),
                Swatch(label: "Lab D65 60 10 10", space: labD65, components: [60, 10, 10], reference: .poppler),
                Swatch(label: "CalRGB sRGB-like", space: srgbLike, components: [0.2, 0.5, 0.8], reference: .poppler),
                Swatch(label: "CalRGB sRGB-like 2", space: srgbLike, components: [0.9, 0.3, 0.1], reference: .poppler),
                Swatch(
                    label: "CalRGB D50 gamma 1.8", space: calRGBD50, components: [0.3, 0.6, 0.4], reference: .poppler),
                Swatch(label: "CalGray", space: calGray, components: [0.5], reference: .mupdf),
            ]
        }
        // poppler converts Lab and CalRGB through lcms2 (XYZ adapted to D50 with Bradford, then the
        // sRGB profile), the same arithmetic as ours: 3/255 covers lcms2's rounding. Its CalGray
        // gives a neutral grey a colour cast (no white-point adaptation), so CalGray is checked
        // against MuPDF, which draws it as DeviceGray: with gamma 2.2 against the sRGB curve the
        // two differ by at most 3/255 at 0.5.
        try SwatchPage.compare(page, tolerance: 3)
    }
}
