import Foundation
import PDFAuthoring
import PDFCore
import PDFFonts
import PDFTestSupport
import Testing

@testable import PDFGraphics

/// Small documents with one font each, checked against ISO 32000-2, the AFM metrics, poppler-data's
/// CMap files and `mutool trace` (text and pen positions of every glyph).
@Suite("Font model")
struct FontsModelTests {
    /// A one-page document whose resources name the font `/F1` and whose content shows `strings`
    /// with it at 10 pt, each after a `Td`. `font` makes the font dictionary from references to the
    /// `extra` objects.
    static func document(
        extra: [PDFObject] = [], strings: [[UInt8]], font: ([PDFObject]) -> PDFObject
    ) throws -> (path: String, document: PDFDocument, font: LoadedFont) {
        var builder = PDFBuilder()
        var references: [PDFObject] = []
        for object in extra { references.append(.reference(builder.add(object))) }
        let fontReference = builder.add(font(references))
        var content = Array("BT /F1 10 Tf 10 700 Td\n".utf8)
        for string in strings {
            content += Array("0 -20 Td <".utf8)
            content += Array(string.map { String(format: "%02X", $0) }.joined().utf8)
            content += Array("> Tj\n".utf8)
        }
        content += Array("ET\n".utf8)
        builder.addPage(content: content, resources: ["Font": .dictionary(["F1": .reference(fontReference)])])
        let bytes = builder.build()
        let directory = try TestPaths.temporaryDirectory("fonts")
        let path = directory + "/font.pdf"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let document = try PDFDocument(bytes: bytes)
        return (path, document, LoadedFont.load(.reference(fontReference), document: document))
    }

