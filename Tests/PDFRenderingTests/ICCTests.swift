import Foundation
import PDFAuthoring
import PDFCore
import PDFGraphics
import PDFRendering
import PDFTestSupport
import Testing

func byteTriple(_ rgb: RGB) -> [Int] { [rgb.r, rgb.g, rgb.b].map { Int(($0 * 255).rounded()) } }
func maxDifference(_ a: [Int], _ b: [Int]) -> Int { zip(a, b).map { abs($0 - $1) }.max() ?? 0 }

@Suite("ICC colour through lcms2")
struct ICCTests {
    let factory = LCMSConverterFactory()

    @Test("sRGB to sRGB is the identity within 1/255, single colours and image rows alike")
    func srgbIdentity() throws {
        var profiles = [TestProfiles.sRGB]
        if let installed = TestProfiles.installedSRGB { profiles.append(installed) }
        for profile in profiles {
            let converter = try #require(factory.converter(profile: profile, componentCount: 3))
            var unit: [Float] = []
            var expected: [Int] = []
            for r in stride(from: 0, through: 255, by: 51) {
                for g in stride(from: 0, through: 255, by: 17) {
                    for b in [0, 1, 128, 254, 255] {
                        let color = converter.rgb([Double(r) / 255, Double(g) / 255, Double(b) / 255])
                        #expect(maxDifference(byteTriple(color), [r, g, b]) <= 1, "\(r) \(g) \(b)")
                        unit += [Float(r) / 255, Float(g) / 255, Float(b) / 255]
                        expected += [r, g, b]
                    }
                }
            }
            let bytes = converter.rgbBytes(fromUnitComponents: unit, pixelCount: expected.count / 3)
            #expect(maxDifference(bytes.map(Int.init), expected) <= 1)
        }
    }

    @Test("gray: neutral and increasing; wrong channel counts and garbage are refused; transforms are cached")
    func grayAndRefusals() throws {
        let converter = try #require(factory.converter(profile: TestProfiles.gray, componentCount: 1))
        var previous = -1
        for step in 0...20 {
            let value = byteTriple(converter.rgb([Double(step) / 20]))
            #expect(value[0] == value[1] && value[1] == value[2], "gray \(step) is not neutral: \(value)")
            #expect(value[0] > previous)
            previous = value[0]
        }
        #expect(byteTriple(converter.rgb([0])) == [0, 0, 0] && byteTriple(converter.rgb([1])) == [255, 255, 255])
        #expect(factory.converter(profile: TestProfiles.gray, componentCount: 3) == nil)
        #expect(factory.converter(profile: TestProfiles.sRGB, componentCount: 4) == nil)
        #expect(factory.converter(profile: Array("not a profile".utf8), componentCount: 3) == nil)
        #expect(factory.converter(profile: [], componentCount: 3) == nil)
        let before = factory.cachedProfileCount
        _ = factory.converter(profile: TestProfiles.gray, componentCount: 1)
        #expect(factory.cachedProfileCount == before)
    }

