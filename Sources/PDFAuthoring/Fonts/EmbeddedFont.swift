public import PDFCore
public import PDFFonts
import Synchronization

/// A TrueType or OpenType font embedded in the PDF, for text that the standard 14 fonts cannot
/// show (Greek, Cyrillic, Arabic, CJK …): a Type 0 font with Identity-H encoding whose codes are
/// glyph ids (ISO 32000-2 §9.7 CID-keyed fonts), a `/ToUnicode` map so the text can be extracted
/// and searched (§9.10.3), and the font program embedded (§9.9).
///
/// ```swift
/// guard let file = SystemFonts.font(covering: text) else { … }
/// let font = try EmbeddedFont(fontFile: file)
/// let operand = font.encode(text)          // for `<…> Tj`
/// let resource = try font.fontDictionary(adding: { builder.add($0) })
/// ```
///
/// Fonts with TrueType outlines are embedded as a subset holding only the glyphs encoded (a
/// CIDFontType2 with `/FontFile2` and `/CIDToGIDMap /Identity`); the subset's name starts with a
/// six-letter tag derived from its glyphs, so the same text gives the same bytes.
///
/// Limitations: each Unicode scalar is drawn with the glyph the font's `cmap` gives it. There is no
/// shaping: no ligatures, no contextual forms (Arabic letters appear in their isolated forms), no
/// reordering (give right-to-left text in the order it should be drawn), no kerning. OpenType
/// fonts with CFF outlines are not subset: the whole font file is embedded (a CIDFontType0 with
/// `/FontFile3 /Subtype /OpenType`, PDF 1.6), which makes documents larger.
///
/// The glyphs used are recorded under a lock, so a font can encode text from many tasks.
public final class EmbeddedFont: PDFFont {
    /// The parsed font.
    package let font: TrueTypeFile
    /// The font's PostScript name (the `/BaseFont`, without a subset tag).
    public let postScriptName: String
    /// Height above the baseline of the tallest glyphs (`hhea` ascender), in 1/1000 em.
    public let ascent: Double
    /// Depth below the baseline (`hhea` descender), in 1/1000 em (negative).
    public let descent: Double
    /// Height of capital letters (`OS/2` sCapHeight, else the top of the glyph for "H"), in 1/1000 em.
    public let capHeight: Double
    /// The glyphs encoded so far and the text each stands for.
    private let usage = Mutex(Usage())

    struct Usage: Sendable {
        var glyphs: Set<Int> = []
        var texts: [Int: String] = [:]
    }

    /// Reads and parses the font in `fontFile` (for example one found by `SystemFonts`).
    /// - Throws: `PDFError` `.fileUnreadable` when the file cannot be read, `.decodeFailed` for a
    ///   damaged font, `.invalidArgument` for an index outside a collection, `.unsupported` when
    ///   the font's licence forbids embedding (`OS/2` fsType), it has no Unicode `cmap`, or no
    ///   TrueType or CFF outlines.
    public init(fontFile: SystemFonts.FontFile) throws(PDFError) {
        let source = try ByteSource(contentsOfFile: fontFile.path)
        let font = try TrueTypeFile(bytes: source.bytes(in: 0..<source.count), index: fontFile.index)
        let metrics = try Self.check(font)
        self.font = font
        (postScriptName, ascent, descent, capHeight) = metrics
    }

    /// A font parsed from the bytes of a `.ttf`, `.otf`, `.ttc` or `.otc` file.
    /// - Throws: as ``init(fontFile:)``, without `.fileUnreadable`.
    package init(font: TrueTypeFile) throws(PDFError) {
        let metrics = try Self.check(font)
        self.font = font
        (postScriptName, ascent, descent, capHeight) = metrics
    }

    /// Reads the font at `index` of the file at `path`.
    /// - Throws: as ``init(fontFile:)``.
    public convenience init(path: String, index: Int = 0) throws(PDFError) {
        try self.init(fontFile: SystemFonts.FontFile(path: path, index: index))
    }

    /// Parses the font at `index` of `bytes` (the contents of a font file).
    /// - Throws: as ``init(fontFile:)``, without `.fileUnreadable`.
    public convenience init(bytes: [UInt8], index: Int = 0) throws(PDFError) {
        try self.init(font: TrueTypeFile(bytes: bytes, index: index))
    }

