import PDFFonts

/// One fuzzing input for font programs and CMaps, shared by the fuzzer (`Sources/FuzzFonts`) and
/// the tests that replay what it found. The first byte chooses how the rest is embedded in a page's
/// font, which then shows text (simple and multi-byte codes, `TJ` kerning, a clipping mode) and is
/// drawn and read, so each program goes through the font model (`LoadedFont`: CFF, Type 1 and
/// TrueType tables, encodings, widths) and FreeType's rasteriser (ISO 32000-2 §9.9):
///
/// - selector % 8 = 0: `/FontFile2` of a simple TrueType font (bit 3: symbolic, no `/Encoding`);
/// - 1: `/FontFile` of a Type 1 font (`/Length1` up to the end of `eexec`'s line);
/// - 2: `/FontFile3 /Type1C` of a Type 1 font (bare CFF);
/// - 3: `/FontFile3 /CIDFontType0C` of a Type 0 font's CIDFontType0 (CID-keyed CFF);
/// - 4: `/FontFile2` of a Type 0 font's CIDFontType2, `/CIDToGIDMap /Identity`;
/// - 5: `/FontFile3 /OpenType` of a simple font;
/// - 6: a CMap: a Type 0 font's `/Encoding` stream and its `/ToUnicode` (the descendant is not
///   embedded, so a substitute draws it);
/// - 7: PDFFonts' TrueType reader and subsetter directly (the path of embedding a font).
package enum FontFuzzInput {
    /// The page's text: one-byte and two-byte codes, kerning, and the clipping render mode.
    static let content = Array(
        """
        BT /F1 24 Tf 5 150 Td (\\001ABC abc 0) Tj <0000000100020003004100420102ff00> Tj
        0 -40 Td 1 0 0.2 1 5 100 Tm [(AV) -250 (Wa) 120 <0041>] TJ 2 Tr 1 w (xyz) Tj
        7 Tr 5 40 Td (Clip) Tj ET 0 0 200 200 re f
        """.utf8)

    /// A font descriptor's entries other than the font file.
    static func descriptor(flags: Int, file: String) -> String {
        "<< /Type /FontDescriptor /FontName /Fuzz /Flags \(flags) /FontBBox [0 -200 1000 900] /ItalicAngle 0 "
            + "/Ascent 900 /Descent -200 /CapHeight 700 /StemV 80 \(file) >>"
    }

    /// Embeds, draws and reads `input` as the selector says.
    package static func run(_ input: [UInt8]) {
        guard let selector = input.first else { return }
        let body = Array(input.dropFirst())
        let symbolic = selector & 8 != 0
        let flags = symbolic ? 4 : 32
        let widths = "/FirstChar 0 /LastChar 255 /Widths [" + String(repeating: "500 ", count: 256) + "]"
        let simpleEncoding = symbolic ? "" : "/Encoding /WinAnsiEncoding"
        // Object 5 is the font; 6 the descriptor; 7 the file; 8 the descendant font (Type 0).
        var objects: [FuzzPage.Object]
        switch selector % 8 {
        case 0, 1, 2, 5:
            let (subtype, key, fileDictionary): (String, String, String) =
                switch selector % 8 {
                case 0: ("TrueType", "FontFile2", "<< /Length1 \(body.count) >>")
                case 1: ("Type1", "FontFile", "<< /Length1 \(clearTextLength(body)) /Length2 0 /Length3 0 >>")
                case 2: ("Type1", "FontFile3", "<< /Subtype /Type1C >>")
                default: ("Type1", "FontFile3", "<< /Subtype /OpenType >>")
                }
            objects = [
                FuzzPage.Object(
                    "<< /Type /Font /Subtype /\(subtype) /BaseFont /Fuzz \(widths) \(simpleEncoding) /FontDescriptor 6 0 R >>"
                ),
                FuzzPage.Object(descriptor(flags: flags, file: "/\(key) 7 0 R")),
                FuzzPage.Object(fileDictionary, stream: body),
            ]
        case 3, 4:
            let cidType = selector % 8 == 3 ? "CIDFontType0" : "CIDFontType2"
            let file = selector % 8 == 3 ? "/FontFile3 7 0 R" : "/FontFile2 7 0 R"
            let fileDictionary = selector % 8 == 3 ? "<< /Subtype /CIDFontType0C >>" : "<< >>"
            objects = [
                FuzzPage.Object(
                    "<< /Type /Font /Subtype /Type0 /BaseFont /Fuzz /Encoding /Identity-H /DescendantFonts [8 0 R] >>"),
                FuzzPage.Object(descriptor(flags: 4, file: file)),
                FuzzPage.Object(fileDictionary, stream: body),
                FuzzPage.Object(
                    "<< /Type /Font /Subtype /\(cidType) /BaseFont /Fuzz /CIDSystemInfo << /Registry (Adobe) "
                        + "/Ordering (Identity) /Supplement 0 >> /FontDescriptor 6 0 R /DW 600 /W [1 [500 600] 65 70 700] "
                        + "/CIDToGIDMap /Identity >>"),
            ]
        case 6:
            objects = [
                FuzzPage.Object(
                    "<< /Type /Font /Subtype /Type0 /BaseFont /MSung-Light /Encoding 7 0 R /ToUnicode 7 0 R "
                        + "/DescendantFonts [8 0 R] >>"),
                FuzzPage.Object(descriptor(flags: 4, file: "")),
                FuzzPage.Object(
                    "<< /Type /CMap /CMapName /Fuzz /CIDSystemInfo << /Registry (Adobe) /Ordering (CNS1) /Supplement 0 >> >>",
                    stream: body),
                FuzzPage.Object(
                    "<< /Type /Font /Subtype /CIDFontType2 /BaseFont /MSung-Light /CIDSystemInfo << /Registry (Adobe) "
                        + "/Ordering (CNS1) /Supplement 0 >> /FontDescriptor 6 0 R /W [0 [500] 1 100 600] >>"),
            ]
        default:
            readTrueType(body)
            return
        }
        FuzzPage(content: content, resources: "<< /Font << /F1 5 0 R >> >>", objects: objects).draw(dpi: 20)
    }

    /// A Type 1 program's clear-text length: to the end of the line holding `eexec`, or all of it.
    static func clearTextLength(_ program: [UInt8]) -> Int {
        let marker = Array("eexec".utf8)
        guard program.count >= marker.count else { return program.count }
        for start in 0...(program.count - marker.count)
        where program[start..<(start + marker.count)].elementsEqual(marker) {
            var end = start + marker.count
            while end < program.count, program[end] == 0x0D || program[end] == 0x0A { end += 1 }
            return end
        }
        return program.count
    }

    /// Reads `bytes` as a TrueType or OpenType file (a collection's first font) and subsets it to the
    /// glyphs of a few characters, as embedding a font for new text does.
    static func readTrueType(_ bytes: [UInt8]) {
        guard let font = try? TrueTypeFile(bytes: bytes) else { return }
        let glyphs = "Aa1 é€".unicodeScalars.map { font.characterMap.glyph(for: $0) }
        for glyph in glyphs + [0, font.numberOfGlyphs - 1] {
            _ = font.glyphBox(glyph)
            _ = font.advanceWidth(ofGlyph: glyph)
        }
        guard case .trueType = font.outlineFormat else { return }
        _ = try? TrueTypeSubsetter(font: font).subset(keeping: glyphs)
    }
}
