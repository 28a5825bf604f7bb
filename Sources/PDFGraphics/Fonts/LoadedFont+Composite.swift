import PDFCore
import PDFFonts

/// Type 0 fonts and their CIDFonts (ISO 32000-2 §9.7).
extension LoadedFont {
    /// `/CIDToGIDMap` streams longer than this (two bytes per CID up to 65535, with slack) are cut.
    static let maxCIDToGIDSize = 1 << 18

    static func loadComposite(_ parts: inout Parts, dictionary: PDFDictionary, document: PDFDocument) {
        // The descendant CIDFont (§9.7.6.1: an array of exactly one).
        var descendant: PDFDictionary? = nil
        if let items = document.resolve(dictionary, "DescendantFonts")?.arrayValue, let first = items.first {
            descendant = document.resolve(first).dictionaryValue
        } else if let direct = document.resolve(dictionary, "DescendantFonts")?.dictionaryValue {
            descendant = direct
        }
        if descendant == nil { parts.warnings.append("the Type 0 font has no descendant CIDFont") }
        let cidFont = descendant ?? PDFDictionary()

        let name = cidFont.name("BaseFont")?.string ?? dictionary.name("BaseFont")?.string ?? ""
        parts.baseFont = withoutSubsetTag(name)
        switch cidFont.name(.subtype)?.string {
        case "CIDFontType0": parts.kind = .cidType0
        case "CIDFontType2": parts.kind = .cidType2
        default:
            parts.kind = .cidType2
            if descendant != nil { parts.warnings.append("the descendant font is not a CIDFont; read as CIDFontType2") }
        }
        parts.standardFont = StandardFont(baseFont: parts.baseFont)?.name
        loadDescriptor(&parts, font: cidFont, document: document)
        if let program = parts.program, parts.kind == .cidType2, program.format == .cff || program.format == .openType {
            parts.kind = .cidType0
        }

        // /CIDSystemInfo.
        if let info = document.resolve(cidFont, "CIDSystemInfo")?.dictionaryValue {
            parts.characterCollection = (
                document.resolve(info, "Registry")?.stringValue?.text ?? "",
                document.resolve(info, "Ordering")?.stringValue?.text ?? "",
                document.resolve(info, "Supplement")?.intValue ?? 0
            )
        }

        // /Encoding: a predefined CMap name or an embedded CMap stream (§9.7.5).
        let cmap = loadEncodingCMap(dictionary, document: document, warnings: &parts.warnings)
        parts.encodingCMap = cmap
        parts.isVertical = cmap.writingMode == 1 || (cmap.name?.hasSuffix("-V") ?? false)
        if parts.characterCollection == nil, let collection = cmap.collection, collection.ordering != "Identity" {
            parts.characterCollection = collection
        }

        parts.metrics = CIDMetrics(cidFont, document: document, warnings: &parts.warnings)
        parts.toUnicode = loadToUnicode(dictionary, document: document, warnings: &parts.warnings)
        if let collection = parts.characterCollection, collection.registry == "Adobe" {
            parts.collectionUnicode = PredefinedCMaps.unicode(forOrdering: collection.ordering)
        }

        // /CIDToGIDMap (§9.7.4.2 defines it for CIDFontType2; a CIDFontType0 whose program is
        // not CID-keyed — a bare or OpenType CFF — has one too in files MuPDF and poppler draw).
        if let map = document.resolve(cidFont, "CIDToGIDMap"), !map.isNull {
            if let stream = map.streamValue {
                do {
                    let data = try stream.decodedData(maxSize: maxCIDToGIDSize)
                    parts.cidToGID = stride(from: 0, to: data.count - 1, by: 2).map {
                        UInt16(data[$0]) << 8 | UInt16(data[$0 + 1])
                    }
                } catch {
                    parts.warnings.append("/CIDToGIDMap could not be decoded: \(error.message)")
                }
            } else if map.nameValue?.string != "Identity" {
                parts.warnings.append("/CIDToGIDMap is neither /Identity nor a stream")
            }
        }
        loadProgramGlyphs(&parts)
    }

