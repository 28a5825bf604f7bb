import PDFAuthoring
import PDFCore
import PDFGraphics
import PDFTestSupport
import Testing

/// Documents holding function objects, built for the tests.
enum FunctionFixtures {
    /// Opens a document whose objects are `objects` (numbered from 2: object 1 is the page tree).
    static func document(_ objects: [PDFObject]) throws -> (PDFDocument, [PDFReference]) {
        var builder = PDFBuilder()
        let references = objects.map { builder.add($0) }
        builder.addPage(content: [])
        return (try PDFDocument(bytes: builder.build()), references)
    }

    static func numbers(_ values: [Double]) -> PDFObject { .array(values.map { .real(PDFReal($0)) }) }

    static func exponential(c0: [Double], c1: [Double], n: Double, domain: [Double] = [0, 1]) -> PDFObject {
        .dictionary([
            "FunctionType": 2, "Domain": numbers(domain), "C0": numbers(c0), "C1": numbers(c1),
            "N": .real(PDFReal(n)),
        ])
    }

    static func postScript(_ program: String, domain: [Double], range: [Double]) -> PDFObject {
        .stream(
            PDFStream(
                dictionary: ["FunctionType": 4, "Domain": numbers(domain), "Range": numbers(range)],
                data: Array(program.utf8), compress: true))
    }

    static func function(_ object: PDFObject) throws -> PDFFunction {
        let (document, references) = try document([object])
        return try PDFFunction(.reference(references[0]), document: document)
    }
}

func approximatelyEqual(_ a: [Double], _ b: [Double], _ tolerance: Double = 1e-9) -> Bool {
    a.count == b.count && zip(a, b).allSatisfy { abs($0 - $1) <= tolerance }
}

@Suite("PDF functions (ISO 32000-2 §7.10)")
struct FunctionTests {
    @Test("type 2: C0 + x^N (C1 − C0), inputs clipped to the domain, outputs to the range")
    func exponential() throws {
        let f = try FunctionFixtures.function(FunctionFixtures.exponential(c0: [0.2, 0.4, 1], c1: [1, 0, 0.5], n: 2))
        #expect(f.inputCount == 1 && f.outputCount == 3)
        // x = 0.5: x^2 = 0.25 → 0.2 + 0.25·0.8, 0.4 − 0.25·0.4, 1 − 0.25·0.5.
        #expect(approximatelyEqual(f.evaluate([0.5]), [0.4, 0.3, 0.875]))
        #expect(approximatelyEqual(f.evaluate([0]), [0.2, 0.4, 1]))
        #expect(approximatelyEqual(f.evaluate([3]), [1, 0, 0.5]))  // clipped to x = 1
        #expect(approximatelyEqual(f.evaluate([-1]), [0.2, 0.4, 1]))  // clipped to x = 0
        var clipped = FunctionFixtures.exponential(c0: [0], c1: [1], n: 0.5, domain: [0, 4])
        if case .dictionary(var d) = clipped {
            d["Range"] = FunctionFixtures.numbers([0, 1.5])
            clipped = .dictionary(d)
        }
        let g = try FunctionFixtures.function(clipped)
        #expect(approximatelyEqual(g.evaluate([1]), [1]))  // 1^0.5
        #expect(approximatelyEqual(g.evaluate([2.25]), [1.5]))  // 2.25^0.5 = 1.5, the range's top
        #expect(approximatelyEqual(g.evaluate([4]), [1.5]))  // 4^0.5 = 2, clipped to 1.5
        // C0 and C1 default to [0] and [1].
        let h = try FunctionFixtures.function(.dictionary(["FunctionType": 2, "Domain": [0, 1], "N": 3]))
        #expect(approximatelyEqual(h.evaluate([0.5]), [0.125]))
    }

