import Foundation
import PDFCore
import PDFFonts
import PDFTestSupport
import Testing

/// A system TrueType font (DejaVu Sans through fontconfig) made into the font objects of test
/// pages: subsets with the `cmap` a simple TrueType font needs, CIDFontType2 programs, widths.
struct SubsetSource {
    let font: TrueTypeFile

    /// The characters the test pages draw with it.
    static let sample = "Sphinx αβπ €é"

    /// Whether ``load(family:)`` finds a font (`Requirement.trueTypeFont` looks for it likewise).
    static var installed: Bool { Requirement.trueTypeFont(covering: sample, family: "DejaVu Sans") }

    /// DejaVu Sans (or whatever TrueType font fontconfig gives for it); nil when there is none.
    static func load(family: String = "DejaVu Sans") -> SubsetSource? {
        guard let file = SystemFonts.font(covering: sample, family: family),
            let bytes = FileManager.default.contents(atPath: file.path),
            let font = try? TrueTypeFile(bytes: Array(bytes), index: file.index), font.outlineFormat == .trueType
        else { return nil }
        return SubsetSource(font: font)
    }

    func glyph(_ scalar: Unicode.Scalar) -> Int { font.characterMap.glyph(for: scalar) }

    /// The advance of `glyph` in 1/1000 em.
    func width(ofGlyph glyph: Int) -> Int {
        glyph < font.advanceWidths.count ? Int(font.advanceWidths[glyph]) * 1000 / font.unitsPerEm : 0
    }

    /// A subset program with `glyphs` (glyph ids kept) and, when given, a `cmap` table.
    func program(glyphs: Set<Int>, cmap: [UInt8]? = nil) throws -> [UInt8] {
        let subset = try TrueTypeSubsetter(font: font).subset(keeping: glyphs)
        guard let cmap else { return subset }
        var tables = Self.tables(of: subset)
        tables.append(("cmap", cmap))
        return TrueTypeSubsetter.assemble(tables.sorted { $0.0 < $1.0 })
    }

    /// The tables of an sfnt file (its table directory, OpenType "Organization of an OpenType font").
    static func tables(of bytes: [UInt8]) -> [(FontTableTag, [UInt8])] {
        func u32(_ at: Int) -> Int {
            Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
        }
        let count = Int(bytes[4]) << 8 | Int(bytes[5])
        return (0..<count).map { index in
            let record = 12 + 16 * index
            let (offset, length) = (u32(record + 8), u32(record + 12))
            return (FontTableTag(UInt32(u32(record))), Array(bytes[offset..<offset + length]))
        }
    }

    /// A `cmap` with one subtable: format 4 (segments of one code each) for platform 3, format 6
    /// (a trimmed table) for platform 1.
    static func cmap(platform: UInt16, encoding: UInt16, _ mapping: [UInt32: Int]) -> [UInt8] {
        var table: [UInt8] = []
        func put16(_ value: Int) { table += [UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)] }
        let codes = mapping.keys.sorted()
        var subtable: [UInt8] = []
        swap(&table, &subtable)
        if platform == 1 {
            let first = Int(codes.first ?? 0)
            let count = Int(codes.last ?? 0) - first + 1
            put16(6)
            put16(10 + 2 * count)
            put16(0)
            put16(first)
            put16(count)
            for code in first..<(first + count) { put16(mapping[UInt32(code)] ?? 0) }
        } else {
            let segments = codes.map { (Int($0), mapping[$0]!) } + [(0xFFFF, 0)]
            let count = segments.count
            var power = 1
            var selector = 0
            while power * 2 <= count {
                power *= 2
                selector += 1
            }
            put16(4)
            put16(16 + 8 * count)
            put16(0)
            put16(2 * count)
            put16(2 * power)
            put16(selector)
            put16(2 * count - 2 * power)
            for (code, _) in segments { put16(code) }
            put16(0)
            for (code, _) in segments { put16(code) }
            for (code, glyph) in segments { put16(code == 0xFFFF ? 1 : (glyph - code) & 0xFFFF) }
            for _ in segments { put16(0) }
        }
        swap(&table, &subtable)
        put16(0)
        put16(1)
        put16(Int(platform))
        put16(Int(encoding))
        table += [0, 0, 0, 12]
        return table + subtable
    }

    /// A font descriptor (§9.8) for the font, naming `file` as `/FontFile2` when given.
    func descriptor(name: String, flags: Int, file: Int?) -> String {
        let scale = 1000.0 / Double(font.unitsPerEm)
        let box = font.boundingBox
        let bbox = [box.xMin, box.yMin, box.xMax, box.yMax].map { String(Int(Double($0) * scale)) }
        return
            "<< /Type /FontDescriptor /FontName /\(name) /Flags \(flags) /FontBBox [\(bbox.joined(separator: " "))] /ItalicAngle 0 /Ascent \(Int(Double(font.ascender) * scale)) /Descent \(Int(Double(font.descender) * scale)) /CapHeight 729 /StemV 80 \(file.map { "/FontFile2 \($0) 0 R" } ?? "") >>"
    }
}

