import PDFCore
import PDFFonts

/// Simple fonts: Type 1, MMType1, TrueType and Type 3 (ISO 32000-2 §9.6).
extension LoadedFont {
    static func loadSimple(_ parts: inout Parts, dictionary: PDFDictionary, document: PDFDocument) {
        let name = dictionary.name("BaseFont")?.string ?? (parts.kind == .type3 ? dictionary.name("Name")?.string : nil)
        parts.baseFont = withoutSubsetTag(name ?? "")
        if name == nil, parts.kind != .type3 { parts.warnings.append("the font has no /BaseFont") }
        if parts.kind != .type3 { parts.standardFont = StandardFont(baseFont: parts.baseFont)?.name }
        loadDescriptor(&parts, font: dictionary, document: document)
        if parts.kind == .type3 { loadType3(&parts, dictionary: dictionary, document: document) }
        fillSimple(&parts, dictionary: dictionary, document: document)
    }

    /// `/FontMatrix`, `/CharProcs`, `/Resources` and `/FontBBox` of a Type 3 font (§9.6.4).
    private static func loadType3(_ parts: inout Parts, dictionary: PDFDictionary, document: PDFDocument) {
        if let matrix = PDFMatrix(dictionary["FontMatrix"], document: document), matrix.determinant != 0 {
            parts.fontMatrix = matrix
        } else {
            parts.warnings.append("the Type 3 font has no usable /FontMatrix; 0.001 scaling is used")
        }
        var procedures: [String: PDFObject] = [:]
        if let charProcs = document.resolve(dictionary, "CharProcs")?.dictionaryValue {
            for entry in charProcs { procedures[entry.key.string] = entry.value }
        } else {
            parts.warnings.append("the Type 3 font has no /CharProcs")
        }
        var box: PDFRectangle? = nil
        if let items = document.resolve(dictionary, "FontBBox")?.arrayValue, items.count == 4 {
            let values = items.compactMap { document.resolve($0).numberValue }.filter(\.isFinite)
            if values.count == 4 {
                let rect = PDFRectangle(x0: values[0], y0: values[1], x1: values[2], y1: values[3])
                if rect.width > 0 || rect.height > 0 { box = rect }
            }
        }
        parts.type3 = Type3Glyphs(
            charProcs: procedures, resources: document.resolve(dictionary, "Resources")?.dictionaryValue, fontBBox: box)
        if document.resolve(dictionary, "FontDescriptor")?.dictionaryValue == nil {
            parts.descriptor.flags = 4
        }
    }

