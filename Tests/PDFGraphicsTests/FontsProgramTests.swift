import Foundation
import PDFCore
import PDFFonts
import PDFTestSupport
import Testing

@testable import PDFGraphics

/// Embedded font programs: what the model reads from CFF and TrueType programs, checked against
/// fontTools (Python) reading the same fonts and against mutool drawing them.
@Suite("Font programs")
struct FontsProgramTests {
    static let dingbats = "/usr/share/fonts/opentype/urw-base35/D050000L.otf"
    static let sans = "/usr/share/fonts/opentype/urw-base35/NimbusSans-Regular.otf"
    static let dejaVu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

    /// The bare CFF program of an OpenType font.
    static func cff(_ path: String) throws -> [UInt8] {
        let data = try #require(FileManager.default.contents(atPath: path), "\(path) cannot be read")
        let font = try TrueTypeFile(bytes: Array(data))
        return try #require(font.table("CFF ").map(Array.init), "\(path) has no CFF table")
    }

    /// Runs a fontTools snippet and returns its output lines.
    static func fontTools(_ script: String) throws -> [String] {
        let result = try Oracle.run("python3", ["-c", "import fontTools.ttLib\n" + script])
        try #require(result.status == 0, "fontTools: \(result.errors)")
        return result.output.split(separator: "\n").map(String.init)
    }

    @Test(
        "A CFF program's custom encoding and charset agree with fontTools",
        .enabled(if: Requirement.file(dingbats), "URW base35 fonts are not installed"),
        .enabled(if: Requirement.python("fontTools.ttLib"), "fontTools is not installed"))
    func cffEncoding() throws {
        let data = try Self.cff(Self.dingbats)
        let program = try #require(CFFProgram(data))
        #expect(!program.isCIDKeyed)
        let expected = try Self.fontTools(
            """
            cff = fontTools.ttLib.TTFont('\(Self.dingbats)')['CFF '].cff
            top = cff.topDictIndex[0]
            print(' '.join(n if n != '.notdef' else '-' for n in top.Encoding))
            print(' '.join(top.charset))
            """)
        let names = expected[0].split(separator: " ").map { $0 == "-" ? nil : String($0) }
        #expect(program.encoding == names)
        #expect(program.glyphNames == expected[1].split(separator: " ").map(String.init))
    }

    @Test(
        "Every prefix of a CFF program parses or is refused, never trapping",
        .enabled(if: Requirement.file(sans), "URW base35 fonts are not installed"))
    func cffTruncation() throws {
        let data = try Self.cff(Self.sans)
        #expect(CFFProgram(data)?.glyphNames.contains("Aring") == true)
        for length in stride(from: 0, through: data.count, by: max(1, data.count / 4000)) {
            _ = CFFProgram(Array(data[..<length]))
        }
        // Random damage in the header, the top DICT and the INDEXes; seeded, so a failure repeats.
        var generator = SplitMix(state: 0x5EED_CFF0)
        for _ in 0..<3000 {
            var damaged = data
            for _ in 0..<4 {
                damaged[Int.random(in: 0..<min(2000, damaged.count), using: &generator)] = .random(
                    in: 0...255, using: &generator)
            }
            _ = CFFProgram(damaged)
        }
    }

    @Test(
        "An embedded Type1C font without /Encoding uses the program's encoding",
        .enabled(if: Requirement.file(dingbats) && Requirement.file(sans), "URW base35 fonts are not installed"),
        arguments: [dingbats, sans])
    func embeddedCFF(path: String) throws {
        let data = try Self.cff(path)
        let file = PDFObject.stream(PDFStream(dictionary: ["Subtype": .name("Type1C")], data: data, compress: true))
        let text = Array("!\"#$%&'()*+,-./0123456789:;ABCabc".utf8)
        let widths: [PDFObject] = (32...126).map { .integer(400 + $0) }
        let built = try FontsModelTests.document(extra: [file], strings: [text]) { objects in
            .dictionary([
                .type: .name("Font"), .subtype: .name("Type1"), "BaseFont": .name("ABCDEF+Embedded"),
                "FirstChar": 32, "LastChar": 126, "Widths": .array(widths),
                "FontDescriptor": .dictionary([
                    .type: .name("FontDescriptor"), "FontName": .name("ABCDEF+Embedded"), "Flags": 4, "Ascent": 800,
                    "Descent": -200, "CapHeight": 700, "ItalicAngle": 0, "StemV": 80, "FontBBox": [0, -200, 1000, 800],
                    "FontFile3": objects[0],
                ]),
            ])
        }
        #expect(built.font.program?.format == .cff)
        #expect(built.font.isSymbolic)
        #expect(built.font.glyphs(in: [0x41])[0].width == Double(400 + 0x41) / 1000)
        if path == Self.dingbats {
            #expect(built.font.glyphName(for: 0x21) == "a1")
            #expect(built.font.glyphs(in: [0x21])[0].unicode == "✁")
        } else {
            #expect(built.font.glyphName(for: 0x27) == "quoteright")
        }
        // mutool reads ZapfDingbats names as numbers ("a49" as "1"): compare positions only there.
        try FontsModelTests.expectAgreement(built.path, built.document, text: path != Self.dingbats)
    }

