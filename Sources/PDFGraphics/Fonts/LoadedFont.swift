public import PDFCore
public import PDFFonts
import Synchronization

/// A font as a page uses it (ISO 32000-2 §9.5 to §9.10): how a string operand of `Tj`/`TJ` splits
/// into character codes, which CID, width and text each code has, and what a renderer needs to
/// find the glyphs (the embedded program, the encoding, the CID-to-glyph map, the descriptor).
///
/// Loading never throws: a missing or damaged piece gives a best-effort font and a line in
/// ``warnings``. Every table access is bounded.
///
/// ```swift
/// let font = LoadedFont.load(fontReference, document: document)
/// for glyph in font.glyphs(in: stringBytes) {
///     print(glyph.code, glyph.width, glyph.unicode ?? "?")
/// }
/// ```
public final class LoadedFont: Sendable {
    /// The font type (`/Subtype`, §9.5; for a Type 0 font, its descendant's).
    public enum Kind: Sendable, Hashable {
        /// `/Type1` (standard 14 fonts included).
        case type1
        /// `/MMType1`, a multiple master instance.
        case mmType1
        /// `/TrueType`.
        case trueType
        /// `/Type3`: glyphs are content streams.
        case type3
        /// A Type 0 font over a `/CIDFontType0` (CFF or OpenType glyphs).
        case cidType0
        /// A Type 0 font over a `/CIDFontType2` (TrueType glyphs).
        case cidType2
    }

    /// The kind of an embedded font program (§9.9), as found in its bytes.
    public enum ProgramFormat: Sendable, Hashable {
        /// A Type 1 program (PFA or PFB), `/FontFile`.
        case type1
        /// An sfnt with TrueType outlines, `/FontFile2`.
        case trueType
        /// A bare Compact Font Format program, `/FontFile3` `/Type1C` or `/CIDFontType0C`.
        case cff
        /// An OpenType font (CFF outlines in an sfnt), `/FontFile3` `/OpenType`.
        case openType
    }

    /// An embedded font program, decoded.
    public struct Program: Sendable {
        /// The decoded bytes of `/FontFile`, `/FontFile2` or `/FontFile3`.
        public let data: [UInt8]
        /// What the bytes are, by their first bytes (the key names the expected kind).
        public let format: ProgramFormat

        /// A program of `format` made of `data`.
        public init(data: [UInt8], format: ProgramFormat) {
            self.data = data
            self.format = format
        }
    }

    /// The font type, from `/Subtype` (for a Type 0 font, its descendant's).
    public let kind: Kind
    /// `/BaseFont` without a subset tag (`ABCDEF+`); for a Type 0 font, the descendant's.
    public let baseFont: String
    /// The embedded program, decoded; nil when the font is not embedded (or its program is unreadable).
    public let program: Program?
    /// The font descriptor, with sensible values where the PDF has none.
    public let descriptor: FontDescriptorInfo
    /// True in writing mode 1 (a CMap with `/WMode 1`, such as `Identity-V`).
    public let isVertical: Bool
    /// Glyph space to text space: `/FontMatrix` for Type 3, else 1/1000 scaling.
    public let fontMatrix: PDFMatrix
    /// The glyph procedures of a Type 3 font.
    public let type3: Type3Glyphs?
    /// Problems met while loading.
    public let warnings: [String]
    /// `/CIDSystemInfo` of a CIDFont (registry, ordering, supplement).
    public let characterCollection: (registry: String, ordering: String, supplement: Int)?
    /// For simple fonts, what `/Encoding` names and lists (§9.6.5); nil for Type 0 fonts.
    public let simpleEncoding: SimpleEncodingInfo?
    /// The standard 14 font the font is (or, when not embedded, is best replaced by), from its
    /// `/BaseFont` and aliases (Arial is Helvetica, Times New Roman is Times-Roman, …).
    public let standardFont: StandardFont.Name?

    /// True for a Type 3 font, whose glyphs are content streams.
    public var isType3: Bool { kind == .type3 }
    /// The symbolic flag of the descriptor (§9.8.2): the font's characters are not Standard Latin.
    public var isSymbolic: Bool { descriptor.isSymbolic }

