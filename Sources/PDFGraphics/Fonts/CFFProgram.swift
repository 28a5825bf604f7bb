import PDFCore
import PDFFonts

/// What the font model needs from a bare Compact Font Format program (`/FontFile3` with
/// `/Subtype /Type1C` or `/CIDFontType0C`; Adobe Technical Note #5176): the glyph names of its
/// charset, its built-in encoding, and for CID-keyed fonts the CID of each glyph.
///
/// Every offset and count is checked; a damaged program gives nil, never a trap.
struct CFFProgram: Sendable {
    /// The glyph names by glyph index (name-keyed fonts); empty for CID-keyed fonts.
    var glyphNames: [String] = []
    /// The CID of each glyph index (CID-keyed fonts, `ROS` in the Top DICT); empty otherwise.
    var glyphCIDs: [UInt32] = []
    /// The glyph name of each code in the font's built-in encoding (name-keyed fonts).
    var encoding: [String?] = Array(repeating: nil, count: 256)
    var isCIDKeyed: Bool { !glyphCIDs.isEmpty }

    /// The 391 standard strings (SIDs 0 to 390).
    static let standardStrings: [String] = GeneratedTableText.words(in: standardStringsText)

    init?(_ bytes: [UInt8]) {
        guard bytes.count >= 4, bytes[0] == 1 else { return nil }
        var offset = Int(bytes[2])
        guard let names = Self.index(bytes, at: &offset), !names.isEmpty,
            let topDicts = Self.index(bytes, at: &offset), let topDict = topDicts.first,
            let strings = Self.index(bytes, at: &offset)
        else { return nil }
        guard let top = Self.dict(bytes, topDict) else { return nil }
        guard let charStringsOffset = top[17]?.first, charStringsOffset > 0 else { return nil }
        var charStringsStart = charStringsOffset
        guard let charStrings = Self.index(bytes, at: &charStringsStart) else { return nil }
        let glyphCount = charStrings.count
        guard glyphCount > 0 else { return nil }

        func name(_ sid: Int) -> String {
            if sid < Self.standardStrings.count { return Self.standardStrings[sid] }
            let index = sid - Self.standardStrings.count
            guard index < strings.count else { return ".notdef" }
            return String(decoding: bytes[strings[index]], as: UTF8.self)
        }

        let charsetOffset = top[15]?.first ?? 0
        let sids = Self.charset(bytes, at: charsetOffset, glyphs: glyphCount)
        if top[1230] != nil {
            glyphCIDs = (sids ?? Array(0..<glyphCount)).map { UInt32(clamping: $0) }
            return
        }
        guard let sids else { return }
        glyphNames = sids.map(name)

        // The built-in encoding (§12 of TN #5176): code → glyph.
        let encodingOffset = top[16]?.first ?? 0
        if encodingOffset == 0 {
            var byName: [String: Int] = [:]
            for (glyph, glyphName) in glyphNames.enumerated() where byName[glyphName] == nil {
                byName[glyphName] = glyph
            }
            for code in 0..<256 {
                if let standard = BaseEncoding.standard.glyphName(at: UInt8(code)), byName[standard] != nil {
                    encoding[code] = standard
                }
            }
        } else if encodingOffset > 1 {
            readEncoding(bytes, at: encodingOffset, name: name)
        }
    }

