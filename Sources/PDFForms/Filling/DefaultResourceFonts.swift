import PDFCore

/// The fonts a fill adds to the form's default resources (`/DR /Font`, ISO 32000-2 §12.7.3) so that
/// a widget's `/DA` can name the font its value was drawn with.
///
/// A viewer that makes its own appearance (because it ignores ours, because the form asked for it
/// with `/NeedAppearances`, or after an edit) draws the value with the `/DA` font. When that is a
/// standard font such as Helvetica, text outside its encoding (Greek, Cyrillic, CJK …) comes out
/// blank or as question marks; pointed at the embedded subset the value was drawn with, it has the
/// glyphs. Each font gets a name no `/DR` font of the form has yet.
struct DefaultResourceFonts {
    private let form: AcroForm
    /// The names `/DR /Font` holds before the update.
    private var taken: Set<PDFName>
    private var names: [PDFReference: PDFName] = [:]
    private var order: [PDFReference] = []

    init(form: AcroForm) {
        self.form = form
        let fonts = form.document.resolve(form.defaultResources?[.font] ?? .null).dictionaryValue
        taken = Set(fonts?.keys ?? [])
    }

    /// The `/DR` name of `choice`'s font, added to the resources when ``apply(to:update:)`` runs.
    mutating func name(for choice: AppearanceFonts.Choice) -> PDFName {
        if let known = names[choice.reference] { return known }
        var name = choice.resourceName
        var suffix = 1
        while taken.contains(name) {
            suffix += 1
            name = PDFName("\(choice.resourceName.string)_\(suffix)")
        }
        taken.insert(name)
        names[choice.reference] = name
        order.append(choice.reference)
        return name
    }

    /// Adds the fonts named so far to `/DR /Font`, editing the objects that hold them: the font
    /// dictionary or `/DR` when indirect, else the form dictionary.
    func apply(to edits: inout DictionaryEdits, update: IncrementalUpdate) {
        guard !order.isEmpty else { return }
        let document = form.document
        let add = { (fonts: inout PDFDictionary) in
            for reference in order { fonts[names[reference]!] = .reference(reference) }
        }
        let resourcesObject = form.dictionary[.dr]
        let resources = document.resolve(resourcesObject ?? .null).dictionaryValue ?? PDFDictionary()
        if case .reference(let fontsReference) = resources[.font] {
            edits.edit(fontsReference) { add(&$0) }
            return
        }
        let withFonts = { (resources: inout PDFDictionary) in
            var fonts = document.resolve(resources[.font] ?? .null).dictionaryValue ?? PDFDictionary()
            add(&fonts)
            resources[.font] = .dictionary(fonts)
        }
        if case .reference(let resourcesReference) = resourcesObject {
            edits.edit(resourcesReference) { withFonts(&$0) }
            return
        }
        FormFiller.editForm(form, edits: &edits, update: update) { acroForm in
            var resources = document.resolve(acroForm[.dr] ?? .null).dictionaryValue ?? PDFDictionary()
            withFonts(&resources)
            acroForm[.dr] = .dictionary(resources)
        }
    }
}