    @Test(
        "Identity-H TrueType without /ToUnicode: text from the program's cmap, as fontTools reads it",
        .enabled(if: Requirement.file(dejaVu), "DejaVu Sans is not installed"),
        .enabled(if: Requirement.python("fontTools.ttLib"), "fontTools is not installed"))
    func trueTypeCmapText() throws {
        let data = try #require(FileManager.default.contents(atPath: Self.dejaVu))
        let lines = try Self.fontTools(
            """
            font = fontTools.ttLib.TTFont('\(Self.dejaVu)')
            cmap = font.getBestCmap()
            print(' '.join(str(font.getGlyphID(cmap.get(ord(c), '.notdef'))) for c in 'Héllo→ 𝄞€'))
            """)
        let glyphIDs = lines[0].split(separator: " ").compactMap { UInt16($0) }
        let codes = glyphIDs.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        let file = PDFObject.stream(
            PDFStream(dictionary: ["Length1": .integer(data.count)], data: Array(data), compress: true))
        func descendant(_ fontFile: PDFObject) -> PDFObject {
            .dictionary([
                .type: .name("Font"), .subtype: .name("CIDFontType2"), "BaseFont": .name("DejaVuSans"),
                "CIDSystemInfo": .dictionary([
                    "Registry": .string(PDFString(text: "Adobe")), "Ordering": .string(PDFString(text: "Identity")),
                    "Supplement": 0,
                ]),
                "DW": 600, "CIDToGIDMap": .name("Identity"),
                "FontDescriptor": .dictionary([
                    .type: .name("FontDescriptor"), "FontName": .name("DejaVuSans"), "Flags": 32, "Ascent": 928,
                    "Descent": -236, "CapHeight": 729, "ItalicAngle": 0, "StemV": 80,
                    "FontBBox": [-1021, -463, 1793, 1232],
                    "FontFile2": fontFile,
                ]),
            ])
        }
        let built = try FontsModelTests.document(extra: [file], strings: [codes]) { objects in
            .dictionary([
                .type: .name("Font"), .subtype: .name("Type0"), "BaseFont": .name("DejaVuSans"),
                "Encoding": .name("Identity-H"), "DescendantFonts": [descendant(objects[0])],
            ])
        }
        #expect(built.font.program?.format == .trueType)
        let text = built.font.glyphs(in: codes).map { $0.unicode ?? "?" }.joined()
        // DejaVu Sans has no glyph for U+1D11E: fontTools gives glyph 0 (.notdef), which has no text.
        #expect(text == "Héllo→ ?€")
        #expect(built.font.glyphIndex(forCID: 43) == nil)
        // mutool has no text for these glyphs; the positions must still agree.
        try FontsModelTests.expectAgreement(built.path, built.document, text: false)
    }

    @Test(
        "A TrueType font without /Encoding: codes through the program's cmap to its glyph names",
        .enabled(if: Requirement.file(dejaVu), "DejaVu Sans is not installed"),
        .enabled(if: Requirement.python("fontTools.ttLib"), "fontTools is not installed"), arguments: [32, 4])
    func trueTypeWithoutEncoding(flags: Int) throws {
        let data = try #require(FileManager.default.contents(atPath: Self.dejaVu))
        let lines = try Self.fontTools(
            """
            font = fontTools.ttLib.TTFont('\(Self.dejaVu)')
            cmap = font.getBestCmap()
            print(' '.join(cmap[c] for c in range(0x21, 0x7F)))
            """)
        let file = PDFObject.stream(
            PDFStream(dictionary: ["Length1": .integer(data.count)], data: Array(data), compress: true))
        let text = Array("Hello, (world) #1 ~".utf8)
        let widths: [PDFObject] = (32...126).map { .integer(300 + $0) }
        let built = try FontsModelTests.document(extra: [file], strings: [text]) { objects in
            .dictionary([
                .type: .name("Font"), .subtype: .name("TrueType"), "BaseFont": .name("DejaVuSans"),
                "FirstChar": 32, "LastChar": 126, "Widths": .array(widths),
                "FontDescriptor": .dictionary([
                    .type: .name("FontDescriptor"), "FontName": .name("DejaVuSans"), "Flags": .integer(flags),
                    "Ascent": 928, "Descent": -236, "CapHeight": 729, "ItalicAngle": 0, "StemV": 80,
                    "FontBBox": [-1021, -463, 1793, 1232], "FontFile2": objects[0],
                ]),
            ])
        }
        #expect(built.font.kind == .trueType && built.font.program?.format == .trueType)
        #expect(built.font.simpleEncoding?.base == nil && built.font.glyphName(for: 0x41) == nil)
        #expect(built.font.isSymbolic == (flags == 4))
        // fontTools' glyph names of the codes, read through the glyph list, are the codes' text.
        let names = lines[0].split(separator: " ").map(String.init)
        for code in 0x21..<0x7F {
            #expect(built.font.glyphs(in: [UInt8(code)])[0].unicode == GlyphNames.unicode(for: names[code - 0x21]))
        }
        #expect(built.font.glyphs(in: text).compactMap(\.unicode).joined() == "Hello, (world) #1 ~")
        try FontsModelTests.expectAgreement(built.path, built.document)
    }
}

/// A seeded generator for damage that must be the same on every run.
typealias SplitMix = SplitMix64
