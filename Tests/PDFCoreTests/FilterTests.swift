import PDFTestSupport
import Testing

@testable import PDFCore

/// The standard filters (ISO 32000-2 §7.4), the predictors (§7.4.4.4) and the filter pipeline of streams.
@Suite("Filters: ASCIIHex, ASCII85, RunLength, LZW, Flate, predictors and the pipeline")
struct FilterTests {
    // MARK: Helpers

    /// Deterministic data for round trips (STYLE.md rule 13).
    typealias SeededRandom = SplitMix64

    static func randomBytes(_ count: Int, seed: UInt64) -> [UInt8] {
        var random = SeededRandom(state: seed)
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
    }

    /// Runs of random length (1…200) of random bytes: compressible, with short and long runs.
    static func runnyBytes(_ count: Int, seed: UInt64) -> [UInt8] {
        var random = SeededRandom(state: seed)
        var output: [UInt8] = []
        while output.count < count {
            let byte = UInt8.random(in: 0...3, using: &random) == 0 ? 0 : UInt8.random(in: 0...255, using: &random)
            output += repeatElement(byte, count: min(count - output.count, Int.random(in: 1...200, using: &random)))
        }
        return output
    }

    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// Runs `body` over the bytes of `input`, keeping its typed error.
    static func over<R>(
        _ input: [UInt8], _ body: (UnsafeRawBufferPointer) throws(PDFError) -> R
    ) throws(PDFError) -> R {
        try input.withUnsafeBytes { buffer in Result { () throws(PDFError) in try body(buffer) } }.get()
    }

    static func inflate(_ input: [UInt8], maxSize: Int = 1 << 30) throws(PDFError) -> [UInt8] {
        try over(input) { buffer throws(PDFError) in try Flate.decompress(buffer, maxSize: maxSize) }
    }

    static func lzw(_ input: [UInt8], earlyChange: Bool = true, maxSize: Int = 1 << 30) throws(PDFError) -> [UInt8] {
        try over(input) { b throws(PDFError) in try LZW.decode(b, earlyChange: earlyChange, maxSize: maxSize) }
    }

    static func a85(_ input: [UInt8]) -> [UInt8] {
        input.withUnsafeBytes { ASCII85.decode($0) }
    }

    static func runLength(_ input: [UInt8], maxSize: Int = 1 << 20) throws(PDFError) -> [UInt8] {
        try over(input) { b throws(PDFError) in try RunLength.decode(b, maxSize: maxSize) }
    }

    /// Packs codes most significant bit first, as LZW wants them.
    struct BitWriter {
        var bytes: [UInt8] = []
        var buffer: UInt32 = 0
        var count = 0

        mutating func write(_ code: Int, width: Int) {
            buffer = buffer << UInt32(width) | UInt32(code)
            count += width
            while count >= 8 {
                bytes.append(UInt8(truncatingIfNeeded: buffer >> UInt32(count - 8)))
                count -= 8
            }
            buffer &= (1 << UInt32(count)) - 1
        }

        mutating func finish() -> [UInt8] {
            if count > 0 { bytes.append(UInt8(truncatingIfNeeded: buffer << UInt32(8 - count))) }
            count = 0
            return bytes
        }
    }

    static func pack(_ codes: [Int], width: Int = 9) -> [UInt8] {
        var writer = BitWriter()
        for code in codes { writer.write(code, width: width) }
        return writer.finish()
    }

    /// A small LZW encoder: clear code first, widths following the decoder (which runs one entry behind;
    /// with `EarlyChange` 1 the width grows one code early, as pdf.js reads it), and a clear code whenever
    /// the 4096-entry table is full.
    static func lzwEncode(_ data: [UInt8], earlyChange: Bool) -> (bytes: [UInt8], clears: Int, maxWidth: Int) {
        let early = earlyChange ? 1 : 0
        var writer = BitWriter()
        var table: [Int: Int] = [:]
        var width = 9
        var maxWidth = 9
        var nextCode = 258
        var decoderNextCode = 258
        var codesSinceClear = 0
        var clears = 0
        func clear() {
            writer.write(256, width: width)
            table.removeAll(keepingCapacity: true)
            (width, nextCode, decoderNextCode, codesSinceClear) = (9, 258, 258, 0)
            clears += 1
        }
        func emit(_ code: Int) {
            writer.write(code, width: width)
            if codesSinceClear > 0, decoderNextCode < 4096 {
                decoderNextCode += 1
                if decoderNextCode + early >= 1 << width, width < 12 { width += 1 }
                maxWidth = max(maxWidth, width)
            }
            codesSinceClear += 1
        }
        clear()
        if var current = data.first.map(Int.init) {
            for byte in data.dropFirst() {
                let key = current << 8 | Int(byte)
                if let code = table[key] {
                    current = code
                    continue
                }
                emit(current)
                if nextCode < 4096 {
                    table[key] = nextCode
                    nextCode += 1
                }
                current = Int(byte)
                if nextCode == 4096 { clear() }
            }
            emit(current)
        }
        writer.write(257, width: width)
        return (writer.finish(), clears, maxWidth)
    }

