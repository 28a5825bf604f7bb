public import PDFCore

extension FormFiller {
    /// The incremental update that writes the values set, with new appearances for their widgets
    /// (and for every field when the form sets `/NeedAppearances`, which is then cleared). A widget
    /// whose text needed an embedded font gets a `/DA` naming it, added to the form's `/DR /Font`.
    /// - Throws: `.needAppearances` (signo -137) under ``NeedAppearancesPolicy/refuse``,
    ///   `.fontUnavailable` when no font can draw a value, `.wrongKind` for a field stored as a direct object.
    public func makeUpdate() throws(FormError) -> IncrementalUpdate {
        let document = form.document
        if form.needsAppearances && options.needAppearances == .refuse {
            throw FormError(.needAppearances, "the document sets /NeedAppearances true")
        }
        var update = IncrementalUpdate(base: document, options: options.write)
        var generator = AppearanceGenerator(
            fonts: AppearanceFonts(document: document, defaultResources: form.defaultResources, fallback: options.font),
            document: document)
        var edits = DictionaryEdits(reading: update)
        var resourceFonts = DefaultResourceFonts(form: form)

        var targets: [(field: FormField, value: FieldValue, changed: Bool)] = []
        for (name, value) in values {
            if let field = form.field(named: name) { targets.append((field, value, true)) }
        }
        if form.needsAppearances {
            let set = Set(values.map(\.name))
            for field in form.fields where field.kind.isFillable && !set.contains(field.name) {
                targets.append((field, field.value, false))
            }
        }

        for (field, value, changed) in targets {
            if changed {
                guard let reference = field.reference else {
                    throw FormError(.wrongKind, field: field.name, "the field is a direct object; it cannot be updated")
                }
                // Fields of the same name are one field: each gets the value.
                for holder in [reference] + field.merged.compactMap(\.reference) {
                    edits.edit(holder) { dictionary in
                        dictionary[.v] = FormFiller.object(for: value)
                        if field.kind == .listBox {
                            let selected = FormFiller.selections(value)
                            let indices = field.options.indices.filter {
                                selected.contains(field.options[$0].exportValue)
                            }
                            dictionary[.i] = indices.isEmpty ? nil : .array(indices.map { .integer($0) })
                        }
                    }
                }
            }
            for widget in field.widgets {
                guard let reference = widget.reference else { continue }
                switch field.kind {
                case .text, .comboBox:
                    let text: String
                    switch value {
                    case .text(let value):
                        text = field.options.first { $0.exportValue == value }?.displayText ?? value
                    default: text = ""
                    }
                    let appearance = try generator.text(text, field: field, widget: widget, update: &update)
                    Self.set(appearance, on: reference, edits: &edits, resourceFonts: &resourceFonts, update: &update)
                case .listBox:
                    let appearance = try generator.list(
                        FormFiller.selections(value), field: field, widget: widget, update: &update)
                    Self.set(appearance, on: reference, edits: &edits, resourceFonts: &resourceFonts, update: &update)
                case .checkbox, .radio:
                    guard case .state(let state) = value else { continue }
                    let hasState = state == "Off" || widget.onStates.contains(state)
                    let widgetState = hasState ? state : "Off"
                    // A widget without appearances for its states gets ZapfDingbats ones.
                    if widget.onStates.isEmpty {
                        let onState = state == "Off" ? "Yes" : state
                        let (on, off) = generator.button(field: field, widget: widget, update: &update)
                        let onReference = update.add(on)
                        let offReference = update.add(off)
                        edits.edit(reference) {
                            $0[.ap] = .dictionary([
                                .n: .dictionary([
                                    PDFName(onState): .reference(onReference), .off: .reference(offReference),
                                ])
                            ])
                            $0[.as] = .name(PDFName(state == "Off" ? "Off" : onState))
                        }
                    } else {
                        edits.edit(reference) { $0[.as] = .name(PDFName(widgetState)) }
                    }
                case .pushButton, .signature, .unknown:
                    continue
                }
            }
        }

        if form.needsAppearances {
            // Left true, viewers (MuPDF from 1.27, pdf.js, poppler, Acrobat) draw their own appearances.
            Self.editForm(form, edits: &edits, update: update) { $0[.needAppearances] = nil }
        }
        resourceFonts.apply(to: &edits, update: update)
        try generator.fonts.finish(update: &update)
        edits.apply(to: &update)
        return update
    }

