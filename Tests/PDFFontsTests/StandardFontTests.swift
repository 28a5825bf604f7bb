import Foundation
import PDFAuthoring
import PDFCore
import Testing

@testable import PDFFonts

@Suite("Standard 14 fonts: metrics, encodings, names, font dictionaries")
struct StandardFontTests {
    // MARK: Metrics

    @Test(
        "widths of single codes are Adobe's",
        arguments: [
            (StandardFont.Name.helvetica, UInt8(ascii: " "), 278.0),
            (.helvetica, UInt8(ascii: "A"), 667),
            (.helvetica, 0x80, 556),  // Euro
            (.helvetica, 0xA0, 278),  // WinAnsi's second space
            (.helvetica, 0xAD, 333),  // WinAnsi's second hyphen
            (.helveticaBold, UInt8(ascii: "A"), 722),
            (.timesRoman, UInt8(ascii: "W"), 944),
            (.timesBoldItalic, UInt8(ascii: "g"), 500),
            (.symbol, 0x61, 631),  // alpha
            (.zapfDingbats, 0x20, 278),  // space
            (.zapfDingbats, 0x34, 846),  // a20 ✔ (the AFM's WX; 760 is a183 at 0xF7)
            (.zapfDingbats, 0x6C, 791),  // a71 ●
            (.helvetica, 0x7F, 0),  // undefined in WinAnsiEncoding
            (.helvetica, 0x81, 0),
            (.symbol, 0x80, 0),  // no glyph
        ])
    func codeWidths(font: StandardFont.Name, code: UInt8, width: Double) {
        #expect(StandardFont(font).width(of: code) == width)
    }

    @Test(
        "every Courier glyph is 600 units wide",
        arguments: [StandardFont.Name.courier, .courierBold, .courierOblique, .courierBoldOblique])
    func courierWidths(font: StandardFont.Name) {
        let courier = StandardFont(font)
        for code in UInt8.min...UInt8.max {
            let expected = WinAnsiEncoding.scalar(for: code) == nil ? 0.0 : 600
            #expect(courier.width(of: code) == expected, "code \(code)")
        }
        #expect(courier.width(of: "Hello, world!") == 13 * 600)
    }

    static let textWidthCases: [(StandardFont.Name, String, Double)] = [
        (.helvetica, "Hello", 2278),  // 722 + 556 + 222 + 222 + 556
        (.helvetica, "Café €", 2946),  // 722 + 556 + 278 + 556 + 278 + 556
        (.timesRoman, "Wow", 2166),  // 944 + 500 + 722
        (.helveticaBold, "", 0),
        (.symbol, "αβγ", 1591),  // 631 + 549 + 411
        (.zapfDingbats, "✔ ✘", 1801),  // 846 + 278 + 677
    ]

    @Test("text widths are the sums of their codes' widths", arguments: textWidthCases)
    func textWidths(font: StandardFont.Name, text: String, width: Double) {
        #expect(StandardFont(font).width(of: text) == width)
    }

    @Test(
        "a width always equals the widths of the codes encode writes, also for characters without a glyph",
        arguments: StandardFont.Name.allCases)
    func widthMatchesEncoding(font: StandardFont.Name) {
        let standard = StandardFont(font)
        for text in ["Straße → 東京 😀", "αβγ ✔", "e\u{301}t\u{E9}", "\t\n", "👨‍👩‍👧"] {
            let codes = standard.encode(text)
            #expect(standard.width(of: text) == codes.reduce(0) { $0 + standard.width(of: $1) }, "\(text)")
        }
    }