    @Test("type 3: the subdomain of x picks a function and /Encode maps x into its domain")
    func stitching() throws {
        let (document, refs) = try FunctionFixtures.document([
            FunctionFixtures.exponential(c0: [0], c1: [1], n: 1),
            FunctionFixtures.exponential(c0: [1], c1: [0], n: 2),
        ])
        let stitched: PDFObject = .dictionary([
            "FunctionType": 3, "Domain": [0, 2], "Functions": [.reference(refs[0]), .reference(refs[1])],
            "Bounds": [0.5], "Encode": FunctionFixtures.numbers([1, 0, 0, 1]),
        ])
        let f = try PDFFunction(stitched, document: document)
        // x = 0.25 in [0, 0.5) → Encode [1 0] → 1 − 0.25/0.5 = 0.5 → f1 = 0.5.
        #expect(approximatelyEqual(f.evaluate([0.25]), [0.5]))
        #expect(approximatelyEqual(f.evaluate([0]), [1]))
        // x = 0.5 belongs to the second subdomain [0.5, 2] → 0 → f2(0) = 1.
        #expect(approximatelyEqual(f.evaluate([0.5]), [1]))
        // x = 1.25 → (1.25 − 0.5)/1.5 = 0.5 → f2 = 1 − 0.25 = 0.75.
        #expect(approximatelyEqual(f.evaluate([1.25]), [0.75]))
        #expect(approximatelyEqual(f.evaluate([2]), [0]))
        #expect(approximatelyEqual(f.evaluate([9]), [0]))  // clipped to 2
    }

    @Test("type 3 with Domain0 = Bounds0: x = Bounds0 uses the first function")
    func stitchingClosedFirstSubdomain() throws {
        let (document, refs) = try FunctionFixtures.document([
            FunctionFixtures.exponential(c0: [0.25], c1: [0.25], n: 1),
            FunctionFixtures.exponential(c0: [0], c1: [1], n: 1),
        ])
        let f = try PDFFunction(
            .dictionary([
                "FunctionType": 3, "Domain": [0, 1], "Functions": [.reference(refs[0]), .reference(refs[1])],
                "Bounds": [0], "Encode": [0, 1, 0, 1],
            ]), document: document)
        #expect(approximatelyEqual(f.evaluate([0]), [0.25]))
        #expect(approximatelyEqual(f.evaluate([0.5]), [0.5]))
    }

    @Test("an array of one-output functions acts as one function")
    func functionArray() throws {
        let (document, refs) = try FunctionFixtures.document([
            FunctionFixtures.exponential(c0: [0], c1: [1], n: 1),
            FunctionFixtures.exponential(c0: [1], c1: [0], n: 1),
        ])
        let f = try PDFFunction(functions: refs.map { .reference($0) }, document: document)
        #expect(f.outputCount == 2)
        #expect(approximatelyEqual(f.evaluate([0.25]), [0.25, 0.75]))
        let three = FunctionFixtures.exponential(c0: [0, 0], c1: [1, 1], n: 1)
        #expect(throws: PDFError.self) { try PDFFunction(functions: [three, three], document: document) }
    }

    @Test("type 0, one input and three outputs: samples at the sample points, linear between")
    func sampledOneInput() throws {
        // Three samples of 8 bits: (0, 0, 255), (255, 128, 0), (0, 255, 0).
        let stream = PDFStream(
            dictionary: [
                "FunctionType": 0, "Domain": [0, 1], "Range": [0, 1, 0, 1, 0, 1], "Size": [3], "BitsPerSample": 8,
            ], data: [0, 0, 255, 255, 128, 0, 0, 255, 0], compress: true)
        let f = try FunctionFixtures.function(.stream(stream))
        #expect(f.inputCount == 1 && f.outputCount == 3)
        // Samples are kept as 32-bit floats: 1e-6 is far below a colour's 1/255.
        #expect(approximatelyEqual(f.evaluate([0]), [0, 0, 1], 1e-6))
        #expect(approximatelyEqual(f.evaluate([0.5]), [1, 128.0 / 255, 0], 1e-6))
        #expect(approximatelyEqual(f.evaluate([1]), [0, 1, 0], 1e-6))
        // Midpoints: the averages of neighbouring samples.
        #expect(approximatelyEqual(f.evaluate([0.25]), [0.5, 64.0 / 255, 0.5], 1e-6))
        #expect(approximatelyEqual(f.evaluate([0.75]), [0.5, 191.5 / 255, 0], 1e-6))
    }