    /// The encoding, widths and text of each of the 256 codes.
    static func fillSimple(_ parts: inout Parts, dictionary: PDFDictionary, document: PDFDocument) {
        let standard = parts.standardFont.map(StandardFont.init)
        let builtIn = builtInEncoding(parts, dictionary: dictionary)

        // /Encoding: a name, or a dictionary with /BaseEncoding and /Differences (§9.6.5.1).
        var base: BaseEncoding? = nil
        var differences: [UInt32: String] = [:]
        let encoding = document.resolve(dictionary, "Encoding")
        if let name = encoding?.nameValue {
            base = BaseEncoding(name: name.string)
            if base == nil { parts.warnings.append("unknown /Encoding /\(name.string); the built-in encoding is used") }
        } else if let encodingDictionary = encoding?.dictionaryValue {
            if let name = document.resolve(encodingDictionary, "BaseEncoding")?.nameValue {
                base = BaseEncoding(name: name.string)
                if base == nil { parts.warnings.append("unknown /BaseEncoding /\(name.string)") }
            }
            differences = readDifferences(document.resolve(encodingDictionary, "Differences"), document: document)
        } else if let encoding, !encoding.isNull {
            parts.warnings.append("/Encoding is a \(encoding.typeName)")
        }
        if base == .macExpert {
            parts.warnings.append("MacExpertEncoding is not tabulated; the built-in encoding is used")
        }
        parts.simpleEncoding = SimpleEncodingInfo(base: base, differences: differences)
        for code in 0..<256 {
            if let name = differences[UInt32(code)] {
                parts.encodingNames[code] = name
            } else if let base, base != .macExpert {
                parts.encodingNames[code] = base.glyphName(at: UInt8(code))
            } else {
                parts.encodingNames[code] = builtIn?[code]
            }
        }

        fillWidths(&parts, dictionary: dictionary, document: document, standard: standard, builtIn: builtIn)

        // Text: /ToUnicode, else the glyph name (the effective encoding's, else the built-in one's).
        parts.toUnicode = loadToUnicode(dictionary, document: document, warnings: &parts.warnings)
        // TrueType programs have no built-in encoding, but their own cmap and glyph names tell what
        // a code without a name draws.
        var programNames: [String?]? = nil
        if parts.kind == .trueType, let program = parts.program,
            program.format == .trueType || program.format == .openType,
            let font = try? TrueTypeFile(bytes: program.data)
        {
            programNames = TrueTypeGlyphNames.names(in: font, symbolic: parts.descriptor.isSymbolic)
        }
        let names = (0..<256).map { parts.encodingNames[$0] ?? builtIn?[$0] ?? programNames?[$0] }
        // `a1`…`a191` are ZapfDingbats glyphs in that font, its clones and subsets (most of whose
        // names have that form), and letters with numbers elsewhere.
        let dingbatNames = names.filter { $0.map(GlyphNames.isDingbatName) ?? false }.count
        let dingbats =
            parts.standardFont == .zapfDingbats || parts.baseFont.contains("Dingbats")
            || dingbatNames * 2 > names.filter { $0 != nil && $0 != "space" }.count
        let hexCodes = names.contains { name in
            // Names like `C6f`: when one of the `Cdd` names is not decimal, all are hexadecimal.
            guard let name, name.utf8.count == 3 || name.utf8.count == 4, name.first == "C" || name.first == "c" else {
                return false
            }
            return Int(name.dropFirst()) == nil && Int(name.dropFirst(), radix: 16) != nil
        }
        for code in 0..<256 {
            if let text = parts.toUnicode?.text(for: UInt32(code)) {
                parts.simpleUnicode[code] = text
            } else if let name = names[code] {
                parts.simpleUnicode[code] =
                    GlyphNames.unicode(for: name, dingbats: dingbats) ?? codeName(name, hexadecimal: hexCodes)
            } else if parts.kind == .trueType, let name = BaseEncoding.winAnsi.glyphName(at: UInt8(code)) {
                // TrueType fonts without encoding: codes read as WinAnsi, as readers do.
                parts.simpleUnicode[code] = GlyphNames.unicode(for: name)
            }
        }
    }

    /// The font's built-in encoding: the embedded Type 1 or CFF program's, or for fonts that are not
    /// embedded the standard font's (StandardEncoding, Symbol or ZapfDingbats).
    private static func builtInEncoding(_ parts: Parts, dictionary: PDFDictionary) -> [String?]? {
        if let program = parts.program {
            switch program.format {
            case .type1:
                return Type1Program.encoding(in: program.data, clearTextLength: parts.clearTextLength)
                    ?? standardNames(parts)
            case .cff:
                return CFFProgram(program.data)?.encoding
            case .openType:
                // The CFF program inside an OpenType font has the encoding.
                guard let font = try? TrueTypeFile(bytes: program.data), let cff = font.table("CFF ") else {
                    return nil
                }
                return CFFProgram(Array(cff))?.encoding
            case .trueType:
                return nil
            }
        }
        guard parts.kind != .type3 else { return nil }
        return standardNames(parts)
    }

    private static func standardNames(_ parts: Parts) -> [String?]? {
        let table: BaseEncoding
        switch parts.standardFont {
        case .symbol: table = .symbol
        case .zapfDingbats: table = .zapfDingbats
        case .some: table = .standard
        case .none:
            guard !parts.descriptor.isSymbolic || parts.program == nil else { return nil }
            table = .standard
        }
        return (0..<256).map { table.glyphName(at: UInt8($0)) }
    }

    /// `/Differences`: a code, then glyph names for it and the codes after it, repeated (§9.6.5.1).
    static func readDifferences(_ object: PDFObject?, document: PDFDocument) -> [UInt32: String] {
        guard let items = object?.arrayValue else { return [:] }
        var differences: [UInt32: String] = [:]
        var code = -1
        for item in items.prefix(4096) {
            switch document.resolve(item) {
            case .integer(let value): code = value
            case .real(let value): code = Int(exactly: value.value.rounded()) ?? -1
            case .name(let name):
                if (0..<256).contains(code) { differences[UInt32(code)] = name.string }
                if code >= 0 { code += 1 }
            default: break
            }
        }
        return differences
    }

