import PDFAuthoring
import PDFCore
import PDFFonts

/// Chooses the font that draws each field's text and keeps one font object per font for the
/// whole update: the field's `/DA` font when it is one of the standard 14 and can draw the text,
/// else the caller's font, else a system font that covers the text (embedded as a subset), else a
/// ``FontChain`` of the `/DA` font and system fonts drawing the text run by run.
struct AppearanceFonts {
    /// A font chosen for some text, with its resource name and object.
    struct Choice {
        var font: any PDFFont
        var resourceName: PDFName
        var reference: PDFReference
    }

    private let document: PDFDocument
    private let defaultResources: PDFDictionary?
    private let fallback: (any PDFFont)?
    private var standard: [StandardFont.Name: PDFReference] = [:]
    private var embedded: [String: (font: EmbeddedFont, reference: PDFReference, name: PDFName)] = [:]
    private var callerFontReference: PDFReference?

    init(document: PDFDocument, defaultResources: PDFDictionary?, fallback: (any PDFFont)?) {
        self.document = document
        self.defaultResources = defaultResources
        self.fallback = fallback
    }

    /// The fonts for `text` in a field whose `/DA` names `resourceName`, the preferred first:
    /// the `/DA` font when it is a standard font that can draw it all, else the caller's font, else
    /// one installed font covering it all, else a chain (the `/DA` font, then installed fonts for
    /// what it lacks) that draws it run by run.
    /// - Throws: `.fontUnavailable` naming a character no installed font has.
    mutating func fonts(
        for text: String, resourceName: PDFName?, field: String, update: inout IncrementalUpdate
    ) throws(FormError) -> [Choice] {
        let requested = resourceName.flatMap(standardFont(named:)) ?? StandardFont(.helvetica)
        if requested.canEncode(text) {
            let reference = standardReference(requested, update: &update)
            return [Choice(font: requested, resourceName: resourceName ?? .helv, reference: reference)]
        }
        if let fallback, fallback.canEncode(text) {
            if callerFontReference == nil { callerFontReference = update.reserve() }
            return [Choice(font: fallback, resourceName: .autographF0, reference: callerFontReference!)]
        }
        let chain: FontChain
        do {
            chain = try FontChain.covering(text, primary: requested) { (file) throws(PDFError) -> any PDFFont in
                try embeddedFont(file, update: &update)
            }
        } catch {
            throw FormError(.fontUnavailable, field: field, error.message(in: text))
        }
        var choices: [Choice] = []
        for font in chain.fonts {
            if let standard = font as? StandardFont {
                let reference = standardReference(standard, update: &update)
                choices.append(Choice(font: standard, resourceName: resourceName ?? .helv, reference: reference))
            } else if let entry = embedded.values.first(where: { $0.font === font as AnyObject }) {
                choices.append(Choice(font: entry.font, resourceName: entry.name, reference: entry.reference))
            }
        }
        return choices
    }

    /// The embedded font of an installed file, read once per update.
    private mutating func embeddedFont(
        _ file: SystemFonts.FontFile, update: inout IncrementalUpdate
    ) throws(PDFError) -> EmbeddedFont {
        let key = "\(file.path)#\(file.index)"
        if let known = embedded[key] { return known.font }
        let font = try EmbeddedFont(fontFile: file)
        let name = PDFName("AutographF\(embedded.count + 1)")
        embedded[key] = (font, update.reserve(), name)
        return font
    }

    /// ZapfDingbats for checkbox and radio button symbols.
    mutating func dingbats(update: inout IncrementalUpdate) -> Choice {
        let font = StandardFont(.zapfDingbats)
        return Choice(font: font, resourceName: .zaDb, reference: standardReference(font, update: &update))
    }

    /// Writes the font dictionaries of the embedded fonts (subset to the glyphs used); call last.
    func finish(update: inout IncrementalUpdate) throws(FormError) {
        do {
            if let callerFontReference, let fallback {
                let dictionary = try fallback.fontDictionary { update.add($0) }
                update.replace(callerFontReference, with: .dictionary(dictionary))
            }
            for entry in embedded.values {
                let dictionary = try entry.font.fontDictionary { update.add($0) }
                update.replace(entry.reference, with: .dictionary(dictionary))
            }
        } catch {
            throw FormError(.fontUnavailable, "a font could not be embedded: \(error.message)")
        }
    }

    /// The standard font a `/DA` resource name stands for: its `/DR` font's `/BaseFont`, or the
    /// usual AcroForm names (`Helv`, `ZaDb` …).
    private func standardFont(named name: PDFName) -> StandardFont? {
        if let fonts = document.resolve(defaultResources?[.font] ?? .null).dictionaryValue,
            let font = document.resolve(fonts[name] ?? .null).dictionaryValue,
            let baseFont = document.resolve(font[.baseFont] ?? .null).nameValue,
            let standard = StandardFont(baseFont: baseFont.string)
        {
            return standard
        }
        return StandardFont(resourceName: name.string) ?? StandardFont(baseFont: name.string)
    }

    private mutating func standardReference(_ font: StandardFont, update: inout IncrementalUpdate) -> PDFReference {
        if let known = standard[font.name] { return known }
        // A standard font's dictionary never fails to build.
        let dictionary = (try? font.fontDictionary { update.add($0) }) ?? PDFDictionary()
        let reference = update.add(.dictionary(dictionary))
        standard[font.name] = reference
        return reference
    }
}