    /// Applies a PNG filter (the encoder's side of ISO 32000-2 Table 10 / PNG §9) to each row.
    static func pngEncode(_ rows: [[UInt8]], bytesPerPixel: Int, types: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        for (rowIndex, row) in rows.enumerated() {
            let type = types[rowIndex % types.count]
            output.append(type)
            for index in row.indices {
                let left = index >= bytesPerPixel ? Int(row[index - bytesPerPixel]) : 0
                let up = rowIndex > 0 ? Int(rows[rowIndex - 1][index]) : 0
                let upLeft = rowIndex > 0 && index >= bytesPerPixel ? Int(rows[rowIndex - 1][index - bytesPerPixel]) : 0
                let predicted: Int
                switch type {
                case 1: predicted = left
                case 2: predicted = up
                case 3: predicted = (left + up) / 2
                case 4:
                    let estimate = left + up - upLeft
                    let (a, b, c) = (abs(estimate - left), abs(estimate - up), abs(estimate - upLeft))
                    predicted = a <= b && a <= c ? left : (b <= c ? up : upLeft)
                default: predicted = 0
                }
                output.append(UInt8(truncatingIfNeeded: Int(row[index]) - predicted))
            }
        }
        return output
    }

    static func undo(_ data: [UInt8], _ parameters: PDFDictionary?, maxSize: Int = 1 << 30) throws(PDFError) -> [UInt8]
    {
        try Predictor.undo(data, parameters: parameters, maxSize: maxSize)
    }

    // MARK: ASCIIHexDecode

    @Test(
        "ASCIIHexDecode reads pairs of digits, skips white space, stops at '>', pads an odd digit, reads another byte as 0",
        arguments: [
            ("48 65 6c6c6f>", Array("Hello".utf8)), ("48656C6C6F", Array("Hello".utf8)), ("7>", [0x70]),
            ("414>4243", [0x41, 0x40]), ("4 1\n4\t2\r\u{0C}\0", [0x41, 0x42]), ("", []), (">", []),
            ("4x1", [0x40, 0x10]), ("4z42\u{1A}3", [0x40, 0x42, 0x03]), ("fF00", [0xFF, 0x00]),
        ] as [(String, [UInt8])]
    )
    // A byte that is neither a digit nor white space counts as 0, as poppler reads it: the pairs
    // after a damaged digit keep their place.
    func asciiHex(input: String, expected: [UInt8]) {
        #expect(Self.bytes(input).withUnsafeBytes { ASCIIHex.decode($0) } == expected)
    }

    @Test("ASCIIHexEncode writes two upper-case digits a byte")
    func asciiHexEncode() {
        #expect(ASCIIHex.encode([0x00, 0xAB, 0xFF, 0x5A]) == Self.bytes("00ABFF5A"))
        #expect(ASCIIHex.encode([]) == [])
    }

    // MARK: ASCII85Decode

    static let leviathan = Array(
        """
        Man is distinguished, by his reason, but by this singular passion from other animals, which is a lust of \
        the mind, that by a perseverance of delight in the continued and indefatigable generation of knowledge, \
        exceeds the short vehemence of any carnal pleasure.
        """.utf8)