    // Simple fonts: 256 entries each.
    let encodingNames: [String?]
    let simpleWidths: [Double]
    let simpleUnicode: [String?]
    // Composite fonts.
    let encodingCMap: CMap?
    let metrics: CIDMetrics
    let toUnicode: CMap?
    let collectionUnicode: CMap?
    let programUnicode: [UInt32: String]
    let cidToGID: [UInt16]?
    let cffCIDToGID: [UInt32: UInt32]?
    private let trueType: TrueTypeFile?
    private let inkMiddles = Mutex<[UInt32: Double?]>([:])

    /// The values a loader gathers.
    struct Parts {
        var kind: Kind = .type1
        var baseFont = ""
        var program: Program?
        var clearTextLength: Int?
        var descriptor = FontDescriptorInfo(
            flags: 32, ascent: 800, descent: -200, capHeight: 700, italicAngle: 0, stemV: 80, fontBBox: nil)
        var isVertical = false
        var fontMatrix = PDFMatrix(0.001, 0, 0, 0.001, 0, 0)
        var type3: Type3Glyphs?
        var warnings: [String] = []
        var characterCollection: (registry: String, ordering: String, supplement: Int)?
        var simpleEncoding: SimpleEncodingInfo?
        var standardFont: StandardFont.Name?
        var encodingNames: [String?] = Array(repeating: nil, count: 256)
        var simpleWidths: [Double] = Array(repeating: 0, count: 256)
        var simpleUnicode: [String?] = Array(repeating: nil, count: 256)
        var encodingCMap: CMap?
        var metrics = CIDMetrics()
        var toUnicode: CMap?
        var collectionUnicode: CMap?
        var programUnicode: [UInt32: String] = [:]
        var cidToGID: [UInt16]?
        var cffCIDToGID: [UInt32: UInt32]?
        /// A composite font's TrueType program, for glyph boxes.
        var trueType: TrueTypeFile?
    }

    init(_ parts: Parts) {
        kind = parts.kind
        baseFont = parts.baseFont
        program = parts.program
        descriptor = parts.descriptor
        isVertical = parts.isVertical
        fontMatrix = parts.fontMatrix
        type3 = parts.type3
        warnings = parts.warnings
        characterCollection = parts.characterCollection
        simpleEncoding = parts.simpleEncoding
        standardFont = parts.standardFont
        encodingNames = parts.encodingNames
        simpleWidths = parts.simpleWidths
        simpleUnicode = parts.simpleUnicode
        encodingCMap = parts.encodingCMap
        metrics = parts.metrics
        toUnicode = parts.toUnicode
        collectionUnicode = parts.collectionUnicode
        programUnicode = parts.programUnicode
        cidToGID = parts.cidToGID
        cffCIDToGID = parts.cffCIDToGID
        trueType = parts.trueType
    }

    /// Loads a font dictionary.
    ///
    /// Never throws: a broken or missing piece (descriptor, widths, encoding, CMap, program) gives a
    /// best-effort font and a warning in ``warnings``.
    ///
    /// - Parameters:
    ///   - object: the font dictionary or a reference to it (a `/Font` resource).
    ///   - document: the document it belongs to.
    public static func load(_ object: PDFObject, document: PDFDocument) -> LoadedFont {
        guard let dictionary = document.resolve(object).dictionaryValue else {
            var parts = Parts()
            parts.warnings.append("the font is a \(document.resolve(object).typeName), not a dictionary")
            parts.standardFont = .helvetica
            parts.baseFont = "Helvetica"
            fillSimple(&parts, dictionary: PDFDictionary(), document: document)
            return LoadedFont(parts)
        }
        var parts = Parts()
        switch dictionary.name(.subtype)?.string {
        case "Type0":
            loadComposite(&parts, dictionary: dictionary, document: document)
        case "Type3":
            parts.kind = .type3
            loadSimple(&parts, dictionary: dictionary, document: document)
        case "TrueType":
            parts.kind = .trueType
            loadSimple(&parts, dictionary: dictionary, document: document)
        case "MMType1":
            parts.kind = .mmType1
            loadSimple(&parts, dictionary: dictionary, document: document)
        case "Type1":
            loadSimple(&parts, dictionary: dictionary, document: document)
        case let other:
            parts.warnings.append("font /Subtype \(other.map { "/" + $0 } ?? "missing"); read as Type 1")
            loadSimple(&parts, dictionary: dictionary, document: document)
        }
        return LoadedFont(parts)
    }

