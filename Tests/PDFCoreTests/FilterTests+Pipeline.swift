import PDFTestSupport
import Testing

@testable import PDFCore

/// The predictors (ISO 32000-2 §7.4.4.4) and the filter pipeline of streams.
extension FilterTests {
    // MARK: Predictors

    @Test(
        "PNG predictors of each type, written by hand, are undone",
        arguments: [
            ([2, 1, 2, 3, 2, 1, 1, 1], 3, [1, 2, 3, 2, 3, 4]),
            ([1, 10, 5, 250], 3, [10, 15, 9]),
            ([3, 10, 20, 3, 1, 2], 2, [10, 25, 6, 17]),
            ([4, 10, 20, 4, 5, 7], 2, [10, 30, 15, 37]),
            ([0, 9, 8, 1, 1, 1], 2, [9, 8, 1, 2]),
        ] as [([UInt8], Int, [UInt8])]
    )
    func pngByHand(encoded: [UInt8], columns: Int, expected: [UInt8]) throws {
        let parameters: PDFDictionary = ["Predictor": 12, "Columns": .integer(columns)]
        #expect(try Self.undo(encoded, parameters) == expected)
    }

    @Test(
        "PNG predictors 10–15 are undone for 1, 3 and 4 colors of 8 and 16 bits",
        arguments: [(1, 8), (3, 8), (4, 8), (1, 16), (3, 16), (4, 16)] as [(Int, Int)], [0, 1, 2, 3, 4, 5]
    )
    func pngPredictors(layout: (Int, Int), type: Int) throws {
        let (colors, bits) = layout
        let columns = 5
        let bytesPerPixel = colors * bits / 8
        let seed = UInt64(colors * 100 + bits * 10 + type)
        let rows = (0..<6).map { Self.randomBytes(columns * bytesPerPixel, seed: seed * 16 + UInt64($0)) }
        let types: [UInt8] = type == 5 ? [0, 1, 2, 3, 4, 4] : [UInt8(type)]
        let encoded = Self.pngEncode(rows, bytesPerPixel: bytesPerPixel, types: types)
        let parameters: PDFDictionary = [
            "Predictor": .integer(10 + type), "Colors": .integer(colors), "BitsPerComponent": .integer(bits),
            "Columns": .integer(columns),
        ]
        #expect(try Self.undo(encoded, parameters) == rows.flatMap { $0 })
    }