    /// Refuses fonts that must not or cannot be embedded; returns the name and vertical metrics.
    private static func check(
        _ font: TrueTypeFile
    ) throws(PDFError) -> (name: String, ascent: Double, descent: Double, capHeight: Double) {
        if let os2 = font.os2 {
            guard !os2.forbidsEmbedding else {
                throw PDFError(.unsupported, "the font's licence forbids embedding (OS/2 fsType restricted)")
            }
            guard !os2.allowsBitmapsOnly else {
                throw PDFError(.unsupported, "the font's licence allows embedding bitmaps only (OS/2 fsType)")
            }
        }
        guard !font.characterMap.isEmpty else {
            throw PDFError(.unsupported, "the font has no Unicode character map (cmap)")
        }
        let scale = 1000 / Double(font.unitsPerEm)
        let typoAscender = font.os2?.typoAscender ?? 0
        let typoDescender = font.os2?.typoDescender ?? 0
        let ascent = Double(font.ascender != 0 ? font.ascender : typoAscender) * scale
        let descent = Double(font.descender != 0 ? font.descender : typoDescender) * scale
        var capHeight = Double(font.os2?.capHeight ?? 0) * scale
        if capHeight <= 0, let box = font.glyphBox(font.characterMap.glyph(for: "H")), box.yMax > 0 {
            capHeight = Double(box.yMax) * scale
        }
        if capHeight <= 0 { capHeight = ascent }
        let name =
            font.postScriptName ?? font.fullName.map(TrueTypeFile.sanitizedPostScriptName).flatMap {
                $0.isEmpty ? nil : $0
            } ?? "EmbeddedFont"
        return (name, ascent, -abs(descent), capHeight)
    }

    // MARK: Text

    /// The advance width of `glyph` in 1/1000 em, rounded to a whole unit as written in `/W`.
    private func width(ofGlyph glyph: Int) -> Int {
        Int((Double(font.advanceWidth(ofGlyph: glyph)) * 1000 / Double(font.unitsPerEm)).rounded())
    }

    /// The character code of `glyph`: the glyph id, or its CID in a CID-keyed CFF font.
    private func code(ofGlyph glyph: Int) -> Int {
        guard let cids = font.cffGlyphCIDs else { return glyph }
        return glyph < cids.count ? cids[glyph] : 0
    }

    /// True when every Unicode scalar of `text` maps to a glyph other than `.notdef`.
    public func canEncode(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { font.characterMap.glyph(for: $0) != 0 }
    }

    /// The advance width of `text` in 1/1000 em, one glyph per Unicode scalar (`.notdef` for a
    /// scalar without a glyph), as viewers will draw it from `/W`.
    public func width(of text: String) -> Double {
        Double(text.unicodeScalars.reduce(0) { $0 + width(ofGlyph: font.characterMap.glyph(for: $1)) })
    }

    /// Two bytes per Unicode scalar, big-endian: the glyph id (Identity-H, ISO 32000-2 §9.7.5.2),
    /// or `.notdef` (0) for a scalar without a glyph. The glyphs and their text are remembered for
    /// the subset and the `/ToUnicode` map; when several scalars share a glyph, the first one
    /// encoded is the glyph's text.
    public func encode(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(2 * text.unicodeScalars.count)
        var glyphs: [(glyph: Int, scalar: Unicode.Scalar)] = []
        for scalar in text.unicodeScalars {
            let glyph = font.characterMap.glyph(for: scalar)
            let code = code(ofGlyph: glyph)
            bytes.append(UInt8(truncatingIfNeeded: code >> 8))
            bytes.append(UInt8(truncatingIfNeeded: code))
            glyphs.append((glyph, scalar))
        }
        usage.withLock { usage in
            for (glyph, scalar) in glyphs {
                usage.glyphs.insert(glyph)
                if glyph != 0, usage.texts[glyph] == nil { usage.texts[glyph] = String(scalar) }
            }
        }
        return bytes
    }

    // MARK: PDF objects

