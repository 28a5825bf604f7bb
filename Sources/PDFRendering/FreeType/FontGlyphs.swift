internal import CCairo
internal import CFreeType
import PDFCore
import PDFFonts
import PDFGraphics

/// How a font's codes select glyphs of its face (ISO 32000-2 §9.6.5, §9.7.4.2), decided once when
/// the face is loaded, as MuPDF (pdf-font.c) and poppler select them.
final class FontGlyphs: Sendable {
    enum Mapping: Sendable {
        /// Simple fonts: the glyph of each code 0–255.
        case codes([UInt32])
        /// CID-keyed CFF and CID Type 1 programs: FreeType takes the CID as the glyph index.
        case cid
        /// CIDFontType2: `/CIDToGIDMap`, else the identity.
        case cidToGID
        /// Substituted CIDFonts: the glyph's Unicode text through the face's Unicode charmap; in
        /// vertical writing, the vertical presentation forms where the face has them.
        case unicode(vertical: Bool)
    }

    let face: TextFace
    let mapping: Mapping
    /// Substitutes are scaled horizontally so each glyph's advance is the PDF's width (MuPDF's
    /// `ft_stretch`): not the standard 14 (whose metrics the URW fonts share) nor CJK fonts.
    let stretch: Bool
    /// True when the face is not the font's own program.
    let isSubstitute: Bool

    init(face: TextFace, mapping: Mapping, stretch: Bool, isSubstitute: Bool) {
        self.face = face
        self.mapping = mapping
        self.stretch = stretch
        self.isSubstitute = isSubstitute
    }

    /// The glyph index (for FreeType) of a positioned glyph of the font.
    func glyphIndex(_ glyph: PositionedGlyph, font: LoadedFont) -> UInt32 {
        switch mapping {
        case .codes(let table):
            return glyph.code < 256 ? table[Int(glyph.code)] : 0
        case .cid:
            return glyph.cid
        case .cidToGID:
            return font.glyphIndex(forCID: glyph.cid) ?? glyph.cid
        case .unicode(let vertical):
            guard let scalar = glyph.unicode?.unicodeScalars.first?.value else { return 0 }
            let table = face.tables.unicode
            if vertical, let form = VerticalForms.form(of: scalar), let index = table[form] { return index }
            return table[scalar] ?? 0
        }
    }

    /// The horizontal scale that gives glyph `index` the advance `advance` (em), or 1.
    func horizontalScale(_ index: UInt32, advance: Double) -> Double {
        guard stretch, advance > 0, advance.isFinite, let own = face.tables.advance(of: index) else { return 1 }
        return advance / own
    }

    // MARK: Loading

    static func load(_ font: LoadedFont, renderer: FontRenderer) -> FontGlyphs? {
        if let program = font.program, let glyphs = embedded(font, program: program, renderer: renderer) {
            return glyphs
        }
        return substitute(font, renderer: renderer)
    }

    /// The embedded program (MuPDF reads the CFF table of an OpenType font as a bare CFF font).
    private static func embedded(_ font: LoadedFont, program: LoadedFont.Program, renderer: FontRenderer)
        -> FontGlyphs?
    {
        var bytes = program.data
        if bytes.starts(with: Array("OTTO".utf8)),
            let cff = try? TrueTypeFile.tableDirectory(in: bytes, index: 0, fileSize: bytes.count).tables[.cff]
        {
            bytes = Array(bytes[cff])
        }
        guard let owner = TextFace.open(bytes: bytes, renderer: renderer) else { return nil }
        let face = owner.face
        let isTrueType = face.pointee.face_flags & FT_Long(FT_FACE_FLAG_SFNT) != 0
        let mapping: Mapping
        switch font.kind {
        case .cidType0, .cidType2:
            if !isTrueType && FreeTypeQueries.isCIDKeyed(face) {
                mapping = .cid
            } else {
                mapping = .cidToGID
            }
        case .type1, .mmType1, .trueType, .type3:
            mapping = .codes(SimpleGlyphSelection.embedded(face, font: font, faceIsTrueType: isTrueType))
        }
        guard let textFace = TextFace(owner: owner, tables: FaceTables()) else { return nil }
        return FontGlyphs(face: textFace, mapping: mapping, stretch: false, isSubstitute: false)
    }

