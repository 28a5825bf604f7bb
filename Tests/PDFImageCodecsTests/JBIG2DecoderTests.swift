import Foundation
import PDFCore
import PDFTestSupport
import Testing

@testable import PDFImageCodecs

/// The pieces of the JBIG2 decoder against values from ITU-T T.88, and whole streams assembled
/// here around MMR data that libtiff encoded (the CCITT fixtures: T.88 MMR is T.6 with black = 1).
@Suite("JBIG2 decoder")
struct JBIG2DecoderTests {
    /// T.88 Annex H.2, "Test sequence for arithmetic coder": 256 decisions coded with one context.
    static let arithmeticCoded: [UInt8] = [
        0x84, 0xC7, 0x3B, 0xFC, 0xE1, 0xA1, 0x43, 0x04, 0x02, 0x20, 0x00, 0x00, 0x41, 0x0D, 0xBB, 0x86,
        0xF4, 0x31, 0x7F, 0xFF, 0x88, 0xFF, 0x37, 0x47, 0x1A, 0xDB, 0x6A, 0xDF, 0xFF, 0xAC,
    ]
    static let arithmeticDecisions: [UInt8] = [
        0x00, 0x02, 0x00, 0x51, 0x00, 0x00, 0x00, 0xC0, 0x03, 0x52, 0x87, 0x2A, 0xAA, 0xAA, 0xAA, 0xAA,
        0x82, 0xC0, 0x20, 0x00, 0xFC, 0xD7, 0x9E, 0xF6, 0xBF, 0x7F, 0xED, 0x90, 0x4F, 0x46, 0xA3, 0xBF,
    ]

    @Test("the MQ decoder reproduces the test sequence of T.88 Annex H.2")
    func arithmeticTestSequence() {
        var decoder = MQDecoder(Self.arithmeticCoded)
        var context: UInt8 = 0
        var output: [UInt8] = []
        for _ in 0..<Self.arithmeticDecisions.count {
            var byte: UInt8 = 0
            for _ in 0..<8 { byte = byte << 1 | UInt8(decoder.decode(&context)) }
            output.append(byte)
        }
        #expect(output == Self.arithmeticDecisions)
    }

    @Test("the standard Huffman tables B.1–B.15 are complete prefix codes over contiguous ranges")
    func standardTablesAreWellFormed() {
        for number in 1...15 {
            let table = HuffmanTable.standard[number]
            // Kraft: a complete prefix code sums to exactly 1 (here in units of 2^-32).
            let sum = table.lines.filter { $0.prefixLength > 0 }.reduce(0) { $0 + (1 << (32 - $1.prefixLength)) }
            #expect(sum == 1 << 32, "Table B.\(number)")
            let ranges = table.lines.filter { $0.kind == .normal && $0.rangeLength < 32 }.sorted {
                $0.rangeLow < $1.rangeLow
            }
            for (first, second) in zip(ranges, ranges.dropFirst()) {
                #expect(first.rangeLow + (1 << first.rangeLength) == second.rangeLow, "Table B.\(number)")
            }
        }
    }

    /// Reads `bits` (a string of 0 and 1) with a standard table.
    static func decode(_ bits: String, table: Int) throws(PDFError) -> Int? {
        var reader = JBIG2Reader(pack(bits))
        return try HuffmanTable.standard[table].decode(&reader)
    }

    @Test(
        "Huffman codes of the standard tables decode to the values the tables list",
        arguments: [
            // Table B.1: 0+4 bits, 10+8 bits, 110+16 bits, 111+32 bits.
            (1, "0" + "0101", 5), (1, "10" + "00000001", 17), (1, "110" + "0000000000000001", 273),
            (1, "111" + String(repeating: "0", count: 31) + "1", 65809),
            // Table B.2: 0, 10, 110, 1110+3 bits (3…10), 11110+6 bits (11…74), 111110+32 bits.
            (2, "0", 0), (2, "10", 1), (2, "110", 2), (2, "1110" + "111", 10), (2, "11110" + "000001", 12),
            // Table B.3: 11111110+8 bits for −256…−1, lower range 11111111+32 bits below −256.
            (3, "11111110" + "00000000", -256), (3, "11111111" + String(repeating: "0", count: 31) + "1", -258),
            // Table B.4: 0 → 1, 10 → 2.
            (4, "0", 1), (4, "10", 2),
            // Table B.14: 0 → 0, 100 → −2, 111 → 2.
            (14, "0", 0), (14, "100", -2), (14, "111", 2),
            // Table B.15: 0 → 0, 1101 → −2, 111110+4 bits → 9…24.
            (15, "0", 0), (15, "1110" + "0", -4),
        ])
    func standardCodes(table: Int, bits: String, value: Int) throws {
        #expect(try Self.decode(bits, table: table) == value)
    }

