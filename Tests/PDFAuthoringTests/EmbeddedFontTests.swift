import Foundation
import PDFCore
import PDFTestSupport
import Testing

@testable import PDFAuthoring
@testable import PDFFonts

@Suite("EmbeddedFont: TrueType subsets with ToUnicode, checked by qpdf, poppler and MuPDF")
struct EmbeddedFontTests {
    static let dejaVuPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    static let droidPath = "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf"
    static let nimbusPath = "/usr/share/fonts/opentype/urw-base35/NimbusSans-Regular.otf"

    /// Lines of the test document: Greek, Cyrillic, Arabic, Latin with composite accented glyphs,
    /// and Old Italic from Unicode plane 1 (surrogate pairs in ToUnicode).
    static let westernLines = [
        "Ελληνικά γράμματα", "Кириллица и буквы", arabic, "Café déjà vu, naïve Œuvre", "𐌀𐌁𐌂 Old Italic",
    ]
    static let arabic = "العربية"
    static let cjkLines = ["漢字かなカナ", "日本語のテキスト"]

    /// A right-to-left line as it is drawn: its characters in visual order, left to right (there is
    /// no bidi layout below the caller; a one-direction run is simply reversed).
    static func drawn(_ line: String) -> String {
        line == arabic ? String(String.UnicodeScalarView(line.unicodeScalars.reversed())) : line
    }

    static func bytes(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02X", $0) }.joined()
    }

    /// A one-page document drawing `lines` with each font in turn (`/F0`, `/F1` …).
    static func document(_ runs: [(font: EmbeddedFont, lines: [String])]) throws -> [UInt8] {
        var builder = PDFBuilder()
        var content = "BT 14 TL 40 790 Td\n"
        var fonts = PDFDictionary()
        for (index, run) in runs.enumerated() {
            content += "/F\(index) 14 Tf\n"
            for line in run.lines { content += "<\(hex(run.font.encode(drawn(line))))> Tj T*\n" }
        }
        content += "ET\n"
        for (index, run) in runs.enumerated() {
            let dictionary = try run.font.fontDictionary(adding: { builder.add($0) })
            fonts[PDFName("F\(index)")] = .reference(builder.add(.dictionary(dictionary)))
        }
        builder.addPage(width: 595, height: 842, content: Array(content.utf8), resources: ["Font": .dictionary(fonts)])
        return builder.build()
    }

    static func write(_ bytes: [UInt8], _ name: String = "fonts.pdf") throws -> String {
        let path = try TestPaths.temporaryDirectory("embedded-font") + "/" + name
        let writer = try AtomicFileWriter(path: path)
        try writer.write(bytes)
        try writer.commit()
        return path
    }

    /// pdffonts' rows after the header: name, type…, encoding, emb, sub, uni, object, generation.
    static func pdffontsRows(_ path: String) throws -> [[String]] {
        let result = try Oracle.run("pdffonts", [path])
        #expect(result.status == 0, "\(result.errors)")
        let lines = result.output.split(separator: "\n").map(String.init)
        guard let rule = lines.firstIndex(where: { $0.hasPrefix("---") }) else { return [] }
        return lines[(rule + 1)...].map { $0.split(separator: " ").map(String.init) }
    }

    /// The decoded `/FontFile2` or `/FontFile3` streams of a document, read back by Autograph.
    static func fontPrograms(_ bytes: [UInt8]) throws -> [[UInt8]] {
        let document = try PDFDocument(bytes: bytes)
        var programs: [[UInt8]] = []
        for number in 1..<document.trailer.int(.size)! {
            guard let descriptor = document.object(PDFReference(number)).dictionaryValue,
                descriptor.name(.type) == "FontDescriptor"
            else { continue }
            let file = descriptor["FontFile2"] ?? descriptor["FontFile3"]
            if let stream = document.resolve(file ?? .null).streamValue {
                programs.append(try stream.decodedData())
            }
        }
        return programs
    }

    // MARK: Parsing

