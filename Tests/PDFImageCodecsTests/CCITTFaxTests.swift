import Foundation
import PDFCore
import PDFTestSupport
import Testing

@testable import PDFImageCodecs

/// CCITTFaxDecode against strips that libtiff encoded (through Pillow, `scripts/make-codec-fixtures`):
/// Group 4, Group 3 1-D and 2-D, EncodedByteAlign (T.4 fill bits), odd widths, runs past 2560.
@Suite("CCITT fax decoding")
struct CCITTFaxTests {
    struct Case: CustomStringConvertible, Sendable {
        var name: String
        var parameters: CCITTParameters
        var description: String { name }
    }

    /// The cases listed in `Tests/Fixtures/codecs/cases.txt`.
    static let cases: [Case] = {
        guard let text = try? String(contentsOfFile: TestPaths.fixture("codecs", "cases.txt"), encoding: .utf8)
        else { return [] }
        return text.split(separator: "\n").map { line in
            let fields = line.split(separator: " ").map(String.init)
            var parameters = CCITTParameters()
            parameters.k = Int(fields[1])!
            parameters.endOfLine = fields[2] == "true"
            parameters.encodedByteAlign = fields[3] == "true"
            parameters.columns = Int(fields[4])!
            parameters.rows = Int(fields[5])!
            return Case(name: fields[0], parameters: parameters)
        }
    }()

    static func load(_ item: Case) throws -> (data: [UInt8], expected: [UInt8]) {
        let data = try [UInt8](Data(contentsOf: URL(fileURLWithPath: TestPaths.fixture("codecs", item.name + ".fax"))))
        let bitmap = try CodecOracle.readPBM(TestPaths.fixture("codecs", item.name + ".pbm"))
        #expect(bitmap.width == item.parameters.columns && bitmap.height == item.parameters.rows)
        return (data, bitmap.bits)
    }

    @Test("the fixtures are present")
    func fixturesPresent() {
        #expect(Self.cases.count == 9)
    }

    @Test("decodes each libtiff strip to the original bitmap, with BlackIs1 true and false", arguments: cases)
    func decodesFixture(_ item: Case) throws {
        let (data, expected) = try Self.load(item)
        var parameters = item.parameters
        parameters.blackIs1 = true
        #expect(try CCITTFax.decode(data, parameters: parameters) == expected)
        parameters.blackIs1 = false
        #expect(try CCITTFax.decode(data, parameters: parameters) == expected.map { ~$0 })
    }

    @Test("decodes without /Rows (until the data ends) and without /EndOfLine", arguments: cases)
    func decodesWithoutRowsOrEndOfLine(_ item: Case) throws {
        let (data, expected) = try Self.load(item)
        var parameters = item.parameters
        parameters.blackIs1 = true
        parameters.rows = 0
        #expect(try CCITTFax.decode(data, parameters: parameters) == expected)
        parameters.rows = item.parameters.rows
        parameters.endOfLine = false
        #expect(try CCITTFax.decode(data, parameters: parameters) == expected)
    }

    @Test("every prefix of a strip decodes to /Rows rows (the rest white) or throws", arguments: cases)
    func truncationSweep(_ item: Case) throws {
        let (data, expected) = try Self.load(item)
        let bytesPerRow = (item.parameters.columns + 7) / 8
        var parameters = item.parameters
        parameters.blackIs1 = true
        var decodedRows = 0
        for length in 0..<data.count {
            guard let output = try? CCITTFax.decode(Array(data[0..<length]), parameters: parameters) else { continue }
            #expect(output.count == expected.count)
            // The rows that were complete in the prefix match the original.
            let matching = zip(output, expected).prefix { $0 == $1 }.count / bytesPerRow
            decodedRows = max(decodedRows, matching)
        }
        #expect(decodedRows > 0 || data.count < 4)
    }

