public import PDFCore

/// One of the standard 14 Type 1 fonts that every PDF reader has (ISO 32000-2 §9.6.2.2), used
/// without embedding: Courier, Helvetica and Times in four styles each, Symbol and ZapfDingbats.
///
/// The twelve text fonts are written with `/WinAnsiEncoding` (ISO 32000-2 Annex D.2: Latin-1 and the
/// typographic characters of code page 1252); Symbol and ZapfDingbats with their built-in encodings
/// (Annex D.5, D.6). Metrics are Adobe's (the Core 14 AFM files), in 1/1000 em.
///
/// ```swift
/// let font = StandardFont(.helvetica)
/// font.canEncode("Café €")  // true
/// font.width(of: "Café €") * 12 / 1000  // the width in points at 12 pt
/// font.encode("Café €")  // [0x43, 0x61, 0x66, 0xE9, 0x20, 0x80]
/// ```
public struct StandardFont: Sendable, Hashable {
    /// The standard 14 fonts; the raw value is the PostScript name (the `/BaseFont`).
    public enum Name: String, CaseIterable, Sendable {
        /// Courier (fixed pitch).
        case courier = "Courier"
        /// Courier Bold (fixed pitch).
        case courierBold = "Courier-Bold"
        /// Courier Oblique (fixed pitch).
        case courierOblique = "Courier-Oblique"
        /// Courier Bold Oblique (fixed pitch).
        case courierBoldOblique = "Courier-BoldOblique"
        /// Helvetica (sans serif; Arial is metric-compatible).
        case helvetica = "Helvetica"
        /// Helvetica Bold.
        case helveticaBold = "Helvetica-Bold"
        /// Helvetica Oblique.
        case helveticaOblique = "Helvetica-Oblique"
        /// Helvetica Bold Oblique.
        case helveticaBoldOblique = "Helvetica-BoldOblique"
        /// Times Roman (serif; Times New Roman is metric-compatible).
        case timesRoman = "Times-Roman"
        /// Times Bold.
        case timesBold = "Times-Bold"
        /// Times Italic.
        case timesItalic = "Times-Italic"
        /// Times Bold Italic.
        case timesBoldItalic = "Times-BoldItalic"
        /// Symbol: Greek letters and mathematical signs, in its built-in encoding.
        case symbol = "Symbol"
        /// ITC Zapf Dingbats: check marks, stars, arrows and ornaments, in its built-in encoding.
        case zapfDingbats = "ZapfDingbats"
    }

    /// Which of the standard 14 fonts this is.
    public let name: Name

    /// The given standard font.
    public init(_ name: Name) {
        self.name = name
    }

    /// The standard font a `/BaseFont` name stands for, or nil when it names another font.
    ///
    /// Besides the 14 PostScript names, accepts what readers map to them (ISO 32000-2 §9.6.2.2 and
    /// Acrobat practice): a subset tag (`ABCDEF+Helvetica`), a comma or underscore before the style
    /// (`Helvetica,Bold`, `Arial_Italic`), spaces (`Times New Roman,Bold`), `Italic` for `Oblique`,
    /// and the metric-compatible families Arial (`Arial`, `ArialMT`, `Arial-BoldMT`, …), Times New
    /// Roman (`TimesNewRoman`, `TimesNewRomanPSMT`, `TimesNewRomanPS-BoldMT`, …) and Courier New
    /// (`CourierNew`, `CourierNewPSMT`, `CourierNewPS-BoldItalicMT`, …). Case is ignored. Styles
    /// that change the metrics (`Arial-Narrow`, `Arial-Black`, `Helvetica-Light`) are not accepted.
    ///
    /// - Parameter baseFont: the font's `/BaseFont` (the name without its slash).
    public init?(baseFont: String) {
        var text = Substring(baseFont)
        // A subset tag is six uppercase letters and a plus sign (§9.9.2).
        if text.utf8.count > 7, text.utf8.dropFirst(6).first == UInt8(ascii: "+"),
            text.utf8.prefix(6).allSatisfy({ (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) })
        {
            text = text.dropFirst(7)
        }
        if let exact = Name(rawValue: String(text)) {
            self.init(exact)
            return
        }
        var normalized = ""
        for character in text.lowercased() where !character.isWhitespace {
            normalized.append(character == "," || character == "_" ? "-" : character)
        }
        var family = normalized
        var style = ""
        if let dash = normalized.firstIndex(of: "-") {
            family = String(normalized[..<dash])
            style = String(normalized[normalized.index(after: dash)...])
        }
        guard let name = Self.name(family: family, style: style) else { return nil }
        self.init(name)
    }

