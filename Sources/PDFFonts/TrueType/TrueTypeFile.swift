package import PDFCore

/// A four-letter OpenType table tag such as `glyf` (OpenType spec, "Table directory").
package struct FontTableTag: Hashable, Sendable, Comparable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The four ASCII letters as a big-endian 32-bit number (how the table directory stores them).
    package let value: UInt32

    package init(_ value: UInt32) { self.value = value }

    package init(stringLiteral text: String) {
        var value: UInt32 = 0
        for byte in text.utf8.prefix(4) { value = value << 8 | UInt32(byte) }
        for _ in text.utf8.count..<max(4, text.utf8.count) { value = value << 8 | 0x20 }
        self.value = value
    }

    package static func < (lhs: FontTableTag, rhs: FontTableTag) -> Bool { lhs.value < rhs.value }

    package var description: String {
        let scalars = [24, 16, 8, 0].map { Unicode.Scalar(UInt8(truncatingIfNeeded: value >> UInt32($0))) }
        return String(String.UnicodeScalarView(scalars))
    }

    static let cmap: FontTableTag = "cmap"
    static let head: FontTableTag = "head"
    static let hhea: FontTableTag = "hhea"
    static let hmtx: FontTableTag = "hmtx"
    static let maxp: FontTableTag = "maxp"
    static let name: FontTableTag = "name"
    static let os2: FontTableTag = "OS/2"
    static let post: FontTableTag = "post"
    static let glyf: FontTableTag = "glyf"
    static let loca: FontTableTag = "loca"
    static let cvt: FontTableTag = "cvt "
    static let fpgm: FontTableTag = "fpgm"
    static let prep: FontTableTag = "prep"
    package static let cff: FontTableTag = "CFF "
    static let cff2: FontTableTag = "CFF2"
    // Not tables: the collection header and sfnt versions.
    static let collection: FontTableTag = "ttcf"
    static let appleTrueType: FontTableTag = "true"
    package static let openTypeCFF: FontTableTag = "OTTO"
    static let type1: FontTableTag = "typ1"
}

/// A rectangle in font design units (`head` bounding box, a glyph's bounding box).
package struct FontBox: Hashable, Sendable {
    package var xMin: Int
    package var yMin: Int
    package var xMax: Int
    package var yMax: Int
}

