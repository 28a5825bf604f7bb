import PDFCore

/// The named one-byte encodings of simple fonts (ISO 32000-2 §9.6.5, Annex D): the base an
/// `/Encoding` starts from, or the built-in encoding of the Symbol and ZapfDingbats fonts.
public enum BaseEncoding: Sendable, Hashable {
    /// StandardEncoding (Annex D.2): the Latin text fonts' built-in encoding.
    case standard
    /// WinAnsiEncoding (Annex D.2): Windows code page 1252.
    case winAnsi
    /// MacRomanEncoding (Annex D.2): Mac OS Roman.
    case macRoman
    /// MacExpertEncoding (Annex D.4): expert glyphs (small capitals, old-style figures).
    case macExpert
    /// The built-in encoding of the Symbol font (Annex D.5).
    case symbol
    /// The built-in encoding of the ZapfDingbats font (Annex D.6).
    case zapfDingbats

    /// The encoding an `/Encoding` or `/BaseEncoding` name stands for; nil for any other name.
    public init?(name: String) {
        switch name {
        case "StandardEncoding": self = .standard
        case "WinAnsiEncoding": self = .winAnsi
        case "MacRomanEncoding": self = .macRoman
        case "MacExpertEncoding": self = .macExpert
        case "SymbolEncoding": self = .symbol
        case "ZapfDingbatsEncoding": self = .zapfDingbats
        default: return nil
        }
    }

    /// The glyph name at `code`, or nil when the encoding has none there.
    ///
    /// MacExpertEncoding has no table here: every code reads as nil, so the font's own encoding
    /// applies.
    public func glyphName(at code: UInt8) -> String? {
        let table: [String?]
        switch self {
        case .standard: table = Self.standardTable
        case .winAnsi: table = Self.winAnsiTable
        case .macRoman: table = Self.macRomanTable
        case .macExpert: return nil
        case .symbol: table = Self.symbolTable
        case .zapfDingbats: table = Self.zapfDingbatsTable
        }
        return table[Int(code)]
    }

    private static let standardTable = parse(standardNames)
    private static let winAnsiTable = parse(winAnsiNames)
    private static let macRomanTable = parse(macRomanNames)
    private static let symbolTable = parse(symbolNames)
    private static let zapfDingbatsTable = parse(zapfDingbatsNames)

    /// 256 names separated by white space, `.` for none.
    private static func parse(_ text: String) -> [String?] {
        var names: [String?] = GeneratedTableText.words(in: text).map {
            $0 == "." ? nil : $0
        }
        names += [String?](repeating: nil, count: max(0, 256 - names.count))
        return Array(names.prefix(256))
    }
}

/// What a simple font's `/Encoding` says (ISO 32000-2 §9.6.5): the facts a renderer needs to pick
/// glyphs from a TrueType font's `cmap` (§9.6.5.4).
public struct SimpleEncodingInfo: Sendable, Hashable {
    /// The named encoding (`/Encoding /WinAnsiEncoding` or `/BaseEncoding`); nil when none is named.
    public var base: BaseEncoding?
    /// `/Differences`: glyph names by code.
    public var differences: [UInt32: String]

    /// What an `/Encoding` says: the named base and the differences from it.
    public init(base: BaseEncoding?, differences: [UInt32: String]) {
        self.base = base
        self.differences = differences
    }
}
