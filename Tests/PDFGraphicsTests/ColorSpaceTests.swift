import PDFAuthoring
import PDFCore
import PDFGraphics
import PDFTestSupport
import Testing

/// A converter that paints everything one colour, to see whether a space used it.
struct FixedConverter: ICCConverter {
    var color: RGB
    func rgb(_ components: [Double]) -> RGB { color }
    func rgbBytes(fromUnitComponents components: [Float], pixelCount: Int) -> [UInt8] {
        (0..<pixelCount).flatMap { _ in [UInt8(color.r * 255), UInt8(color.g * 255), UInt8(color.b * 255)] }
    }
}

struct FixedFactory: ICCConverterFactory {
    var accepts: Bool
    func converter(profile: [UInt8], componentCount: Int) -> (any ICCConverter)? {
        accepts && profile == Array("profile".utf8) ? FixedConverter(color: RGB(0.2, 0.4, 0.6)) : nil
    }
}

@Suite("Colour space reading and conversion (ISO 32000-2 §8.6)")
struct ColorSpaceTests {
    func resolve(
        _ object: PDFObject, spaces: PDFDictionary = [:], objects: [PDFObject] = [],
        icc: (any ICCConverterFactory)? = nil
    )
        throws -> ColorSpace
    {
        let (document, _) = try FunctionFixtures.document(objects)
        return try ColorSpace.resolve(
            object, resources: ["ColorSpace": .dictionary(spaces)], document: document, icc: icc)
    }

    @Test("device spaces: component counts, initial colours, CMYK as MuPDF converts it")
    func deviceSpaces() throws {
        #expect(try resolve(.name("DeviceGray")).componentCount == 1)
        #expect(try resolve(.name("RGB")).componentCount == 3)
        let cmyk = try resolve([.name("DeviceCMYK")])
        #expect(cmyk.componentCount == 4)
        #expect(cmyk.initialColor == [0, 0, 0, 1])
        #expect(cmyk.rgb(cmyk.initialColor) == .black)
        // r = 1 − min(1, c + k) …
        #expect(cmyk.rgb([0.25, 0.5, 0, 0.25]) == RGB(0.5, 0.25, 0.75))
        #expect(cmyk.rgb([0.9, 0, 0, 0.5]) == RGB(0, 0.5, 0.5))
        #expect(ColorSpace.deviceRGB.rgb([2, -1]) == RGB(1, 0, 0))  // clamped, missing → 0
        #expect(ColorSpace.deviceGray.initialColor == [0])
    }

    @Test("names resolve through the /ColorSpace resources; Default spaces replace device spaces")
    func resourcesAndDefaults() throws {
        let calRGB: PDFObject = [
            .name("CalRGB"),
            .dictionary([
                "WhitePoint": [0.9505, 1, 1.089],
                "Matrix": FunctionFixtures.numbers([
                    0.4124, 0.2126, 0.0193, 0.3576, 0.7152, 0.1192, 0.1805, 0.0722, 0.9505,
                ]),
            ]),
        ]
        let spaces: PDFDictionary = [
            "Spot": [.name("ICCBased"), .null], "DefaultRGB": calRGB, "DefaultGray": .name("DeviceRGB"),
        ]
        let replaced = try resolve(.name("DeviceRGB"), spaces: spaces)
        // A CalRGB with gamma 1 and the sRGB primaries is linear sRGB: 0.5 encodes to 0.7354.
        #expect(abs(replaced.rgb([0.5, 0.5, 0.5]).r - 0.7354) < 0.002)
        // A Default space with the wrong number of components is ignored.
        #expect(try resolve(.name("DeviceGray"), spaces: spaces).rgb([0.5]) == RGB(0.5, 0.5, 0.5))
        // A Default space does not replace the device space inside its own definition.
        let selfDefault: PDFDictionary = [
            "DefaultRGB": [.name("Indexed"), .name("DeviceRGB"), 0, .string(PDFString(bytes: [1, 2, 3]))]
        ]
        #expect(try resolve(.name("DeviceRGB"), spaces: selfDefault).componentCount == 3)  // Indexed has 1: ignored
        #expect(throws: PDFError.self) { try resolve(.name("Missing"), spaces: spaces) }
    }

