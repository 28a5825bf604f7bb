import Foundation
import PDFCore
import PDFTestSupport
import Testing

@testable import PDFImageCodecs

/// Symbol dictionaries that build on each other — one in the PDF's `/JBIG2Globals` retaining its
/// arithmetic contexts, one in the page stream using them and re-exporting some of its symbols —
/// and a text region drawing from both, made by `JBIG2TestEncoder` and judged against the bitmap
/// that was encoded, poppler (`pdfimages`) and MuPDF (`mutool extract`).
@Suite("JBIG2 symbol dictionaries reused across segments")
struct JBIG2SymbolReuseTests {
    typealias Bitmap = JBIG2TestEncoder.Bitmap

    @Test("the test encoder reproduces the coded bytes of T.88 Annex H.2")
    func encoderTestSequence() {
        var encoder = JBIG2TestEncoder.MQEncoder()
        var context: UInt8 = 0
        for byte in JBIG2DecoderTests.arithmeticDecisions {
            for shift in (0..<8).reversed() { encoder.encode(Int(byte >> UInt8(shift) & 1), &context) }
        }
        #expect(encoder.finish() == JBIG2DecoderTests.arithmeticCoded)
    }

    /// A glyph-like shape of one of four kinds, with a few pixels flipped by `seed`.
    static func glyph(_ seed: UInt64, width: Int, height: Int) -> Bitmap {
        var bitmap = Bitmap(width: width, height: height)
        var random = SplitMix64(state: seed)
        for y in 0..<height {
            for x in 0..<width {
                let u = Double(2 * x + 1) / Double(width) - 1
                let v = Double(2 * y + 1) / Double(height) - 1
                let inside: Bool
                switch seed % 4 {
                case 0: inside = (0.4...1).contains(u * u + v * v)
                case 1: inside = abs(u) < 0.3 || v < -0.6
                case 2: inside = abs(u - v) < 0.45
                default: inside = u * u + v * v < 1 && !(abs(u - 0.2) < 0.25 && abs(v) < 0.5)
                }
                let flipped = random.next() % 16 == 0
                bitmap[x, y] = inside != flipped ? 1 : 0
            }
        }
        return bitmap
    }

    /// The streams and the bitmap they encode.
    struct Made {
        var globals: [UInt8]
        var page: [UInt8]
        var expected: Bitmap
    }

    /// How dictionary 2 is coded.
    enum Coding: String, CaseIterable {
        /// From dictionary 1's retained contexts, flagged "bitmap coding context used" (T.88 §7.4.3.2).
        case reused
        /// From fresh contexts, not flagged.
        case fresh
        /// Flagged as using the retained contexts but coded from fresh ones: what poppler and
        /// pdf.js read every flagged dictionary as (neither carries contexts over; MuPDF refuses).
        case flaggedButFresh
    }