    @Test("out-of-band codes: 111111 in B.2, 111110 in B.3, 01 in B.8")
    func outOfBand() throws {
        #expect(try Self.decode("111111", table: 2) == nil)
        #expect(try Self.decode("111110", table: 3) == nil)
        #expect(try Self.decode("01", table: 8) == nil)
        #expect(try Self.decode("111110", table: 2) == 75)
    }

    @Test("a custom table segment (T.88 B.2) assigns codes by B.3 and decodes its lines")
    func customTable() throws {
        // Flags: HTOOB 1, HTPS 2 bits (bits 1–3 hold 1), HTRS 2 bits (bits 4–6 hold 1); HTLOW 0, HTHIGH 9.
        // Lines (PREFLEN, RANGELEN): (1, 2) 0…3, (2, 2) 4…7, (3, 0) 8; lower 0, upper 0, OOB 3.
        var segment: [UInt8] = [0x13, 0, 0, 0, 0, 0, 0, 0, 9]
        segment += Self.pack("01" + "10" + "10" + "10" + "11" + "00" + "00" + "00" + "11")
        let table = try HuffmanTable(segment: segment, maxLines: 100)
        #expect(table.lines.count == 6)
        // B.3: 0, 10, 110 in line order, then 111 for the OOB line; no code for prefix length 0.
        let codes = table.assignedCodes
        #expect(codes[0]?.code == 0 && codes[0]?.length == 1)
        #expect(codes[1]?.code == 2 && codes[1]?.length == 2)
        #expect(codes[2]?.code == 6 && codes[2]?.length == 3)
        #expect(codes[3] == nil && codes[4] == nil)
        #expect(codes[5]?.code == 7 && codes[5]?.length == 3)
        var reader = JBIG2Reader(Self.pack("0" + "11" + "10" + "11" + "110" + "111"))
        #expect(try table.decode(&reader) == 3)
        #expect(try table.decode(&reader) == 7)
        #expect(try table.decode(&reader) == 8)
        #expect(try table.decode(&reader) == nil)
    }

    // MARK: Whole streams

