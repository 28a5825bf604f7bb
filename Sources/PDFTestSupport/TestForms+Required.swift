public import PDFCore

extension TestForms {
    /// ``make(needAppearances:)``'s form (a field of each kind) with the Required flag (`/Ff` bit 2)
    /// set on the top-level fields named in `required`, in an incremental update: `name` (text),
    /// `agree` (check box), `color` (radio group), `country` (combo box), `languages` (list box),
    /// `signature` (an unsigned signature field) and the others of that form.
    public static func make(required: Set<String>) throws(PDFError) -> [UInt8] {
        let document = try PDFDocument(bytes: make())
        var update = IncrementalUpdate(base: document)
        let form = document.catalog.flatMap { document.resolve($0, .acroForm)?.dictionaryValue }
        let fields = form.flatMap { document.resolve($0, .fields)?.arrayValue } ?? []
        for item in fields {
            guard let reference = item.referenceValue,
                var field = document.object(reference).dictionaryValue,
                let name = field[.t]?.stringValue?.text, required.contains(name)
            else { continue }
            field[.ff] = .integer((field[.ff]?.intValue ?? 0) | 2)
            update.replace(reference, with: .dictionary(field))
        }
        return try update.documentBytes()
    }
}