/// Objects of a test page, numbered from 5 as ``HandPage`` numbers them.
struct PageObjects {
    var objects: [HandPage.Object] = []

    mutating func add(_ body: String) -> Int {
        objects.append(.body(body))
        return 4 + objects.count
    }

    mutating func add(stream dictionary: String, _ data: [UInt8]) -> Int {
        objects.append(.stream(dictionary, data))
        return 4 + objects.count
    }
}

extension [UInt8] {
    /// Upper-case hexadecimal, for `<…>` strings.
    var hex: String { map { String($0, radix: 16, uppercase: true) }.map { $0.count == 1 ? "0" + $0 : $0 }.joined() }
}

/// Embedded TrueType programs (subsets of a system font) as simple fonts, through each of the
/// glyph selections of ISO 32000-2 §9.6.5.4, and as CIDFontType2 fonts (§9.7.4), against MuPDF.
@Suite("Embedded TrueType text against MuPDF")
struct TextEmbeddedFontTests {
    static let text = "Sphinx of black quartz, judge my vow 0123!"

    /// The codes of `text` in WinAnsiEncoding (ASCII, plus é and €), as a literal string body.
    static func literal(_ text: String) -> String {
        text.unicodeScalars.map { scalar in
            switch scalar {
            case "é": "\\351"
            case "€": "\\200"
            case "(", ")", "\\": "\\" + String(scalar)
            default: String(scalar)
            }
        }.joined()
    }

