import Foundation
import PDFAuthoring
import PDFCore
import PDFGraphics
import PDFTestSupport
import Testing

/// One image XObject of a test page: its colour space, bit depth, decode array and samples.
struct TestImage {
    var label: String
    var space: PDFObject
    var bits: Int
    var decode: [Double]?
    var width: Int
    var height: Int
    /// Unpacked samples, width × height × components.
    var samples: [UInt16]
    var reference: Swatch.Reference = .both

    /// The samples packed into rows of whole bytes (ISO 32000-2 §8.9.3).
    func packed(components: Int) -> [UInt8] {
        var writer = BitWriter()
        for row in 0..<height {
            for index in 0..<(width * components) { writer.write(Int(samples[row * width * components + index]), bits) }
            writer.align()
        }
        return writer.bytes
    }
}

@Suite(
    "Image samples against MuPDF and poppler",
    .enabled(if: Requirement.tools("mutool", "pdftoppm"), "mutool or pdftoppm is not installed"))
struct ColorImageTests {
    /// Each image sample covers `cell` × `cell` points, i.e. pixels at 72 dpi.
    static let cell = 10.0

    @Test("image samples in device, Indexed, Separation and Lab spaces convert as the renderers draw them")
    func images() throws {
        func ramp(_ count: Int, _ maximum: Int, seed: Int) -> [UInt16] {
            (0..<count).map { UInt16(($0 * 37 + seed * 11) % (maximum + 1)) }
        }
        let palette = PDFObject.string(PDFString(bytes: (0..<48).map { UInt8(($0 * 53) % 256) }))
        let images = [
            TestImage(
                label: "Gray 1-bit, Decode [1 0]", space: .name("DeviceGray"), bits: 1, decode: [1, 0], width: 4,
                height: 3, samples: ramp(12, 1, seed: 1)),
            TestImage(
                label: "Gray 4-bit", space: .name("DeviceGray"), bits: 4, decode: nil, width: 4, height: 3,
                samples: ramp(12, 15, seed: 2)),
            TestImage(
                label: "RGB 8-bit", space: .name("DeviceRGB"), bits: 8, decode: nil, width: 4, height: 3,
                samples: ramp(36, 255, seed: 3)),
            TestImage(
                label: "RGB 16-bit", space: .name("DeviceRGB"), bits: 16, decode: nil, width: 4, height: 3,
                samples: ramp(36, 65535, seed: 4).map { $0 &* 251 }),
            TestImage(
                label: "CMYK 8-bit", space: .name("DeviceCMYK"), bits: 8, decode: nil, width: 4, height: 3,
                samples: ramp(48, 255, seed: 5), reference: .mupdf),
            TestImage(
                label: "Indexed 4-bit", space: [.name("Indexed"), .name("DeviceRGB"), 15, palette], bits: 4,
                decode: nil, width: 4, height: 3, samples: ramp(12, 15, seed: 6)),
            TestImage(
                label: "Indexed 2-bit, Decode [3 0]", space: [.name("Indexed"), .name("DeviceRGB"), 3, palette],
                bits: 2, decode: [3, 0], width: 4, height: 3, samples: ramp(12, 3, seed: 7)),
            TestImage(
                label: "Separation 8-bit → CMYK",
                space: [
                    .name("Separation"), .name("S"), .name("DeviceCMYK"),
                    FunctionFixtures.exponential(c0: [0, 0, 0, 0], c1: [0.1, 0.8, 0.6, 0.1], n: 1),
                ],
                bits: 8, decode: nil, width: 4, height: 3, samples: ramp(12, 255, seed: 8), reference: .mupdf),
            TestImage(
                label: "Lab 8-bit",
                space: [
                    .name("Lab"),
                    .dictionary([
                        "WhitePoint": FunctionFixtures.numbers([0.9642, 1, 0.8249]), "Range": [-100, 100, -100, 100],
                    ]),
                ],
                bits: 8, decode: nil, width: 4, height: 3, samples: ramp(36, 255, seed: 9), reference: .poppler),
        ]
        var builder = PDFBuilder()
        var xobjects = PDFDictionary()
        var content = ""
        for (index, image) in images.enumerated() {
            let (document, _) = try FunctionFixtures.document([])
            let components = try ColorSpace.resolve(image.space, resources: nil, document: document, icc: nil)
                .componentCount
            var dictionary: PDFDictionary = [
                "Type": .name("XObject"), "Subtype": .name("Image"), "Width": .integer(image.width),
                "Height": .integer(image.height), "ColorSpace": image.space, "BitsPerComponent": .integer(image.bits),
            ]
            if let decode = image.decode { dictionary["Decode"] = FunctionFixtures.numbers(decode) }
            let reference = builder.add(
                .stream(PDFStream(dictionary: dictionary, data: image.packed(components: components), compress: true)))
            xobjects[PDFName("Im\(index)")] = .reference(reference)
            let (x, y) = SwatchPage.origin(index)
            content +=
                "q \(Double(image.width) * Self.cell) 0 0 \(Double(image.height) * Self.cell) \(x) \(y) cm /Im\(index) Do Q\n"
        }
        builder.addPage(
            width: SwatchPage.pageSize, height: SwatchPage.pageSize, content: Array(content.utf8),
            resources: ["XObject": .dictionary(xobjects)])
        let bytes = builder.build()
        let path = try TestPaths.temporaryDirectory("images") + "/images.pdf"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let document = try PDFDocument(bytes: bytes)
        let mupdf = try RenderedPage.render(path, page: 1)
        let poppler = try SwatchPage.poppler(path)
        for (index, image) in images.enumerated() {
            let space = try ColorSpace.resolve(image.space, resources: nil, document: document, icc: nil)
            let ours = image.samples.withUnsafeBufferPointer {
                space.rgbBytes(
                    samples: $0, pixelCount: image.width * image.height, bitsPerComponent: image.bits,
                    decode: image.decode ?? space.defaultDecode(bitsPerComponent: image.bits))
            }
            let (x0, y0) = SwatchPage.origin(index)
            for row in 0..<image.height {
                for column in 0..<image.width {
                    // Image rows run top to bottom; the sample's cell centre in page pixels.
                    let px = Int(x0 + (Double(column) + 0.5) * Self.cell)
                    let py = Int(
                        SwatchPage.pageSize - y0 - Double(image.height) * Self.cell + (Double(row) + 0.5) * Self.cell)
                    let p = row * image.width + column
                    let expected = ours[(3 * p)..<(3 * p + 3)].map(Int.init)
                    let mu = mupdf.pixel(px, py)
                    let pop = poppler.pixel(px, py)
                    let (muValue, popValue) = ([mu.r, mu.g, mu.b], [pop.r, pop.g, pop.b])
                    let agree = SwatchPage.distance(muValue, popValue) <= 8
                    if image.reference != .poppler || agree {
                        #expect(
                            SwatchPage.distance(expected, muValue) <= 8,
                            "\(image.label) (\(column), \(row)): ours \(expected), MuPDF \(muValue)")
                    }
                    if image.reference != .mupdf || agree {
                        #expect(
                            SwatchPage.distance(expected, popValue) <= 8,
                            "\(image.label) (\(column), \(row)): ours \(expected), poppler \(popValue)")
                    }
                }
            }
        }
    }
}
