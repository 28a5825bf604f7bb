import PDFCore

/// The `OS/2` values a PDF font descriptor and the embedding check need (OpenType `OS/2` table).
package struct OS2Values: Hashable, Sendable {
    /// `usWeightClass` (100 thin … 900 black).
    package var weightClass: Int
    /// `fsType`: embedding permissions (bit 1 restricted, bit 8 no subsetting, bit 9 bitmap only).
    package var embeddingFlags: UInt16
    /// `sFamilyClass` high byte: 1…7 serif families, 8 sans serif, 10 script, 12 symbolic.
    package var familyClass: Int
    /// `fsSelection` (bit 0 italic, bit 7 USE_TYPO_METRICS).
    package var selection: UInt16
    /// `sTypoAscender`, `sTypoDescender`, `sTypoLineGap` (version 0 tables may end before them).
    package var typoAscender: Int?
    package var typoDescender: Int?
    package var typoLineGap: Int?
    /// `sxHeight` and `sCapHeight` (version 2 and later).
    package var xHeight: Int?
    package var capHeight: Int?

    /// True when `fsType` says "Restricted License embedding": the font must not be embedded.
    /// The permission bits 0…3 are exclusive; a font setting several gets the least restrictive.
    package var forbidsEmbedding: Bool { embeddingFlags & 0x000F == 0x0002 }
    /// True when `fsType` bit 8 ("No subsetting") is set: embed the whole font.
    package var forbidsSubsetting: Bool { embeddingFlags & 0x0100 != 0 }
    /// True when `fsType` bit 9 ("Bitmap embedding only") is set: outlines must not be embedded.
    package var allowsBitmapsOnly: Bool { embeddingFlags & 0x0200 != 0 }
}

extension TrueTypeFile {
    /// `head`: units per em, bounding box, style and the `loca` format (OpenType `head` table).
    static func parseHead(
        _ bytes: [UInt8], _ range: Range<Int>
    ) throws(PDFError) -> (unitsPerEm: Int, boundingBox: FontBox, macStyle: UInt16, indexToLocFormat: Int) {
        let cursor = FontDataCursor(bytes, range: range)
        guard let magic = cursor.peekUInt32(at: 12), let unitsPerEm = cursor.peekUInt16(at: 18),
            let xMin = cursor.peekInt16(at: 36), let yMin = cursor.peekInt16(at: 38),
            let xMax = cursor.peekInt16(at: 40), let yMax = cursor.peekInt16(at: 42),
            let macStyle = cursor.peekUInt16(at: 44), let locFormat = cursor.peekInt16(at: 50)
        else { throw damaged("the 'head' table is truncated") }
        guard magic == 0x5F0F_3CF5 else { throw damaged("the 'head' table has a wrong magic number") }
        guard (16...16384).contains(unitsPerEm) else { throw damaged("unitsPerEm \(unitsPerEm) is out of range") }
        guard locFormat == 0 || locFormat == 1 else { throw damaged("indexToLocFormat \(locFormat) is invalid") }
        let box = FontBox(xMin: Int(xMin), yMin: Int(yMin), xMax: Int(xMax), yMax: Int(yMax))
        return (Int(unitsPerEm), box, macStyle, Int(locFormat))
    }

    /// `maxp.numGlyphs` (OpenType `maxp` table, versions 0.5 and 1.0).
    static func parseMaxp(_ bytes: [UInt8], _ range: Range<Int>) throws(PDFError) -> Int {
        guard let count = FontDataCursor(bytes, range: range).peekUInt16(at: 4) else {
            throw damaged("the 'maxp' table is truncated")
        }
        guard count > 0 else { throw damaged("the font has no glyphs") }
        return Int(count)
    }

    /// `hhea`: ascender, descender, line gap and the number of long horizontal metrics.
    static func parseHhea(
        _ bytes: [UInt8], _ range: Range<Int>
    ) throws(PDFError) -> (ascender: Int, descender: Int, lineGap: Int, numberOfHMetrics: Int) {
        let cursor = FontDataCursor(bytes, range: range)
        guard let ascender = cursor.peekInt16(at: 4), let descender = cursor.peekInt16(at: 6),
            let lineGap = cursor.peekInt16(at: 8), let count = cursor.peekUInt16(at: 34)
        else { throw damaged("the 'hhea' table is truncated") }
        guard count > 0 else { throw damaged("numberOfHMetrics is 0") }
        return (Int(ascender), Int(descender), Int(lineGap), Int(count))
    }

    /// `hmtx`: an advance width and a left side bearing for every glyph; glyphs past the long
    /// metrics take the last advance width. Bearings missing at the end of a short table read as 0.
    static func parseHmtx(
        _ bytes: [UInt8], _ range: Range<Int>, longMetrics: Int, glyphs: Int
    ) throws(PDFError) -> (advances: [UInt16], bearings: [Int16]) {
        let long = min(longMetrics, glyphs)
        var cursor = FontDataCursor(bytes, range: range)
        guard cursor.has(4 * long) else { throw damaged("the 'hmtx' table is truncated") }
        var advances: [UInt16] = []
        var bearings: [Int16] = []
        advances.reserveCapacity(glyphs)
        bearings.reserveCapacity(glyphs)
        for _ in 0..<long {
            advances.append(cursor.readUInt16() ?? 0)
            bearings.append(cursor.readInt16() ?? 0)
        }
        let last = advances.last ?? 0
        for _ in long..<glyphs {
            advances.append(last)
            bearings.append(cursor.readInt16() ?? 0)
        }
        return (advances, bearings)
    }