    // MARK: Glyphs

    /// Splits a string operand into character codes (§9.4.3): one byte each for simple fonts, by the
    /// CMap's codespace ranges for Type 0 fonts (§9.7.6.2), with CIDs, widths, vertical metrics and text.
    public func glyphs(in string: [UInt8]) -> [GlyphCode] {
        guard let cmap = encodingCMap else {
            return string.map { byte in
                GlyphCode(
                    code: UInt32(byte), byteCount: 1, cid: UInt32(byte), width: simpleWidths[Int(byte)],
                    unicode: simpleUnicode[Int(byte)], isWordSpace: byte == 32)
            }
        }
        var glyphs: [GlyphCode] = []
        glyphs.reserveCapacity(string.count / 2 + 1)
        var index = 0
        while index < string.count {
            let (code, length) = cmap.nextCode(in: string, at: index)
            index += length
            let cid = cmap.cid(for: code, length: length) ?? 0
            let width = metrics.width(of: cid) / 1000
            var glyph = GlyphCode(
                code: code, byteCount: length, cid: cid, width: width, unicode: unicode(code: code, cid: cid),
                isWordSpace: length == 1 && code == 32)
            if isVertical {
                let vertical = metrics.vertical(of: cid)
                glyph.verticalAdvance = vertical.advance / 1000
                glyph.verticalOrigin = PDFPoint(vertical.originX / 1000, vertical.originY / 1000)
            }
            glyphs.append(glyph)
        }
        return glyphs
    }

    /// The text of a composite font's code: `/ToUnicode`, else the character collection's Unicode
    /// CMap, else the font program's own character map.
    private func unicode(code: UInt32, cid: UInt32) -> String? {
        if let text = toUnicode?.text(for: code) { return text }
        if let text = collectionUnicode?.text(for: cid) { return text }
        return programUnicode[cid]
    }

    /// For simple fonts, the glyph name of `code` in the effective encoding (§9.6.5): `/Differences`,
    /// over the named base encoding, or — when none is named — the font's built-in encoding (the
    /// embedded Type 1 or CFF program's, StandardEncoding for the standard Latin fonts, the Symbol
    /// and ZapfDingbats encodings for those fonts). Nil when the encoding has no name for the code,
    /// and for Type 0 fonts.
    public func glyphName(for code: UInt32) -> String? {
        guard encodingCMap == nil, code < 256 else { return nil }
        return encodingNames[Int(code)]
    }

    /// The middle of the ink of CID `cid` along the baseline, in em from the glyph origin, for a
    /// composite font with a TrueType program (nil otherwise, and for an empty glyph). Text
    /// extraction places zero-width combining marks there: shapers draw them at an origin that can
    /// lie a glyph away from the letter they stand over.
    func inkMiddle(ofCID cid: UInt32) -> Double? {
        guard let trueType else { return nil }
        if let known = inkMiddles.withLock({ $0[cid] }) { return known }
        let glyph = Int(glyphIndex(forCID: cid) ?? cid)
        let middle = trueType.glyphBox(glyph).flatMap { box -> Double? in
            guard box.xMax > box.xMin, trueType.unitsPerEm > 0 else { return nil }
            return Double(box.xMin + box.xMax) / 2 / Double(trueType.unitsPerEm)
        }
        inkMiddles.withLock { $0[cid] = middle }
        return middle
    }

    /// The glyph index of a CID (§9.7.4.2): for CIDFontType2, from `/CIDToGIDMap` (nil means the
    /// identity: the CID is the glyph index); for CIDFontType0 with a CID-keyed CFF program, from
    /// the program's charset (0 when the CID has no glyph). Nil for simple fonts.
    public func glyphIndex(forCID cid: UInt32) -> UInt32? {
        if let cidToGID { return cid < cidToGID.count ? UInt32(cidToGID[Int(cid)]) : 0 }
        if let cffCIDToGID { return cffCIDToGID[cid] ?? 0 }
        return nil
    }
}