    /// Writes the base document followed by the update to `path`, atomically.
    public func write(to path: String) throws(FormError) {
        let update = try makeUpdate()
        do {
            try update.write(to: path)
        } catch {
            throw FormError(error)
        }
    }

    /// The document with the update, in memory.
    public func documentBytes() throws(FormError) -> [UInt8] {
        do {
            return try makeUpdate().documentBytes()
        } catch let error as FormError {
            throw error
        } catch {
            throw FormError(.writeFailed, "\(error)")
        }
    }

    /// Gives the widget `appearance` as its normal appearance and, when it was drawn with a font
    /// other than its `/DA` font, points the widget's `/DA` at that font (added to `/DR`).
    private static func set(
        _ appearance: AppearanceGenerator.TextAppearance, on widget: PDFReference, edits: inout DictionaryEdits,
        resourceFonts: inout DefaultResourceFonts, update: inout IncrementalUpdate
    ) {
        let appearanceReference = update.add(appearance.stream)
        var defaultAppearance = appearance.defaultAppearance
        defaultAppearance?.fontName = resourceFonts.name(for: appearance.font)
        edits.edit(widget) { dictionary in
            dictionary[.ap] = .dictionary([.n: .reference(appearanceReference)])
            if let defaultAppearance { dictionary[.da] = .string(PDFString(text: defaultAppearance.text)) }
        }
    }

    /// Edits the form dictionary: its own object, or the catalog that holds it directly.
    static func editForm(
        _ form: AcroForm, edits: inout DictionaryEdits, update: IncrementalUpdate,
        _ change: @escaping (inout PDFDictionary) -> Void
    ) {
        if let formReference = form.reference {
            edits.edit(formReference, change)
        } else if let root = update.catalogReference {
            let document = form.document
            edits.edit(root) { catalog in
                var acroForm = document.resolve(catalog[.acroForm] ?? .null).dictionaryValue ?? form.dictionary
                change(&acroForm)
                catalog[.acroForm] = .dictionary(acroForm)
            }
        }
    }

    static func object(for value: FieldValue) -> PDFObject {
        switch value {
        case .none: return .null
        case .text(let text): return .string(PDFString(text: text))
        case .state(let state): return .name(PDFName(state))
        case .choices(let choices): return .array(choices.map { .string(PDFString(text: $0)) })
        case .signature: return .null
        }
    }

    static func selections(_ value: FieldValue) -> [String] {
        switch value {
        case .text(let text): [text]
        case .choices(let choices): choices
        default: []
        }
    }
}

/// Edits of existing dictionaries, gathered so that a field merged with its widget is written once.
struct DictionaryEdits {
    /// The objects as the update starts (the base's, and a direct catalog the update made indirect).
    let source: IncrementalUpdate
    private var edited: [PDFReference: PDFDictionary] = [:]
    private var order: [PDFReference] = []

    init(reading update: IncrementalUpdate) { self.source = update }

    mutating func edit(_ reference: PDFReference, _ change: (inout PDFDictionary) -> Void) {
        var dictionary = edited[reference] ?? source.object(reference).dictionaryValue ?? PDFDictionary()
        change(&dictionary)
        if edited[reference] == nil { order.append(reference) }
        edited[reference] = dictionary
    }

    func apply(to update: inout IncrementalUpdate) {
        for reference in order {
            update.replace(reference, with: .dictionary(edited[reference]!))
        }
    }
}