    /// The text and pen displacements of every glyph of page 1 agree with `mutool trace`; a warning
    /// where mutool is not installed (the test's own checks still run).
    /// - Parameter text: false where mutool's text is not an oracle (it reads ZapfDingbats' `a49`
    ///   as "1", and has no text for glyph names outside its font).
    static func expectAgreement(
        _ path: String, _ document: PDFDocument, text: Bool = true, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        guard
            Requirement.check(
                Requirement.tool("mutool"),
                orWarn: "mutool is not installed; the glyphs are not compared with mutool's",
                sourceLocation: sourceLocation)
        else { return }
        var walker = TextWalker(document: document)
        walker.walk(page: document.pages[0])
        let trace = try MutoolTrace.glyphs(path, page: 1)
        let agreement = GlyphAlignment.compare(walker.shown, trace, byText: text)
        if (text && agreement.unicodeMatches != agreement.unicodeKnown)
            || agreement.advanceMatches != agreement.advanceCompared
        {
            for (index, glyph) in walker.shown.enumerated() {
                print(
                    "ours", glyph.font.baseFont, index, glyph.glyph.code, glyph.glyph.unicode ?? "nil",
                    glyph.displacement ?? -1)
            }
            for (index, glyph) in trace.enumerated() {
                let next = index + 1 < trace.count ? glyph.displacement(to: trace[index + 1]) : nil
                print("mutool", glyph.font, index, glyph.glyph ?? "-", glyph.unicode, next ?? -1)
            }
        }
        #expect(agreement.glyphs > 0, sourceLocation: sourceLocation)
        #expect(agreement.paired == agreement.glyphs, "glyphs mutool does not show", sourceLocation: sourceLocation)
        if text {
            #expect(agreement.unicodeMatches == agreement.unicodeKnown, "text differs", sourceLocation: sourceLocation)
        }
        #expect(agreement.advanceCompared > 0, sourceLocation: sourceLocation)
        #expect(
            agreement.advanceMatches == agreement.advanceCompared, "displacement differs",
            sourceLocation: sourceLocation)
    }

    static func stream(_ text: String, _ dictionary: PDFDictionary = [:]) -> PDFObject {
        .stream(PDFStream(dictionary: dictionary, data: Array(text.utf8), compress: false))
    }

    // MARK: Standard 14 fonts

    @Test(
        "Standard 14 fonts without /Widths take the AFM widths",
        arguments: [
            ("Helvetica", "WinAnsiEncoding"), ("Times-Bold", "WinAnsiEncoding"),
            ("Courier-Oblique", "StandardEncoding"),
            ("Arial,Bold", "WinAnsiEncoding"), ("TimesNewRomanPS-ItalicMT", "MacRomanEncoding"),
            ("CourierNew", "WinAnsiEncoding"), ("Symbol", ""), ("ZapfDingbats", ""),
        ])
    func standardWidths(name: String, encoding: String) throws {
        var font: PDFDictionary = [.type: .name("Font"), .subtype: .name("Type1"), "BaseFont": .name(PDFName(name))]
        if !encoding.isEmpty { font["Encoding"] = .name(PDFName(encoding)) }
        // Latin text, and codes that differ between the encodings (0x80 is undefined in the built-in
        // encodings of Symbol and ZapfDingbats, where readers differ).
        let symbolic = name == "Symbol" || name == "ZapfDingbats"
        let text: [UInt8] = Array("AVWay fi!".utf8) + [0xE9, 0xAE] + (symbolic ? [] : [0x80]) + [0x27, 0x60, 0x32]
        let built = try Self.document(strings: [text, [0xA0, 0xA4, 0xC6, 0xF5, 0x41]]) { _ in .dictionary(font) }
        #expect(built.font.kind == .type1)
        #expect(built.font.program == nil)
        #expect(built.font.warnings.isEmpty)
        try Self.expectAgreement(built.path, built.document, text: name != "ZapfDingbats")
        if name == "Helvetica" {
            // Helvetica.afm: A 667, V 667, W 944, a 556, y 500, space 278; WinAnsi 0xE9 is eacute, 556.
            let widths = built.font.glyphs(in: Array("AVWay ".utf8) + [0xE9]).map(\.width)
            #expect(widths == [0.667, 0.667, 0.944, 0.556, 0.5, 0.278, 0.556])
            #expect(built.font.glyphs(in: [0x20])[0].isWordSpace)
            #expect(built.font.descriptor.ascent == 718 && built.font.descriptor.capHeight == 718)
            #expect(!built.font.isSymbolic)
        }
        if name == "Symbol" {
            #expect(built.font.isSymbolic)
            // Symbol's 0x61 is alpha (U+03B1), 631 wide.
            let alpha = built.font.glyphs(in: [0x61])[0]
            #expect(alpha.unicode == "α" && alpha.width == 0.631)
            #expect(built.font.glyphName(for: 0x61) == "alpha")
        }
    }

    @Test("/Differences over a base encoding name glyphs, and their text follows the glyph list")
    func differences() throws {
        let font: PDFObject = .dictionary([
            .type: .name("Font"), .subtype: .name("Type1"), "BaseFont": .name("Helvetica"),
            "Encoding": .dictionary([
                "BaseEncoding": .name("WinAnsiEncoding"),
                "Differences": [
                    65, .name("Euro"), .name("ccedilla"), 97, .name("fi"), .name("uni0416"), .name("u1F600"),
                    .name("f_f_i"), .name("Aacute.sc"), .name("uni00410042"), .name("nosuchglyph"),
                ],
            ]),
        ])
        let built = try Self.document(strings: [Array("ABCabcdefgh".utf8)]) { _ in font }
        let glyphs = built.font.glyphs(in: Array("ABabcdefgC".utf8))
        // ISO 32000-2 §9.6.5.1 and the Adobe Glyph List Specification.
        #expect(glyphs.map(\.unicode) == ["€", "ç", "ﬁ", "Ж", "😀", "ffi", "Á", "AB", nil, "C"])
        #expect(built.font.glyphName(for: 65) == "Euro")
        #expect(built.font.glyphName(for: 67) == "C")
        #expect(built.font.glyphName(for: 0x80) == "Euro")  // from WinAnsiEncoding
        #expect(built.font.simpleEncoding?.base == .winAnsi)
        #expect(built.font.simpleEncoding?.differences.count == 9)

        // Against mutool, with names the standard font has.
        let latin = try Self.document(strings: [Array("ABCabcde".utf8)]) { _ in
            .dictionary([
                .type: .name("Font"), .subtype: .name("Type1"), "BaseFont": .name("Times-Roman"),
                "Encoding": .dictionary([
                    "Differences": [
                        65, .name("Euro"), .name("ccedilla"), 97, .name("fi"), .name("fl"), .name("Aring"),
                        .name("germandbls"),
                    ]
                ]),
            ])
        }
        #expect(latin.font.simpleEncoding?.base == nil)
        #expect(latin.font.glyphName(for: 67) == "C")  // the built-in StandardEncoding
        try Self.expectAgreement(latin.path, latin.document)
    }

    // MARK: Composite fonts

    @Test("A Type 0 font with Identity-H reads two-byte CIDs and their /W widths")
    func identityWidths() throws {
        let descendant: PDFObject = .dictionary([
            .type: .name("Font"), .subtype: .name("CIDFontType2"), "BaseFont": .name("ABCDEF+DejaVuSans"),
            "CIDSystemInfo": .dictionary([
                "Registry": .string(PDFString(text: "Adobe")), "Ordering": .string(PDFString(text: "Identity")),
                "Supplement": 0,
            ]),
            "DW": 900, "W": [36, [500, 600], 40, 42, 700, 50, [250.5]],
            "FontDescriptor": .dictionary([
                .type: .name("FontDescriptor"), "FontName": .name("DejaVuSans"), "Flags": 32, "Ascent": 760,
                "Descent": -240, "CapHeight": 730, "ItalicAngle": 0, "StemV": 80,
                "FontBBox": [-1021, -463, 1793, 1232],
            ]),
        ])
        let toUnicode = Self.stream(
            """
            /CIDInit /ProcSet findresource begin 12 dict begin begincmap
            1 begincodespacerange <0000> <FFFF> endcodespacerange
            1 beginbfrange <0020> <0060> <0040> endbfrange
            endcmap CMapName currentdict /CMap defineresource pop end end
            """)
        let codes: [UInt8] = [0, 36, 0, 37, 0, 38, 0, 40, 0, 42, 0, 50, 0, 43, 0, 36]
        let built = try Self.document(extra: [descendant, toUnicode], strings: [codes]) { objects in
            .dictionary([
                .type: .name("Font"), .subtype: .name("Type0"), "BaseFont": .name("ABCDEF+DejaVuSans"),
                "Encoding": .name("Identity-H"), "DescendantFonts": [objects[0]], "ToUnicode": objects[1],
            ])
        }
        let glyphs = built.font.glyphs(in: codes)
        #expect(built.font.kind == .cidType2)
        #expect(built.font.baseFont == "DejaVuSans")
        #expect(glyphs.map(\.cid) == [36, 37, 38, 40, 42, 50, 43, 36])
        #expect(glyphs.allSatisfy { $0.byteCount == 2 && !$0.isWordSpace })
        // §9.7.4.3: c [w1 w2 …] gives consecutive CIDs, c_first c_last w one width; /DW the rest.
        #expect(glyphs.map(\.width) == [0.5, 0.6, 0.9, 0.7, 0.7, 0.2505, 0.9, 0.5])
        #expect(glyphs.map(\.unicode) == ["D", "E", "F", "H", "J", "R", "K", "D"])
        #expect(built.font.glyphIndex(forCID: 36) == nil)  // no /CIDToGIDMap: the identity
        #expect(built.font.characterCollection?.ordering == "Identity")
        #expect(!built.font.isVertical)
        try Self.expectAgreement(built.path, built.document)
    }

    @Test("An embedded CMap with one- and two-byte codespaces splits codes by its ranges")
    func mixedCodespaces() throws {
        let cmap = Self.stream(
            """
            %!PS-Adobe-3.0 Resource-CMap
            /CIDInit /ProcSet findresource begin 12 dict begin begincmap
            /CIDSystemInfo << /Registry (Adobe) /Ordering (Test) /Supplement 0 >> def
            /CMapName /Test-Mixed-H def /CMapType 1 def /WMode 0 def
            2 begincodespacerange <00> <80> <8140> <9FFC> endcodespacerange
            1 begincidrange <20> <7E> 1 endcidrange
            1 begincidrange <8140> <817E> 200 endcidrange
            1 begincidchar <8150> 500 endcidchar
            1 beginnotdefrange <00> <1F> 7 endnotdefrange
            endcmap CMapName currentdict /CMap defineresource pop end end
            """, ["Type": .name("CMap"), "CMapName": .name("Test-Mixed-H")])
        let toUnicode = Self.stream(
            """
            /CIDInit /ProcSet findresource begin 12 dict begin begincmap
            2 begincodespacerange <00> <80> <8140> <9FFC> endcodespacerange
            3 beginbfchar <41> <0041> <8141> <3042> <8150> <4E9C> endbfchar
            1 beginbfrange <42> <43> <0042> endbfrange
            endcmap CMapName currentdict /CMap defineresource pop end end
            """)
        let descendant: PDFObject = .dictionary([
            .type: .name("Font"), .subtype: .name("CIDFontType2"), "BaseFont": .name("TestFont"),
            "CIDSystemInfo": .dictionary([
                "Registry": .string(PDFString(text: "Adobe")), "Ordering": .string(PDFString(text: "Test")),
                "Supplement": 0,
            ]),
            "W": [34, [310, 320, 330], 201, [410], 500, [510]],
            "FontDescriptor": .dictionary([
                .type: .name("FontDescriptor"), "FontName": .name("TestFont"), "Flags": 4, "Ascent": 800,
                "Descent": -200, "CapHeight": 700, "ItalicAngle": 0, "StemV": 80, "FontBBox": [0, -200, 1000, 800],
            ]),
        ])
        let bytes: [UInt8] = [0x41, 0x81, 0x41, 0x42, 0x81, 0x50, 0x43, 0x05, 0x20]
        // mutool draws nothing for the code of the notdef range: it is left out of the page.
        let shown: [UInt8] = [0x41, 0x81, 0x41, 0x42, 0x81, 0x50, 0x43, 0x20]
        let built = try Self.document(extra: [cmap, toUnicode, descendant], strings: [shown]) { objects in
            .dictionary([
                .type: .name("Font"), .subtype: .name("Type0"), "BaseFont": .name("TestFont"),
                "Encoding": objects[0], "DescendantFonts": [objects[2]], "ToUnicode": objects[1],
            ])
        }
        let glyphs = built.font.glyphs(in: bytes)
        #expect(glyphs.map(\.code) == [0x41, 0x8141, 0x42, 0x8150, 0x43, 0x05, 0x20])
        #expect(glyphs.map(\.byteCount) == [1, 2, 1, 2, 1, 1, 1])
        // cidrange <20> <7E> 1: 0x41 → 34; <8140> … 200: 0x8141 → 201; cidchar 0x8150 → 500; notdef 7.
        #expect(glyphs.map(\.cid) == [34, 201, 35, 500, 36, 7, 1])
        #expect(glyphs.map(\.width) == [0.31, 0.41, 0.32, 0.51, 0.33, 1, 1])
        #expect(glyphs.map(\.unicode) == ["A", "あ", "B", "亜", "C", nil, nil])
        #expect(glyphs.last?.isWordSpace == true)
        try Self.expectAgreement(built.path, built.document)
    }

    @Test("/ToUnicode bfrange arrays, surrogate pairs and multi-character texts")
    func toUnicode() throws {
        let toUnicode = Self.stream(
            """
            /CIDInit /ProcSet findresource begin 12 dict begin begincmap
            /CMapName /Adobe-Identity-UCS def /CMapType 2 def
            1 begincodespacerange <00> <FF> endcodespacerange
            2 beginbfrange
            <41> <43> [<0058> <D83DDE00> <00660069>]
            <61> <63> <D83DDE01>
            endbfrange
            2 beginbfchar <31> <D835DC00> <32> <0066006C0061> endbfchar
            endcmap CMapName currentdict /CMap defineresource pop end end
            """)
        let text = Array("ABCabc12D".utf8)
        let built = try Self.document(extra: [toUnicode], strings: [text]) { objects in
            .dictionary([
                .type: .name("Font"), .subtype: .name("Type1"), "BaseFont": .name("Helvetica"),
                "Encoding": .name("WinAnsiEncoding"), "ToUnicode": objects[0],
            ])
        }
        // §9.10.3: a bfrange array gives each code its string; a start string's last unit counts up.
        #expect(
            built.font.glyphs(in: text).map(\.unicode) == ["X", "😀", "fi", "😁", "😂", "😃", "𝐀", "fla", "D"])
        try Self.expectAgreement(built.path, built.document)
    }

    @Test(
        "90ms-RKSJ-H from poppler-data decodes Shift-JIS to Adobe-Japan1 CIDs and Unicode",
        .enabled(
            if: Requirement.file("/usr/share/poppler/cMap/Adobe-Japan1/90ms-RKSJ-H"), "poppler-data is not installed"))
    func predefinedCMap() throws {
        let descendant: PDFObject = .dictionary([
            .type: .name("Font"), .subtype: .name("CIDFontType0"), "BaseFont": .name("KozMinPr6N-Regular"),
            "CIDSystemInfo": .dictionary([
                "Registry": .string(PDFString(text: "Adobe")), "Ordering": .string(PDFString(text: "Japan1")),
                "Supplement": 2,
            ]),
            "W": [231, 327, 500, 343, [500]],
            "FontDescriptor": .dictionary([
                .type: .name("FontDescriptor"), "FontName": .name("KozMinPr6N-Regular"), "Flags": 6, "Ascent": 880,
                "Descent": -120, "CapHeight": 740, "ItalicAngle": 0, "StemV": 80, "FontBBox": [0, -120, 1000, 880],
            ]),
        ])

        // あ (82 A0), A (41), 亜 (88 9F), half-width ｱ (B1), ideographic space (81 40).
        let bytes: [UInt8] = [0x82, 0xA0, 0x41, 0x88, 0x9F, 0xB1, 0x81, 0x40, 0x82, 0xA2]
        let built = try Self.document(extra: [descendant], strings: [bytes]) { objects in
            .dictionary([
                .type: .name("Font"), .subtype: .name("Type0"), "BaseFont": .name("KozMinPr6N-Regular-90ms-RKSJ-H"),
                "Encoding": .name("90ms-RKSJ-H"), "DescendantFonts": [objects[0]],
            ])
        }
        let glyphs = built.font.glyphs(in: bytes)
        // 90ms-RKSJ-H: <829f> <82f1> 842, <20> <7d> 231, <889f> <88fc> 1125, <a0> <df> 326, <8140> <817e> 633.
        #expect(glyphs.map(\.cid) == [843, 264, 1125, 343, 633, 845])
        #expect(glyphs.map(\.byteCount) == [2, 1, 2, 1, 2, 2])
        #expect(glyphs.map(\.unicode) == ["あ", "A", "亜", "ｱ", "\u{3000}", "い"])
        #expect(glyphs.map(\.width) == [1, 0.5, 1, 0.5, 1, 1])
        #expect(built.font.characterCollection?.ordering == "Japan1")
        #expect(built.font.kind == .cidType0)
        try Self.expectAgreement(built.path, built.document)
    }

    @Test("Identity-V is vertical with /DW2 and /W2 metrics")
    func verticalMetrics() throws {
        let descendant: PDFObject = .dictionary([
            .type: .name("Font"), .subtype: .name("CIDFontType0"), "BaseFont": .name("Vertical"),
            "CIDSystemInfo": .dictionary([
                "Registry": .string(PDFString(text: "Adobe")), "Ordering": .string(PDFString(text: "Identity")),
                "Supplement": 0,
            ]),
            "W": [1, [600]], "DW2": [900, -1100], "W2": [2, [-800, 300, 850], 5, 6, -700, 250, 800],
        ])
        let built = try Self.document(extra: [descendant], strings: [[0, 1]]) { objects in
            .dictionary([
                .type: .name("Font"), .subtype: .name("Type0"), "BaseFont": .name("Vertical"),
                "Encoding": .name("Identity-V"), "DescendantFonts": [objects[0]],
            ])
        }
        let glyphs = built.font.glyphs(in: [0, 1, 0, 2, 0, 6])
        #expect(built.font.isVertical)
        // §9.7.4.3: defaults (w0/2, DW2[0]) and DW2[1]; W2 entries give w1y, v_x, v_y.
        #expect(glyphs.map(\.verticalAdvance) == [-1.1, -0.8, -0.7])
        #expect(glyphs.map(\.verticalOrigin) == [PDFPoint(0.3, 0.9), PDFPoint(0.3, 0.85), PDFPoint(0.25, 0.8)])
    }

    // MARK: Type 3 and programs

    @Test("Type 3 widths go through /FontMatrix; glyph names give the text")
    func type3() throws {
        let square = Self.stream("50 0 0 0 40 40 d1 0 0 40 40 re f")
        let built = try Self.document(extra: [square], strings: [Array("ABCA".utf8)]) { objects in
            .dictionary([
                .type: .name("Font"), .subtype: .name("Type3"), "FontMatrix": [0.01, 0, 0, 0.01, 0, 0],
                "FontBBox": [0, 0, 40, 40], "FirstChar": 65, "LastChar": 67, "Widths": [50, 75, 100],
                "Encoding": .dictionary(["Differences": [65, .name("H22073"), .name("B"), .name("C67")]]),
                "CharProcs": .dictionary(["H22073": objects[0], "B": objects[0], "C67": objects[0]]),
                "Resources": .dictionary([:]),
            ])
        }
        let glyphs = built.font.glyphs(in: Array("ABC".utf8))
        #expect(built.font.isType3)
        #expect(built.font.fontMatrix == PDFMatrix(0.01, 0, 0, 0.01, 0, 0))
        #expect(glyphs.map(\.width) == [0.5, 0.75, 1])
        #expect(glyphs.map(\.unicode) == ["□", "B", "C"])
        #expect(built.font.type3?.charProcs.count == 3)
        #expect(built.font.type3?.fontBBox == PDFRectangle(x0: 0, y0: 0, x1: 40, y1: 40))
        try Self.expectAgreement(built.path, built.document)
    }

    @Test("The clear-text /Encoding of a Type 1 program is its built-in encoding")
    func type1BuiltInEncoding() throws {
        let custom =
            Array(
                """
                %!PS-AdobeFont-1.0: Test 001.000
                /FontName /Test def
                /Encoding 256 array
                0 1 255 {1 index exch /.notdef put} for
                dup 65 /Bee put
                dup 66 /uni263A put
                readonly def
                currentdict end
                currentfile eexec
                """.utf8) + [0x8F, 0x20, 0xDE, 0xAD]
        let names = try #require(Type1Program.encoding(in: custom, clearTextLength: nil))
        #expect(names[65] == "Bee" && names[66] == "uni263A" && names[67] == nil)

        let standard = Array("/FontName /X def /Encoding StandardEncoding def currentfile eexec".utf8)
        let standardNames = try #require(Type1Program.encoding(in: standard, clearTextLength: nil))
        #expect(standardNames[0x27] == "quoteright" && standardNames[0xAE] == "fi")

        // URW's Nimbus Sans (a PFB file) uses StandardEncoding.
        let path = "/usr/share/fonts/type1/urw-base35/NimbusSans-Regular.t1"
        if Requirement.check(Requirement.file(path), orWarn: "URW base35 fonts are not installed; Nimbus Sans not read")
        {
            let data = try #require(FileManager.default.contents(atPath: path))
            let names = try #require(Type1Program.encoding(in: Array(data), clearTextLength: nil))
            #expect(names[0x41] == "A" && names[0x60] == "quoteleft")
        }
    }

    static let nimbusRoman = "/usr/share/fonts/type1/urw-base35/NimbusRoman-Regular.t1"

    @Test(
        "An embedded Type 1 font without /Encoding uses the program's encoding",
        .enabled(if: Requirement.file(nimbusRoman), "URW base35 fonts are not installed"))
    func embeddedType1() throws {
        let data = try #require(FileManager.default.contents(atPath: Self.nimbusRoman))
        let file = PDFObject.stream(
            PDFStream(dictionary: ["Length1": .integer(data.count)], data: Array(data), compress: true))
        let widths: [PDFObject] = (32...126).map { _ in 500 }
        let built = try Self.document(extra: [file], strings: [Array("Hi `there'".utf8)]) { objects in
            .dictionary([
                .type: .name("Font"), .subtype: .name("Type1"), "BaseFont": .name("ABCDEF+NimbusRoman-Regular"),
                "FirstChar": 32, "LastChar": 126, "Widths": .array(widths),
                "FontDescriptor": .dictionary([
                    .type: .name("FontDescriptor"), "FontName": .name("NimbusRoman-Regular"), "Flags": 34,
                    "Ascent": 683, "Descent": -217, "CapHeight": 662, "ItalicAngle": 0, "StemV": 84,
                    "FontBBox": [-168, -281, 1000, 924], "FontFile": objects[0],
                ]),
            ])
        }
        #expect(built.font.program?.format == .type1)
        #expect(built.font.baseFont == "NimbusRoman-Regular")
        #expect(built.font.standardFont == nil)
        #expect(built.font.glyphName(for: 0x60) == "quoteleft")
        #expect(built.font.glyphs(in: [0x60, 0x27]).map(\.unicode) == ["‘", "’"])
        #expect(built.font.simpleEncoding?.base == nil)
        try Self.expectAgreement(built.path, built.document)
    }

    // MARK: Damage and sharing

    @Test(
        "Broken font dictionaries load with warnings",
        arguments: [
            PDFObject.dictionary([.subtype: .name("Type1")]),
            .dictionary([.subtype: .name("TrueType"), "BaseFont": .name("NoSuchFont"), "Widths": 5, "FirstChar": -3]),
            .dictionary([
                .subtype: .name("Type1"), "BaseFont": .name("Helvetica"), "Widths": [.name("x"), .null],
                "FirstChar": 300,
            ]),
            .dictionary([.subtype: .name("Type0"), "Encoding": .name("NoSuchCMap-H")]),
            .dictionary([
                .subtype: .name("Type0"), "DescendantFonts": [.dictionary(["W": [1, 2, .name("a"), [3], 4]])],
            ]),
            .dictionary([.subtype: .name("Type3"), "FontMatrix": [0, 0, 0, 0, 0, 0]]),
            .dictionary(["Subtype": .name("Bogus")]),
            .integer(7),
            .null,
        ])
    func brokenFonts(font: PDFObject) throws {
        let document = try PDFDocument(bytes: PDFBuilder().build())
        let loaded = LoadedFont.load(font, document: document)
        #expect(!loaded.warnings.isEmpty)
        let glyphs = loaded.glyphs(in: [0, 0x41, 0xFF, 0x81, 0x40, 0x20])
        #expect(!glyphs.isEmpty)
        #expect(glyphs.allSatisfy { $0.width.isFinite })
    }

    @Test("Hostile CMaps stay bounded: cycles, huge ranges, truncation")
    func hostileCMaps() throws {
        var warnings: [String] = []
        // usecmap of itself through a loader that always answers: the depth limit stops it.
        let cyclic = Array("/CMapName /Loop def /Loop usecmap 1 begincodespacerange <00> <FF> endcodespacerange".utf8)
        func loader(_ name: String, _ depth: Int) -> CMap? {
            var ignored: [String] = []
            return CMapParser.parse(cyclic, depth: depth, warnings: &ignored, loader: loader)
        }
        let cmap = CMapParser.parse(cyclic, warnings: &warnings, loader: loader)
        #expect(cmap.cid(for: 5, length: 1) == nil)
        // A range over all four-byte codes maps without expanding.
        let huge = Array(
            """
            1 begincodespacerange <00000000> <FFFFFFFF> endcodespacerange
            1 begincidrange <00000000> <FFFFFFFF> 0 endcidrange
            1 beginbfrange <00000000> <FFFFFFFF> <0041> endbfrange
            """.utf8)
        let big = CMapParser.parse(huge, warnings: &warnings) { _, _ in nil }
        #expect(big.cid(for: 0x1234_5678, length: 4) == 0x1234_5678)
        #expect(big.nextCode(in: [1, 2, 3, 4, 5], at: 0).length == 4)
        #expect(big.nextCode(in: [1, 2], at: 0).length == 2)
        // Every prefix of a valid CMap parses.
        let text = Array(
            """
            /CIDInit /ProcSet findresource begin 12 dict begin begincmap
            /CIDSystemInfo << /Registry (Adobe) /Ordering (Japan1) /Supplement 2 >> def
            2 begincodespacerange <00> <80> <8140> <9FFC> endcodespacerange
            1 begincidrange <20> <7E> 1 endcidrange 1 begincidchar <8150> 500 endcidchar
            2 beginbfrange <41> <43> [<0058> <D83D>] <61> <62> <D83DDE01> endbfrange
            endcmap
            """.utf8)
        for length in 0...text.count {
            var ignored: [String] = []
            let prefix = CMapParser.parse(Array(text[..<length]), warnings: &ignored) { _, _ in nil }
            _ = prefix.nextCode(in: [0x81, 0x50, 0x41], at: 0)
            _ = prefix.text(for: 0x42)
        }
    }

    @Test("A font cache loads each referenced font once, from many tasks")
    func cacheSharing() async throws {
        let built = try Self.document(strings: [Array("x".utf8)]) { _ in
            .dictionary([.type: .name("Font"), .subtype: .name("Type1"), "BaseFont": .name("Helvetica")])
        }
        let cache = FontCache(document: built.document)
        let reference = PDFObject.reference(
            try #require(built.document.pages[0].resources?.dictionary("Font")?.reference("F1")))
        let identities = await withTaskGroup(of: ObjectIdentifier.self) { group in
            for _ in 0..<16 { group.addTask { ObjectIdentifier(cache.font(reference)) } }
            var all = Set<ObjectIdentifier>()
            for await identity in group { all.insert(identity) }
            return all
        }
        #expect(identities.count == 1)
    }
}