    static func be32(_ value: Int) -> [UInt8] {
        [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    /// A segment (T.88 §7.2) with a one-byte page association and one-byte referred-to numbers.
    static func segment(_ number: Int, type: Int, referredTo: [Int] = [], data: [UInt8]) -> [UInt8] {
        be32(number) + [UInt8(type), UInt8(referredTo.count << 5)] + referredTo.map { UInt8($0) } + [1]
            + be32(data.count) + data
    }

    static func pageInformation(width: Int, height: Int, defaultPixel: Int = 0) -> [UInt8] {
        be32(width) + be32(height) + be32(0) + be32(0) + [UInt8(defaultPixel << 2), 0, 0]
    }

    static func regionInformation(width: Int, height: Int, x: Int = 0, y: Int = 0, op: Int = 0) -> [UInt8] {
        be32(width) + be32(height) + be32(x) + be32(y) + [UInt8(op)]
    }

    /// An immediate generic region coded with MMR (flags bit 0).
    static func mmrRegion(_ number: Int, width: Int, height: Int, x: Int = 0, y: Int = 0, op: Int = 0, mmr: [UInt8])
        -> [UInt8]
    {
        segment(number, type: 38, data: regionInformation(width: width, height: height, x: x, y: y, op: op) + [1] + mmr)
    }

    static func fixture(_ name: String) throws -> (mmr: [UInt8], bitmap: CodecOracle.Bitmap) {
        let mmr = try [UInt8](Data(contentsOf: URL(fileURLWithPath: TestPaths.fixture("codecs", name + ".fax"))))
        return (mmr, try CodecOracle.readPBM(TestPaths.fixture("codecs", name + ".pbm")))
    }

    @Test("an MMR generic region (libtiff's Group 4 data) decodes to the bitmap, black as 0 bits")
    func mmrGenericRegion() throws {
        let (mmr, bitmap) = try Self.fixture("g4-drawing")
        let stream =
            Self.segment(0, type: 48, data: Self.pageInformation(width: bitmap.width, height: bitmap.height))
            + Self.mmrRegion(1, width: bitmap.width, height: bitmap.height, mmr: mmr)
            + Self.segment(2, type: 49, data: [])
        let result = try JBIG2.decode(stream, globals: nil)
        #expect(result.width == bitmap.width && result.height == bitmap.height)
        #expect(CodecOracle.maskPadding(result.rows.map { ~$0 }, width: bitmap.width) == bitmap.bits)
    }

    @Test("regions are placed at their offset with their combination operator; XOR twice clears")
    func compositionOperators() throws {
        let (mmr, bitmap) = try Self.fixture("g4-odd-13x9")
        let page = Self.segment(0, type: 48, data: Self.pageInformation(width: 40, height: 20))
        let placed = page + Self.mmrRegion(1, width: 13, height: 9, x: 16, y: 5, mmr: mmr)
        let result = try JBIG2.decode(placed, globals: nil)
        let bytesPerRow = 5
        for y in 0..<20 {
            for x in 0..<40 {
                let black = result.rows[y * bytesPerRow + x / 8] & (0x80 >> UInt8(x % 8)) == 0
                let inside = (16..<29).contains(x) && (5..<14).contains(y)
                let expected =
                    inside && bitmap.bits[(y - 5) * 2 + (x - 16) / 8] & (0x80 >> UInt8((x - 16) % 8)) != 0
                #expect(black == expected, "pixel \(x), \(y)")
            }
        }
        // XOR (operator 2) of the same region twice leaves the page white.
        let twice =
            page + Self.mmrRegion(1, width: 13, height: 9, x: 3, y: 2, op: 2, mmr: mmr)
            + Self.mmrRegion(2, width: 13, height: 9, x: 3, y: 2, op: 2, mmr: mmr)
        #expect(try JBIG2.decode(twice, globals: nil).rows.allSatisfy { $0 == 0xFF })
        // The page default pixel 1 with AND (operator 1) keeps only the region's black pixels.
        let and =
            Self.segment(0, type: 48, data: Self.pageInformation(width: 13, height: 9, defaultPixel: 1))
            + Self.mmrRegion(1, width: 13, height: 9, op: 1, mmr: mmr)
        #expect(
            CodecOracle.maskPadding(try JBIG2.decode(and, globals: nil).rows.map { ~$0 }, width: 13) == bitmap.bits)
    }

    @Test("a page of unknown height grows with end-of-stripe segments; unknown segments are skipped")
    func stripedPage() throws {
        let (mmr, bitmap) = try Self.fixture("g4-odd-13x9")
        let stream =
            Self.segment(0, type: 48, data: Self.pageInformation(width: 13, height: 0xFFFF_FFFF))
            + Self.mmrRegion(1, width: 13, height: 9, mmr: mmr) + Self.segment(2, type: 50, data: Self.be32(8))
            + Self.segment(3, type: 33, data: [1, 2, 3]) + Self.mmrRegion(4, width: 13, height: 9, y: 9, mmr: mmr)
            + Self.segment(5, type: 50, data: Self.be32(19))
        let result = try JBIG2.decodeReportingWarnings(stream, globals: nil)
        #expect(result.width == 13 && result.height == 20)
        let bits = CodecOracle.maskPadding(result.rows.map { ~$0 }, width: 13)
        #expect(Array(bits[0..<18]) == bitmap.bits && Array(bits[18..<36]) == bitmap.bits)
        #expect(bits[36..<40].allSatisfy { $0 == 0 })
        #expect(result.warnings.count == 1 && result.warnings[0].contains("unknown type 33"))
    }

    @Test("hostile streams: no page, a page too large, a truncated header")
    func hostileStreams() throws {
        #expect(throws: PDFError(.decodeFailed, "")) { try JBIG2.decode([], globals: nil) }
        #expect(throws: PDFError(.decodeFailed, "")) { try JBIG2.decode([0, 0, 0, 1, 48, 0, 1], globals: nil) }
        let huge = Self.segment(0, type: 48, data: Self.pageInformation(width: 1 << 20, height: 1 << 20))
        #expect(throws: PDFError(.limitExceeded, "")) { try JBIG2.decode(huge, globals: nil) }
        // A generic region running on past its data stops instead of decoding noise forever.
        let region =
            Self.segment(0, type: 48, data: Self.pageInformation(width: 64, height: 64))
            + Self.segment(
                1, type: 38, data: Self.regionInformation(width: 4000, height: 4000) + [0, 3, 0xFF, 0, 0, 0])
        #expect(throws: PDFError.self) { try JBIG2.decode(region, globals: nil) }
    }

    // MARK: Fuzzer findings

    /// Replays an input of `Sources/FuzzCodecs`: it must return or throw, and a decoded image must
    /// have the size it claims.
    static func replayFuzzInput(_ input: [UInt8]) {
        if let decoded = CodecFuzzInput.decode(input) {
            #expect(decoded.rowBytes == decoded.expectedBytes)
        }
    }

    static let fuzzFindings: [String] = {
        let directory = TestPaths.fixture("codecs", "fuzz")
        return ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
    }()

    @Test("inputs the fuzzer found (crashes, timeouts) decode or throw, quickly", arguments: fuzzFindings)
    func fuzzFinding(_ name: String) throws {
        let input = try [UInt8](Data(contentsOf: URL(fileURLWithPath: TestPaths.fixture("codecs", "fuzz/\(name)"))))
        let start = Date()
        Self.replayFuzzInput(input)
        // The fuzzer's timeouts were loops without end; a guard against those, not a speed target.
        #expect(Date().timeIntervalSince(start) < 120)
    }

    /// Packs a string of 0 and 1, MSB first, padded with 0.
    static func pack(_ bits: String) -> [UInt8] {
        var bytes: [UInt8] = []
        for (index, character) in bits.enumerated() {
            if index % 8 == 0 { bytes.append(0) }
            if character == "1" { bytes[bytes.count - 1] |= 0x80 >> UInt8(index % 8) }
        }
        return bytes
    }
}