    @Test(
        "TIFF predictor 2 adds each component to the one a pixel before, row by row",
        arguments: [
            (
                3, 8, 3, [10, 20, 30, 1, 2, 3, 255, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
                [10, 20, 30, 11, 22, 33, 10, 22, 34, 1, 1, 1, 2, 2, 2, 3, 3, 3]
            ),
            (1, 16, 3, [0x01, 0x00, 0x00, 0x01, 0xFF, 0xFF], [0x01, 0x00, 0x01, 0x01, 0x01, 0x00]),
            (
                2, 16, 2, [0x00, 0xFF, 0x10, 0x00, 0x00, 0x01, 0x00, 0x01],
                [0x00, 0xFF, 0x10, 0x00, 0x01, 0x00, 0x10, 0x01]
            ),
            (1, 1, 8, [0b1000_0000, 0b1100_0000], [0b1111_1111, 0b1000_0000]),
            (1, 1, 16, [0b1010_1010, 0b0000_0001], [0b1100_1100, 0b0000_0001]),
            (2, 1, 4, [0b0011_0110], [0b0011_1000]),
            (1, 4, 2, [0x12, 0xF1], [0x13, 0xF0]),
            (1, 2, 4, [0b0101_0101], [0b0110_1100]),
        ] as [(Int, Int, Int, [UInt8], [UInt8])]
    )
    func tiffPredictor(colors: Int, bits: Int, columns: Int, encoded: [UInt8], expected: [UInt8]) throws {
        let parameters: PDFDictionary = [
            "Predictor": 2, "Colors": .integer(colors), "BitsPerComponent": .integer(bits),
            "Columns": .integer(columns),
        ]
        #expect(try Self.undo(encoded, parameters) == expected)
    }

    @Test("no predictor, or predictor 1, leaves the data as it is")
    func noPredictor() throws {
        let data = Self.randomBytes(64, seed: 5)
        #expect(try Self.undo(data, nil) == data)
        #expect(try Self.undo(data, ["Predictor": 1, "Columns": 4]) == data)
        #expect(try Self.undo(data, ["Columns": 4]) == data)
    }

    static let badPredictors: [PDFDictionary] = [
        ["Predictor": 5], ["Predictor": 12, "BitsPerComponent": 3], ["Predictor": 2, "BitsPerComponent": 32],
    ]

    @Test("an unknown predictor or bit depth throws .decodeFailed", arguments: FilterTests.badPredictors)
    func badPredictor(parameters: PDFDictionary) {
        #expect(throws: PDFError(.decodeFailed, "")) { try Self.undo([0, 1, 2, 3], parameters) }
    }

    @Test("a predictor never makes more bytes than its input holds, whatever /Columns says")
    func predictorBomb() throws {
        let parameters: PDFDictionary = ["Predictor": 12, "Columns": .integer(1 << 24)]
        // One row of 2^24 bytes is announced; the input holds its predictor byte and one data byte.
        #expect(try Self.undo([2, 0], parameters, maxSize: 1_000_000) == [0])
        let stream = PDFStream(
            dictionary: ["Filter": .name("FlateDecode"), "DecodeParms": .dictionary(parameters)],
            encodedBytes: Flate.compress([2, 0]))
        #expect(try stream.decodedData(maxSize: 1_000_000) == [0])
        let large = [UInt8](repeating: 0, count: 2_000_001)
        #expect(throws: PDFError(.limitExceeded, "")) { _ = try Self.undo(large, parameters, maxSize: 1_000_000) }
    }

    // MARK: The pipeline of a stream

    @Test("a chain [/AHx /Fl] with /DecodeParms [null <</Predictor 12 /Columns 4>>] is decoded in order")
    func chain() throws {
        let rows: [[UInt8]] = [[1, 2, 3, 4], [2, 4, 6, 8], [3, 6, 9, 12]]
        let predicted = Self.pngEncode(rows, bytesPerPixel: 1, types: [2])
        let encoded = ASCIIHex.encode(Flate.compress(predicted)) + [UInt8(ascii: ">")]
        let stream = PDFStream(
            dictionary: [
                "Filter": [.name("AHx"), .name("Fl")],
                "DecodeParms": [.null, .dictionary(["Predictor": 12, "Columns": 4])],
            ], encodedBytes: encoded)
        #expect(try stream.decodedData() == rows.flatMap { $0 })
        #expect(stream.encodedBytes() == encoded)
    }

    @Test(
        "each filter decodes through a stream by its full or abbreviated name",
        arguments: [
            ("ASCIIHexDecode", "AHx"), ("ASCII85Decode", "A85"), ("RunLengthDecode", "RL"), ("LZWDecode", "LZW"),
            ("FlateDecode", "Fl"),
        ] as [(String, String)]
    )
    func filterNames(full: String, abbreviation: String) throws {
        let data = Self.runnyBytes(3000, seed: 11)
        let encoded: [UInt8] =
            switch full {
            case "ASCIIHexDecode": ASCIIHex.encode(data)
            case "ASCII85Decode": ASCII85.encode(data)
            case "RunLengthDecode": RunLength.encode(data)
            case "LZWDecode": Self.lzwEncode(data, earlyChange: true).bytes
            default: Flate.compress(data)
            }
        for name in [full, abbreviation] {
            let stream = PDFStream(dictionary: ["Filter": .name(PDFName(name))], encodedBytes: encoded)
            #expect(try stream.decodedData() == data, "/\(name)")
        }
        // The inline-image keys /F and /DP name the filter too.
        let inline = PDFStream(dictionary: ["F": [.name(PDFName(abbreviation))], "DP": [.null]], encodedBytes: encoded)
        #expect(try inline.decodedData() == data)
    }

    @Test("LZW with /EarlyChange 0 and a predictor decodes through a stream")
    func lzwWithParameters() throws {
        let rows = (0..<200).map { Self.runnyBytes(30, seed: UInt64($0)) }
        let predicted = Self.pngEncode(rows, bytesPerPixel: 3, types: [4])
        let stream = PDFStream(
            dictionary: [
                "Filter": .name("LZWDecode"),
                "DecodeParms": .dictionary(["EarlyChange": 0, "Predictor": 15, "Colors": 3, "Columns": 10]),
            ],
            encodedBytes: Self.lzwEncode(predicted, earlyChange: false).bytes)
        #expect(try stream.decodedData() == rows.flatMap { $0 })
    }

    @Test("a /Crypt filter is skipped and parameters stay with their filter")
    func cryptSkipped() throws {
        let stream = PDFStream(
            dictionary: [
                "Filter": [.name("Crypt"), .name("Fl")],
                "DecodeParms": [
                    .dictionary(["Name": .name("Identity")]), .dictionary(["Predictor": 12, "Columns": 2]),
                ],
            ], encodedBytes: Flate.compress([2, 1, 2, 2, 1, 1]))
        #expect(try stream.decodedData() == [1, 2, 2, 3])
    }

    @Test("partiallyDecodedData stops at /DCTDecode with its parameters; decodedData throws .decodeFailed")
    func imageCodec() throws {
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0xFF, 0xD9]
        for codec in ["DCTDecode", "DCT"] {
            let stream = PDFStream(
                dictionary: [
                    "Filter": [.name("FlateDecode"), .name(PDFName(codec))],
                    "DecodeParms": [.null, .dictionary(["ColorTransform": 0])],
                ], encodedBytes: Flate.compress(jpeg))
            let partial = try stream.partiallyDecodedData()
            #expect(partial.data == jpeg)
            #expect(partial.imageCodec == .dctDecode)
            #expect(partial.imageCodecParameters == ["ColorTransform": 0])
            #expect(throws: PDFError(.decodeFailed, "")) { try stream.decodedData() }
        }
        let jpx = PDFStream(dictionary: ["Filter": .name("JPXDecode")], encodedBytes: jpeg)
        let partial = try jpx.partiallyDecodedData()
        #expect(partial.data == jpeg)
        #expect(partial.imageCodec == .jpxDecode)
        #expect(partial.imageCodecParameters == nil)
    }

    @Test("a stream without filters decodes to its bytes; an unknown filter throws .decodeFailed")
    func unfilteredAndUnknown() throws {
        let data = Self.randomBytes(100, seed: 6)
        #expect(try PDFStream(dictionary: [:], encodedBytes: data).decodedData() == data)
        #expect(try PDFStream(dictionary: [:], data: data, compress: true).decodedData() == data)
        for filter in ["FooDecode", "JBIG2", "Fl "] {
            let stream = PDFStream(dictionary: ["Filter": [.name("AHx"), .name(PDFName(filter))]], encodedBytes: data)
            #expect(throws: PDFError(.decodeFailed, "")) { try stream.decodedData() }
        }
    }
}