    /// The Type 0 font dictionary (ISO 32000-2 §9.7.6) for the text encoded so far. Adds through
    /// `add`, in this order: the font program stream, the font descriptor (§9.8), the CIDFont
    /// (§9.7.4) and the `/ToUnicode` CMap stream (§9.10.3).
    ///
    /// For TrueType outlines the font program is a subset with the glyphs encoded, or the whole
    /// font when its `OS/2` fsType forbids subsetting; for CFF outlines it is the whole font.
    /// - Throws: `PDFError` `.decodeFailed` or `.limitExceeded` when a glyph needed for the subset
    ///   is damaged, `.unsupported` when the MD5 of the subset tag cannot be computed.
    public func fontDictionary(adding add: (PDFObject) -> PDFReference) throws(PDFError) -> PDFDictionary {
        let usage = usage.withLock { $0 }
        let isCFF = font.outlineFormat == .cff
        let program: [UInt8]
        var baseFont = postScriptName
        if isCFF {
            program = try openTypeProgram()
        } else if font.os2?.forbidsSubsetting == true {
            program = try TrueTypeSubsetter(font: font).subset(keeping: 0..<font.numberOfGlyphs)
        } else {
            let subsetter = TrueTypeSubsetter(font: font)
            let kept = try subsetter.closure(of: usage.glyphs)
            program = try subsetter.subset(keeping: kept)
            baseFont = try Self.subsetTag(for: kept) + "+" + postScriptName
        }

        var fileDictionary: PDFDictionary = [:]
        if isCFF {
            fileDictionary[.subtype] = .name("OpenType")
        } else {
            fileDictionary["Length1"] = .integer(program.count)
        }
        let fileReference = add(.stream(PDFStream(dictionary: fileDictionary, data: program, compress: true)))
        let descriptorReference = add(.dictionary(descriptor(name: baseFont, file: fileReference, isCFF: isCFF)))

        let codes = usage.glyphs.map { (code: code(ofGlyph: $0), width: width(ofGlyph: $0)) }
        let (defaultWidth, widths) = Self.widthArray(codes)
        var cidFont: PDFDictionary = [
            .type: .name("Font"), .subtype: .name(isCFF ? "CIDFontType0" : "CIDFontType2"),
            "BaseFont": .name(PDFName(baseFont)),
            "CIDSystemInfo": .dictionary([
                "Registry": .string(PDFString(bytes: Array("Adobe".utf8))),
                "Ordering": .string(PDFString(bytes: Array("Identity".utf8))), "Supplement": 0,
            ]),
            "FontDescriptor": .reference(descriptorReference), "DW": .integer(defaultWidth),
        ]
        if !widths.isEmpty { cidFont[.w] = .array(widths) }
        if !isCFF { cidFont["CIDToGIDMap"] = .name(.identity) }
        let cidFontReference = add(.dictionary(cidFont))

        var mappings: [UInt32: String] = [:]
        for (glyph, text) in usage.texts { mappings[UInt32(code(ofGlyph: glyph))] = text }
        let toUnicode = ToUnicodeCMap.make(mappings, codeLength: 2)
        let toUnicodeReference = add(.stream(PDFStream(data: toUnicode, compress: true)))

        return [
            .type: .name("Font"), .subtype: .name("Type0"),
            // §9.7.6.1: a CIDFontType0's name is followed by the CMap's name.
            "BaseFont": .name(PDFName(isCFF ? baseFont + "-Identity-H" : baseFont)),
            "Encoding": .name("Identity-H"), "DescendantFonts": .array([.reference(cidFontReference)]),
            "ToUnicode": .reference(toUnicodeReference),
        ]
    }

    /// The font descriptor (ISO 32000-2 §9.8): flags, box and metrics in 1/1000 em, and the program.
    private func descriptor(name: String, file: PDFReference, isCFF: Bool) -> PDFDictionary {
        let scale = 1000 / Double(font.unitsPerEm)
        let box = font.boundingBox
        let weight = Double(font.os2?.weightClass ?? 400)
        var flags = 4  // Symbolic: glyphs outside the standard Latin set (§9.8.2, Table 121)
        if font.isFixedPitch { flags |= 1 }
        if let familyClass = font.os2?.familyClass {
            if (1...7).contains(familyClass) { flags |= 2 }  // Serif
            if familyClass == 10 { flags |= 8 }  // Script
        }
        if font.italicAngle != 0 || font.macStyle & 0x0002 != 0 { flags |= 64 }  // Italic
        var descriptor: PDFDictionary = [
            .type: .name("FontDescriptor"), "FontName": .name(PDFName(name)), "Flags": .integer(flags),
            "FontBBox": .array(
                [box.xMin, box.yMin, box.xMax, box.yMax].map { .integer(Int((Double($0) * scale).rounded())) }),
            "ItalicAngle": Self.number(font.italicAngle),
            "Ascent": .integer(Int(ascent.rounded())), "Descent": .integer(Int(descent.rounded())),
            "CapHeight": .integer(Int(capHeight.rounded())),
            // No stem width is stored in TrueType fonts; estimate it from the weight class.
            "StemV": .integer(Int((50 + (weight / 65) * (weight / 65)).rounded())),
        ]
        if let xHeight = font.os2?.xHeight, xHeight > 0 {
            descriptor["XHeight"] = .integer(Int((Double(xHeight) * scale).rounded()))
        }
        descriptor[isCFF ? "FontFile3" : "FontFile2"] = .reference(file)
        return descriptor
    }