    @Test("a space that names itself stops at the nesting limit")
    func recursion() throws {
        #expect(throws: PDFError(.limitExceeded, "")) {
            try resolve(.name("A"), spaces: ["A": .name("B"), "B": .name("A")])
        }
        var builder = PDFBuilder()
        let reference = builder.reserve()
        builder.set(reference, to: [.name("Indexed"), .reference(reference), 1, .string(PDFString(bytes: [0]))])
        builder.addPage(content: [])
        let document = try PDFDocument(bytes: builder.build())
        #expect(throws: PDFError.self) {
            try ColorSpace.resolve(.reference(reference), resources: nil, document: document, icc: nil)
        }
    }

    @Test("Indexed: hival clipped to 255, indexes clipped to hival, a short table reads as zeros")
    func indexed() throws {
        let space = try resolve([
            .name("Indexed"), .name("DeviceRGB"), 1, .string(PDFString(bytes: [255, 0, 0, 0, 0])),
        ])
        #expect(space.isIndexed && space.componentCount == 1)
        #expect(space.rgb([0]) == RGB(1, 0, 0))
        #expect(space.rgb([1]) == RGB(0, 0, 0))  // the missing sixth byte is 0
        #expect(space.rgb([7]) == RGB(0, 0, 0))  // clipped to hival 1
        #expect(space.initialColor == [0])
        #expect(space.defaultDecode(bitsPerComponent: 4) == [0, 15])
        let big = try resolve([.name("I"), .name("G"), 300, .string(PDFString(bytes: Array(0...255)))])
        #expect(big.rgb([300]) == RGB(1, 1, 1))
        // Over Lab, lookup bytes map onto the base's ranges: 255 → L 100, 128 → a, b ≈ 0.
        let lab = try resolve([
            .name("Indexed"), [.name("Lab"), .dictionary(["WhitePoint": [0.9642, 1, 0.8249]])], 0,
            .string(PDFString(bytes: [255, 127, 128])),
        ])
        let white = lab.rgb([0])
        #expect(abs(white.r - 1) < 0.01 && abs(white.g - 1) < 0.01 && abs(white.b - 1) < 0.01)
    }

    @Test("Separation and DeviceN: tints start at 1, /None paints nothing, the tint transform converts")
    func tints() throws {
        let tint = FunctionFixtures.exponential(c0: [0, 0, 0, 0], c1: [0, 0, 0, 1], n: 1)
        let separation = try resolve([.name("Separation"), .name("Black"), .name("DeviceCMYK"), tint])
        #expect(separation.initialColor == [1])
        #expect(separation.rgb([0.25]) == RGB(0.75, 0.75, 0.75))
        #expect(!separation.paintsNothing)
        #expect(try resolve([.name("Separation"), .name("None"), .name("DeviceCMYK"), tint]).paintsNothing)
        let all = try resolve([.name("Separation"), .name("All"), .name("DeviceCMYK"), tint])
        #expect(all.rgb([1]) == .black && !all.paintsNothing)
        let program = FunctionFixtures.postScript(
            "{ pop pop 0 0 }", domain: [0, 1, 0, 1, 0, 1], range: [0, 1, 0, 1, 0, 1])
        let (document, refs) = try FunctionFixtures.document([program])
        let deviceN = try ColorSpace.resolve(
            [.name("DeviceN"), [.name("A"), .name("B"), .name("C")], .name("DeviceRGB"), .reference(refs[0])],
            resources: nil, document: document, icc: nil)
        #expect(deviceN.componentCount == 3 && deviceN.initialColor == [1, 1, 1])
        // The calculator keeps the first input: (c1, 0, 0).
        #expect(deviceN.rgb([0.5, 0.2, 0.9]) == RGB(0.5, 0, 0))
        // A tint transform with the wrong number of inputs is refused.
        #expect(throws: PDFError.self) {
            try ColorSpace.resolve(
                [.name("DeviceN"), [.name("A"), .name("B")], .name("DeviceRGB"), .reference(refs[0])],
                resources: nil, document: document, icc: nil)
        }
    }

    @Test("Pattern spaces, with and without an underlying space")
    func pattern() throws {
        let colored = try resolve(.name("Pattern"))
        #expect(colored.isPattern && colored.patternBase == nil && colored.componentCount == 0)
        #expect(colored.initialColor.isEmpty)
        let uncolored = try resolve([.name("Pattern"), .name("DeviceRGB")])
        #expect(uncolored.isPattern && uncolored.patternBase?.componentCount == 3)
        #expect(uncolored.rgb([0, 1, 0]) == RGB(0, 1, 0))
    }

    @Test("ICCBased: the injected converter, else /Alternate, else the device space of /N; /Range")
    func iccBased() throws {
        let profile = PDFObject.stream(
            PDFStream(
                dictionary: ["N": 3, "Alternate": .name("DeviceCMYK")], data: Array("profile".utf8), compress: true))
        let (document, refs) = try FunctionFixtures.document([
            profile,
            .stream(PDFStream(dictionary: ["N": 3, "Alternate": .name("DeviceGray")], data: [1], compress: false)),
            .stream(
                PDFStream(
                    dictionary: [
                        "N": 3, "Alternate": [.name("Lab"), .dictionary(["WhitePoint": [0.9642, 1, 0.8249]])],
                        "Range": [0, 100, -128, 127, -128, 127],
                    ],
                    data: [1], compress: false)),
        ])
        let managed = try ColorSpace.resolve(
            [.name("ICCBased"), .reference(refs[0])], resources: nil, document: document,
            icc: FixedFactory(accepts: true))
        #expect(managed.rgb([0.1, 0.1, 0.1]) == RGB(0.2, 0.4, 0.6))
        // Refused by the factory: the alternate has 4 components for /N 3, so DeviceRGB.
        let fallback = try ColorSpace.resolve(
            [.name("ICCBased"), .reference(refs[0])], resources: nil, document: document,
            icc: FixedFactory(accepts: false))
        #expect(fallback.rgb([0.1, 0.2, 0.3]) == RGB(0.1, 0.2, 0.3))
        let wrongAlternate = try ColorSpace.resolve(
            [.name("ICCBased"), .reference(refs[1])], resources: nil, document: document, icc: nil)
        #expect(wrongAlternate.componentCount == 3)
        let lab = try ColorSpace.resolve(
            [.name("ICCBased"), .reference(refs[2])], resources: nil, document: document, icc: nil)
        #expect(lab.defaultDecode(bitsPerComponent: 8) == [0, 100, -128, 127, -128, 127])
        #expect(lab.initialColor == [0, 0, 0])
    }

    @Test("image samples convert like single colours, for every family and bit depth")
    func imageSamples() throws {
        let lab: PDFObject = [.name("Lab"), .dictionary(["WhitePoint": [0.9642, 1, 0.8249]])]
        let sep: PDFObject = [
            .name("Separation"), .name("S"), .name("DeviceRGB"),
            FunctionFixtures.exponential(c0: [1, 1, 1], c1: [0.2, 0.1, 0.7], n: 2),
        ]
        let deviceN: PDFObject = [
            .name("DeviceN"), [.name("C"), .name("M")], .name("DeviceCMYK"),
            .reference(PDFReference(2)),
        ]
        let objects: [PDFObject] = [
            FunctionFixtures.postScript(
                "{ 0.5 mul exch 0.5 mul exch 0 0 }", domain: [0, 1, 0, 1], range: [0, 1, 0, 1, 0, 1, 0, 1])
        ]
        let indexed: PDFObject = [
            .name("Indexed"), .name("DeviceRGB"), 15, .string(PDFString(bytes: (0..<48).map { UInt8($0 * 5) })),
        ]
        let cases: [(PDFObject, Int, [Double]?)] = [
            (.name("DeviceRGB"), 8, nil), (.name("DeviceGray"), 1, [1, 0]), (.name("DeviceGray"), 16, nil),
            (.name("DeviceCMYK"), 8, nil), (.name("DeviceCMYK"), 2, [1, 0, 0, 1, 0, 1, 1, 0]), (indexed, 4, nil),
            (indexed, 8, [15, 0]), (sep, 8, nil), (sep, 16, nil), (lab, 8, nil), (deviceN, 4, nil),
        ]
        for (object, bits, decode) in cases {
            let space = try resolve(object, objects: objects)
            let n = space.componentCount
            let maximum = (1 << bits) - 1
            // Every pixel a different pseudo-random colour.
            var state: UInt32 = 12345
            let pixelCount = 300
            let samples: [UInt16] = (0..<(pixelCount * n)).map { _ in
                state = state &* 1_103_515_245 &+ 12345
                return UInt16(Int(state >> 8) % (maximum + 1))
            }
            let decodeArray = decode ?? space.defaultDecode(bitsPerComponent: bits)
            let bytes = samples.withUnsafeBufferPointer {
                space.rgbBytes(samples: $0, pixelCount: pixelCount, bitsPerComponent: bits, decode: decodeArray)
            }
            #expect(bytes.count == pixelCount * 3)
            for p in 0..<pixelCount {
                let components = (0..<n).map { c in
                    decodeArray[2 * c] + Double(samples[p * n + c]) * (decodeArray[2 * c + 1] - decodeArray[2 * c])
                        / Double(maximum)
                }
                let rgb = space.rgb(components)
                let expected = [rgb.r, rgb.g, rgb.b].map { Int(($0 * 255).rounded()) }
                let got = bytes[(3 * p)..<(3 * p + 3)].map(Int.init)
                #expect(SwatchPage.distance(expected, got) <= 1, "\(space.name) \(bits) bits: pixel \(p)")
                if SwatchPage.distance(expected, got) > 1 { break }
            }
        }
    }
}
