package import PDFCore

/// Writes a TrueType font program holding only some glyphs of a font, for a PDF `/FontFile2`
/// (ISO 32000-2 §9.9, a CIDFontType2 font program).
///
/// Glyph ids are kept: glyph `n` of the subset is glyph `n` of the font, and glyphs not kept have
/// empty outlines and zero metrics. So the PDF can say `/CIDToGIDMap /Identity` and the codes in
/// content streams are the font's own glyph ids. The font is cut after the highest glyph kept.
///
/// The subset has the tables a PDF TrueType font program needs (ISO 32000-2 §9.9, Table 124
/// note; OpenType spec table names): `head` (with `checkSumAdjustment` recomputed and long
/// `loca` offsets), `hhea`, `hmtx`, `maxp`, `loca`, `glyf`, the hinting tables `cvt `, `fpgm` and
/// `prep` when present, and a format 3 `post`. It has no `cmap`: a CIDFontType2 selects glyphs
/// through its CIDToGIDMap, not through the font's character map.
package struct TrueTypeSubsetter {
    /// How deep composite glyphs may nest (OpenType `maxp.maxComponentDepth` rarely exceeds 3).
    package static let maxCompositeDepth = 16

    package let font: TrueTypeFile

    package init(font: TrueTypeFile) {
        self.font = font
    }

    /// `glyphs` with glyph 0 and every component of the composite glyphs among them, transitively.
    /// Glyph ids outside the font are dropped.
    /// - Throws: `.decodeFailed` for a damaged composite glyph, `.limitExceeded` when composites
    ///   nest deeper than ``maxCompositeDepth``.
    package func closure(of glyphs: some Sequence<Int>) throws(PDFError) -> Set<Int> {
        var kept: Set<Int> = [0]
        var pending: [(glyph: Int, depth: Int)] = [(0, 0)]
        for glyph in glyphs where glyph >= 0 && glyph < font.numberOfGlyphs && kept.insert(glyph).inserted {
            pending.append((glyph, 0))
        }
        while let (glyph, depth) = pending.popLast() {
            let components = try font.components(ofGlyph: glyph)
            guard !components.isEmpty else { continue }
            guard depth < Self.maxCompositeDepth else {
                throw PDFError(
                    .limitExceeded, "font: composite glyph \(glyph) nests deeper than \(Self.maxCompositeDepth)")
            }
            for component in components where kept.insert(component).inserted {
                pending.append((component, depth + 1))
            }
        }
        return kept
    }

    /// The font program with the glyphs of ``closure(of:)`` for `glyphs`.
    /// - Throws: `.unsupported` for a font without TrueType outlines; the errors of ``closure(of:)``.
    package func subset(keeping glyphs: some Sequence<Int>) throws(PDFError) -> [UInt8] {
        guard font.outlineFormat == .trueType else {
            throw PDFError(.unsupported, "only fonts with TrueType outlines (glyf) can be subset")
        }
        let kept = try closure(of: glyphs)
        let glyphCount = (kept.max() ?? 0) + 1

        // glyf and loca: the kept glyphs' bytes, each padded to 4 bytes; others empty.
        var glyf: [UInt8] = []
        var loca: [UInt8] = []
        loca.reserveCapacity(4 * (glyphCount + 1))
        for glyph in 0..<glyphCount {
            Self.append32(UInt32(glyf.count), to: &loca)
            if kept.contains(glyph) {
                glyf.append(contentsOf: font.bytes[font.glyphRange(glyph)])
                while glyf.count % 4 != 0 { glyf.append(0) }
            }
        }
        Self.append32(UInt32(glyf.count), to: &loca)

        // hmtx: one long metric per glyph, zero for glyphs not kept.
        var hmtx: [UInt8] = []
        hmtx.reserveCapacity(4 * glyphCount)
        for glyph in 0..<glyphCount {
            let isKept = kept.contains(glyph)
            Self.append16(isKept ? font.advanceWidths[glyph] : 0, to: &hmtx)
            Self.append16(isKept ? UInt16(bitPattern: font.leftSideBearings[glyph]) : 0, to: &hmtx)
        }

        var head = Array(try required(.head, minimumLength: 54))
        Self.put32(0, at: 8, in: &head)  // checkSumAdjustment, set once the file is assembled
        Self.put16(1, at: 50, in: &head)  // indexToLocFormat: long offsets
        var hhea = Array(try required(.hhea, minimumLength: 36))
        Self.put16(UInt16(glyphCount), at: 34, in: &hhea)  // numberOfHMetrics
        var maxp = Array(try required(.maxp, minimumLength: 6))
        Self.put16(UInt16(glyphCount), at: 4, in: &maxp)  // numGlyphs

        // post format 3: no glyph names; keep the italic angle, underline and fixed pitch.
        var post: [UInt8] = []
        Self.append32(0x0003_0000, to: &post)
        Self.append32(UInt32(bitPattern: Int32(clamping: Int((font.italicAngle * 65536).rounded()))), to: &post)
        Self.append16(UInt16(bitPattern: font.underlinePosition), to: &post)
        Self.append16(UInt16(bitPattern: font.underlineThickness), to: &post)
        Self.append32(font.isFixedPitch ? 1 : 0, to: &post)
        post.append(contentsOf: [UInt8](repeating: 0, count: 16))  // memory usage hints

        var tables: [(FontTableTag, [UInt8])] = [
            (.head, head), (.hhea, hhea), (.maxp, maxp), (.hmtx, hmtx), (.loca, loca), (.glyf, glyf), (.post, post),
        ]
        for tag in [FontTableTag.cvt, .fpgm, .prep] {
            if let table = font.table(tag) { tables.append((tag, Array(table))) }
        }
        return Self.assemble(tables)
    }

    private func required(_ tag: FontTableTag, minimumLength: Int) throws(PDFError) -> ArraySlice<UInt8> {
        guard let table = font.table(tag), table.count >= minimumLength else {
            throw TrueTypeFile.damaged("the '\(tag)' table is missing or truncated")
        }
        return table
    }

    // MARK: Writing an sfnt

    /// An sfnt file with `tables` (OpenType "Organization of an OpenType font"): the table
    /// directory sorted by tag, each table 4-byte aligned with its checksum, and `head`'s
    /// `checkSumAdjustment` set so the whole file sums to 0xB1B0AFBA.
    package static func assemble(_ tables: [(FontTableTag, [UInt8])], version: UInt32 = 0x0001_0000) -> [UInt8] {
        let sorted = tables.sorted { $0.0 < $1.0 }
        var power = 1
        var log = 0
        while power * 2 <= sorted.count {
            power *= 2
            log += 1
        }
        var output: [UInt8] = []
        append32(version, to: &output)
        append16(UInt16(sorted.count), to: &output)
        append16(UInt16(power * 16), to: &output)  // searchRange
        append16(UInt16(log), to: &output)  // entrySelector
        append16(UInt16(sorted.count * 16 - power * 16), to: &output)  // rangeShift
        var offset = 12 + 16 * sorted.count
        var headOffset: Int? = nil
        for (tag, data) in sorted {
            append32(tag.value, to: &output)
            append32(checksum(data), to: &output)
            append32(UInt32(offset), to: &output)
            append32(UInt32(data.count), to: &output)
            if tag == .head { headOffset = offset }
            offset += (data.count + 3) & ~3
        }
        for (_, data) in sorted {
            output.append(contentsOf: data)
            while output.count % 4 != 0 { output.append(0) }
        }
        if let headOffset, headOffset + 12 <= output.count {
            put32(0xB1B0_AFBA &- checksum(output), at: headOffset + 8, in: &output)
        }
        return output
    }

    /// The sum of `data` as big-endian 32-bit words, zero-padded (OpenType "Calculating checksums").
    package static func checksum(_ data: [UInt8]) -> UInt32 {
        var sum: UInt32 = 0
        var index = 0
        while index < data.count {
            var word: UInt32 = 0
            for byte in 0..<4 {
                word <<= 8
                if index + byte < data.count { word |= UInt32(data[index + byte]) }
            }
            sum &+= word
            index += 4
        }
        return sum
    }

    private static func append16(_ value: UInt16, to output: inout [UInt8]) {
        output.append(UInt8(value >> 8))
        output.append(UInt8(value & 0xFF))
    }

    private static func append32(_ value: UInt32, to output: inout [UInt8]) {
        append16(UInt16(value >> 16), to: &output)
        append16(UInt16(value & 0xFFFF), to: &output)
    }

    private static func put16(_ value: UInt16, at offset: Int, in output: inout [UInt8]) {
        output[offset] = UInt8(value >> 8)
        output[offset + 1] = UInt8(value & 0xFF)
    }

    private static func put32(_ value: UInt32, at offset: Int, in output: inout [UInt8]) {
        put16(UInt16(value >> 16), at: offset, in: &output)
        put16(UInt16(value & 0xFFFF), at: offset + 2, in: &output)
    }
}