    /// The standard font an AcroForm default resource name stands for (`Helv`, `HeBo`, `HeOb`, `HeBO`,
    /// `TiRo`, `TiBo`, `TiIt`, `TiBI`, `Cour`, `CoBo`, `CoOb`, `CoBO`, `Symb`, `ZaDb`, the names
    /// Acrobat puts in `/DR`), or nil for another name. Case matters (`HeBo` is bold, `HeBO` bold oblique).
    ///
    /// - Parameter resourceName: the name in the `/DA` string's `Tf` operator, without its slash.
    public init?(resourceName: String) {
        guard let name = Self.resourceNames[resourceName] else { return nil }
        self.init(name)
    }

    private static let resourceNames: [String: Name] = [
        "Helv": .helvetica, "HeBo": .helveticaBold, "HeOb": .helveticaOblique, "HeBO": .helveticaBoldOblique,
        "TiRo": .timesRoman, "TiBo": .timesBold, "TiIt": .timesItalic, "TiBI": .timesBoldItalic,
        "Cour": .courier, "CoBo": .courierBold, "CoOb": .courierOblique, "CoBO": .courierBoldOblique,
        "Symb": .symbol, "ZaDb": .zapfDingbats,
    ]

    // MARK: Metrics

    private var metrics: StandardFontMetrics { StandardFontData.metrics[name.dataIndex] }

    /// The font's PostScript name, which is its `/BaseFont`.
    public var postScriptName: String { name.rawValue }

    /// The ascender height, in 1/1000 em (AFM `Ascender`; the font box top for Symbol and ZapfDingbats).
    public var ascent: Double { Double(metrics.ascent) }

    /// The descender depth, negative, in 1/1000 em (AFM `Descender`; the font box bottom for Symbol and
    /// ZapfDingbats).
    public var descent: Double { Double(metrics.descent) }

    /// The height of capital letters, in 1/1000 em (for Symbol the top of Alpha, for ZapfDingbats the top
    /// of the check mark ✔ and most other dingbats).
    public var capHeight: Double { Double(metrics.capHeight) }

    /// The height of lowercase letters without ascenders, in 1/1000 em (0 for ZapfDingbats).
    public var xHeight: Double { Double(metrics.xHeight) }

    /// The angle of the vertical strokes, in degrees counterclockwise from vertical (negative for
    /// oblique and italic styles).
    public var italicAngle: Double { metrics.italicAngle }

    /// The thickness of the dominant vertical stems, in 1/1000 em (AFM `StdVW`).
    public var stemV: Double { Double(metrics.stemV) }

    /// The font descriptor flags (ISO 32000-2 §9.8.2, Table 121): fixed pitch (1), serif (2),
    /// symbolic (4), nonsymbolic (32), italic (64).
    public var flags: Int { metrics.flags }

    /// The font bounding box: the union of all glyphs' boxes, in 1/1000 em.
    public var bbox: PDFRectangle {
        let box = metrics.bbox
        return PDFRectangle(x0: Double(box[0]), y0: Double(box[1]), x1: Double(box[2]), y1: Double(box[3]))
    }

    /// True for Symbol and ZapfDingbats, whose characters are not Latin text.
    public var isSymbolic: Bool { name == .symbol || name == .zapfDingbats }

    /// The advance width of the glyph at `code` in the font's encoding, in 1/1000 em; 0 when the code
    /// has no glyph.
    public func width(of code: UInt8) -> Double {
        Double(StandardFontData.widths[name.dataIndex &* 256 &+ Int(code)])
    }

    // MARK: Text

    /// The encoding the font's strings are written in.
    package var encoding: SimpleEncoding {
        switch name {
        case .symbol: .symbol
        case .zapfDingbats: .zapfDingbats
        default: .winAnsi
        }
    }

    /// The code of `scalar` in the font's encoding when the font has a glyph for it.
    package func code(for scalar: Unicode.Scalar) -> UInt8? {
        guard let code = encoding.code(for: scalar), width(of: code) > 0 else { return nil }
        return code
    }

    /// True when every character of `text` has a code in the font's encoding and a glyph there.
    ///
    /// A character written with combining marks counts when its composed form has a code
    /// (`e` + U+0301 is `é`, 0xE9 in WinAnsiEncoding).
    public func canEncode(_ text: String) -> Bool {
        var encodable = true
        forEachCode(in: text) { code in
            if code == nil { encodable = false }
        }
        return encodable
    }