    /// A custom encoding: format 0 (codes) or 1 (ranges), with supplements when bit 7 is set.
    private mutating func readEncoding(_ bytes: [UInt8], at start: Int, name: (Int) -> String) {
        guard start >= 0, start < bytes.count else { return }
        let format = bytes[start]
        var offset = start + 1
        var glyph = 1
        switch format & 0x7F {
        case 0:
            guard offset < bytes.count else { return }
            let count = Int(bytes[offset])
            offset += 1
            for _ in 0..<count {
                guard offset < bytes.count else { return }
                if glyph < glyphNames.count { encoding[Int(bytes[offset])] = glyphNames[glyph] }
                glyph += 1
                offset += 1
            }
        case 1:
            guard offset < bytes.count else { return }
            let ranges = Int(bytes[offset])
            offset += 1
            for _ in 0..<ranges {
                guard offset + 1 < bytes.count else { return }
                let first = Int(bytes[offset])
                let left = Int(bytes[offset + 1])
                offset += 2
                for code in first...(first + left) where code < 256 {
                    if glyph < glyphNames.count { encoding[code] = glyphNames[glyph] }
                    glyph += 1
                }
            }
        default: return
        }
        guard format & 0x80 != 0, offset < bytes.count else { return }
        let supplements = Int(bytes[offset])
        offset += 1
        for _ in 0..<supplements {
            guard offset + 2 < bytes.count else { return }
            let code = Int(bytes[offset])
            let sid = Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2])
            offset += 3
            encoding[code] = name(sid)
        }
    }

    /// The SID (name-keyed) or CID (CID-keyed) of each glyph; nil for the predefined Expert charsets,
    /// whose tables are not here.
    private static func charset(_ bytes: [UInt8], at start: Int, glyphs: Int) -> [Int]? {
        switch start {
        case 0: return (0..<glyphs).map { $0 < 229 ? $0 : 0 }  // ISOAdobe: SIDs 0 to 228
        case 1, 2: return nil
        default: break
        }
        guard start >= 0, start < bytes.count else { return nil }
        var values = [0]
        values.reserveCapacity(glyphs)
        var offset = start + 1
        func read16() -> Int? {
            guard offset + 1 < bytes.count else { return nil }
            defer { offset += 2 }
            return Int(bytes[offset]) << 8 | Int(bytes[offset + 1])
        }
        let format = bytes[start]
        while values.count < glyphs {
            switch format {
            case 0:
                guard let value = read16() else { return values.count > 1 ? pad(values, glyphs) : nil }
                values.append(value)
            case 1, 2:
                guard let first = read16() else { return values.count > 1 ? pad(values, glyphs) : nil }
                let left: Int
                if format == 1 {
                    guard offset < bytes.count else { return pad(values, glyphs) }
                    left = Int(bytes[offset])
                    offset += 1
                } else {
                    guard let value = read16() else { return pad(values, glyphs) }
                    left = value
                }
                for step in 0...left where values.count < glyphs { values.append(first + step) }
            default: return nil
            }
        }
        return values
    }

    private static func pad(_ values: [Int], _ count: Int) -> [Int] {
        values + Array(repeating: 0, count: max(0, count - values.count))
    }

    /// The byte ranges of an INDEX's objects, moving `offset` past it; nil when damaged.
    static func index(_ bytes: [UInt8], at offset: inout Int) -> [Range<Int>]? {
        guard offset >= 0, offset + 2 <= bytes.count else { return nil }
        let count = Int(bytes[offset]) << 8 | Int(bytes[offset + 1])
        offset += 2
        guard count > 0 else { return [] }
        guard offset < bytes.count else { return nil }
        let size = Int(bytes[offset])
        offset += 1
        guard (1...4).contains(size), offset + (count + 1) * size <= bytes.count else { return nil }
        func read(_ index: Int) -> Int {
            var value = 0
            for byte in 0..<size { value = value << 8 | Int(bytes[offset + index * size + byte]) }
            return value
        }
        let dataStart = offset + (count + 1) * size - 1
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(count)
        var previous = read(0)
        for index in 1...count {
            let next = read(index)
            guard previous >= 1, next >= previous, dataStart + next <= bytes.count else { return nil }
            ranges.append(dataStart + previous..<dataStart + next)
            previous = next
        }
        offset = dataStart + previous
        return ranges
    }

    /// The integer operands of each DICT operator (two-byte operators as 1200 + the second byte);
    /// reals read as 0.
    static func dict(_ bytes: [UInt8], _ range: Range<Int>) -> [Int: [Int]]? {
        var entries: [Int: [Int]] = [:]
        var operands: [Int] = []
        var offset = range.lowerBound
        func byte() -> Int? {
            guard offset < range.upperBound else { return nil }
            defer { offset += 1 }
            return Int(bytes[offset])
        }
        while let b0 = byte() {
            switch b0 {
            case 0...11, 13...21:
                entries[b0] = operands
                operands = []
            case 12:
                guard let b1 = byte() else { return nil }
                entries[1200 + b1] = operands
                operands = []
            case 28:
                guard let b1 = byte(), let b2 = byte() else { return nil }
                operands.append(Int(Int16(truncatingIfNeeded: b1 << 8 | b2)))
            case 29:
                guard let b1 = byte(), let b2 = byte(), let b3 = byte(), let b4 = byte() else { return nil }
                operands.append(Int(Int32(truncatingIfNeeded: b1 << 24 | b2 << 16 | b3 << 8 | b4)))
            case 30:
                while let nibbles = byte(), nibbles & 0x0F != 0x0F, nibbles >> 4 != 0x0F {}
                operands.append(0)
            case 32...246: operands.append(b0 - 139)
            case 247...250:
                guard let b1 = byte() else { return nil }
                operands.append((b0 - 247) * 256 + b1 + 108)
            case 251...254:
                guard let b1 = byte() else { return nil }
                operands.append(-(b0 - 251) * 256 - b1 - 108)
            default: return nil
            }
            if operands.count > 48 { return nil }
        }
        return entries
    }
}