    @Test("the font descriptor values are Adobe's, with flags per ISO 32000-2 Table 121")
    func descriptors() {
        let helvetica = StandardFont(.helvetica)
        #expect(helvetica.postScriptName == "Helvetica")
        #expect((helvetica.ascent, helvetica.descent, helvetica.capHeight, helvetica.xHeight) == (718, -207, 718, 523))
        #expect(helvetica.stemV == 88)
        #expect(helvetica.italicAngle == 0)
        #expect(helvetica.bbox == PDFRectangle(x0: -166, y0: -225, x1: 1000, y1: 931))
        #expect(StandardFont(.timesItalic).italicAngle == -15.5)
        #expect(StandardFont(.courierBold).stemV == 106)
        #expect(StandardFont(.symbol).bbox == PDFRectangle(x0: -180, y0: -293, x1: 1090, y1: 1010))
        #expect(StandardFont(.symbol).ascent == 1010)
        #expect(StandardFont(.zapfDingbats).descent == -143)
        let flags: [StandardFont.Name: Int] = [
            .courier: 33, .courierBoldOblique: 97, .helvetica: 32, .helveticaOblique: 96,
            .timesRoman: 34, .timesBoldItalic: 98, .symbol: 4, .zapfDingbats: 4,
        ]
        for (name, value) in flags { #expect(StandardFont(name).flags == value, "\(name)") }
    }

    @Test("the generated tables are in Name.allCases order")
    func tableOrder() {
        #expect(StandardFontData.metrics.count == StandardFont.Name.allCases.count)
        #expect(StandardFontData.widths.count == 256 * StandardFont.Name.allCases.count)
        for (index, name) in StandardFont.Name.allCases.enumerated() {
            #expect(name.dataIndex == index)
            #expect(StandardFontData.metrics[index].postScriptName == name.rawValue)
        }
    }

    @Test("a code has a glyph exactly when the font's encoding defines it", arguments: StandardFont.Name.allCases)
    func glyphsMatchEncoding(font: StandardFont.Name) {
        let standard = StandardFont(font)
        for code in UInt8.min...UInt8.max {
            let defined = standard.encoding.scalar(for: code) != nil
            #expect((standard.width(of: code) > 0) == defined, "\(font.rawValue) code \(code)")
        }
    }

    // MARK: Encoding

    @Test("text fonts write WinAnsiEncoding and replace characters without a glyph with '?'")
    func encodeWinAnsi() {
        let helvetica = StandardFont(.helvetica)
        #expect(helvetica.encode("Café €") == [0x43, 0x61, 0x66, 0xE9, 0x20, 0x80])
        #expect(helvetica.canEncode("Café € „Ÿ“ – ½ naïve"))
        #expect(helvetica.encode("Cafe\u{301}") == [0x43, 0x61, 0x66, 0xE9])  // composed
        #expect(helvetica.canEncode("Cafe\u{301}"))
        #expect(helvetica.encode("a→b") == Array("a?b".utf8))
        #expect(helvetica.encode("👨‍👩‍👧!") == Array("?!".utf8))  // one '?' per character
        #expect(!helvetica.canEncode("αβγ"))
        #expect(!helvetica.canEncode("tab\there"))
        #expect(helvetica.canEncode(""))
    }

    @Test("Symbol and ZapfDingbats write their built-in codes and leave out characters without a glyph")
    func encodeSymbolic() {
        let symbol = StandardFont(.symbol)
        #expect(symbol.canEncode("αβγ"))
        #expect(symbol.encode("αβγ") == [0x61, 0x62, 0x67])
        #expect(symbol.encode("ΔΩμ ∆Ωµ") == [0x44, 0x57, 0x6D, 0x20, 0x44, 0x57, 0x6D])
        #expect(!symbol.canEncode("abc"))  // Latin letters are not in Symbol
        #expect(symbol.encode("αXβ") == [0x61, 0x62])
        let dingbats = StandardFont(.zapfDingbats)
        #expect(dingbats.encode("✔●■◆★✘") == [0x34, 0x6C, 0x6E, 0x75, 0x48, 0x38])
        #expect(!dingbats.canEncode("x"))
    }

    @Test("WinAnsiEncoding maps 0x80…0x9F to the typographic characters of code page 1252")
    func winAnsiHighCodes() {
        let expected: [Unicode.Scalar?] = [
            "€", nil, "‚", "ƒ", "„", "…", "†", "‡", "ˆ", "‰", "Š", "‹", "Œ", nil, "Ž", nil,
            nil, "‘", "’", "“", "”", "•", "–", "—", "˜", "™", "š", "›", "œ", nil, "ž", "Ÿ",
        ]
        for (offset, scalar) in expected.enumerated() {
            let code = UInt8(0x80 + offset)
            #expect(WinAnsiEncoding.scalar(for: code) == scalar, "code \(code)")
            if let scalar { #expect(WinAnsiEncoding.code(for: scalar) == code) }
        }
        #expect(WinAnsiEncoding.scalar(for: 0xA0) == "\u{A0}")
        #expect(WinAnsiEncoding.scalar(for: 0xAD) == "\u{AD}")
        #expect(WinAnsiEncoding.scalar(for: 0x41) == "A")
        #expect(WinAnsiEncoding.scalar(for: 0x0A) == nil)
        #expect(WinAnsiEncoding.scalar(for: 0x7F) == nil)
        #expect(WinAnsiEncoding.code(for: "\u{80}") == nil)
        #expect(WinAnsiEncoding.code(for: "\u{0}") == nil)
        #expect(WinAnsiEncoding.code(for: "α") == nil)
    }

    @Test(
        "every defined code of each encoding decodes and encodes back to itself",
        arguments: [SimpleEncoding.winAnsi, .symbol, .zapfDingbats])
    func roundTrip(encoding: SimpleEncoding) {
        var defined = 0
        for code in UInt8.min...UInt8.max {
            guard let scalar = encoding.scalar(for: code) else { continue }
            defined += 1
            #expect(encoding.code(for: scalar) == code, "code \(code)")
        }
        // WinAnsi: 95 ASCII + 27 in 0x80…0x9F + 96 Latin-1; Symbol: 189 glyphs besides the unencoded
        // apple; ZapfDingbats: space and 201 dingbats.
        let counts: [SimpleEncoding: Int] = [.winAnsi: 218, .symbol: 189, .zapfDingbats: 202]
        #expect(defined == counts[encoding])
    }

    @Test(
        "the built-in encodings give the Unicode values of the Adobe Glyph List",
        arguments: [
            (SimpleEncoding.zapfDingbats, UInt8(0x34), Unicode.Scalar(0x2714)!),  // ✔
            (.zapfDingbats, 0x6C, Unicode.Scalar(0x25CF)!),  // ●
            (.zapfDingbats, 0x6E, Unicode.Scalar(0x25A0)!),  // ■
            (.zapfDingbats, 0x75, Unicode.Scalar(0x25C6)!),  // ◆
            (.zapfDingbats, 0x48, Unicode.Scalar(0x2605)!),  // ★
            (.zapfDingbats, 0x38, Unicode.Scalar(0x2718)!),  // ✘
            (.zapfDingbats, 0x20, " "),
            (.zapfDingbats, 0xAC, Unicode.Scalar(0x2460)!),  // ①
            (.symbol, 0x61, Unicode.Scalar(0x03B1)!),  // α
            (.symbol, 0x44, Unicode.Scalar(0x0394)!),  // Δ
            (.symbol, 0x57, Unicode.Scalar(0x03A9)!),  // Ω
            (.symbol, 0x6D, Unicode.Scalar(0x03BC)!),  // μ
            (.symbol, 0x22, Unicode.Scalar(0x2200)!),  // ∀
            (.symbol, 0xA0, Unicode.Scalar(0x20AC)!),  // €
            (.symbol, 0x31, "1"),
        ])
    func builtInEncodings(encoding: SimpleEncoding, code: UInt8, scalar: Unicode.Scalar) {
        #expect(encoding.scalar(for: code) == scalar)
        #expect(encoding.code(for: scalar) == code)
    }

    @Test("Symbol also encodes the sign forms the Adobe Glyph List gives for Delta, Omega and mu")
    func symbolAliases() {
        #expect(SymbolEncoding.code(for: "\u{2206}") == 0x44)
        #expect(SymbolEncoding.code(for: "\u{2126}") == 0x57)
        #expect(SymbolEncoding.code(for: "\u{B5}") == 0x6D)
        #expect(SymbolEncoding.code(for: "a") == nil)
    }

    // MARK: Names

    @Test(
        "base font names and the aliases readers map to the standard 14",
        arguments: [
            ("Helvetica", StandardFont.Name.helvetica),
            ("Helvetica-BoldOblique", .helveticaBoldOblique),
            ("Times-Roman", .timesRoman),
            ("ZapfDingbats", .zapfDingbats),
            ("Symbol", .symbol),
            ("Arial", .helvetica),
            ("ArialMT", .helvetica),
            ("Arial,Bold", .helveticaBold),
            ("Arial-BoldMT", .helveticaBold),
            ("Arial,Italic", .helveticaOblique),
            ("Arial-ItalicMT", .helveticaOblique),
            ("Arial,BoldItalic", .helveticaBoldOblique),
            ("Arial-BoldItalicMT", .helveticaBoldOblique),
            ("Arial_Bold", .helveticaBold),
            ("TimesNewRoman", .timesRoman),
            ("TimesNewRomanPSMT", .timesRoman),
            ("TimesNewRoman,Bold", .timesBold),
            ("TimesNewRomanPS-BoldMT", .timesBold),
            ("TimesNewRoman,Italic", .timesItalic),
            ("TimesNewRomanPS-ItalicMT", .timesItalic),
            ("TimesNewRoman,BoldItalic", .timesBoldItalic),
            ("TimesNewRomanPS-BoldItalicMT", .timesBoldItalic),
            ("Times New Roman,Bold", .timesBold),
            ("Times", .timesRoman),
            ("Times,Italic", .timesItalic),
            ("CourierNew", .courier),
            ("CourierNewPSMT", .courier),
            ("CourierNew,Bold", .courierBold),
            ("CourierNewPS-BoldMT", .courierBold),
            ("CourierNew,Italic", .courierOblique),
            ("CourierNewPS-ItalicMT", .courierOblique),
            ("CourierNew,BoldItalic", .courierBoldOblique),
            ("CourierNewPS-BoldItalicMT", .courierBoldOblique),
            ("Courier,Bold", .courierBold),
            ("Helvetica,Bold", .helveticaBold),
            ("Helvetica,Italic", .helveticaOblique),
            ("Helvetica-Italic", .helveticaOblique),
            ("Helvetica-BoldItalic", .helveticaBoldOblique),
            ("helvetica", .helvetica),
            ("ABCDEF+Helvetica", .helvetica),
            ("XYZABC+Arial-BoldMT", .helveticaBold),
            ("ABCDEF+Times-Italic", .timesItalic),
        ])
    func baseFontAliases(baseFont: String, name: StandardFont.Name) {
        #expect(StandardFont(baseFont: baseFont)?.name == name)
    }

    @Test(
        "other fonts and styles with other metrics are not standard fonts",
        arguments: [
            "", "Calibri", "ArialNarrow", "Arial-Black", "Arial,Narrow", "Helvetica-Light", "Helvetica-Condensed",
            "TimesNewRomanPS-SemiboldMT", "Courier-Light", "ZapfDingbats-Bold", "Wingdings", "abcdef+Helvetica",
            "ABCDEF+", "Helv",
        ])
    func notStandard(baseFont: String) {
        #expect(StandardFont(baseFont: baseFont) == nil)
    }

    @Test(
        "the AcroForm default resource names stand for the standard fonts",
        arguments: [
            ("Helv", StandardFont.Name.helvetica), ("HeBo", .helveticaBold), ("HeOb", .helveticaOblique),
            ("HeBO", .helveticaBoldOblique), ("TiRo", .timesRoman), ("TiBo", .timesBold), ("TiIt", .timesItalic),
            ("TiBI", .timesBoldItalic), ("Cour", .courier), ("CoBo", .courierBold), ("CoOb", .courierOblique),
            ("CoBO", .courierBoldOblique), ("Symb", .symbol), ("ZaDb", .zapfDingbats),
        ])
    func resourceNames(resourceName: String, name: StandardFont.Name) {
        #expect(StandardFont(resourceName: resourceName)?.name == name)
    }

    @Test("resource names are case-sensitive and not base font names")
    func unknownResourceNames() {
        #expect(StandardFont(resourceName: "helv") == nil)
        #expect(StandardFont(resourceName: "HEBO") == nil)
        #expect(StandardFont(resourceName: "Helvetica") == nil)
        #expect(StandardFont(resourceName: "F1") == nil)
    }

    // MARK: Font dictionary

    @Test("the font dictionary names the font and WinAnsiEncoding, and adds no objects")
    func fontDictionary() throws {
        var added = 0
        let add: (PDFObject) -> PDFReference = { _ in
            added += 1
            return PDFReference(1)
        }
        let helvetica = try StandardFont(.helveticaBold).fontDictionary(adding: add)
        #expect(
            helvetica == [
                "Type": .name("Font"), "Subtype": .name("Type1"), "BaseFont": .name("Helvetica-Bold"),
                "Encoding": .name("WinAnsiEncoding"),
            ])
        let dingbats = try StandardFont(.zapfDingbats).fontDictionary(adding: add)
        #expect(dingbats == ["Type": .name("Font"), "Subtype": .name("Type1"), "BaseFont": .name("ZapfDingbats")])
        let symbol = try StandardFont(.symbol).fontDictionary(adding: add)
        #expect(symbol["Encoding"] == nil)
        #expect(added == 0)
    }

    // MARK: Oracle

    /// The URW base35 clone of each standard font (Debian's fonts-urw-base35), metric-compatible by design.
    static let urwDirectory = "/usr/share/fonts/type1/urw-base35"
    static let urwFiles: [StandardFont.Name: String] = [
        .courier: "NimbusMonoPS-Regular", .courierBold: "NimbusMonoPS-Bold",
        .courierOblique: "NimbusMonoPS-Italic", .courierBoldOblique: "NimbusMonoPS-BoldItalic",
        .helvetica: "NimbusSans-Regular", .helveticaBold: "NimbusSans-Bold",
        .helveticaOblique: "NimbusSans-Italic", .helveticaBoldOblique: "NimbusSans-BoldItalic",
        .timesRoman: "NimbusRoman-Regular", .timesBold: "NimbusRoman-Bold",
        .timesItalic: "NimbusRoman-Italic", .timesBoldItalic: "NimbusRoman-BoldItalic",
        .symbol: "StandardSymbolsPS", .zapfDingbats: "D050000L",
    ]

    /// The glyph names of WinAnsiEncoding 0x20…0xFF (ISO 32000-2 Annex D.2; `-` where undefined), with
    /// the second space at 0xA0 and the second hyphen at 0xAD.
    static let winAnsiGlyphNames: [String] = [
        "space exclam quotedbl numbersign dollar percent ampersand quotesingle",  // 0x20
        "parenleft parenright asterisk plus comma hyphen period slash",  // 0x28
        "zero one two three four five six seven",  // 0x30
        "eight nine colon semicolon less equal greater question",  // 0x38
        "at A B C D E F G",  // 0x40
        "H I J K L M N O",  // 0x48
        "P Q R S T U V W",  // 0x50
        "X Y Z bracketleft backslash bracketright asciicircum underscore",  // 0x58
        "grave a b c d e f g",  // 0x60
        "h i j k l m n o",  // 0x68
        "p q r s t u v w",  // 0x70
        "x y z braceleft bar braceright asciitilde -",  // 0x78
        "Euro - quotesinglbase florin quotedblbase ellipsis dagger daggerdbl",  // 0x80
        "circumflex perthousand Scaron guilsinglleft OE - Zcaron -",  // 0x88
        "- quoteleft quoteright quotedblleft quotedblright bullet endash emdash",  // 0x90
        "tilde trademark scaron guilsinglright oe - zcaron Ydieresis",  // 0x98
        "space exclamdown cent sterling currency yen brokenbar section",  // 0xA0
        "dieresis copyright ordfeminine guillemotleft logicalnot hyphen registered macron",  // 0xA8
        "degree plusminus twosuperior threesuperior acute mu paragraph periodcentered",  // 0xB0
        "cedilla onesuperior ordmasculine guillemotright onequarter onehalf threequarters questiondown",  // 0xB8
        "Agrave Aacute Acircumflex Atilde Adieresis Aring AE Ccedilla",  // 0xC0
        "Egrave Eacute Ecircumflex Edieresis Igrave Iacute Icircumflex Idieresis",  // 0xC8
        "Eth Ntilde Ograve Oacute Ocircumflex Otilde Odieresis multiply",  // 0xD0
        "Oslash Ugrave Uacute Ucircumflex Udieresis Yacute Thorn germandbls",  // 0xD8
        "agrave aacute acircumflex atilde adieresis aring ae ccedilla",  // 0xE0
        "egrave eacute ecircumflex edieresis igrave iacute icircumflex idieresis",  // 0xE8
        "eth ntilde ograve oacute ocircumflex otilde odieresis divide",  // 0xF0
        "oslash ugrave uacute ucircumflex udieresis yacute thorn ydieresis",  // 0xF8
    ]

    /// Codes where the URW clone legitimately differs from Adobe's font: (font, code, reason).
    static let knownDifferences: [(StandardFont.Name, UInt8, String)] = [
        // Adobe's Symbol AFM (001.008) leaves the Apple logo unencoded (C -1); URW encodes it at 0x80.
        (.symbol, 0x80, "apple")
    ]

    @Test(
        "every width matches the URW base35 clone's AFM (an independent implementation of the same metrics)",
        .enabled(
            if: FileManager.default.fileExists(atPath: urwDirectory),
            "the URW base35 AFM files are not installed (apt-get install fonts-urw-base35)"),
        arguments: StandardFont.Name.allCases)
    func widthsMatchURW(font: StandardFont.Name) throws {
        let file = try #require(Self.urwFiles[font])
        let text = try String(contentsOfFile: "\(Self.urwDirectory)/\(file).afm", encoding: .isoLatin1)
        var byName: [String: Double] = [:]
        var byCode: [Int: (name: String, width: Double)] = [:]
        for line in text.split(whereSeparator: \.isNewline) where line.hasPrefix("C ") {
            var fields: [String: String] = [:]
            for part in line.split(separator: ";") {
                let words = part.split(separator: " ")  // "C 65", "WX 667", "N A", "B 14 0 654 718"
                if words.count >= 2 { fields[String(words[0])] = String(words[1]) }
            }
            guard let code = fields["C"].flatMap({ Int($0) }), let width = fields["WX"].flatMap({ Double($0) }),
                let name = fields["N"]
            else { continue }
            byName[name] = width
            if (0...255).contains(code) { byCode[code] = (name, width) }
        }
        #expect(byName.count > 180, "\(file).afm has too few glyphs")

        let standard = StandardFont(font)
        let allowed = Set(Self.knownDifferences.filter { $0.0 == font }.map(\.1))
        var mismatches: [String] = []
        var compared = 0
        func check(_ code: UInt8, _ name: String, urw: Double?) {
            let ours = standard.width(of: code)
            if ours == urw ?? 0 {
                if urw != nil { compared += 1 }
                return
            }
            if allowed.contains(code) { return }
            let hex = "0x" + String(code, radix: 16, uppercase: true)
            mismatches.append(
                "\(font.rawValue) \(hex) \(name): ours \(ours), \(file) \(urw.map { "\($0)" } ?? "absent")")
        }
        if standard.isSymbolic {
            // The URW AFM's C codes are the font's built-in encoding, the same as Adobe's.
            for code in UInt8.min...UInt8.max {
                check(code, byCode[Int(code)]?.name ?? "-", urw: byCode[Int(code)]?.width)
            }
        } else {
            let names = Self.winAnsiGlyphNames.flatMap { $0.split(separator: " ").map(String.init) }
            #expect(names.count == 0xE0)
            for (offset, name) in names.enumerated() where name != "-" {
                check(UInt8(0x20 + offset), name, urw: byName[name])
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
        #expect(compared >= 188, "compared only \(compared) glyphs of \(font.rawValue)")
    }
}