    @Test("CMYK: inputs scaled for lcms2, neutral greys, darker with more ink, the profile's colours recovered")
    func cmyk() throws {
        let converter = try #require(factory.converter(profile: TestProfiles.cmyk, componentCount: 4))
        #expect(maxDifference(byteTriple(converter.rgb([0, 0, 0, 0])), [255, 255, 255]) <= 2)
        #expect(maxDifference(byteTriple(converter.rgb([0, 0, 0, 1])), [0, 0, 0]) <= 2)
        var previous = 256
        for step in 0...10 {
            let value = byteTriple(converter.rgb([0, 0, 0, Double(step) / 10]))
            #expect(
                maxDifference([value[0], value[0]], [value[1], value[2]]) <= 2, "K \(step) is not neutral: \(value)")
            #expect(value[0] < previous || value[0] == 0)
            previous = value[0]
        }
        // Cyan takes red away, magenta green, yellow blue.
        let cyan = byteTriple(converter.rgb([1, 0, 0, 0]))
        let magenta = byteTriple(converter.rgb([0, 1, 0, 0]))
        let yellow = byteTriple(converter.rgb([0, 0, 1, 0]))
        #expect(cyan[0] < 10 && cyan[1] > 245 && cyan[2] > 245)
        #expect(magenta[1] < 10 && magenta[0] > 245 && yellow[2] < 10 && yellow[0] > 245)
        // Grid points of the profile's table reproduce the sRGB colours it was built from (within
        // lcms2's 16-bit Lab encoding and the round trip through the PCS).
        var unit: [Float] = []
        var expected: [Int] = []
        for c in [0, 4, 8, 12, 16] {
            for m in [0, 8, 16] {
                for k in [0, 4, 12] {
                    let ink = [Double(c) / 16, Double(m) / 16, 0.25, Double(k) / 16]
                    let rgb = (0..<3).map { Int(((1 - min(1, ink[$0] + ink[3])) * 255).rounded()) }
                    #expect(maxDifference(byteTriple(converter.rgb(ink)), rgb) <= 3, "\(ink)")
                    unit += ink.map { Float($0) }
                    expected += rgb
                }
            }
        }
        #expect(
            maxDifference(
                converter.rgbBytes(fromUnitComponents: unit, pixelCount: expected.count / 3).map(Int.init), expected)
                <= 3)
    }

    @Test(
        "CMYK conversions agree with Pillow's ImageCms (its own lcms2 binding) within 1/255",
        .enabled(if: Requirement.python("PIL.ImageCms"), "Pillow's ImageCms is not installed"))
    func cmykAgainstPillow() throws {
        let directory = try TestPaths.temporaryDirectory("icc")
        try Data(TestProfiles.cmyk).write(to: URL(fileURLWithPath: directory + "/cmyk.icc"))
        let inks: [[Int]] = [
            [0, 0, 0, 0], [255, 0, 0, 0], [30, 200, 90, 10], [128, 128, 128, 128], [10, 20, 250, 60], [70, 0, 180, 0],
        ]
        let script = """
            import sys, json
            from PIL import Image, ImageCms
            inks = json.loads(sys.argv[2])
            image = Image.new("CMYK", (len(inks), 1))
            image.putdata([tuple(i) for i in inks])
            transform = ImageCms.buildTransform(ImageCms.getOpenProfile(sys.argv[1]), ImageCms.createProfile("sRGB"), "CMYK", "RGB", renderingIntent=1)
            print(json.dumps([list(p) for p in ImageCms.applyTransform(image, transform).getdata()]))
            """
        let result = try Oracle.run("python3", ["-c", script, directory + "/cmyk.icc", "\(inks)"])
        let pillow = try #require(
            try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[Int]], "\(result.errors)")
        let converter = try #require(factory.converter(profile: TestProfiles.cmyk, componentCount: 4))
        for (ink, expected) in zip(inks, pillow) {
            let ours = byteTriple(converter.rgb(ink.map { Double($0) / 255 }))
            #expect(maxDifference(ours, expected) <= 1, "\(ink): ours \(ours), Pillow \(expected)")
        }
    }

    @Test("one converter used from many tasks at once gives the same bytes")
    func concurrency() async throws {
        let converter = try #require(factory.converter(profile: TestProfiles.cmyk, componentCount: 4))
        let unit = (0..<40_000).map { Float(($0 * 7919) % 1000) / 1000 }
        let reference = converter.rgbBytes(fromUnitComponents: unit, pixelCount: 10_000)
        let results = await withTaskGroup(of: [UInt8].self) { group in
            for _ in 0..<8 {
                group.addTask {
                    let made = LCMSConverterFactory().converter(profile: TestProfiles.cmyk, componentCount: 4)
                    return (made ?? converter).rgbBytes(fromUnitComponents: unit, pixelCount: 10_000)
                }
                group.addTask { converter.rgbBytes(fromUnitComponents: unit, pixelCount: 10_000) }
            }
            var all: [[UInt8]] = []
            for await result in group { all.append(result) }
            return all
        }
        #expect(results.count == 16 && results.allSatisfy { $0 == reference })
    }

    @Test(
        "ICCBased colours on a page: ours through lcms2 against poppler (which applies the profiles) and MuPDF",
        .enabled(if: Requirement.tools("mutool", "pdftoppm"), "mutool or pdftoppm is not installed"))
    func iccBasedPage() throws {
        var builder = PDFBuilder()
        let rgbProfile = builder.add(
            .stream(
                PDFStream(
                    dictionary: ["N": 3, "Alternate": .name("DeviceRGB")], data: TestProfiles.sRGB, compress: true)))
        let cmykProfile = builder.add(
            .stream(
                PDFStream(
                    dictionary: ["N": 4, "Alternate": .name("DeviceCMYK")], data: TestProfiles.cmyk, compress: true)))
        let rgbSpace: PDFObject = [.name("ICCBased"), .reference(rgbProfile)]
        let cmykSpace: PDFObject = [.name("ICCBased"), .reference(cmykProfile)]
        let swatches: [(PDFObject, [Double])] = [
            (rgbSpace, [0.2, 0.6, 0.9]), (rgbSpace, [0.95, 0.5, 0.05]), (cmykSpace, [0.1, 0.5, 0.2, 0.3]),
            (cmykSpace, [0.8, 0.1, 0, 0]), (cmykSpace, [0, 0, 0, 0.5]), (cmykSpace, [0.3, 0.3, 0.6, 0.1]),
        ]
        var content = ""
        for (index, (_, components)) in swatches.enumerated() {
            content +=
                "/CS\(index) cs \(components.map { PDFReal.format($0) }.joined(separator: " ")) scn \(10 + 50 * index) 10 40 40 re f\n"
        }
        var spaces = PDFDictionary()
        for (index, swatch) in swatches.enumerated() { spaces[PDFName("CS\(index)")] = swatch.0 }
        builder.addPage(
            width: 320, height: 60, content: Array(content.utf8), resources: ["ColorSpace": .dictionary(spaces)])
        let bytes = builder.build()
        let path = try TestPaths.temporaryDirectory("icc-page") + "/icc.pdf"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let document = try PDFDocument(bytes: bytes)
        let mupdf = try RenderedPage.render(path, page: 1)
        let output = try TestPaths.temporaryDirectory("icc-poppler") + "/page"
        #expect(try Oracle.run("pdftoppm", ["-r", "72", "-singlefile", path, output]).status == 0)
        let ppm = Array(try Data(contentsOf: URL(fileURLWithPath: output + ".ppm")))
        // "P6\n320 60\n255\n" then the pixels.
        let header = Array("P6\n320 60\n255\n".utf8)
        #expect(Array(ppm.prefix(header.count)) == header)
        for (index, (space, components)) in swatches.enumerated() {
            let resolved = try ColorSpace.resolve(space, resources: nil, document: document, icc: factory)
            let ours = byteTriple(resolved.rgb(components))
            let (x, y) = (30 + 50 * index, 30)
            let mu = mupdf.pixel(x, y)
            let offset = header.count + (y * 320 + x) * 3
            let pop = ppm[offset..<(offset + 3)].map(Int.init)
            // poppler converts through the embedded profile with lcms2 as we do: 2/255. MuPDF here has
            // no ICC support and draws the /Alternate, which these profiles were built to match: 4/255
            // (away from c + k = 1, where the profile's 17-point table rounds the kink of min()).
            #expect(maxDifference(ours, pop) <= 2, "swatch \(index): ours \(ours), poppler \(pop)")
            #expect(maxDifference(ours, [mu.r, mu.g, mu.b]) <= 4, "swatch \(index): ours \(ours), MuPDF \(mu)")
        }
    }

    @Test("ICCBased image samples convert in bulk as single colours do")
    func iccImageSamples() throws {
        var builder = PDFBuilder()
        let profile = builder.add(.stream(PDFStream(dictionary: ["N": 4], data: TestProfiles.cmyk, compress: true)))
        builder.addPage(content: [])
        let document = try PDFDocument(bytes: builder.build())
        let space = try ColorSpace.resolve(
            [.name("ICCBased"), .reference(profile)], resources: nil, document: document, icc: factory)
        let samples: [UInt16] = (0..<(4 * 500)).map { UInt16(($0 * 97) % 256) }
        let bytes = samples.withUnsafeBufferPointer {
            space.rgbBytes(samples: $0, pixelCount: 500, bitsPerComponent: 8, decode: [1, 0, 0, 1, 0, 1, 0, 1])
        }
        for p in 0..<500 {
            // /Decode [1 0] inverts the cyan samples.
            let components = (0..<4).map { c in
                c == 0 ? 1 - Double(samples[4 * p]) / 255 : Double(samples[4 * p + c]) / 255
            }
            let single = byteTriple(space.rgb(components))
            #expect(maxDifference(single, bytes[(3 * p)..<(3 * p + 3)].map(Int.init)) <= 1, "pixel \(p)")
        }
    }
}
