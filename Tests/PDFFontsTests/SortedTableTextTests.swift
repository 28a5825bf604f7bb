import PDFCore
import Testing

@testable import PDFFonts

/// The in-place lookup of generated `key=value` tables.
@Suite("Sorted table text")
struct SortedTableTextTests {
    static func value(_ table: SortedTableText, _ key: String) -> String? {
        table.withValue(for: key) { String(decoding: $0, as: UTF8.self) }
    }

    @Test("keys are found by binary search; missing keys, prefixes and extensions are not")
    func lookup() {
        let table = SortedTableText(["A=41 AE=C6 Aacute=C1\nB=42", "a=61 ab=62,63"])
        #expect(table.count == 6)
        #expect(Self.value(table, "A") == "41")
        #expect(Self.value(table, "AE") == "C6")
        #expect(Self.value(table, "B") == "42")
        #expect(Self.value(table, "ab") == "62,63")
        #expect(Self.value(table, "Aa") == nil)
        #expect(Self.value(table, "Aacutes") == nil)
        #expect(Self.value(table, "") == nil)
        #expect(Self.value(table, "z") == nil)
    }

    @Test("a part that breaks the order is sorted in; for a key in two parts the last one wins")
    func unsortedParts() {
        let table = SortedTableText(["b=1 d=2 f=3", "a1=4 c=5 d=6"])
        #expect(Self.value(table, "a1") == "4")
        #expect(Self.value(table, "b") == "1")
        #expect(Self.value(table, "c") == "5")
        #expect(Self.value(table, "d") == "6")
        #expect(Self.value(table, "f") == "3")
    }

    @Test("the standard fonts' widths and the glyph list read as before")
    func generatedTables() {
        #expect(StandardFont(.helvetica).width(ofGlyph: "A") == 667)
        #expect(StandardFont(.timesRoman).width(ofGlyph: "fi") == 556)
        #expect(StandardFont(.courier).width(ofGlyph: "nosuchglyph") == nil)
    }
}