    /// Dictionary 1 (globals, segment 0): 8 symbols in three height classes, all exported, its
    /// contexts retained. Dictionary 2 (page, segment 2, referring to 0): 6 new symbols coded as
    /// `coding` says; it exports inputs 2…7 and 5 of its own. The text region (segment 3,
    /// referring to 0 and 2) places instances of those 19 symbols in 4 rows.
    static func make(_ coding: Coding, width: Int = 160, height: Int = 72) -> Made {
        let first = [(9, 11), (7, 11), (10, 11), (6, 14), (12, 14), (8, 7), (5, 7), (9, 7)].enumerated().map {
            glyph(UInt64($0.offset), width: $0.element.0, height: $0.element.1)
        }
        let second = [(8, 13), (11, 13), (7, 9), (10, 9), (6, 9), (13, 16)].enumerated().map {
            glyph(UInt64(100 + $0.offset), width: $0.element.0, height: $0.element.1)
        }
        var contexts = JBIG2TestEncoder.freshGenericContexts()
        let firstData = JBIG2TestEncoder.symbolDictionary(
            inputCount: 0, symbols: first, exported: Array(repeating: true, count: first.count), contexts: &contexts,
            usesContexts: false, retainsContexts: true)
        if coding != .reused { contexts = JBIG2TestEncoder.freshGenericContexts() }
        let secondExports = [false, false] + Array(repeating: true, count: 6) + [true, true, false, true, true, true]
        let secondData = JBIG2TestEncoder.symbolDictionary(
            inputCount: first.count, symbols: second, exported: secondExports, contexts: &contexts,
            usesContexts: coding != .fresh, retainsContexts: false)
        // The text region's symbols: dictionary 1's exports, then dictionary 2's (inputs first).
        let pool = first + second
        let symbols = first + zip(pool, secondExports).filter(\.1).map(\.0)

        var random = SplitMix64(state: 7)
        var instances: [JBIG2TestEncoder.Instance] = []
        var expected = Bitmap(width: width, height: height)
        for row in 0..<4 {
            var x = Int(random.next() % 6)
            let y = 2 + row * 17 + Int(random.next() % 3)
            while true {
                let id = Int(random.next() % UInt64(symbols.count))
                let symbol = symbols[id]
                guard x + symbol.width <= width, y + symbol.height <= height else { break }
                instances.append(.init(id: id, x: x, y: y))
                for sy in 0..<symbol.height {
                    for sx in 0..<symbol.width where symbol[sx, sy] != 0 { expected[x + sx, y + sy] = 1 }
                }
                x += symbol.width + Int(random.next() % 4) - 1
            }
        }
        let text = JBIG2TestEncoder.textRegion(
            width: width, height: height, widths: symbols.map(\.width), instances: instances)
        let globals = JBIG2TestEncoder.segment(0, type: 0, page: 0, data: firstData)
        let page =
            JBIG2TestEncoder.segment(
                1, type: 48, page: 1, data: JBIG2DecoderTests.pageInformation(width: width, height: height))
            + JBIG2TestEncoder.segment(2, type: 0, referredTo: [0], page: 1, data: secondData)
            + JBIG2TestEncoder.segment(3, type: 6, referredTo: [0, 2], page: 1, data: text)
            + JBIG2TestEncoder.segment(4, type: 49, page: 1, data: [])
        return Made(globals: globals, page: page, expected: expected)
    }

    /// A one-page PDF drawing the stream as a 1-bit DeviceGray image (object 4), globals in object 6.
    static func pdf(_ made: Made) -> [UInt8] {
        let (width, height) = (made.expected.width, made.expected.height)
        var pdf = RawPDF()
        pdf.object(1, "<</Type/Catalog/Pages 2 0 R>>")
        pdf.object(2, "<</Type/Pages/Kids[3 0 R]/Count 1>>")
        pdf.object(
            3,
            "<</Type/Page/Parent 2 0 R/MediaBox[0 0 \(width) \(height)]/Resources<</XObject<</Im 4 0 R>>>>/Contents 5 0 R>>"
        )
        pdf.stream(
            4,
            dictionary:
                "/Type/XObject/Subtype/Image/Width \(width)/Height \(height)/ColorSpace/DeviceGray/BitsPerComponent 1"
                + "/Filter/JBIG2Decode/DecodeParms<</JBIG2Globals 6 0 R>>",
            data: made.page)
        pdf.stream(5, dictionary: "", data: Array("q \(width) 0 0 \(height) 0 0 cm /Im Do Q".utf8))
        pdf.stream(6, dictionary: "", data: made.globals)
        pdf.xrefTable(size: 7, trailer: "<</Size 7/Root 1 0 R>>")
        return pdf.bytes
    }