    @Test("DejaVu Sans parses with the metrics in its head, hhea, hmtx and name tables")
    func parseDejaVu() throws {
        let font = try TrueTypeFile(bytes: Self.bytes(Self.dejaVuPath))
        #expect(font.unitsPerEm == 2048)
        #expect(font.numberOfGlyphs == 6253)
        #expect(font.outlineFormat == .trueType)
        #expect(font.postScriptName == "DejaVuSans")
        #expect(font.ascender == 1901 && font.descender == -483)
        #expect(font.boundingBox == FontBox(xMin: -2090, yMin: -948, xMax: 3673, yMax: 2524))
        // Glyph ids and advance widths as listed by the font's cmap (3,10) and hmtx.
        let expected: [(Unicode.Scalar, Int, Int)] = [
            ("A", 36, 1401), (" ", 3, 651), ("W", 58, 2025), ("g", 74, 1300), ("λ", 848, 1212),
            ("ж", 971, 1845), ("ب", 1366, 1928), ("€", 2948, 1303), ("é", 171, 1260),
        ]
        for (scalar, glyph, advance) in expected {
            #expect(font.characterMap.glyph(for: scalar) == glyph, "\(scalar)")
            #expect(font.advanceWidth(ofGlyph: glyph) == advance, "\(scalar)")
        }
        #expect(font.characterMap.glyph(for: "\u{E000}") == 0)
        #expect(font.characterMap.glyph(for: "\u{10300}") != 0)
        // "é" is a composite of "e" and the acute accent.
        #expect(try font.components(ofGlyph: 171).count == 2)

        let embedded = try EmbeddedFont(path: Self.dejaVuPath)
        #expect(embedded.postScriptName == "DejaVuSans")
        #expect(abs(embedded.width(of: "AW") - (1401 + 2025) * 1000 / 2048) < 1)
        #expect(abs(embedded.ascent - 1901 * 1000 / 2048) < 0.001)
        #expect(abs(embedded.descent - -483 * 1000 / 2048) < 0.001)
        // OS/2 version 1 has no sCapHeight: the top of "H" (1493 units) is used.
        #expect(abs(embedded.capHeight - 1493 * 1000 / 2048) < 0.001)
        #expect(embedded.canEncode("Ελληνικά Кириллица العربية"))
        #expect(!embedded.canEncode("漢字"))
    }

    @Test("a font collection member is found by index; an index past the end is an invalid argument")
    func collection() throws {
        // A two-font collection made of the same TrueType font twice.
        let single = try Self.bytes(Self.dejaVuPath)
        var collection: [UInt8] = Array("ttcf".utf8) + [0, 1, 0, 0, 0, 0, 0, 2]
        let first = 20
        collection += [0, 0, 0, UInt8(first)] + [0, 0, 0, UInt8(first)]
        // Table offsets in the single font count from its start: shift them by `first`.
        var shifted = single
        let count = Int(single[4]) << 8 | Int(single[5])
        for table in 0..<count {
            let at = 12 + 16 * table + 8
            let offset =
                Int(single[at]) << 24 | Int(single[at + 1]) << 16 | Int(single[at + 2]) << 8 | Int(single[at + 3])
            let moved = offset + first
            shifted[at..<at + 4] = [
                UInt8(moved >> 24), UInt8(moved >> 16 & 0xFF), UInt8(moved >> 8 & 0xFF), UInt8(moved & 0xFF),
            ]
        }
        collection += shifted
        let member = try TrueTypeFile(bytes: collection, index: 1)
        #expect(member.isCollectionMember)
        #expect(member.postScriptName == "DejaVuSans")
        #expect(member.characterMap.glyph(for: "A") == 36)
        #expect(throws: PDFError(.invalidArgument, "")) { try TrueTypeFile(bytes: collection, index: 2) }
        #expect(throws: PDFError(.invalidArgument, "")) { try TrueTypeFile(bytes: single, index: 1) }
    }

    @Test("a font whose OS/2 fsType is Restricted License is refused")
    func restrictedLicence() throws {
        var bytes = try Self.bytes(Self.dejaVuPath)
        let font = try TrueTypeFile(bytes: bytes)
        let os2 = try #require(font.tables[.os2])
        bytes[os2.lowerBound + 8] = 0x00
        bytes[os2.lowerBound + 9] = 0x02
        #expect(throws: PDFError(.unsupported, "")) { try EmbeddedFont(bytes: bytes) }
        bytes[os2.lowerBound + 9] = 0x08  // Editable embedding is fine.
        #expect(try EmbeddedFont(bytes: bytes).postScriptName == "DejaVuSans")
    }