    /// `loca`: `glyphs + 1` offsets into `glyf`, in bytes (short offsets are stored halved).
    static func parseLoca(
        _ bytes: [UInt8], _ range: Range<Int>, longFormat: Bool, glyphs: Int, glyfLength: Int
    ) throws(PDFError) -> [Int] {
        var cursor = FontDataCursor(bytes, range: range)
        let entrySize = longFormat ? 4 : 2
        guard cursor.has(entrySize * (glyphs + 1)) else { throw damaged("the 'loca' table is truncated") }
        var offsets: [Int] = []
        offsets.reserveCapacity(glyphs + 1)
        for _ in 0...glyphs {
            if longFormat {
                offsets.append(Int(cursor.readUInt32() ?? 0))
            } else {
                offsets.append(Int(cursor.readUInt16() ?? 0) * 2)
            }
        }
        return offsets
    }

    /// `OS/2`: weight, embedding permissions and vertical metrics; nil when too short for `fsType`.
    static func parseOS2(_ bytes: [UInt8], _ range: Range<Int>) -> OS2Values? {
        let cursor = FontDataCursor(bytes, range: range)
        guard let version = cursor.peekUInt16(at: 0), let weight = cursor.peekUInt16(at: 4),
            let fsType = cursor.peekUInt16(at: 8)
        else { return nil }
        return OS2Values(
            weightClass: Int(weight), embeddingFlags: fsType,
            familyClass: cursor.peekUInt8(at: 30).map(Int.init) ?? 0,
            selection: cursor.peekUInt16(at: 62) ?? 0,
            typoAscender: cursor.peekInt16(at: 68).map(Int.init),
            typoDescender: cursor.peekInt16(at: 70).map(Int.init),
            typoLineGap: cursor.peekInt16(at: 72).map(Int.init),
            xHeight: version >= 2 ? cursor.peekInt16(at: 86).map(Int.init) : nil,
            capHeight: version >= 2 ? cursor.peekInt16(at: 88).map(Int.init) : nil)
    }

    /// `post` header: italic angle (16.16 fixed), underline, fixed pitch; nil when truncated.
    static func parsePost(
        _ bytes: [UInt8], _ range: Range<Int>
    ) -> (italicAngle: Double, underlinePosition: Int16, underlineThickness: Int16, isFixedPitch: Bool)? {
        let cursor = FontDataCursor(bytes, range: range)
        guard let angle = cursor.peekInt32(at: 4), let position = cursor.peekInt16(at: 8),
            let thickness = cursor.peekInt16(at: 10), let fixed = cursor.peekUInt32(at: 12)
        else { return nil }
        return (Double(angle) / 65536, position, thickness, fixed != 0)
    }

    /// `name`: the PostScript name (ID 6) and the full name (ID 4), preferring Windows Unicode
    /// records in US English, then other Windows, Macintosh Roman and Unicode-platform records.
    static func parseNames(_ bytes: [UInt8], _ range: Range<Int>) -> (postScriptName: String?, fullName: String?) {
        var cursor = FontDataCursor(bytes, range: range)
        guard cursor.skip(2), let count = cursor.readUInt16(), let storage = cursor.readUInt16() else {
            return (nil, nil)
        }
        var best: [UInt16: (score: Int, text: String)] = [:]
        for _ in 0..<Int(count) {
            guard let platform = cursor.readUInt16(), let encoding = cursor.readUInt16(),
                let language = cursor.readUInt16(), let nameID = cursor.readUInt16(),
                let length = cursor.readUInt16(), let offset = cursor.readUInt16()
            else { break }
            guard nameID == 4 || nameID == 6 else { continue }
            let score: Int
            switch (platform, encoding) {
            case (3, 0), (3, 1), (3, 10): score = language == 0x0409 ? 4 : 3
            case (1, 0): score = 2
            case (0, _): score = 1
            default: continue
            }
            guard score > best[nameID]?.score ?? 0 else { continue }
            let start = range.lowerBound + Int(storage) + Int(offset)
            var text = FontDataCursor(bytes, from: start, upTo: range.upperBound)
            guard let data = text.readBytes(Int(length)) else { continue }
            let decoded: String
            if platform == 1 {
                // Mac Roman: the ASCII part is all a name needs; other bytes become U+FFFD.
                decoded = String(decoding: data.map { $0 < 0x80 ? $0 : 0x3F }, as: UTF8.self)
            } else {
                var units: [UInt16] = []
                var index = data.startIndex
                while index + 1 < data.endIndex {
                    units.append(UInt16(data[index]) << 8 | UInt16(data[index + 1]))
                    index += 2
                }
                decoded = String(decoding: units, as: UTF16.self)
            }
            best[nameID] = (score, decoded)
        }
        let postScript = (best[6]?.text).map(sanitizedPostScriptName)
        return (postScript?.isEmpty == false ? postScript : nil, best[4]?.text)
    }

    /// `text` reduced to what a PostScript name may hold: printable ASCII without spaces and the
    /// delimiters `[](){}<>/%`, at most 63 characters (OpenType `name` ID 6 rules).
    package static func sanitizedPostScriptName(_ text: String) -> String {
        let forbidden: Set<UInt8> = Set("[](){}<>/%".utf8)
        let kept = text.utf8.filter { (0x21...0x7E).contains($0) && !forbidden.contains($0) }
        return String(decoding: kept.prefix(63), as: UTF8.self)
    }
}