    @Test(
        "simple TrueType subsets: (3,1) by Unicode, Differences, (3,0) symbolic by code, (1,0) by MacRoman code",
        .enabled(if: SubsetSource.installed, "no TrueType font covering its text (DejaVu Sans) through fontconfig"))
    func simpleFonts() throws {
        let source = try #require(SubsetSource.load())
        var objects = PageObjects()
        var resources = ""
        var content = "BT\n"
        let latin = Self.text + " é€ Q="
        let greek: [UInt8: Unicode.Scalar] = [0x41: "α", 0x42: "β", 0x43: "π"]
        // Widths of codes 32–255 under WinAnsiEncoding with A, B, C replaced by Greek.
        func scalar(_ code: Int) -> Unicode.Scalar? {
            if let greek = greek[UInt8(code)] { return greek }
            if code == 0xE9 { return "é" }
            if code == 0x80 { return "€" }
            return (32..<127).contains(code) ? Unicode.Scalar(UInt8(code)) : nil
        }
        let widths = (32...255).map { code in scalar(code).map { source.width(ofGlyph: source.glyph($0)) } ?? 0 }
        let widthArray = "/FirstChar 32 /LastChar 255 /Widths [\(widths.map(String.init).joined(separator: " "))]"
        let glyphs = Set(latin.unicodeScalars.map(source.glyph) + greek.values.map(source.glyph))

        // 1. Non-symbolic, (3,1) cmap, WinAnsiEncoding with Differences: codes → names → Unicode.
        let unicodeMap = Dictionary(
            (latin.unicodeScalars + greek.values).map { ($0.value, source.glyph($0)) }, uniquingKeysWith: { a, _ in a })
        var file = objects.add(
            stream: "",
            try source.program(glyphs: glyphs, cmap: SubsetSource.cmap(platform: 3, encoding: 1, unicodeMap)))
        var descriptor = objects.add(source.descriptor(name: "AAAAAA+DejaVuSans", flags: 32, file: file))
        resources +=
            "/T1 << /Type /Font /Subtype /TrueType /BaseFont /AAAAAA+DejaVuSans \(widthArray) /Encoding << /Type /Encoding /BaseEncoding /WinAnsiEncoding /Differences [65 /alpha /beta /pi] >> /FontDescriptor \(descriptor) 0 R >> "
        content += "/T1 15 Tf 1 0 0 1 10 220 Tm (\(Self.literal(latin))) Tj 0 -18 Td (ABC = alpha beta pi) Tj\n"

        // 2. Symbolic, (3,0) cmap at 0xF000 + code, no /Encoding: codes select glyphs directly.
        let symbolMap = Dictionary(
            uniqueKeysWithValues: (32..<127).map { (UInt32(0xF000 + $0), source.glyph(Unicode.Scalar(UInt8($0)))) })
        file = objects.add(
            stream: "", try source.program(glyphs: glyphs, cmap: SubsetSource.cmap(platform: 3, encoding: 0, symbolMap))
        )
        descriptor = objects.add(source.descriptor(name: "BBBBBB+DejaVuSans", flags: 4, file: file))
        let asciiWidths = (32..<127).map { String(source.width(ofGlyph: source.glyph(Unicode.Scalar(UInt8($0))))) }
        resources +=
            "/T2 << /Type /Font /Subtype /TrueType /BaseFont /BBBBBB+DejaVuSans /FirstChar 32 /LastChar 126 /Widths [\(asciiWidths.joined(separator: " "))] /FontDescriptor \(descriptor) 0 R >> "
        content += "/T2 15 Tf 1 0 0 1 10 170 Tm (\(Self.literal(Self.text))) Tj\n"

        // 3. Non-symbolic, only a (1,0) cmap: names → MacRoman codes (é is 0x8E there).
        var macMap = Dictionary(
            uniqueKeysWithValues: (32..<127).map { (UInt32($0), source.glyph(Unicode.Scalar(UInt8($0)))) })
        macMap[0x8E] = source.glyph("é")
        file = objects.add(
            stream: "", try source.program(glyphs: glyphs, cmap: SubsetSource.cmap(platform: 1, encoding: 0, macMap)))
        descriptor = objects.add(source.descriptor(name: "CCCCCC+DejaVuSans", flags: 32, file: file))
        resources +=
            "/T3 << /Type /Font /Subtype /TrueType /BaseFont /CCCCCC+DejaVuSans \(widthArray) /Encoding /WinAnsiEncoding /FontDescriptor \(descriptor) 0 R >> "
        content += "/T3 15 Tf 1 0 0 1 10 130 Tm (\(Self.literal(Self.text + " é"))) Tj\n"
        // Larger, rotated and stroked, so outlines (not just blobs) are compared.
        content += "/T1 28 Tf 2 Tr 0.5 w 0 0 1 RG 0.9 0.8 0 rg 0.98 0.17 -0.17 0.98 20 40 Tm (Quartz ABC) Tj 0 Tr\n"
        content += "ET"
        let page = TextPage(
            width: 400, height: 250, content: content, resources: "<< /Font << \(resources) >> >>",
            objects: objects.objects)
        try Fidelity.expectMatch(page.rendered(), label: "simple TrueType")
        try Fidelity.expectMatch(page.rendered(dpi: 150), label: "simple TrueType at 150 dpi")
    }