    /// A font drawn with another: URW base35 for Latin fonts, a system CJK font for CJK collections.
    private static func substitute(_ font: LoadedFont, renderer: FontRenderer) -> FontGlyphs? {
        let composite = font.kind == .cidType0 || font.kind == .cidType2
        if composite,
            let sample = FontSubstitutes.cjkSample(collection: font.characterCollection, baseFont: font.baseFont),
            let file = FontSubstitutes.systemFont(covering: sample),
            let face = renderer.fileFace(file.path, index: file.index, tables: .unicode)
        {
            return FontGlyphs(
                face: face, mapping: .unicode(vertical: font.isVertical), stretch: false, isSubstitute: true)
        }
        let standard =
            composite
            ? FontSubstitutes.standardSubstitute(baseFont: font.baseFont, descriptor: font.descriptor)
            : font.standardFont
                ?? FontSubstitutes.standardSubstitute(baseFont: font.baseFont, descriptor: font.descriptor)
        // A standard 14 font drawn with its URW twin keeps the twin's advances (the same metrics):
        // only stretched substitutes need every glyph's advance, which costs a load of each glyph.
        let stretch = composite || font.standardFont == nil
        var loaded: TextFace? = nil
        for path in renderer.substitutes.candidatePaths(for: standard) {
            let tables: FaceTables.Contents = stretch ? .substitute : [.names, .unicode, .builtIn]
            if let face = renderer.fileFace(path, index: 0, tables: tables) {
                loaded = face
                break
            }
        }
        guard let face = loaded else { return nil }
        if composite {
            return FontGlyphs(face: face, mapping: .unicode(vertical: false), stretch: true, isSubstitute: true)
        }
        return FontGlyphs(
            face: face, mapping: .codes(SimpleGlyphSelection.substitute(face.tables, font: font)), stretch: stretch,
            isSubstitute: true)
    }
}

/// Vertical presentation forms (U+FE10–FE48) of the punctuation CJK text uses, for vertical
/// writing with a substituted font: its horizontal glyphs otherwise lie across the column.
enum VerticalForms {
    static func form(of scalar: UInt32) -> UInt32? { table[scalar] }

    private static let table: [UInt32: UInt32] = [
        0x002C: 0xFE10, 0xFF0C: 0xFE10, 0x3001: 0xFE11, 0x3002: 0xFE12, 0x003A: 0xFE13, 0xFF1A: 0xFE13,
        0x003B: 0xFE14, 0xFF1B: 0xFE14, 0x0021: 0xFE15, 0xFF01: 0xFE15, 0x003F: 0xFE16, 0xFF1F: 0xFE16,
        0x3016: 0xFE17, 0x3017: 0xFE18, 0x2026: 0xFE19, 0x2025: 0xFE30, 0x2014: 0xFE31, 0x30FC: 0xFE31,
        0xFF0D: 0xFE31, 0x2013: 0xFE32, 0x005F: 0xFE33, 0xFF3F: 0xFE33, 0x0028: 0xFE35, 0xFF08: 0xFE35,
        0x0029: 0xFE36, 0xFF09: 0xFE36, 0x007B: 0xFE37, 0xFF5B: 0xFE37, 0x007D: 0xFE38, 0xFF5D: 0xFE38,
        0x3014: 0xFE39, 0x3015: 0xFE3A, 0x3010: 0xFE3B, 0x3011: 0xFE3C, 0x300A: 0xFE3D, 0x300B: 0xFE3E,
        0x3008: 0xFE3F, 0x3009: 0xFE40, 0x300C: 0xFE41, 0x300D: 0xFE42, 0x300E: 0xFE43, 0x300F: 0xFE44,
        0x005B: 0xFE47, 0xFF3B: 0xFE47, 0x005D: 0xFE48, 0xFF3D: 0xFE48,
    ]
}
