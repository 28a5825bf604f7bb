public import PDFCore
public import PDFFonts

/// A font followed by the fonts that draw what it cannot: text mixing scripts that no single font
/// covers (a name such as "Zoë 李") is split into runs, each drawn with the first font of the chain
/// that has all its glyphs.
///
/// ```swift
/// let chain = try FontChain.covering(text, primary: StandardFont(.helvetica)) { try EmbeddedFont(fontFile: $0) }
/// content.beginText()
/// chain.show(text, names: ["F1", "F2"], size: 12, into: &content)   // one Tf and Tj per run
/// ```
///
/// As a ``PDFFont`` the chain measures text run by run (so ``TextLayout`` wraps, aligns and fits
/// with each run's font); its ascent and descent are the extremes of its fonts. Only a chain of one
/// font can ``encode(_:)`` text for a single `Tj`; draw a longer chain with ``show(_:names:size:into:)``.
public struct FontChain: PDFFont {
    /// A stretch of text drawn with one font of the chain.
    public struct Run: Sendable, Equatable {
        /// The index of the font in ``fonts``.
        public var font: Int
        /// The text of the run.
        public var text: String
    }

    /// The fonts, the preferred first.
    public let fonts: [any PDFFont]

    /// A chain of `fonts`, the preferred first; it must not be empty.
    public init(_ fonts: [any PDFFont]) {
        precondition(!fonts.isEmpty, "a font chain needs a font")
        self.fonts = fonts
    }

    /// The runs of `text`: each character (a base and its marks stay together) goes to the first
    /// font that has all its glyphs, white space stays in the run it is in when that font has it;
    /// a character no font has goes to the first font (drawn as its missing glyph).
    public func runs(_ text: String) -> [Run] {
        var runs: [Run] = []
        for character in text {
            let string = String(character)
            if let last = runs.last, character.isWhitespace, fonts[last.font].canEncode(string) {
                runs[runs.count - 1].text.append(character)
                continue
            }
            let index = fonts.firstIndex { $0.canEncode(string) } ?? 0
            if let last = runs.last, last.font == index {
                runs[runs.count - 1].text.append(character)
            } else {
                runs.append(Run(font: index, text: string))
            }
        }
        return runs
    }

    /// The first character of `text` that no font of the chain has, if any.
    public func missingCharacter(in text: String) -> Character? {
        text.first { character in !fonts.contains { $0.canEncode(String(character)) } }
    }

    /// Shows `text` at the current text position: for each run, `/name size Tf` and its `Tj`
    /// (`names[i]` is the resource name of `fonts[i]`). Call between `BT` and `ET`; the text
    /// position moves on from run to run as `Tj` advances it.
    public func show(_ text: String, names: [PDFName], size: Double, into content: inout ContentStreamBuilder) {
        for run in runs(text) {
            content.setFont(names[run.font], size: size)
            content.showText(fonts[run.font].encode(run.text))
        }
    }

    // MARK: PDFFont

    /// The first font's PostScript name.
    public var postScriptName: String { fonts[0].postScriptName }
    /// The greatest ascent of the fonts.
    public var ascent: Double { fonts.map(\.ascent).max() ?? 0 }
    /// The deepest descent of the fonts (negative).
    public var descent: Double { fonts.map(\.descent).min() ?? 0 }
    /// The first font's cap height.
    public var capHeight: Double { fonts[0].capHeight }

    /// True when every character has a glyph in some font of the chain.
    public func canEncode(_ text: String) -> Bool { missingCharacter(in: text) == nil }

    /// The width of `text`, each run measured with its own font, in 1/1000 em.
    public func width(of text: String) -> Double {
        runs(text).reduce(0) { $0 + fonts[$1.font].width(of: $1.text) }
    }

    /// The first font's bytes for `text`: right for a chain of one font; a longer chain is drawn
    /// with ``show(_:names:size:into:)``.
    public func encode(_ text: String) -> [UInt8] { fonts[0].encode(text) }

    /// The first font's dictionary; give each font of a longer chain its own resource.
    public func fontDictionary(adding add: (PDFObject) -> PDFReference) throws(PDFError) -> PDFDictionary {
        try fonts[0].fontDictionary(adding: add)
    }

    // MARK: Finding fonts

    /// The chain that draws `text`: `primary` alone when it has every glyph; else the one installed
    /// font that covers all of `text` (fontconfig's best, as `SystemFonts.font(covering:family:)`
    /// finds it); else `primary` followed by installed fonts for what it lacks, each the best font
    /// covering as much of the rest as one font can.
    /// - Parameters:
    ///   - text: the text to draw.
    ///   - primary: the preferred font (a field's, a signature's, a watermark's); nil for none.
    ///   - embed: makes a font of an installed file (`EmbeddedFont(fontFile:)`, or a cached one).
    /// - Throws: ``FontChainError/missing(_:)`` naming a character no installed font has, or the error of `embed`.
    public static func covering<Failure: Error>(
        _ text: String, primary: (any PDFFont)?, embed: (SystemFonts.FontFile) throws(Failure) -> any PDFFont
    ) throws(FontChainError<Failure>) -> FontChain {
        if let primary, primary.canEncode(text) { return FontChain([primary]) }
        func load(_ file: SystemFonts.FontFile) throws(FontChainError<Failure>) -> any PDFFont {
            do { return try embed(file) } catch { throw .embedding(file, error) }
        }
        if let file = SystemFonts.font(covering: text) { return FontChain([try load(file)]) }
        var fonts: [any PDFFont] = primary.map { [$0] } ?? []
        var missing = Self.uncovered(text, by: fonts)
        while let first = missing.first {
            // The font covering all that is left, else the longest start of it, else one character.
            var file = SystemFonts.font(covering: String(missing))
            var prefix = missing.count
            while file == nil && prefix > 1 {
                prefix = (prefix + 1) / 2
                file = SystemFonts.font(covering: String(missing.prefix(prefix)))
            }
            guard let file else { throw .missing(first) }
            let font = try load(file)
            guard font.canEncode(String(first)) else { throw .missing(first) }
            fonts.append(font)
            missing = Self.uncovered(text, by: fonts)
        }
        return FontChain(fonts)
    }

    /// The characters of `text` (without repeats, in order) that none of `fonts` has.
    private static func uncovered(_ text: String, by fonts: [any PDFFont]) -> [Character] {
        var seen: Set<Character> = []
        return text.filter { character in
            seen.insert(character).inserted && !fonts.contains { $0.canEncode(String(character)) }
        }.map { $0 }
    }

    /// `U+XXXX "c"`: how an error names a character.
    public static func describe(_ character: Character) -> String {
        let codes = character.unicodeScalars.map { scalar -> String in
            let hex = String(scalar.value, radix: 16, uppercase: true)
            return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        }
        return codes.joined(separator: " ") + " \"\(character)\""
    }
}

/// Why ``FontChain/covering(_:primary:embed:)`` found no chain.
public enum FontChainError<Underlying: Error>: Error {
    /// No installed font has this character.
    case missing(Character)
    /// The installed font in this file could not be embedded.
    case embedding(SystemFonts.FontFile, Underlying)

    /// A sentence for an error message: "no font on this system has U+E000 "" (in "…")".
    public func message(in text: String) -> String {
        switch self {
        case .missing(let character):
            "no font on this system has \(FontChain.describe(character)) (in \"\(text.prefix(40))\")"
        case .embedding(let file, let error): "the font \(file.path) cannot be embedded: \(error)"
        }
    }
}