    /// The whole OpenType font for `/FontFile3 /Subtype /OpenType`: the file itself, or for a
    /// member of a collection, its tables copied into a file of their own.
    private func openTypeProgram() throws(PDFError) -> [UInt8] {
        guard font.isCollectionMember else { return font.bytes }
        let tables = font.tables.sorted { $0.key < $1.key }.map { ($0.key, Array(font.bytes[$0.value])) }
        return TrueTypeSubsetter.assemble(tables, version: FontTableTag.openTypeCFF.value)
    }

    /// Six capital letters from an MD5 of the glyph ids (ISO 32000-2 §9.9.2 subset tags).
    static func subsetTag(for glyphs: Set<Int>) throws(PDFError) -> String {
        var data: [UInt8] = []
        for glyph in glyphs.sorted() {
            data.append(UInt8(truncatingIfNeeded: glyph >> 8))
            data.append(UInt8(truncatingIfNeeded: glyph))
        }
        let digest = try Digest.md5.hash(data)
        return String(decoding: digest.prefix(6).map { UInt8(ascii: "A") + $0 % 26 }, as: UTF8.self)
    }

    /// `/DW` and `/W` (ISO 32000-2 §9.7.4.3) for codes and widths: the most common width becomes
    /// the default and is left out of `/W`; the rest is written as `c [w1 w2 …]` for consecutive
    /// codes, or `cfirst clast w` for three or more consecutive codes of the same width.
    static func widthArray(_ entries: [(code: Int, width: Int)]) -> (defaultWidth: Int, widths: [PDFObject]) {
        var counts: [Int: Int] = [:]
        for entry in entries { counts[entry.width, default: 0] += 1 }
        let defaultWidth =
            counts.max { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) }?.key ?? 1000
        var remaining: [Int: Int] = [:]
        for entry in entries where entry.width != defaultWidth { remaining[entry.code] = entry.width }
        let sorted = remaining.keys.sorted()
        var widths: [PDFObject] = []
        var index = 0
        while index < sorted.count {
            // A block of consecutive codes.
            var end = index
            while end + 1 < sorted.count, sorted[end + 1] == sorted[end] + 1 { end += 1 }
            var position = index
            var pending: [PDFObject] = []
            var pendingStart = 0
            while position <= end {
                let width = remaining[sorted[position]] ?? 0
                var runEnd = position
                while runEnd + 1 <= end, remaining[sorted[runEnd + 1]] == width { runEnd += 1 }
                if runEnd - position >= 2 {
                    if !pending.isEmpty { widths += [.integer(pendingStart), .array(pending)] }
                    pending = []
                    widths += [.integer(sorted[position]), .integer(sorted[runEnd]), .integer(width)]
                } else {
                    if pending.isEmpty { pendingStart = sorted[position] }
                    for step in position...runEnd { pending.append(.integer(remaining[sorted[step]] ?? 0)) }
                }
                position = runEnd + 1
            }
            if !pending.isEmpty { widths += [.integer(pendingStart), .array(pending)] }
            index = end + 1
        }
        return (defaultWidth, widths)
    }

    /// An integer when `value` is whole, else a real with two decimals.
    private static func number(_ value: Double) -> PDFObject {
        let rounded = (value * 100).rounded() / 100
        if rounded == rounded.rounded(), abs(rounded) < 1e9 { return .integer(Int(rounded)) }
        return .real(PDFReal(rounded))
    }
}
