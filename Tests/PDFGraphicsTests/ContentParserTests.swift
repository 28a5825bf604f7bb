import PDFCore
import Testing

@testable import PDFGraphics

@Suite("Content stream parsing")
struct ContentParserTests {
    static func parse(_ text: String) -> [ContentOperation] {
        ContentParser.operations(in: Array(text.utf8)).operations
    }

    @Test("operators with their operands: numbers, names, strings, arrays, dictionaries, booleans")
    func operands() {
        let operations = Self.parse(
            "q 1 0 0 1 72.5 -3 cm /GS1 gs BT /F1 12 Tf [(Hel) -120 (lo) 5] TJ ET /OC << /Type /OCMD >> BDC true null EMC Q"
        )
        #expect(operations.map(\.name) == ["q", "cm", "gs", "BT", "Tf", "TJ", "ET", "BDC", "EMC", "Q"])
        #expect(operations[1].operands.compactMap(\.numberValue) == [1, 0, 0, 1, 72.5, -3])
        #expect(operations[5].operands.first?.arrayValue?.count == 4)
        #expect(operations[7].operands.last?.dictionaryValue?[.type] == .name("OCMD"))
        // Operands before EMC that no operator took are dropped with the next operator.
        #expect(operations[8].operands == [.boolean(true), .null])
    }

    @Test("comments and odd spacing do not matter")
    func comments() {
        let operations = Self.parse("0 0 m%comment 5 5 l\n10 10 l S\r\n(a%b)Tj")
        #expect(operations.map(\.name) == ["m", "l", "S", "Tj"])
        #expect(operations[1].operands.compactMap(\.numberValue) == [10, 10])
        #expect(operations[3].operands.first?.stringValue?.bytes == Array("a%b".utf8))
    }

    @Test("inline images: abbreviated keys, binary data that contains EI, and data after")
    func inlineImages() {
        // 2×2 grey, 8 bits, unfiltered: exactly 4 bytes, one of them spelling "EI " inside.
        var bytes = Array("q BI /W 2 /H 2 /BPC 8 /CS /G ID ".utf8)
        bytes += [0x45, 0x49, 0x20, 0xFF]
        bytes += Array(" EI Q 1 g".utf8)
        let operations = ContentParser.operations(in: bytes).operations
        #expect(operations.map(\.name) == ["q", "BI", "Q", "g"])
        #expect(operations[1].inlineImage?.data == [0x45, 0x49, 0x20, 0xFF])
        #expect(operations[1].inlineImage?.dictionary[PDFName("W")] == .integer(2))

        // Filtered data has no known length: the EI followed by content ends it.
        var filtered = Array("BI /W 4 /H 1 /F /AHx ID ".utf8)
        filtered += Array("00FF00FF> EI 0 0 m".utf8)
        let found = ContentParser.operations(in: filtered).operations
        #expect(found.map(\.name) == ["BI", "m"])
        #expect(found[0].inlineImage?.data == Array("00FF00FF>".utf8))
    }

    @Test("damage: stray delimiters and an unterminated inline image are warnings, not failures")
    func damage() {
        let result = ContentParser.operations(in: Array("] 1 0 0 RG >> 0 0 m BI /W 1 ID abc".utf8))
        #expect(result.operations.map(\.name) == ["RG", "m"])
        #expect(result.warnings.count >= 2)
    }
}