    @Test("type 0, two inputs: bilinear interpolation, /Encode and /Decode, 16- and 12-bit samples")
    func sampledTwoInputs() throws {
        // 2 × 2 samples of 16 bits, first input fastest: s(0,0) = 0, s(1,0) = 65535, s(0,1) = 13107, s(1,1) = 52428.
        let samples: [UInt16] = [0, 65535, 13107, 52428]
        let stream = PDFStream(
            dictionary: [
                "FunctionType": 0, "Domain": [0, 1, 0, 1], "Range": [0, 1], "Size": [2, 2], "BitsPerSample": 16,
            ], data: samples.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }, compress: false)
        let f = try FunctionFixtures.function(.stream(stream))
        #expect(approximatelyEqual(f.evaluate([0, 0]), [0], 1e-6))
        #expect(approximatelyEqual(f.evaluate([1, 0]), [1], 1e-6))
        #expect(approximatelyEqual(f.evaluate([0, 1]), [0.2], 1e-6))
        #expect(approximatelyEqual(f.evaluate([1, 1]), [0.8], 1e-6))
        #expect(approximatelyEqual(f.evaluate([0.5, 0]), [0.5], 1e-6))
        #expect(approximatelyEqual(f.evaluate([0.5, 1]), [0.5], 1e-6))
        #expect(approximatelyEqual(f.evaluate([0, 0.5]), [0.1], 1e-6))
        // The centre: the mean of the four corners, (0 + 1 + 0.2 + 0.8) / 4.
        #expect(approximatelyEqual(f.evaluate([0.5, 0.5]), [0.5], 1e-6))
        #expect(
            approximatelyEqual(
                f.evaluate([0.25, 0.75]), [0.75 * 0.25 * 0 + 0.25 * 0.25 * 1 + 0.75 * 0.75 * 0.2 + 0.25 * 0.75 * 0.8],
                1e-6))

        // 12-bit samples 0, 4095 reversed by /Encode [1 0] and scaled by /Decode [10 20].
        let twelve = PDFStream(
            dictionary: [
                "FunctionType": 0, "Domain": [0, 1], "Range": [0, 100], "Size": [2], "BitsPerSample": 12,
                "Encode": [1, 0], "Decode": [10, 20],
            ], data: [0x00, 0x0F, 0xFF], compress: false)
        let g = try FunctionFixtures.function(.stream(twelve))
        #expect(approximatelyEqual(g.evaluate([0]), [20], 1e-6))
        #expect(approximatelyEqual(g.evaluate([1]), [10], 1e-6))
        #expect(approximatelyEqual(g.evaluate([0.25]), [17.5], 1e-6))
    }

    @Test("type 0 with a table beyond the limit is refused")
    func sampledLimit() throws {
        let stream = PDFStream(
            dictionary: [
                "FunctionType": 0, "Domain": [0, 1, 0, 1, 0, 1], "Range": [0, 1, 0, 1, 0, 1, 0, 1],
                "Size": [1000, 1000, 1000], "BitsPerSample": 8,
            ], data: [0], compress: false)
        #expect(throws: PDFError(.limitExceeded, "")) { try FunctionFixtures.function(.stream(stream)) }
    }

    @Test("stitching functions that refer to themselves stop at the nesting limit")
    func selfReference() throws {
        var builder = PDFBuilder()
        let reference = builder.reserve()
        builder.set(
            reference,
            to: .dictionary([
                "FunctionType": 3, "Domain": [0, 1], "Functions": [.reference(reference)], "Bounds": [],
                "Encode": [0, 1],
            ]))
        builder.addPage(content: [])
        let document = try PDFDocument(bytes: builder.build())
        #expect(throws: PDFError(.limitExceeded, "")) { try PDFFunction(.reference(reference), document: document) }
    }

    @Test("stitching functions that name one function many times at each level stop at the function budget")
    func fanOut() throws {
        var builder = PDFBuilder()
        var current = builder.add(FunctionFixtures.exponential(c0: [0], c1: [1], n: 1))
        // Six levels of 16 references each would be 16^6 functions without a budget.
        for _ in 0..<6 {
            current = builder.add(
                .dictionary([
                    "FunctionType": 3, "Domain": [0, 1],
                    "Functions": .array(Array(repeating: .reference(current), count: 16)),
                    "Bounds": FunctionFixtures.numbers((1..<16).map { Double($0) / 16 }),
                    "Encode": FunctionFixtures.numbers(Array(repeating: [0, 1], count: 16).flatMap { $0 }),
                ]))
        }
        builder.addPage(content: [])
        let document = try PDFDocument(bytes: builder.build())
        #expect(throws: PDFError(.limitExceeded, "")) { try PDFFunction(.reference(current), document: document) }
    }
}