    @Test("a damaged Group 3 row with EOLs is replaced and decoding goes on")
    func damagedRowIsRecovered() throws {
        guard let item = Self.cases.first(where: { $0.name == "g3-1d-drawing" }) else { return }
        var (data, expected) = try Self.load(item)
        // Damage the middle of the strip: a run of 1 bits is no valid code sequence for long.
        for index in (data.count / 2)..<(data.count / 2 + 3) { data[index] = 0xFF }
        var parameters = item.parameters
        parameters.blackIs1 = true
        let output = try CCITTFax.decode(data, parameters: parameters)
        #expect(output.count == expected.count)
        let bytesPerRow = (item.parameters.columns + 7) / 8
        let rows = (0..<item.parameters.rows).map { Array(output[($0 * bytesPerRow)..<(($0 + 1) * bytesPerRow)]) }
        let original = (0..<item.parameters.rows).map {
            Array(expected[($0 * bytesPerRow)..<(($0 + 1) * bytesPerRow)])
        }
        let same = zip(rows, original).filter { $0 == $1 }.count
        // Only the damaged rows differ: the rows after the damage are back in step.
        #expect(same >= item.parameters.rows - 4)
        #expect(rows.last == original.last)
        // With DamagedRowsBeforeError 1, more damage than that stops decoding early but keeps the rows.
        for index in (data.count / 2)..<(data.count / 2 + 40) { data[index] = 0xFF }
        parameters.damagedRowsBeforeError = 1
        let stopped = try CCITTFax.decode(data, parameters: parameters)
        #expect(stopped.count == expected.count)
        #expect(Array(stopped.prefix(bytesPerRow * 10)) == Array(expected.prefix(bytesPerRow * 10)))
    }

    @Test("garbage and empty input throw decodeFailed; huge dimensions throw limitExceeded")
    func hostileInput() {
        var parameters = CCITTParameters()
        parameters.k = -1
        parameters.rows = 10
        #expect(throws: PDFError(.decodeFailed, "")) { try CCITTFax.decode([], parameters: parameters) }
        // 0000001: the extension code (uncompressed mode), not supported, on the first row.
        #expect(throws: PDFError(.decodeFailed, "")) { try CCITTFax.decode([0x02, 0x00], parameters: parameters) }
        parameters.columns = 1 << 20
        parameters.rows = 1 << 20
        #expect(throws: PDFError(.limitExceeded, "")) { try CCITTFax.decode([0x80], parameters: parameters) }
        parameters.columns = 0
        #expect(throws: PDFError(.invalidArgument, "")) { try CCITTFax.decode([0x80], parameters: parameters) }
    }

    @Test("a Group 4 row of V0 codes: each 1 bit is one all-white row, bounded by the data")
    func allWhiteRowsAreBounded() throws {
        var parameters = CCITTParameters()
        parameters.k = -1
        parameters.columns = 64
        parameters.blackIs1 = true
        let output = try CCITTFax.decode([UInt8](repeating: 0xFF, count: 4), parameters: parameters)
        #expect(output == [UInt8](repeating: 0, count: 32 * 8))
    }

    @Test("the run-length code tables are prefix-free")
    func codesArePrefixFree() {
        for codes in [FaxCodes.whiteCodes, FaxCodes.blackCodes, FaxCodes.modeCodes] {
            let all = codes.map(\.0) + (codes.count > 20 ? FaxCodes.extendedMakeupCodes.map(\.0) : [])
            for first in all {
                for second in all where first != second {
                    #expect(!second.hasPrefix(first), "\(first) is a prefix of \(second)")
                }
            }
            #expect(Set(all).count == all.count)
        }
        #expect(FaxCodes.whiteCodes.count == 64 + 27 && FaxCodes.blackCodes.count == 64 + 27)
    }

    @Test("reads /DecodeParms with defaults and indirect values")
    func parametersFromDictionary() throws {
        let text =
            "%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\n2 0 obj\n13\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n"
        let document = try PDFDocument(bytes: Array(text.utf8))
        let defaults = CCITTParameters(nil, document: document)
        #expect(defaults.k == 0 && defaults.columns == 1728 && defaults.endOfBlock && !defaults.blackIs1)
        let parameters = CCITTParameters(
            [
                "K": -1, "Columns": .reference(PDFReference(2)), "Rows": 9, "BlackIs1": true, "EncodedByteAlign": true,
                "EndOfBlock": false,
            ],
            document: document)
        #expect(parameters.k == -1 && parameters.columns == 13 && parameters.rows == 9)
        #expect(parameters.blackIs1 && parameters.encodedByteAlign && !parameters.endOfBlock && !parameters.endOfLine)
    }
}