    /// The CMap of `/Encoding`; Identity-H (with a warning) when it is missing or unknown.
    private static func loadEncodingCMap(_ font: PDFDictionary, document: PDFDocument, warnings: inout [String]) -> CMap
    {
        let encoding = document.resolve(font, "Encoding")
        if let name = encoding?.nameValue {
            if let cmap = PredefinedCMaps.named(name.string) { return cmap }
            warnings.append("unknown CMap /\(name.string); Identity-H is used")
        } else if let stream = encoding?.streamValue {
            do {
                let data = try stream.decodedData(maxSize: maxCMapSize)
                var parent: CMap? = nil
                if let used = document.resolve(stream.dictionary, "UseCMap") {
                    if let name = used.nameValue {
                        parent = PredefinedCMaps.named(name.string, depth: 1)
                    } else if let usedStream = used.streamValue,
                        let usedData = try? usedStream.decodedData(maxSize: maxCMapSize)
                    {
                        parent = CMapParser.parse(usedData, depth: 1, warnings: &warnings) {
                            PredefinedCMaps.named($0, depth: $1)
                        }
                    }
                }
                let cmap = CMapParser.parse(data, parent: parent, warnings: &warnings) {
                    PredefinedCMaps.named($0, depth: $1)
                }
                if cmap.codespaces.isEmpty { warnings.append("the embedded CMap has no codespace ranges") }
                return cmap
            } catch {
                warnings.append("the embedded CMap could not be decoded: \(error.message)")
            }
        } else {
            warnings.append("the Type 0 font has no usable /Encoding; Identity-H is used")
        }
        return CMap.identity(vertical: false)
    }

    /// What the embedded program adds: the CIDs of a CID-keyed CFF program's glyphs, and for fonts
    /// without `/ToUnicode` whose CIDs have no Unicode CMap, the text of each glyph from the
    /// program's own `cmap`.
    private static func loadProgramGlyphs(_ parts: inout Parts) {
        guard let program = parts.program else { return }
        var glyphCIDs: [UInt32]? = nil
        var characterMap: CharacterMap? = nil
        var glyphCount = 0
        switch program.format {
        case .cff:
            if let cff = CFFProgram(program.data), cff.isCIDKeyed { glyphCIDs = cff.glyphCIDs }
        case .openType, .trueType:
            if let font = try? TrueTypeFile(bytes: program.data) {
                glyphCIDs = font.cffGlyphCIDs?.map { UInt32(clamping: $0) }
                characterMap = font.characterMap
                glyphCount = font.numberOfGlyphs
                if font.outlineFormat == .trueType { parts.trueType = font }
            }
        case .type1:
            break
        }
        if parts.kind == .cidType0, let glyphCIDs {
            var map: [UInt32: UInt32] = [:]
            for (glyph, cid) in glyphCIDs.enumerated() where map[cid] == nil { map[cid] = UInt32(glyph) }
            parts.cffCIDToGID = map
        }
        // The program's own mapping serves codes a `/ToUnicode` leaves out: when there is none, and
        // when it maps fewer codes than half the program's glyphs (producers that list only a few,
        // as poppler does from the cmap then).
        let sparseToUnicode = parts.toUnicode.map { $0.textCodeCount * 2 < glyphCount } ?? true
        guard parts.collectionUnicode == nil, sparseToUnicode, let characterMap, !characterMap.isEmpty, glyphCount > 0
        else { return }
        // Reverse the program's cmap: glyph → the lowest character mapped to it, private-use
        // characters only when nothing else is.
        var textOfGlyph: [UInt32: String] = [:]
        characterMap.forEachMapping(in: 0x20...0x2FFFF) { scalar, glyphIndex in
            let glyph = UInt32(glyphIndex)
            if let existing = textOfGlyph[glyph] {
                let existingIsPrivate =
                    existing.unicodeScalars.first.map { (0xE000...0xF8FF).contains($0.value) } ?? false
                guard existingIsPrivate, !(0xE000...0xF8FF).contains(scalar.value) else { return }
            }
            textOfGlyph[glyph] = String(scalar)
        }
        // CIDs to glyphs: /CIDToGIDMap, the CFF charset, or the identity.
        var byCID: [UInt32: String] = [:]
        if let cidToGID = parts.cidToGID {
            for (cid, glyph) in cidToGID.enumerated() {
                if let text = textOfGlyph[UInt32(glyph)] { byCID[UInt32(cid)] = text }
            }
        } else if let glyphCIDs {
            for (glyph, cid) in glyphCIDs.enumerated() {
                if let text = textOfGlyph[UInt32(glyph)] { byCID[cid] = text }
            }
        } else {
            byCID = textOfGlyph
        }
        parts.programUnicode = byCID
    }
}