    @Test("truncated and corrupted fonts throw or parse, and never trap")
    func hostileFonts() throws {
        let original = try Self.bytes(Self.dejaVuPath)
        let font = try TrueTypeFile(bytes: original)
        func exercise(_ bytes: [UInt8]) {
            guard let embedded = try? EmbeddedFont(bytes: bytes) else { return }
            _ = embedded.canEncode("Ελληνικά é")
            _ = embedded.width(of: "Кириллица Ab")
            _ = embedded.encode("Ελληνικά é Кириллица Ab ب €")
            var count = 0
            _ = try? embedded.fontDictionary(adding: { _ in
                count += 1
                return PDFReference(count)
            })
        }
        // Every prefix through the table directory, then prefixes across the whole file.
        var truncations = Array(0..<400)
        truncations += stride(from: 400, to: original.count, by: 4099).map { $0 }
        for length in truncations { exercise(Array(original.prefix(length))) }

        // Byte flips: most in the directory and the tables read at open, some in glyphs.
        var hot: [Range<Int>] = [0..<(12 + 16 * font.tables.count)]
        for tag in [FontTableTag.head, .hhea, .maxp, .os2, .post, .name] { hot.append(font.tables[tag]!) }
        hot.append(font.tables[.cmap]!.lowerBound..<font.tables[.cmap]!.lowerBound + 2048)
        hot.append(font.tables[.loca]!.lowerBound..<font.tables[.loca]!.lowerBound + 4096)
        hot.append(font.glyphRange(171))  // the composite "é"
        var generator = SplitMix64(state: 0x5EED)
        for trial in 0..<1200 {
            var bytes = original
            for _ in 0..<1 + Int(generator.next() % 3) {
                let position: Int
                if trial % 4 == 3 {
                    position = Int(generator.next() % UInt64(bytes.count))
                } else {
                    let range = hot[Int(generator.next() % UInt64(hot.count))]
                    position = range.lowerBound + Int(generator.next() % UInt64(max(1, range.count)))
                }
                bytes[position] = trial % 2 == 0 ? UInt8(truncatingIfNeeded: generator.next()) : 0xFF
            }
            exercise(bytes)
        }
    }

    // MARK: Oracles