    /// The advance width of `text`, in 1/1000 em: the sum of the widths of the codes ``encode(_:)``
    /// writes for it, so a character without a glyph counts as the `?` that replaces it in the text
    /// fonts, and as 0 in Symbol and ZapfDingbats, where it is left out.
    public func width(of text: String) -> Double {
        var total = 0
        forEachCode(in: text) { code in
            total += Int(StandardFontData.widths[name.dataIndex &* 256 &+ Int(code ?? replacement ?? 0)])
        }
        return Double(total)
    }

    /// The bytes of `text` for a `Tj` string operand with this font selected: one code per character,
    /// WinAnsiEncoding for the text fonts and the built-in encoding for Symbol and ZapfDingbats.
    ///
    /// A character without a glyph becomes `?` in the text fonts and is left out in Symbol and
    /// ZapfDingbats (check ``canEncode(_:)`` first to fall back to another font).
    public func encode(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        forEachCode(in: text) { code in
            if let code = code ?? replacement { bytes.append(code) }
        }
        return bytes
    }

    /// The code written for a character without a glyph: `?` in the text fonts, none in the symbolic ones.
    private var replacement: UInt8? { isSymbolic ? nil : UInt8(ascii: "?") }

    /// Calls `body` with the code of each character of `text`, or nil for a character without one.
    private func forEachCode(in text: String, _ body: (UInt8?) -> Void) {
        for character in text {
            let scalars = character.unicodeScalars
            if scalars.count == 1, let scalar = scalars.first {
                body(code(for: scalar))
            } else if scalars.allSatisfy({ code(for: $0) != nil }) {
                for scalar in scalars { body(code(for: scalar)) }
            } else {
                // A base letter with combining marks: the composed character, if it has a code.
                let composed = UnicodeNFKC.normalize(String(character)).unicodeScalars
                body(composed.count == 1 ? composed.first.flatMap(code(for:)) : nil)
            }
        }
    }

    /// The ``StandardFont/Name`` whose family and style these are (lowercased, without spaces), or nil.
    private static func name(family: String, style: String) -> Name? {
        var style = String(style.filter { $0 != "-" })
        if style.hasSuffix("mt") { style.removeLast(2) }
        for plain in ["roman", "regular", "normal", "book"] where style.hasPrefix(plain) {
            style.removeFirst(plain.count)
        }
        let bold: Bool
        let italic: Bool
        switch style {
        case "": (bold, italic) = (false, false)
        case "bold": (bold, italic) = (true, false)
        case "italic", "oblique": (bold, italic) = (false, true)
        case "bolditalic", "boldoblique", "italicbold", "obliquebold": (bold, italic) = (true, true)
        default: return nil
        }
        switch family {
        case "helvetica", "arial", "arialmt":
            return bold ? (italic ? .helveticaBoldOblique : .helveticaBold) : (italic ? .helveticaOblique : .helvetica)
        case "times", "timesnewroman", "timesnewromanps", "timesnewromanpsmt":
            return bold ? (italic ? .timesBoldItalic : .timesBold) : (italic ? .timesItalic : .timesRoman)
        case "courier", "couriernew", "couriernewps", "couriernewpsmt":
            return bold ? (italic ? .courierBoldOblique : .courierBold) : (italic ? .courierOblique : .courier)
        case "symbol": return .symbol
        case "zapfdingbats": return style.isEmpty ? .zapfDingbats : nil
        default: return nil
        }
    }
}

extension StandardFont.Name {
    /// The font's position in ``StandardFontData`` (`allCases` order).
    var dataIndex: Int {
        switch self {
        case .courier: 0
        case .courierBold: 1
        case .courierOblique: 2
        case .courierBoldOblique: 3
        case .helvetica: 4
        case .helveticaBold: 5
        case .helveticaOblique: 6
        case .helveticaBoldOblique: 7
        case .timesRoman: 8
        case .timesBold: 9
        case .timesItalic: 10
        case .timesBoldItalic: 11
        case .symbol: 12
        case .zapfDingbats: 13
        }
    }
}

/// The font descriptor values of a standard font (ISO 32000-2 §9.8), in 1/1000 em.
struct StandardFontMetrics: Sendable {
    let postScriptName: String
    let ascent: Int
    let descent: Int
    let capHeight: Int
    let xHeight: Int
    let italicAngle: Double
    let stemV: Int
    let flags: Int
    /// `[llx, lly, urx, ury]`.
    let bbox: [Int]
}