    /// `/FirstChar` and `/Widths` (§9.6.2.1), else the standard font's metrics, else `/MissingWidth`.
    private static func fillWidths(
        _ parts: inout Parts, dictionary: PDFDictionary, document: PDFDocument, standard: StandardFont?,
        builtIn: [String?]?
    ) {
        let missing = parts.descriptor.missingWidth
        var widths = [Double?](repeating: nil, count: 256)
        if let items = document.resolve(dictionary, "Widths")?.arrayValue {
            let first = document.resolve(dictionary, "FirstChar")?.intValue ?? 0
            var bad = false
            for (offset, item) in items.prefix(256 + max(0, -first)).enumerated() {
                let code = first + offset
                guard (0..<256).contains(code) else { continue }
                if let value = document.resolve(item).numberValue, value.isFinite {
                    widths[code] = value
                } else {
                    bad = true
                }
            }
            if bad { parts.warnings.append("/Widths has entries that are not numbers") }
            if first < 0 || first > 255 { parts.warnings.append("/FirstChar \(first) is out of range") }
        } else if parts.kind == .type3 {
            parts.warnings.append("the Type 3 font has no /Widths")
        } else {
            // No /Widths: the standard font's metrics, or those of the standard font that best
            // replaces the font (§9.6.2.2 allows leaving /Widths out only for the standard 14).
            let font = standard ?? substitute(for: parts.descriptor, baseFont: parts.baseFont)
            if standard == nil { parts.warnings.append("the font has no /Widths") }
            for code in 0..<256 {
                // A code the encoding leaves undefined shows the built-in encoding's glyph (as
                // readers draw it), and a name the font lacks shows `.notdef`.
                let name = parts.encodingNames[code] ?? builtIn?[code] ?? ".notdef"
                widths[code] = font.width(ofGlyph: name) ?? font.width(ofGlyph: ".notdef")
            }
        }
        for code in 0..<256 {
            let width = widths[code] ?? missing
            parts.simpleWidths[code] = parts.kind == .type3 ? width * parts.fontMatrix.a : width / 1000
        }
    }

    /// The standard font whose metrics best replace a font described by `descriptor`: bold and
    /// italic also when the name says so (`Arial,Bold`, `Foo-Italic`), as the renderer's
    /// substitute face is chosen, so the widths are those of the face drawn.
    static func substitute(for descriptor: FontDescriptorInfo, baseFont: String = "") -> StandardFont {
        let bold = baseFont.contains("Bold") || (descriptor.fontWeight ?? 400) >= 600 || descriptor.isForceBold
        let italic =
            baseFont.contains("Italic") || baseFont.contains("Oblique") || descriptor.isItalic
            || (descriptor.italicAngle != 0 && descriptor.italicAngle.isFinite)
        if descriptor.isFixedPitch {
            return StandardFont(
                bold ? (italic ? .courierBoldOblique : .courierBold) : (italic ? .courierOblique : .courier))
        }
        if descriptor.isSerif {
            return StandardFont(bold ? (italic ? .timesBoldItalic : .timesBold) : (italic ? .timesItalic : .timesRoman))
        }
        return StandardFont(
            bold ? (italic ? .helveticaBoldOblique : .helveticaBold) : (italic ? .helveticaOblique : .helvetica))
    }

    /// The character a glyph name made of a letter and a number stands for, as producers of
    /// Type 3 and subset fonts write them: `Cdd`/`cdd` (decimal, or hexadecimal when
    /// `hexadecimal`), `Gxx` and `g00xx` (hexadecimal). Nil for other names, and for control
    /// characters.
    static func codeName(_ name: String, hexadecimal: Bool) -> String? {
        let digits = name.dropFirst()
        let value: Int?
        switch (name.first, name.utf8.count) {
        case ("C", 3...4), ("c", 3...4): value = hexadecimal ? Int(digits, radix: 16) : Int(digits)
        case ("G", 3): value = Int(digits, radix: 16)
        case ("g", 5): value = Int(digits, radix: 16)
        default: value = nil
        }
        guard let value, value >= 0x20, let scalar = Unicode.Scalar(UInt32(value)) else { return nil }
        return String(scalar)
    }
}
