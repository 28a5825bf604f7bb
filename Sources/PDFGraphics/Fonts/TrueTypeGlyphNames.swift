import PDFCore
import PDFFonts

/// The glyph a TrueType program's own character maps give each one-byte code, and that glyph's
/// name in the `post` table: what a simple TrueType font without `/Encoding` (or without a name for
/// a code) draws, and so the text of its codes (ISO 32000-2 §9.6.5.4; OpenType `cmap` and `post`).
///
/// Symbolic fonts are looked up in the (3,0) subtable at the code and at 0xF000, 0xF100 and
/// 0xF200 plus the code, else in (1,0); other fonts in the Unicode map at the code. Every offset is
/// checked; a damaged table reads as no names.
enum TrueTypeGlyphNames {
    static let macintoshNames: [String] = GeneratedTableText.words(in: macintoshNamesText)

    /// The glyph name of each of the 256 codes, or nil when the program has no names (a `post`
    /// table of format 3, or none).
    static func names(in font: TrueTypeFile, symbolic: Bool) -> [String?]? {
        guard let glyphNames = postNames(font), !glyphNames.isEmpty else { return nil }
        var result = [String?](repeating: nil, count: 256)
        let subtables = symbolSubtables(font)
        for code in 0..<256 {
            var glyph = 0
            if let microsoft = subtables.microsoft {
                for base in [0, 0xF000, 0xF100, 0xF200] where glyph == 0 {
                    glyph = lookUp(font.bytes, microsoft, code: base + code)
                }
            }
            if glyph == 0, let mac = subtables.mac { glyph = lookUp(font.bytes, mac, code: code) }
            if glyph == 0, !symbolic || subtables.microsoft == nil, let scalar = Unicode.Scalar(UInt32(code)) {
                glyph = font.characterMap.glyph(for: scalar)
            }
            if glyph > 0, glyph < glyphNames.count, glyphNames[glyph] != ".notdef" { result[code] = glyphNames[glyph] }
        }
        return result
    }

    /// The (3,0) and (1,0) subtables' start offsets in `font.bytes`.
    private static func symbolSubtables(_ font: TrueTypeFile) -> (microsoft: Int?, mac: Int?) {
        guard let range = font.tables["cmap"] else { return (nil, nil) }
        let bytes = font.bytes
        guard let count = u16(bytes, range.lowerBound + 2, in: range) else { return (nil, nil) }
        var microsoft: Int? = nil
        var mac: Int? = nil
        for index in 0..<min(count, 64) {
            let record = range.lowerBound + 4 + 8 * index
            guard let platform = u16(bytes, record, in: range), let encoding = u16(bytes, record + 2, in: range),
                let high = u16(bytes, record + 4, in: range), let low = u16(bytes, record + 6, in: range)
            else { break }
            let offset = range.lowerBound + (high << 16 | low)
            guard offset < range.upperBound else { continue }
            if platform == 3, encoding == 0, microsoft == nil { microsoft = offset }
            if platform == 1, encoding == 0, mac == nil { mac = offset }
        }
        return (microsoft, mac)
    }

    /// The glyph of `code` in the subtable at `start` (formats 0, 4 and 6); 0 when none.
    private static func lookUp(_ bytes: [UInt8], _ start: Int, code: Int) -> Int {
        let limit = start..<bytes.count
        guard let format = u16(bytes, start, in: limit) else { return 0 }
        switch format {
        case 0:
            guard code < 256, start + 6 + code < bytes.count else { return 0 }
            return Int(bytes[start + 6 + code])
        case 6:
            guard let first = u16(bytes, start + 6, in: limit), let count = u16(bytes, start + 8, in: limit),
                code >= first, code < first + count
            else { return 0 }
            return u16(bytes, start + 10 + 2 * (code - first), in: limit) ?? 0
        case 4:
            guard let doubled = u16(bytes, start + 6, in: limit) else { return 0 }
            let segments = doubled / 2
            let ends = start + 14
            let starts = ends + 2 * segments + 2
            let deltas = starts + 2 * segments
            let offsets = deltas + 2 * segments
            for segment in 0..<min(segments, 8192) {
                guard let end = u16(bytes, ends + 2 * segment, in: limit) else { return 0 }
                guard code <= end else { continue }
                guard let first = u16(bytes, starts + 2 * segment, in: limit), code >= first,
                    let delta = u16(bytes, deltas + 2 * segment, in: limit),
                    let rangeOffset = u16(bytes, offsets + 2 * segment, in: limit)
                else { return 0 }
                if rangeOffset == 0 { return (code + delta) & 0xFFFF }
                let at = offsets + 2 * segment + rangeOffset + 2 * (code - first)
                guard let glyph = u16(bytes, at, in: limit), glyph != 0 else { return 0 }
                return (glyph + delta) & 0xFFFF
            }
            return 0
        default:
            return 0
        }
    }

    /// The name of every glyph from a `post` table of format 1 or 2; nil otherwise.
    private static func postNames(_ font: TrueTypeFile) -> [String]? {
        guard let range = font.tables["post"], range.count >= 32 else { return nil }
        let bytes = font.bytes
        guard let major = u16(bytes, range.lowerBound, in: range),
            let minor = u16(bytes, range.lowerBound + 2, in: range)
        else { return nil }
        if major == 1, minor == 0 { return macintoshNames }
        guard major == 2, minor == 0, let count = u16(bytes, range.lowerBound + 32, in: range) else { return nil }
        var indexes: [Int] = []
        indexes.reserveCapacity(count)
        for glyph in 0..<count {
            guard let index = u16(bytes, range.lowerBound + 34 + 2 * glyph, in: range) else { return nil }
            indexes.append(index)
        }
        // Pascal strings follow the index array.
        var custom: [String] = []
        var offset = range.lowerBound + 34 + 2 * count
        while offset < range.upperBound, custom.count < 65536 {
            let length = Int(bytes[offset])
            guard offset + 1 + length <= range.upperBound else { break }
            custom.append(String(decoding: bytes[(offset + 1)..<(offset + 1 + length)], as: UTF8.self))
            offset += 1 + length
        }
        return indexes.map { index in
            if index < macintoshNames.count { return macintoshNames[index] }
            let customIndex = index - macintoshNames.count
            return customIndex < custom.count ? custom[customIndex] : ".notdef"
        }
    }

    /// A big-endian UInt16 at `offset`, when it lies in `range`.
    private static func u16(_ bytes: [UInt8], _ offset: Int, in range: Range<Int>) -> Int? {
        guard offset >= range.lowerBound, offset + 2 <= range.upperBound, offset + 2 <= bytes.count else { return nil }
        return Int(bytes[offset]) << 8 | Int(bytes[offset + 1])
    }
}