    /// Python's `base64.a85encode(leviathan)` (the Wikipedia vector).
    static let leviathan85 = Array(
        #"""
        9jqo^BlbD-BleB1DJ+*+F(f,q/0JDI+D>J1+ED%%F)PqI+C]J8+C]U=FD,B0+EM77B6A$!EZf=0F)u&6DBNP3Df$V8FD,6++CT/%D..7%/0K.\#
        MBk(g!BlbD*+Dc1AF<GL6+EV:.+Dkh1A1SjFBOQ!*@X0))+E1n4F(KN+Ea`iqAKYo'+Co&"BkM+$+DG^9FD,5.@rH7,Bl8')A0>;uA0>T(A7\#
        ]@]FD5Ar@VfTuB4YslEaa'(Df-\9Aftl,Dg-#/A7oI)+D#e-AS#Cn+EV:.+EM47Ec`FIAS>XlASu!h+E(j7@;^?5@psCq@;I'*Ch7$rF`M%G
        """#.utf8)

    @Test("ASCII85 decodes and encodes the Wikipedia 'Man is distinguished' vector")
    func ascii85Wikipedia() throws {
        #expect(Self.leviathan85.count == 325)
        #expect(Self.a85(Self.leviathan85 + Self.bytes("~>")) == Self.leviathan)
        #expect(ASCII85.encode(Self.leviathan) == Self.leviathan85 + Self.bytes("~>"))
    }

    @Test(
        "ASCII85Decode reads groups, 'z', the '<~' prefix, white space and a final partial group",
        arguments: [
            ("9jqo^", "Man "), ("9jqo^~>", "Man "), ("<~9jqo^~>", "Man "), ("9jn", "Ma"), ("9jn~>", "Ma"),
            ("9`~>", "M"), ("9jqo", "Man"), ("9j qo\n^\t\r", "Man "), ("~>", ""), ("", ""), ("9jqo^~>{{{", "Man "),
            ("9", ""),
            ("9jqo^z~>", "Man \0\0\0\0"), ("z", "\0\0\0\0"), ("zz", "\0\0\0\0\0\0\0\0"), ("!!!!~>", "\0\0\0"),
            ("s8W-!", "\u{FF}\u{FF}\u{FF}\u{FF}"),
        ] as [(String, String)]
    )
    func ascii85(input: String, expected: String) throws {
        // `s8W-!` is 0xFFFFFFFF: expected strings hold one scalar per byte.
        let bytes = expected.unicodeScalars.map { UInt8($0.value) }
        #expect(Self.a85(Self.bytes(input)) == bytes)
    }

    @Test(
        "ASCII85Encode writes 'z' for a zero group and n+1 characters for a final group of n bytes",
        arguments: [
            ([0x4D, 0x61, 0x6E, 0x20], "9jqo^~>"), ([0x4D, 0x61], "9jn~>"), ([0, 0, 0, 0], "z~>"), ([], "~>"),
            ([0, 0, 0], "!!!!~>"), ([0xFF, 0xFF, 0xFF, 0xFF], "s8W-!~>"),
        ] as [([UInt8], String)]
    )
    func ascii85Encode(input: [UInt8], expected: String) {
        #expect(ASCII85.encode(input) == Self.bytes(expected))
    }

    @Test(
        "ASCII85Decode reads damaged data as poppler does; the groups after the damage keep their place",
        arguments: [
            ("9jq{^BlbD-", [0x4D, 0x61, 0x72, 0x1C, 0x69, 0x73, 0x20, 0x64]),
            ("9jzqo^", [0x4D, 0x62, 0x6C, 0xDC]), ("s8W-\"BlbD-", [0, 0, 0, 0, 0x69, 0x73, 0x20, 0x64]),
            ("9jqo^\u{7F}", [0x4D, 0x61, 0x6E, 0x20]), ("v", []),
        ] as [(String, [UInt8])]
    )
    // A bad character counts by its distance from '!', a group over 2³² keeps its low 32 bits.
    func ascii85Damaged(input: String, expected: [UInt8]) {
        #expect(Self.bytes(input).withUnsafeBytes { ASCII85.decode($0) } == expected)
    }

    // MARK: Round trips

    enum Codec: String, CaseIterable, CustomTestStringConvertible {
        case asciiHex, ascii85, runLength
        var testDescription: String { rawValue }

        func roundTrip(_ data: [UInt8]) throws(PDFError) -> [UInt8] {
            switch self {
            case .asciiHex: return ASCIIHex.encode(data).withUnsafeBytes { ASCIIHex.decode($0) }
            case .ascii85: return FilterTests.a85(ASCII85.encode(data))
            case .runLength: return try FilterTests.runLength(RunLength.encode(data))
            }
        }
    }

    @Test(
        "encoding then decoding gives back random, zero-filled and run-heavy data of 0…300 bytes",
        arguments: Codec.allCases)
    func roundTrips(codec: Codec) throws {
        for length in 0...300 {
            let samples = [
                Self.randomBytes(length, seed: UInt64(length)), Self.runnyBytes(length, seed: UInt64(length)),
                [UInt8](repeating: 0, count: length),
            ]
            for data in samples {
                #expect(try codec.roundTrip(data) == data, "\(length) bytes")
            }
        }
    }

    // MARK: RunLengthDecode

    @Test(
        "RunLengthDecode copies n+1 bytes for 0…127, repeats 257−n times for 129…255 and stops at 128",
        arguments: [
            ([0x02, 0x41, 0x42, 0x43, 0xFE, 0x78, 0x80, 0x4A], Array("ABCxxx".utf8)),
            ([0x81, 0x07, 0x80], [UInt8](repeating: 7, count: 128)),
            ([0x7F] + [UInt8](0..<128) + [0x80], [UInt8](0..<128)),
            ([0x05, 0x61, 0x62], [0x61, 0x62]), ([0xFF], []), ([0x00, 0x71], [0x71]), ([0x80, 0x00, 0x71], []),
            ([0xFF, 0x09, 0x00, 0x09], [0x09, 0x09, 0x09]),
        ] as [([UInt8], [UInt8])]
    )
    func runLength(input: [UInt8], expected: [UInt8]) throws {
        #expect(try Self.runLength(input) == expected)
    }

    @Test("RunLengthEncode writes runs and literals and ends with 128")
    func runLengthEncode() {
        #expect(RunLength.encode(Self.bytes("AAAB")) == [0xFE, 0x41, 0x00, 0x42, 0x80])
        #expect(RunLength.encode([]) == [0x80])
        #expect(RunLength.encode([UInt8](repeating: 1, count: 130)) == [0x81, 1, 0xFF, 1, 0x80])
    }

    @Test("RunLengthDecode stops with .limitExceeded past maxSize")
    func runLengthBomb() {
        let input = [UInt8](repeating: 0x81, count: 2000)
        #expect(throws: PDFError(.limitExceeded, "")) { try Self.runLength(input, maxSize: 1000) }
    }

    // MARK: LZWDecode

    static let isoCodes = [256, 45, 258, 258, 65, 259, 66, 257]

    @Test("LZWDecode reads the ISO 32000 example '-----A---B'", arguments: [true, false])
    func lzwISOExample(earlyChange: Bool) throws {
        let packed = Self.pack(Self.isoCodes)
        #expect(packed == [0x80, 0x0B, 0x60, 0x50, 0x22, 0x0C, 0x0C, 0x85, 0x01])
        #expect(try Self.lzw(packed, earlyChange: earlyChange) == Self.bytes("-----A---B"))
    }

    @Test(
        "LZWDecode keeps what was decoded before a code outside the table, a missing end code or clear code",
        arguments: [
            ([256, 65, 66, 400, 67, 257], "AB"), ([256, 65, 66], "AB"), ([65, 66, 257], "AB"), ([256, 258], ""),
            ([65, 257, 66], "A"), ([65, 256, 66, 258, 257], "ABBB"),
        ] as [([Int], String)]
    )
    func lzwDamaged(codes: [Int], expected: String) throws {
        #expect(try Self.lzw(Self.pack(codes)) == Self.bytes(expected))
    }

    /// Samples for the LZW round trip, and whether each is big enough to fill the table more than once.
    static let lzwSamples: [(name: String, data: [UInt8], resets: Bool)] = [
        ("empty", [], false), ("one byte", [0x41], false), ("two bytes", [0x41, 0x41], false),
        ("random 1000", randomBytes(1000, seed: 1), false), ("random 30000", randomBytes(30_000, seed: 2), true),
        ("runs 60000", runnyBytes(60_000, seed: 3), false), ("zeros", [UInt8](repeating: 0, count: 100_000), false),
        ("ISO pattern", Array(String(repeating: "-----A---B", count: 2000).utf8), false),
        ("four letters", randomBytes(80_000, seed: 4).map { UInt8(ascii: "a") + $0 % 4 }, true),
    ]

    @Test(
        "LZW data from a reference encoder decodes, across 9–12-bit codes and table resets",
        arguments: [true, false], 0..<FilterTests.lzwSamples.count
    )
    func lzwRoundTrip(earlyChange: Bool, sample: Int) throws {
        let (name, data, resets) = Self.lzwSamples[sample]
        let encoded = Self.lzwEncode(data, earlyChange: earlyChange)
        #expect(try Self.lzw(encoded.bytes, earlyChange: earlyChange) == data, "\(name)")
        if resets {
            #expect(encoded.maxWidth == 12, "\(name)")
            #expect(encoded.clears >= 2, "\(name)")
        } else if data.count > 1000 {
            #expect(encoded.maxWidth >= 10, "\(name)")
        }
    }

    @Test("LZWDecode honours EarlyChange: the other setting misreads the codes")
    func lzwEarlyChangeMatters() throws {
        let data = Self.randomBytes(5000, seed: 9)
        let encoded = Self.lzwEncode(data, earlyChange: true).bytes
        #expect(try Self.lzw(encoded, earlyChange: false) != data)
    }

    @Test("LZWDecode stops with .limitExceeded past maxSize")
    func lzwBomb() {
        let encoded = Self.lzwEncode([UInt8](repeating: 0, count: 1_000_000), earlyChange: true).bytes
        #expect(throws: PDFError(.limitExceeded, "")) { try Self.lzw(encoded, maxSize: 10_000) }
    }

    // MARK: FlateDecode

    static let text = Array(
        (0..<4000).map { "line \($0): the quick brown fox jumps over the lazy dog \($0 * 7919 % 1000)\n" }.joined().utf8
    )

    @Test("FlateDecode inflates the zlib output of 'Hello'")
    func flateKnownVector() throws {
        let zlib: [UInt8] = [0x78, 0x9C, 0xF3, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00, 0x05, 0x8C, 0x01, 0xF5]
        #expect(try Self.inflate(zlib) == Self.bytes("Hello"))
    }

    @Test("Flate compress then decompress gives back the data", arguments: [0, 1, 100, 65_536, 300_000])
    func flateRoundTrip(length: Int) throws {
        for data in [Self.randomBytes(length, seed: UInt64(length)), Array(Self.text.prefix(length))] {
            let compressed = Flate.compress(data)
            #expect(compressed.first == 0x78)
            #expect(try Self.inflate(compressed) == data)
        }
    }

    @Test("truncated Flate data keeps the inflated prefix")
    func flateTruncated() throws {
        let compressed = Flate.compress(Self.text)
        let withoutChecksum = try Self.inflate(Array(compressed.dropLast(4)))
        #expect(withoutChecksum == Self.text)
        for cut in [compressed.count / 4, compressed.count / 2, compressed.count * 3 / 4] {
            let prefix = try Self.inflate(Array(compressed[..<cut]))
            #expect(!prefix.isEmpty && prefix.count < Self.text.count)
            #expect(Array(Self.text.prefix(prefix.count)) == prefix)
        }
    }

    @Test("raw deflate data without a zlib header is accepted")
    func rawDeflate() throws {
        let raw = Array(Flate.compress(Self.text).dropFirst(2).dropLast(4))
        #expect(try Self.inflate(raw) == Self.text)
    }

    @Test("data that is not Flate throws .decodeFailed; empty data is empty")
    func flateGarbage() throws {
        #expect(throws: PDFError(.decodeFailed, "")) { try Self.inflate([0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]) }
        #expect(throws: PDFError(.decodeFailed, "")) { try Self.inflate([0x78, 0x9C, 0xFF, 0xFF, 0xFF, 0xFF]) }
        #expect(try Self.inflate([]) == [])
    }

    @Test("a decompression bomb (50 MB of zeros) stops with .limitExceeded at maxSize, quickly")
    func flateBomb() throws {
        let bomb = Flate.compress([UInt8](repeating: 0, count: 50_000_000))
        #expect(bomb.count < 100_000)
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            #expect(throws: PDFError(.limitExceeded, "")) { try Self.inflate(bomb, maxSize: 1_000_000) }
        }
        // It stops at the limit instead of inflating 50 MB: a guard against a hang, not a speed target.
        #expect(elapsed < .seconds(30))
        let stream = PDFStream(dictionary: ["Filter": .name("FlateDecode")], encodedBytes: bomb)
        #expect(throws: PDFError(.limitExceeded, "")) { try stream.decodedData(maxSize: 1_000_000) }
    }

    @Test("FlateDecode with maxSize Int.max (no limit) inflates instead of trapping")
    func flateUnlimited() async {
        await #expect(processExitsWith: .success) {
            let compressed = Flate.compress(Array("Hello".utf8))
            let inflated = compressed.withUnsafeBytes { try? Flate.decompress($0, maxSize: .max) }
            precondition(inflated == Array("Hello".utf8))
        }

    }
}
