internal import CCairo
internal import CFreeType
import PDFFonts
import PDFGraphics

/// The glyph each code 0–255 of a simple font selects (ISO 32000-2 §9.6.5), as MuPDF
/// (`pdf_load_simple_font`) selects it.
enum SimpleGlyphSelection {
    /// An embedded program: the code through the face's charmap, then, where the encoding names a
    /// glyph, by that name — Type 1 and CFF faces by glyph name; TrueType faces per §9.6.5.4:
    /// non-symbolic with a (3,1) cmap by the name's Unicode value (then by the `post` name), with a
    /// (1,0) cmap by the name's MacRoman code, and symbolic fonts by code in (3,0) (`0xF000 + code`
    /// too) or else by name.
    static func embedded(_ face: FT_Face, font: LoadedFont, faceIsTrueType: Bool) -> [UInt32] {
        let symbolic = font.descriptor.isSymbolic && !font.descriptor.isNonsymbolic
        if faceIsTrueType {
            FreeTypeQueries.selectTrueTypeCharmap(face, symbolic: symbolic)
        } else {
            FreeTypeQueries.selectType1Charmap(face)
        }
        var table = (0..<256).map { FreeTypeQueries.charIndex(face, UInt32($0)) }
        // The document's /Subtype decides how names are read, whatever the program is.
        let byName: Bool
        switch font.kind {
        case .type1, .mmType1: byName = true
        case .trueType: byName = false
        default: byName = !faceIsTrueType
        }
        let names = encodingNames(font, embedded: true)
        let charmap = FreeTypeQueries.charmap(face)
        let texts = font.glyphs(in: (0..<256).map { UInt8($0) }).map(\.unicode)
        for code in 0..<256 {
            guard let name = names[code] else { continue }
            let unicode = unicodeValue(of: name) ?? singleScalar(texts[code])
            var glyph: UInt32 = 0
            if byName {
                glyph = nameIndex(face, name, unicode: unicode)
            } else if !symbolic, charmap?.platform == 3 {
                if let unicode { glyph = FreeTypeQueries.charIndex(face, unicode) }
                if glyph == 0 { glyph = nameIndex(face, name, unicode: unicode) }
            } else if !symbolic, charmap?.platform == 1 {
                if let mac = macRomanCode(of: name) { glyph = FreeTypeQueries.charIndex(face, UInt32(mac)) }
                if glyph == 0 { glyph = nameIndex(face, name, unicode: unicode) }
            } else if charmap == nil || charmap?.isSymbol == false {
                glyph = nameIndex(face, name, unicode: unicode)
            }
            if glyph > 0 { table[code] = glyph }
        }
        return table
    }

    /// A substitute (URW) face: the font's effective encoding names (the standard font's built-in
    /// encoding when none is given) looked up by name, else by their Unicode value, else the code
    /// through the face's own encoding.
    static func substitute(_ tables: FaceTables, font: LoadedFont) -> [UInt32] {
        let texts = font.glyphs(in: (0..<256).map { UInt8($0) }).map(\.unicode)
        return (0..<256).map { code in
            let fallback = code < tables.builtIn.count ? tables.builtIn[code] : 0
            guard let name = font.glyphName(for: UInt32(code)) else { return fallback }
            if let index = tables.names[name] { return index }
            if let unicode = unicodeValue(of: name) ?? singleScalar(texts[code]), let index = tables.unicode[unicode] {
                return index
            }
            return fallback
        }
    }

    /// The names of the encoding MuPDF reads for a simple font: `/BaseEncoding` (or the named
    /// encoding) with `/Differences` over it; StandardEncoding under a font that is neither
    /// embedded nor symbolic.
    static func encodingNames(_ font: LoadedFont, embedded: Bool) -> [String?] {
        let symbolic = font.descriptor.isSymbolic && !font.descriptor.isNonsymbolic
        let encoding = font.simpleEncoding
        var names = [String?](repeating: nil, count: 256)
        let base = encoding?.base ?? (!embedded && !symbolic ? .standard : nil)
        if let base {
            for code in 0..<256 { names[code] = base.glyphName(at: UInt8(code)) }
        }
        for (code, name) in encoding?.differences ?? [:] where code < 256 { names[Int(code)] = name }
        return names
    }

    /// `FT_Get_Name_Index`, then `uniXXXX` for the name's Unicode value (subset fonts often name
    /// their glyphs so).
    static func nameIndex(_ face: FT_Face, _ name: String, unicode: UInt32?) -> UInt32 {
        let glyph = FreeTypeQueries.nameIndex(face, name)
        guard glyph == 0, let unicode, unicode <= 0xFFFF else { return glyph }
        return FreeTypeQueries.nameIndex(face, "uni" + hex4(unicode))
    }

    /// The value of `uniXXXX` and `uXXXX`–`uXXXXXX` names (the Adobe Glyph List's numeric forms).
    static func unicodeValue(of name: String) -> UInt32? {
        var stem = Substring(name)
        if let period = stem.firstIndex(of: ".") { stem = stem[..<period] }
        if stem.hasPrefix("uni"), stem.count == 7, let value = UInt32(stem.dropFirst(3), radix: 16) {
            return isScalar(value) ? value : nil
        }
        if stem.hasPrefix("u"), (5...7).contains(stem.count), let value = UInt32(stem.dropFirst(), radix: 16) {
            return isScalar(value) ? value : nil
        }
        return nil
    }

    private static func isScalar(_ value: UInt32) -> Bool { Unicode.Scalar(value) != nil }

    /// The text of a code when it is one character (the font's `/ToUnicode`, else its glyph name
    /// read through the Adobe Glyph List by the font model).
    static func singleScalar(_ text: String?) -> UInt32? {
        guard let scalars = text?.unicodeScalars, scalars.count == 1 else { return nil }
        return scalars.first?.value
    }

    private static func hex4(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// The MacRomanEncoding code of a glyph name, with the Mac OS Roman characters that encoding
    /// leaves out (§9.6.5.4 refers to the Mac OS character set).
    static func macRomanCode(of name: String) -> UInt8? { macRomanCodes[name] }

    private static let macRomanCodes: [String: UInt8] = {
        var codes: [String: UInt8] = [
            "notequal": 173, "infinity": 176, "lessequal": 178, "greaterequal": 179, "partialdiff": 182,
            "summation": 183, "product": 184, "pi": 185, "integral": 186, "Omega": 189, "radical": 195,
            "approxequal": 197, "Delta": 198, "lozenge": 215, "Euro": 219, "apple": 240,
        ]
        for code in 0..<256 {
            if let name = BaseEncoding.macRoman.glyphName(at: UInt8(code)), codes[name] == nil {
                codes[name] = UInt8(code)
            }
        }
        return codes
    }()
}
