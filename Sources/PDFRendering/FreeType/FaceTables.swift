internal import CCairo
internal import CFreeType

/// What the glyph selection reads from a face, computed once while the face is private to the
/// loader (cairo-ft never sees it before), so no FreeType call races with cairo's.
struct FaceTables: Sendable {
    /// Which tables to compute.
    struct Contents: OptionSet, Sendable {
        let rawValue: Int
        /// Glyph names to glyph indices (fonts with glyph names).
        static let names = Contents(rawValue: 1)
        /// Unicode values to glyph indices (the face's Unicode charmap, FreeType's synthesized one
        /// for Type 1 and CFF faces).
        static let unicode = Contents(rawValue: 2)
        /// The built-in encoding: codes 0–255 through the Type 1 or CFF face's own encoding.
        static let builtIn = Contents(rawValue: 4)
        /// The advance width of every glyph, in em.
        static let advances = Contents(rawValue: 8)

        static let substitute: Contents = [.names, .unicode, .builtIn, .advances]
    }

    var unitsPerEm = 1000
    var glyphCount = 0
    var names: [String: UInt32] = [:]
    var unicode: [UInt32: UInt32] = [:]
    var builtIn: [UInt32] = []
    var advances: [Float] = []

    init() {}

    init(_ face: FT_Face, contents: Contents) {
        unitsPerEm = Int(face.pointee.units_per_EM)
        if unitsPerEm == 0 { unitsPerEm = 1000 }
        glyphCount = max(0, Int(face.pointee.num_glyphs))
        if contents.contains(.names), FreeTypeQueries.hasGlyphNames(face) {
            var buffer = [CChar](repeating: 0, count: 128)
            for index in 0..<min(glyphCount, 1 << 16) {
                guard FT_Get_Glyph_Name(face, FT_UInt(index), &buffer, FT_UInt(buffer.count)) == 0 else { continue }
                let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                if !name.isEmpty, names[name] == nil { names[name] = UInt32(index) }
            }
        }
        if contents.contains(.builtIn) {
            let previous = face.pointee.charmap
            FreeTypeQueries.selectType1Charmap(face)
            builtIn = (0..<256).map { FreeTypeQueries.charIndex(face, UInt32($0)) }
            if let previous { FT_Set_Charmap(face, previous) }
        }
        if contents.contains(.unicode), FT_Select_Charmap(face, FT_ENCODING_UNICODE) == 0 {
            var index: FT_UInt = 0
            var code = FT_Get_First_Char(face, &index)
            var count = 0
            while index != 0, count < 1 << 20 {
                if unicode[UInt32(truncatingIfNeeded: code)] == nil {
                    unicode[UInt32(truncatingIfNeeded: code)] = UInt32(index)
                }
                code = FT_Get_Next_Char(face, code, &index)
                count += 1
            }
        }
        if contents.contains(.advances) {
            advances = (0..<min(glyphCount, 1 << 16)).map { FreeTypeQueries.advance(face, UInt32($0)) }
        }
    }

    /// The advance of glyph `index` in em, or nil when unknown or zero.
    func advance(of index: UInt32) -> Double? {
        guard Int(index) < advances.count, advances[Int(index)] > 0 else { return nil }
        return Double(advances[Int(index)])
    }
}

/// Small FreeType lookups, as MuPDF's glyph selection (pdf-font.c) makes them.
enum FreeTypeQueries {
    static func hasGlyphNames(_ face: FT_Face) -> Bool {
        face.pointee.face_flags & FT_Long(FT_FACE_FLAG_GLYPH_NAMES) != 0
    }

    /// The glyph of `code` in the selected charmap, trying the symbol area `0xF000 + code` next
    /// (symbolic TrueType fonts put their glyphs there), and U+2026 for U+22EF.
    static func charIndex(_ face: FT_Face, _ code: UInt32) -> UInt32 {
        var glyph = FT_Get_Char_Index(face, FT_ULong(code))
        if glyph == 0, code < 0x1000 { glyph = FT_Get_Char_Index(face, FT_ULong(0xF000 + code)) }
        if glyph == 0, code == 0x22EF { glyph = FT_Get_Char_Index(face, 0x2026) }
        return UInt32(glyph)
    }

    /// The glyph named `name`, or 0.
    static func nameIndex(_ face: FT_Face, _ name: String) -> UInt32 {
        guard hasGlyphNames(face) else { return 0 }
        return UInt32(name.withCString { FT_Get_Name_Index(face, $0) })
    }

    /// Type 1 and CFF faces: the charmap of the font's own encoding (platform 7), else the first.
    static func selectType1Charmap(_ face: FT_Face) {
        let count = Int(face.pointee.num_charmaps)
        guard count > 0, let charmaps = face.pointee.charmaps else { return }
        for index in 0..<count {
            if let charmap = charmaps[index], charmap.pointee.platform_id == 7 {
                FT_Set_Charmap(face, charmap)
                return
            }
        }
        if let first = charmaps[0] { FT_Set_Charmap(face, first) }
    }

    /// TrueType faces (ISO 32000-2 §9.6.5.4): (3,0) for symbolic fonts, else (3,1), else (1,0),
    /// else the first charmap.
    static func selectTrueTypeCharmap(_ face: FT_Face, symbolic: Bool) {
        let count = Int(face.pointee.num_charmaps)
        guard count > 0, let charmaps = face.pointee.charmaps else { return }
        let all = (0..<count).compactMap { charmaps[$0] }
        func find(_ platform: UInt16, _ encoding: UInt16) -> FT_CharMap? {
            all.first {
                $0.pointee.platform_id == platform && $0.pointee.encoding_id == encoding && FT_Get_CMap_Format($0) != -1
            }
        }
        let chosen =
            (symbolic ? find(3, 0) : nil) ?? find(3, 1) ?? find(1, 0)
            ?? all.first.flatMap { FT_Get_CMap_Format($0) != -1 ? $0 : nil }
        if let chosen { FT_Set_Charmap(face, chosen) }
    }

    /// The selected charmap's platform and encoding, and whether it is the Microsoft symbol one.
    static func charmap(_ face: FT_Face) -> (platform: UInt16, encoding: UInt16, isSymbol: Bool)? {
        guard let charmap = face.pointee.charmap else { return nil }
        return (
            charmap.pointee.platform_id, charmap.pointee.encoding_id, charmap.pointee.encoding == FT_ENCODING_MS_SYMBOL
        )
    }

    /// The advance width of a glyph in em (unscaled, unhinted).
    static func advance(_ face: FT_Face, _ index: UInt32) -> Float {
        let flags = FT_LOAD_NO_SCALE | FT_LOAD_NO_HINTING | FT_LOAD_IGNORE_TRANSFORM | FT_LOAD_NO_BITMAP
        guard FT_Load_Glyph(face, FT_UInt(index), Int32(truncatingIfNeeded: flags)) == 0, let slot = face.pointee.glyph
        else { return 0 }
        let units = Float(face.pointee.units_per_EM == 0 ? 1000 : face.pointee.units_per_EM)
        return Float(slot.pointee.metrics.horiAdvance) / units
    }

    /// Whether glyph indices of the face are CIDs (a CID-keyed CFF or CID Type 1 font).
    static func isCIDKeyed(_ face: FT_Face) -> Bool {
        var isCID: FT_Bool = 0
        return FT_Get_CID_Is_Internally_CID_Keyed(face, &isCID) == 0 && isCID != 0
    }
}