    @Test("a page of Greek, Cyrillic, Arabic, Latin and CJK passes qpdf, pdffonts, pdftotext and mutool")
    func endToEnd() throws {
        let western = try EmbeddedFont(fontFile: #require(SystemFonts.font(covering: Self.westernLines.joined())))
        let cjk = try EmbeddedFont(fontFile: #require(SystemFonts.font(covering: Self.cjkLines.joined())))
        let bytes = try Self.document([(western, Self.westernLines), (cjk, Self.cjkLines)])
        let path = try Self.write(bytes)

        let check = try Oracle.qpdfCheck(path)
        #expect(check.status == 0, "\(check.output)\(check.errors)")

        let rows = try Self.pdffontsRows(path)
        #expect(rows.count == 2)
        for row in rows {
            // name, "CID", "TrueType", "Identity-H", emb, sub, uni, object, generation
            #expect(row.count == 9, "\(row)")
            guard row.count == 9 else { continue }
            #expect(row[0].count > 7 && row[0].dropFirst(6).hasPrefix("+"), "\(row[0])")
            #expect(Array(row[1...3]) == ["CID", "TrueType", "Identity-H"])
            #expect(Array(row[4...6]) == ["yes", "yes", "yes"], "\(row)")
        }
        #expect(rows.map { String($0[0].dropFirst(7)) }.sorted() == ["DejaVuSans", "DroidSansFallback"])

        let poppler = try Oracle.run("pdftotext", ["-layout", "-enc", "UTF-8", path, "-"])
        #expect(poppler.status == 0, "\(poppler.errors)")
        let mupdf = try Oracle.run("mutool", ["draw", "-F", "txt", "-o", "-", path])
        #expect(mupdf.status == 0, "\(mupdf.errors)")
        // Poppler orders right-to-left runs logically and wraps them in directional embedding marks
        // (U+202A…U+202E), formatting characters that are not part of the text.
        let marks = CharacterSet(charactersIn: "\u{202A}\u{202B}\u{202C}\u{202D}\u{202E}")
        let popplerLines = poppler.output.split(separator: "\n").map {
            String($0.unicodeScalars.filter { !marks.contains($0) }).trimmingCharacters(in: .whitespaces)
        }
        let mupdfLines = mupdf.output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        for line in Self.westernLines + Self.cjkLines {
            #expect(popplerLines.contains(line), "pdftotext: \(line) not in \(popplerLines)")
            // MuPDF extracts in drawing order, without reordering right-to-left text.
            #expect(mupdfLines.contains(Self.drawn(line)), "mutool: \(Self.drawn(line)) not in \(mupdfLines)")
        }

        // MuPDF renders every glyph without complaint, and ink lands on the page.
        let directory = (path as NSString).deletingLastPathComponent
        let render = try Oracle.run("mutool", ["draw", "-r", "36", "-o", directory + "/page.pgm", path])
        #expect(render.status == 0, "\(render.errors)")
        let complaints = render.errors.split(separator: "\n").filter {
            !$0.hasPrefix("page ") && !$0.contains("ICC support is not available")
        }
        #expect(complaints.isEmpty, "\(complaints)")
        let pixels = try Self.bytes(directory + "/page.pgm").suffix(298 * 421)
        #expect(pixels.count == 298 * 421)
        #expect(pixels.filter { $0 < 128 }.count > 300)
    }

    @Test("the subset is a small fraction of the font and keeps only the glyphs drawn")
    func subsetSize() throws {
        let font = try EmbeddedFont(path: Self.dejaVuPath)
        let bytes = try Self.document([(font, Self.westernLines)])
        let programs = try Self.fontPrograms(bytes)
        #expect(programs.count == 1)
        let subset = try #require(programs.first)
        let original = try Self.bytes(Self.dejaVuPath)
        #expect(subset.count * 10 < original.count, "subset \(subset.count) of \(original.count) bytes")

        // FreeType (through fontconfig's fc-scan) loads the subset as a TrueType font.
        let file = try Self.write(subset, "subset.ttf")
        let scan = try Oracle.run("fc-scan", ["--format", "%{fontformat} %{outline}", file])
        #expect(scan.status == 0 && scan.output == "TrueType True", "\(scan.output)\(scan.errors)")

        // The subset parses, keeps glyph ids, and has outlines only for the glyphs used.
        let parsed = try TrueTypeFile(bytes: subset)
        let full = try TrueTypeFile(bytes: original)
        let used = Set(Self.westernLines.joined().unicodeScalars.map { full.characterMap.glyph(for: $0) })
        #expect(used.count > 40)
        let kept = try TrueTypeSubsetter(font: full).closure(of: used)
        #expect(kept.isSuperset(of: used))
        #expect(kept.contains(0))
        #expect(try kept.isSuperset(of: full.components(ofGlyph: 171)))  // é's components
        for glyph in 0..<parsed.numberOfGlyphs {
            let expected = kept.contains(glyph) ? full.glyphRange(glyph).count : 0
            #expect(parsed.glyphRange(glyph).count >= expected && parsed.glyphRange(glyph).count <= expected + 3)
            if kept.contains(glyph) {
                #expect(parsed.advanceWidth(ofGlyph: glyph) == full.advanceWidth(ofGlyph: glyph))
            }
        }
        // Every table's checksum and the whole file's sum are what the OpenType spec asks.
        #expect(TrueTypeSubsetter.checksum(subset) == 0xB1B0_AFBA)
        for (tag, range) in parsed.tables where tag != .head {
            let storedAt = try #require(
                (0..<parsed.tables.count).map { 12 + 16 * $0 }.first {
                    FontDataCursor(subset).peekUInt32(at: $0) == tag.value
                })
            #expect(
                FontDataCursor(subset).peekUInt32(at: storedAt + 4) == TrueTypeSubsetter.checksum(Array(subset[range])))
        }
    }

    @Test("the same text gives byte-identical font objects")
    func deterministic() throws {
        func make() throws -> [UInt8] {
            try Self.document([(EmbeddedFont(path: Self.dejaVuPath), Self.westernLines)])
        }
        let first = try make()
        #expect(try make() == first)
        // A different text gives a different subset tag.
        let other = try Self.document([(EmbeddedFont(path: Self.dejaVuPath), ["Other"])])
        let tag = { (bytes: [UInt8]) in
            String(decoding: bytes, as: UTF8.self).firstRange(of: /\/([A-Z]{6})\+DejaVuSans/).map {
                String(String(decoding: bytes, as: UTF8.self)[$0])
            }
        }
        #expect(tag(first) != nil && tag(first) != tag(other))
    }

    @Test("an OpenType font with CFF outlines is embedded whole as FontFile3/OpenType")
    func openTypeCFF() throws {
        let font = try EmbeddedFont(path: Self.nimbusPath)
        #expect(font.postScriptName == "NimbusSans-Regular")
        let lines = ["Hello, CFF world", "Łódź Ærø"]
        let path = try Self.write(Self.document([(font, lines)]))
        let check = try Oracle.qpdfCheck(path)
        #expect(check.status == 0, "\(check.output)\(check.errors)")
        let rows = try Self.pdffontsRows(path)
        #expect(rows.count == 1)
        // "NimbusSans-Regular-Identity-H CID Type 0C (OT) Identity-H yes no yes …"
        #expect(rows.first?.contains("(OT)") == true, "\(rows)")
        #expect(rows.first.map { Array($0.suffix(5).prefix(3)) } == ["yes", "no", "yes"], "\(rows)")
        let text = try Oracle.run("pdftotext", ["-layout", "-enc", "UTF-8", path, "-"]).output
        let mupdf = try Oracle.run("mutool", ["draw", "-F", "txt", "-o", "-", path]).output
        for line in lines {
            #expect(text.contains(line), "\(text)")
            #expect(mupdf.contains(line), "\(mupdf)")
        }
    }