    @Test(
        "a dictionary coded from another's retained contexts (or flagged so), and a text region over both, decode to the encoded bitmap",
        arguments: Coding.allCases)
    func retainedContexts(_ coding: Coding) throws {
        let made = Self.make(coding)
        let expected = made.expected.packed
        #expect(expected.contains { $0 != 0 })

        let ours = try JBIG2.decodeReportingWarnings(made.page, globals: made.globals)
        #expect(ours.width == made.expected.width && ours.height == made.expected.height)
        let oursBlack = CodecOracle.maskPadding(ours.rows.map { ~$0 }, width: ours.width)
        #expect(Self.differing(oursBlack, expected) == 0, "ours differs from the encoded bitmap \(ours.warnings)")
        switch coding {
        case .fresh, .reused: #expect(ours.warnings.isEmpty, "\(ours.warnings)")
        case .flaggedButFresh: #expect(ours.warnings.contains { $0.contains("fresh contexts") }, "\(ours.warnings)")
        }

        // The references: poppler and MuPDF agree with the encoder where they implement the
        // stream. Neither carries contexts over (poppler compares a context count with a number of
        // bits and always starts afresh; jbig2dec reports "NYI"), so for `.reused` the encoded
        // bitmap, which the other two codings show the encoder gets right, is the only judge.
        guard coding != .reused else { return }
        let directory = try TestPaths.temporaryDirectory("jbig2-reuse")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = "\(directory)/reuse.pdf"
        try Data(Self.pdf(made)).write(to: URL(fileURLWithPath: path))
        let popplerFiles = try CodecOracle.extract(path, page: 1, into: directory)
        let poppler = try CodecOracle.readPBM(try #require(popplerFiles.first { $0.hasSuffix(".pbm") }))
        let popplerBlack = CodecOracle.maskPadding(poppler.bits, width: poppler.width)
        #expect(Self.differing(popplerBlack, expected) == 0, "poppler differs from the encoded bitmap")
        guard coding == .fresh else { return }
        let mupdf = try #require(try CodecOracle.mupdfExtract(path, object: 4, into: directory, password: nil))
        let mupdfBlack = CodecOracle.maskPadding(mupdf.bits, width: mupdf.width)
        #expect(Self.differing(mupdfBlack, expected) == 0, "MuPDF differs from the encoded bitmap")
    }

    /// The streams as `FuzzCodecs` inputs (`CodecFuzzInput`: selector 3, the globals' length, the
    /// globals, the page), kept in `Tests/Fixtures/codecs/seeds/` for `scripts/fuzz-seeds.py`: no
    /// corpus stream has dictionaries that reuse contexts, nor many arithmetic-coded ones.
    static func fuzzSeed(_ coding: Coding) -> [UInt8] {
        let made = make(coding)
        return [3, UInt8(made.globals.count >> 8 & 0xFF), UInt8(made.globals.count & 0xFF)] + made.globals + made.page
    }

    @Test(
        "the fuzzer's seeds are these streams, and the fuzz entry decodes each to a whole page",
        arguments: Coding.allCases)
    func fuzzSeeds(_ coding: Coding) throws {
        let seed = Self.fuzzSeed(coding)
        let decoded = try #require(CodecFuzzInput.decode(seed))
        #expect(decoded.rowBytes == decoded.expectedBytes && decoded.rowBytes == 20 * 72)
        let path = TestPaths.fixture("codecs", "seeds/jbig2-\(coding.rawValue).codecseed")
        if ProcessInfo.processInfo.environment["AUTOGRAPH_WRITE_SEEDS"] != nil {
            try Data(seed).write(to: URL(fileURLWithPath: path))
        }
        let kept = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(kept == seed, "\(path) is not what the encoder makes: run this test with AUTOGRAPH_WRITE_SEEDS=1")
    }

    @Test(
        "damaged seeds: every prefix, and each byte of the dictionaries inverted, decode or throw",
        arguments: Coding.allCases)
    func damagedSeeds(_ coding: Coding) {
        let seed = Self.fuzzSeed(coding)
        for length in 0..<seed.count {
            JBIG2DecoderTests.replayFuzzInput(Array(seed.prefix(length)))
        }
        for index in 3..<seed.count {
            var damaged = seed
            damaged[index] = ~damaged[index]
            JBIG2DecoderTests.replayFuzzInput(damaged)
        }
    }

    /// Bytes that differ (and the difference in length).
    static func differing(_ a: [UInt8], _ b: [UInt8]) -> Int {
        zip(a, b).filter { $0 != $1 }.count + abs(a.count - b.count)
    }
}