    @Test(
        "CIDFontType2 with Identity-H, a /CIDToGIDMap /Identity and a /CIDToGIDMap stream, /W and /DW",
        .enabled(if: SubsetSource.installed, "no TrueType font covering its text (DejaVu Sans) through fontconfig"))
    func cidFonts() throws {
        let source = try #require(SubsetSource.load())
        let text = Self.text + " αβπ €é"
        let glyphs = text.unicodeScalars.map(source.glyph)
        var objects = PageObjects()
        let file = objects.add(stream: "/Length1 0", try source.program(glyphs: Set(glyphs)))
        let descriptor = objects.add(source.descriptor(name: "DDDDDD+DejaVuSans", flags: 4, file: file))

        // Identity: codes are glyph ids; /W lists each glyph as `c [w]`.
        let identityWidths = Set(glyphs).sorted().map { "\($0) [\(source.width(ofGlyph: $0))]" }
        let identity = objects.add(
            "<< /Type /Font /Subtype /CIDFontType2 /BaseFont /DDDDDD+DejaVuSans /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /FontDescriptor \(descriptor) 0 R /DW 1000 /W [\(identityWidths.joined(separator: " "))] /CIDToGIDMap /Identity >>"
        )
        // A stream: CID n (n = 1, 2, …, one per distinct scalar) → its glyph, two bytes each;
        // widths as a `first last w` range for the space and a `c [w …]` run for the others.
        let distinct = Array(Set(text.unicodeScalars)).sorted { $0.value < $1.value }
        var map: [UInt8] = [0, 0]
        for scalar in distinct { map += [UInt8(source.glyph(scalar) >> 8), UInt8(source.glyph(scalar) & 0xFF)] }
        let cidOf = Dictionary(uniqueKeysWithValues: distinct.enumerated().map { ($1, $0 + 1) })
        let runWidths = distinct.dropFirst().map { String(source.width(ofGlyph: source.glyph($0))) }
        let mapStream = objects.add(stream: "", map)
        let streamed = objects.add(
            "<< /Type /Font /Subtype /CIDFontType2 /BaseFont /DDDDDD+DejaVuSans /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /FontDescriptor \(descriptor) 0 R /DW 500 /W [1 1 \(source.width(ofGlyph: source.glyph(distinct[0]))) 2 [\(runWidths.joined(separator: " "))]] /CIDToGIDMap \(mapStream) 0 R >>"
        )
        let resources =
            "<< /Font << /C1 << /Type /Font /Subtype /Type0 /BaseFont /DDDDDD+DejaVuSans /Encoding /Identity-H /DescendantFonts [\(identity) 0 R] >> /C2 << /Type /Font /Subtype /Type0 /BaseFont /DDDDDD+DejaVuSans /Encoding /Identity-H /DescendantFonts [\(streamed) 0 R] >> >> >>"
        func codes(_ values: [Int]) -> String { values.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }.hex }
        let byGlyph = codes(glyphs)
        let byCID = codes(text.unicodeScalars.map { cidOf[$0]! })
        let content = """
            BT /C1 15 Tf 10 210 Td <\(byGlyph)> Tj 0 -24 Td 3 Tw 1 Tc <\(byGlyph)> Tj ET
            BT /C2 15 Tf 10 150 Td <\(byCID)> Tj 0 -24 Td [<\(byCID.prefix(24))> -900 <\(byCID.prefix(12))>] TJ ET
            BT /C2 30 Tf 1 Tr 0.6 w 0.9 0.3 -0.3 0.9 30 30 Tm <\(byCID)> Tj ET
            """
        let page = TextPage(width: 400, height: 250, content: content, resources: resources, objects: objects.objects)
        try Fidelity.expectMatch(page.rendered(), label: "CIDFontType2")
        try Fidelity.expectMatch(page.rendered(dpi: 150), label: "CIDFontType2 at 150 dpi")
    }
}