/// An sfnt font (TrueType `.ttf`, OpenType `.otf`, or one font of a `.ttc`/`.otc` collection) read
/// from bytes: the tables a PDF font needs, parsed and bounds-checked (OpenType spec 1.9: `head`,
/// `hhea`, `hmtx`, `maxp`, `cmap`, `loca`, `glyf`, `OS/2`, `post`, `name`, and for CFF outlines the
/// charset of `CFF `).
///
/// Every offset and count in the font is checked before use: a damaged or hostile font throws
/// `PDFError` `.decodeFailed` (or `.unsupported` for fonts that are valid but have no outlines this
/// code can embed); it never traps. Glyph locations that point outside `glyf` read as empty glyphs.
package struct TrueTypeFile: Sendable {
    /// How glyph outlines are stored.
    package enum OutlineFormat: Sendable {
        /// Quadratic outlines in `glyf`/`loca` (TrueType).
        case trueType
        /// A Compact Font Format program in `CFF ` (OpenType/CFF).
        case cff
    }

    /// The whole file (the whole collection for a member of a `.ttc`); table ranges index it.
    package let bytes: [UInt8]
    /// The byte range of each table in ``bytes``.
    package let tables: [FontTableTag: Range<Int>]
    /// True when the font was taken from a collection (`ttcf`).
    package let isCollectionMember: Bool
    package let outlineFormat: OutlineFormat

    /// Design units per em (`head.unitsPerEm`, 16…16384).
    package let unitsPerEm: Int
    /// The union of all glyph boxes (`head` xMin … yMax).
    package let boundingBox: FontBox
    /// `head.macStyle` (bit 0 bold, bit 1 italic).
    package let macStyle: UInt16
    /// `maxp.numGlyphs` (at least 1).
    package let numberOfGlyphs: Int
    /// `hhea` ascender, descender (negative) and line gap, in design units.
    package let ascender: Int
    package let descender: Int
    package let lineGap: Int
    /// The advance width of every glyph (`hmtx`, the last long metric repeated), in design units.
    package let advanceWidths: [UInt16]
    /// The left side bearing of every glyph (`hmtx`), in design units.
    package let leftSideBearings: [Int16]
    /// The `OS/2` values a PDF font descriptor needs, when the table is present and readable.
    package let os2: OS2Values?
    /// `post` italic angle in degrees (counter-clockwise from vertical; negative leans right).
    package let italicAngle: Double
    /// `post` underline position and thickness, in design units.
    package let underlinePosition: Int16
    package let underlineThickness: Int16
    /// `post.isFixedPitch` is non-zero.
    package let isFixedPitch: Bool
    /// The PostScript name (`name` ID 6), restricted to the characters a PDF name and a PostScript
    /// name both allow; nil when absent.
    package let postScriptName: String?
    /// The full font name (`name` ID 4), for messages and as a fallback name.
    package let fullName: String?
    /// The Unicode character map (`cmap`); empty when the font has no `cmap` or no Unicode subtable.
    package let characterMap: CharacterMap
    /// For TrueType outlines, `numberOfGlyphs + 1` glyph offsets relative to the start of `glyf`
    /// (`loca`, converted to bytes); empty for CFF outlines.
    package let glyphOffsets: [Int]
    /// For CFF outlines of a CID-keyed font, the CID of each glyph (from the CFF charset); nil
    /// otherwise, where glyph ids are the CIDs.
    package let cffGlyphCIDs: [Int]?

    /// Parses the font at `index` in `bytes` (0 for a single font).
    /// - Throws: `PDFError` `.decodeFailed` for damaged data, `.invalidArgument` for an index
    ///   outside the collection, `.unsupported` for fonts without TrueType or CFF outlines.
    package init(bytes: [UInt8], index: Int = 0) throws(PDFError) {
        self.bytes = bytes
        let directory = try Self.tableDirectory(in: bytes, index: index, fileSize: bytes.count)
        self.tables = directory.tables
        self.isCollectionMember = directory.isCollection

        let head = try Self.parseHead(bytes, try Self.require(.head, in: tables))
        unitsPerEm = head.unitsPerEm
        boundingBox = head.boundingBox
        macStyle = head.macStyle
        numberOfGlyphs = try Self.parseMaxp(bytes, try Self.require(.maxp, in: tables))
        let hhea = try Self.parseHhea(bytes, try Self.require(.hhea, in: tables))
        ascender = hhea.ascender
        descender = hhea.descender
        lineGap = hhea.lineGap
        let metrics = try Self.parseHmtx(
            bytes, try Self.require(.hmtx, in: tables), longMetrics: hhea.numberOfHMetrics, glyphs: numberOfGlyphs)
        advanceWidths = metrics.advances
        leftSideBearings = metrics.bearings

        if let glyf = tables[.glyf], let loca = tables[.loca] {
            outlineFormat = .trueType
            glyphOffsets = try Self.parseLoca(
                bytes, loca, longFormat: head.indexToLocFormat == 1, glyphs: numberOfGlyphs, glyfLength: glyf.count)
            cffGlyphCIDs = nil
        } else if let cff = tables[.cff] {
            outlineFormat = .cff
            glyphOffsets = []
            cffGlyphCIDs = try Self.parseCFFCharset(bytes, cff, glyphs: numberOfGlyphs)
        } else {
            throw PDFError(.unsupported, "the font has neither TrueType (glyf) nor CFF outlines")
        }

        // A font program embedded in a PDF may lack a cmap (ISO 32000-2 §9.9): read it as empty.
        if let cmap = tables[.cmap] {
            characterMap = try CharacterMap(bytes, cmap, glyphs: numberOfGlyphs)
        } else {
            characterMap = CharacterMap()
        }
        os2 = tables[.os2].flatMap { Self.parseOS2(bytes, $0) }
        let post = tables[.post].flatMap { Self.parsePost(bytes, $0) }
        italicAngle = post?.italicAngle ?? 0
        underlinePosition = post?.underlinePosition ?? 0
        underlineThickness = post?.underlineThickness ?? 0
        isFixedPitch = post?.isFixedPitch ?? false
        let names = tables[.name].map { Self.parseNames(bytes, $0) }
        postScriptName = names?.postScriptName
        fullName = names?.fullName
    }

    /// The outline format of the font at `index` in the file at `path`, read from its table
    /// directory only; nil when the file is not an sfnt font or cannot be read.
    package static func outlineFormat(ofFileAt path: String, index: Int) -> OutlineFormat? {
        guard let source = try? ByteSource(contentsOfFile: path) else { return nil }
        // The directories sit near the start of a file; read more only for a collection that needs it.
        var prefix = source.bytes(in: 0..<min(source.count, 1 << 16))
        var directory = try? tableDirectory(in: prefix, index: index, fileSize: source.count)
        if directory == nil, source.count > prefix.count {
            prefix = source.bytes(in: 0..<source.count)
            directory = try? tableDirectory(in: prefix, index: index, fileSize: source.count)
        }
        guard let tables = directory?.tables else { return nil }
        if tables[.glyf] != nil, tables[.loca] != nil { return .trueType }
        if tables[.cff] != nil { return .cff }
        return nil
    }

    // MARK: Glyphs

    /// The bytes of glyph `glyph` in ``bytes`` (empty for a glyph without outline or out of range).
    package func glyphRange(_ glyph: Int) -> Range<Int> {
        guard outlineFormat == .trueType, glyph >= 0, glyph + 1 < glyphOffsets.count,
            let glyf = tables[.glyf]
        else { return 0..<0 }
        let start = glyphOffsets[glyph]
        let end = glyphOffsets[glyph + 1]
        guard start < end, end <= glyf.count else { return 0..<0 }
        return glyf.lowerBound + start..<glyf.lowerBound + end
    }

    /// The bounding box in a glyph's header (`glyf`), or nil for an empty glyph.
    package func glyphBox(_ glyph: Int) -> FontBox? {
        let cursor = FontDataCursor(bytes, range: glyphRange(glyph))
        guard let xMin = cursor.peekInt16(at: 2), let yMin = cursor.peekInt16(at: 4),
            let xMax = cursor.peekInt16(at: 6), let yMax = cursor.peekInt16(at: 8)
        else { return nil }
        return FontBox(xMin: Int(xMin), yMin: Int(yMin), xMax: Int(xMax), yMax: Int(yMax))
    }

    /// The glyphs a composite glyph is made of (OpenType `glyf`, "Composite glyph description");
    /// empty for a simple or empty glyph.
    /// - Throws: `.decodeFailed` when the component records run past the glyph or name a glyph
    ///   the font does not have.
    package func components(ofGlyph glyph: Int) throws(PDFError) -> [Int] {
        var cursor = FontDataCursor(bytes, range: glyphRange(glyph))
        guard let contours = cursor.readInt16(), contours < 0 else { return [] }
        guard cursor.skip(8) else { throw Self.damaged("glyph \(glyph) is truncated") }
        var result: [Int] = []
        while true {
            guard let flags = cursor.readUInt16(), let component = cursor.readUInt16() else {
                throw Self.damaged("composite glyph \(glyph) is truncated")
            }
            guard Int(component) < numberOfGlyphs else {
                throw Self.damaged("composite glyph \(glyph) uses glyph \(component), beyond numGlyphs")
            }
            result.append(Int(component))
            // ARG_1_AND_2_ARE_WORDS, then WE_HAVE_A_SCALE / AN_X_AND_Y_SCALE / A_TWO_BY_TWO.
            var argumentBytes = flags & 0x0001 != 0 ? 4 : 2
            if flags & 0x0008 != 0 {
                argumentBytes += 2
            } else if flags & 0x0040 != 0 {
                argumentBytes += 4
            } else if flags & 0x0080 != 0 {
                argumentBytes += 8
            }
            guard cursor.skip(argumentBytes) else { throw Self.damaged("composite glyph \(glyph) is truncated") }
            if flags & 0x0020 == 0 { break }  // MORE_COMPONENTS
        }
        return result
    }

    /// The advance width of `glyph` in design units (that of glyph 0 when out of range).
    package func advanceWidth(ofGlyph glyph: Int) -> Int {
        guard glyph >= 0, glyph < advanceWidths.count else { return advanceWidths.first.map(Int.init) ?? 0 }
        return Int(advanceWidths[glyph])
    }

    /// The bytes of table `tag`, or nil when the font has none.
    package func table(_ tag: FontTableTag) -> ArraySlice<UInt8>? {
        tables[tag].map { bytes[$0] }
    }

    // MARK: Table directory

    /// Reads the table directory of font `index` (OpenType "Organization of an OpenType font",
    /// and "Font collections" for `ttcf`); every table must lie within `fileSize` bytes.
    package static func tableDirectory(
        in bytes: [UInt8], index: Int, fileSize: Int
    ) throws(PDFError) -> (tables: [FontTableTag: Range<Int>], isCollection: Bool) {
        var cursor = FontDataCursor(bytes)
        guard let tag = cursor.peekUInt32() else { throw damaged("the file is too short for a font") }
        var fontOffset = 0
        let isCollection = tag == FontTableTag.collection.value
        if isCollection {
            guard let count = cursor.peekUInt32(at: 8) else { throw damaged("the collection header is truncated") }
            guard index >= 0, index < Int(count) else {
                throw PDFError(.invalidArgument, "font index \(index) is not in a collection of \(count)")
            }
            guard let offset = cursor.peekUInt32(at: 12 + 4 * index) else {
                throw damaged("the collection's offset table is truncated")
            }
            fontOffset = Int(offset)
        } else if index != 0 {
            throw PDFError(.invalidArgument, "font index \(index) given for a file that is not a collection")
        }
        cursor = FontDataCursor(bytes, from: fontOffset, upTo: bytes.count)
        guard let version = cursor.readUInt32(), let count = cursor.readUInt16(), cursor.skip(6) else {
            throw damaged("the table directory is truncated")
        }
        switch version {
        case 0x0001_0000, FontTableTag.appleTrueType.value, FontTableTag.openTypeCFF.value: break
        case FontTableTag.type1.value: throw PDFError(.unsupported, "sfnt-wrapped Type 1 fonts are not supported")
        default: throw damaged("not an sfnt font (version 0x\(String(version, radix: 16)))")
        }
        var tables: [FontTableTag: Range<Int>] = [:]
        for _ in 0..<Int(count) {
            guard let tag = cursor.readUInt32(), cursor.skip(4), let offset = cursor.readUInt32(),
                let length = cursor.readUInt32()
            else { throw damaged("the table directory is truncated") }
            let start = Int(offset)
            let end = start + Int(length)
            guard end <= fileSize else {
                throw damaged("table '\(FontTableTag(tag))' lies past the end of the file")
            }
            if tables[FontTableTag(tag)] == nil { tables[FontTableTag(tag)] = start..<end }
        }
        return (tables, isCollection)
    }

    static func require(_ tag: FontTableTag, in tables: [FontTableTag: Range<Int>]) throws(PDFError) -> Range<Int> {
        guard let range = tables[tag] else { throw damaged("the required '\(tag)' table is missing") }
        return range
    }

    static func damaged(_ message: String, fileID: StaticString = #fileID, line: Int = #line) -> PDFError {
        PDFError(.decodeFailed, "font: " + message, fileID: fileID, line: line)
    }
}