    @Test("a font whose OS/2 fsType forbids subsetting is embedded with all its glyphs and no tag")
    func noSubsetting() throws {
        var bytes = try Self.bytes(Self.dejaVuPath)
        let os2 = try #require(TrueTypeFile(bytes: bytes).tables[.os2])
        bytes[os2.lowerBound + 8] = 0x01  // fsType 0x0100: no subsetting
        let document = try Self.document([(EmbeddedFont(bytes: bytes), ["Ελληνικά"])])
        let program = try #require(Self.fontPrograms(document).first)
        #expect(try TrueTypeFile(bytes: program).numberOfGlyphs == 6253)
        let rows = try Self.pdffontsRows(Self.write(document))
        #expect(rows.first?.first == "DejaVuSans")
        #expect(rows.first.map { Array($0.suffix(5).prefix(3)) } == ["yes", "no", "yes"], "\(rows)")
    }

    @Test("the charset of a CID-keyed CFF font gives each glyph's CID; a name-keyed font has none")
    func cffCharset() throws {
        func cff(cidKeyed: Bool) -> [UInt8] {
            var top: [UInt8] = cidKeyed ? [28, 0x01, 0x87, 28, 0x01, 0x88, 139, 12, 30] : []  // ROS
            let charsetAt = 4 + 6 + 5 + (top.count + 6) + 4
            top += [29, 0, 0, 0, UInt8(charsetAt), 15]  // charset offset
            var table: [UInt8] = [1, 0, 4, 1]  // header
            table += [0, 1, 1, 1, 2, 0x41]  // Name INDEX: "A"
            table += [0, 1, 1, 1, UInt8(top.count + 1)] + top  // Top DICT INDEX
            table += [0, 0, 0, 0]  // empty String and Global Subr INDEXes
            // Format 2: glyphs 1…3 are CIDs 100…102; then format-2 range: glyph 4 is CID 500.
            table += [2, 0, 100, 0, 2, 0x01, 0xF4, 0, 0]
            #expect(table.count == charsetAt + 9)
            return table
        }
        let keyed = cff(cidKeyed: true)
        #expect(try TrueTypeFile.parseCFFCharset(keyed, 0..<keyed.count, glyphs: 5) == [0, 100, 101, 102, 500])
        let named = cff(cidKeyed: false)
        #expect(try TrueTypeFile.parseCFFCharset(named, 0..<named.count, glyphs: 5) == nil)
        for length in 0..<keyed.count {
            _ = try? TrueTypeFile.parseCFFCharset(Array(keyed.prefix(length)), 0..<length, glyphs: 5)
        }
    }

    // MARK: Building blocks

    @Test("ToUnicode CMaps use ranges for runs, single entries otherwise, and surrogate pairs")
    func toUnicode() {
        let cmap = String(
            decoding: ToUnicodeCMap.make([
                0x0024: "A", 0x0025: "B", 0x0026: "C", 0x0030: "é", 0x00FF: "x", 0x0100: "y",
                0x0200: "\u{10300}", 0x0300: "ffi",
            ]), as: UTF8.self)
        #expect(cmap.contains("<0000> <FFFF>"))
        #expect(cmap.contains("1 beginbfrange\n<0024> <0026> <0041>\nendbfrange"))
        #expect(cmap.contains("<0030> <00E9>"))
        // 0x00FF → 0x0100 crosses a last-byte boundary: two single entries.
        #expect(cmap.contains("<00FF> <0078>") && cmap.contains("<0100> <0079>"))
        #expect(cmap.contains("<0200> <D800DF00>"))
        #expect(cmap.contains("<0300> <006600660069>"))
        #expect(cmap.contains("5 beginbfchar"))
    }

    @Test("/W groups consecutive codes, uses ranges for equal widths, and leaves the default out")
    func widthArray() {
        let (defaultWidth, widths) = EmbeddedFont.widthArray([
            (3, 500), (4, 500), (5, 600), (6, 600), (7, 600), (8, 700), (10, 500), (11, 800), (20, 500),
        ])
        #expect(defaultWidth == 500)
        #expect(widths == [5, 7, 600, 8, [700], 11, [800]])
    }
}
