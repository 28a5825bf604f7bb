import PDFAuthoring
public import PDFCore

/// A document's interactive form (ISO 32000-2 §12.7.3): its terminal fields with inheritance
/// resolved, and the queries of the seeds (editable fields, signature fields, required fields
/// still empty).
///
/// Reading is liberal: cycles in `/Kids` are cut, kids that are not dictionaries are skipped, and
/// widgets are placed on pages through `/P` or, when it is missing or wrong, the pages' `/Annots`.
public struct AcroForm: Sendable {
    /// The document the form belongs to.
    public let document: PDFDocument
    /// The `/AcroForm` dictionary's reference, when it is indirect.
    public let reference: PDFReference?
    /// The `/AcroForm` dictionary.
    public let dictionary: PDFDictionary
    /// Every terminal field, in the order of the field tree.
    public let fields: [FormField]
    /// Problems met while reading the tree (cycles, bad kids).
    public let warnings: [String]

    /// Reads the form of `document`, or returns nil when it has none.
    public init?(document: PDFDocument) {
        guard let catalog = document.catalog, let formObject = catalog[.acroForm],
            let dictionary = document.resolve(formObject).dictionaryValue
        else { return nil }
        self.document = document
        self.reference = formObject.referenceValue
        self.dictionary = dictionary
        var reader = FieldTreeReader(document: document, form: dictionary)
        reader.read()
        var warnings = reader.warnings
        self.fields = AcroForm.mergingSameNames(reader.fields, warnings: &warnings)
        self.warnings = warnings
    }

    /// Fields of one kind with the same fully qualified name made one (the first, with the others'
    /// widgets and the others in ``FormField/merged``), as Acrobat treats them.
    static func mergingSameNames(_ fields: [FormField], warnings: inout [String]) -> [FormField] {
        var result: [FormField] = []
        var first: [String: Int] = [:]
        var kinds: [String: FieldKind] = [:]
        for field in fields {
            guard !field.name.isEmpty else {
                result.append(field)
                continue
            }
            if let kind = kinds[field.name], kind != field.kind {
                warnings.append("fields named \(field.name) are of different kinds; kept apart")
            }
            kinds[field.name] = kinds[field.name] ?? field.kind
            let key = field.name + "\u{0}" + field.kind.rawValue
            guard let index = first[key] else {
                first[key] = result.count
                result.append(field)
                continue
            }
            result[index].widgets += field.widgets
            result[index].merged.append(field)
        }
        return result
    }

    /// `/NeedAppearances`: viewers are asked to make appearances themselves.
    public var needsAppearances: Bool {
        document.resolve(dictionary[.needAppearances] ?? .null).boolValue ?? false
    }

    /// `/DR`, the default resources (fonts for `/DA`).
    public var defaultResources: PDFDictionary? { document.resolve(dictionary[.dr] ?? .null).dictionaryValue }

    /// True when the form holds XFA (its fields may be shown differently by XFA viewers).
    public var hasXFA: Bool { dictionary[.xfa] != nil }

    /// The field with this fully qualified name.
    public func field(named name: String) -> FormField? { fields.first { $0.name == name } }

    /// Fields a person can fill (signo `getFormFields:FormFieldTypeEditableFields`).
    public var editableFields: [FormField] { fields.filter(\.isEditable) }

    /// Signature fields, signed or not.
    public var signatureFields: [FormField] { fields.filter { $0.kind == .signature } }

    /// Required fields that are still empty (WYSIWYS `missingRequiredFormField`).
    public var missingRequiredFields: [FormField] {
        fields.filter { $0.isRequired && $0.isEmpty && $0.kind != .pushButton }
    }
}

/// Walks `/Fields` and `/Kids`, carrying inherited attributes down.
struct FieldTreeReader {
    let document: PDFDocument
    let form: PDFDictionary
    var fields: [FormField] = []
    var warnings: [String] = []
    private var visited: Set<PDFReference> = []
    private var pageOfWidget: [PDFReference: Int] = [:]
    private var pageOfReference: [PDFReference: Int] = [:]

    init(document: PDFDocument, form: PDFDictionary) {
        self.document = document
        self.form = form
        for page in document.pages {
            if let reference = page.reference { pageOfReference[reference] = page.index }
            for annotation in document.resolve(page.dictionary[.annots] ?? .null).arrayValue ?? [] {
                if let reference = annotation.referenceValue, pageOfWidget[reference] == nil {
                    pageOfWidget[reference] = page.index
                }
            }
        }
    }

    struct Inherited {
        var name: [String] = []
        var type: PDFName?
        var flags: UInt32?
        var value: PDFObject?
        var valueHolder: PDFReference?
        var defaultValue: PDFObject?
        var defaultAppearance: String?
        var alignment: Int?
        var maxLength: Int?
        var options: PDFObject?
        var ancestors: [PDFReference] = []
    }

    mutating func read() {
        var inherited = Inherited()
        inherited.defaultAppearance = document.resolve(form[.da] ?? .null).stringValue?.text
        inherited.alignment = document.resolve(form[.q] ?? .null).intValue
        for field in document.resolve(form[.fields] ?? .null).arrayValue ?? [] {
            visit(field, inherited: inherited, depth: 0)
        }
    }

    private mutating func visit(_ object: PDFObject, inherited: Inherited, depth: Int) {
        let reference = object.referenceValue
        if let reference, !visited.insert(reference).inserted {
            warnings.append("field \(reference) appears twice in the tree (cycle); skipped")
            return
        }
        guard depth < 64, let dictionary = document.resolve(object).dictionaryValue else {
            warnings.append("a field in the tree is not a dictionary (or the tree is too deep); skipped")
            return
        }
        var inherited = inherited
        let partialName = document.resolve(dictionary[.t] ?? .null).stringValue?.text
        if let partialName { inherited.name.append(partialName) }
        if let type = document.resolve(dictionary[.ft] ?? .null).nameValue { inherited.type = type }
        if let flags = document.resolve(dictionary[.ff] ?? .null).intValue {
            inherited.flags = UInt32(truncatingIfNeeded: flags)
        }
        if let value = dictionary[.v] {
            inherited.value = value
            inherited.valueHolder = reference
        }
        if let value = dictionary[.dv] { inherited.defaultValue = value }
        if let appearance = document.resolve(dictionary[.da] ?? .null).stringValue?.text {
            inherited.defaultAppearance = appearance
        }
        if let alignment = document.resolve(dictionary[.q] ?? .null).intValue {
            inherited.alignment = alignment
        }
        if let maxLength = document.resolve(dictionary[.maxLen] ?? .null).intValue {
            inherited.maxLength = maxLength
        }
        if let options = dictionary[.opt] { inherited.options = options }

        // Kids with a partial name (or kids of their own) are fields; the others are this field's widgets.
        let kids = document.resolve(dictionary[.kids] ?? .null).arrayValue ?? []
        let fieldKids = kids.filter { kid in
            guard let kidDictionary = document.resolve(kid).dictionaryValue else { return false }
            return kidDictionary[.t] != nil || kidDictionary[.kids] != nil
                || (kidDictionary[.ft] != nil && kidDictionary.name(.subtype) != .widget)
        }
        if !fieldKids.isEmpty {
            var childInherited = inherited
            if let reference { childInherited.ancestors.insert(reference, at: 0) }
            for kid in fieldKids { visit(kid, inherited: childInherited, depth: depth + 1) }
            return
        }
        var widgets: [Widget] = []
        if kids.isEmpty {
            widgets = [makeWidget(reference, dictionary)]
        } else {
            for kid in kids {
                if let kidReference = kid.referenceValue, !visited.insert(kidReference).inserted { continue }
                if let widgetDictionary = document.resolve(kid).dictionaryValue {
                    widgets.append(makeWidget(kid.referenceValue, widgetDictionary))
                }
            }
        }
        fields.append(
            makeField(reference, dictionary, partialName: partialName, inherited: inherited, widgets: widgets))
    }

    private func makeWidget(_ reference: PDFReference?, _ dictionary: PDFDictionary) -> Widget {
        let rect =
            PDFRectangle(
                document.resolve(dictionary[.rect] ?? .null).arrayValue.map {
                    .array($0.map { document.resolve($0) })
                })
            ?? PDFRectangle(x0: 0, y0: 0, x1: 0, y1: 0)
        var pageIndex: Int? = reference.flatMap { pageOfWidget[$0] }
        if pageIndex == nil, let page = dictionary[.p]?.referenceValue { pageIndex = pageOfReference[page] }
        let characteristics = document.resolve(dictionary[.mk] ?? .null).dictionaryValue
        var rotation = (document.resolve(characteristics?[.r] ?? .null).intValue ?? 0) % 360
        if rotation < 0 { rotation += 360 }
        let flags = AnnotationFlags(
            rawValue: UInt32(truncatingIfNeeded: document.resolve(dictionary[.f] ?? .null).intValue ?? 0))
        let normal = document.resolve(
            document.resolve(dictionary[.ap] ?? .null).dictionaryValue?[.n] ?? .null)
        var onStates: [String] = []
        if case .dictionary(let states) = normal {
            onStates = states.keys.map(\.string).filter { $0 != "Off" }
        }
        return Widget(
            reference: reference, dictionary: dictionary, pageIndex: pageIndex, rect: rect,
            rotation: rotation / 90 * 90,
            flags: flags, onStates: onStates,
            appearanceState: document.resolve(dictionary[.as] ?? .null).nameValue?.string)
    }

    private func makeField(
        _ reference: PDFReference?, _ dictionary: PDFDictionary, partialName: String?, inherited: Inherited,
        widgets: [Widget]
    ) -> FormField {
        let flags = FieldFlags(rawValue: inherited.flags ?? 0)
        let kind = FieldKind(type: inherited.type, flags: flags)
        var options: [ChoiceOption] = []
        for option in document.resolve(inherited.options ?? .null).arrayValue ?? [] {
            switch document.resolve(option) {
            case .string(let text): options.append(ChoiceOption(exportValue: text.text, displayText: text.text))
            case .array(let pair) where pair.count >= 2:
                let export = document.resolve(pair[0]).stringValue?.text ?? ""
                let display = document.resolve(pair[1]).stringValue?.text ?? export
                options.append(ChoiceOption(exportValue: export, displayText: display))
            case .name(let name): options.append(ChoiceOption(exportValue: name.string, displayText: name.string))
            default: break
            }
        }
        return FormField(
            reference: reference, dictionary: dictionary, name: inherited.name.joined(separator: "."),
            partialName: partialName,
            alternateName: document.resolve(dictionary[.tu] ?? .null).stringValue?.text,
            kind: kind, flags: flags, value: value(inherited.value, kind: kind),
            defaultValue: value(inherited.defaultValue, kind: kind), defaultAppearance: inherited.defaultAppearance,
            alignment: FieldAlignment(rawValue: inherited.alignment ?? 0) ?? .left,
            maxLength: inherited.maxLength, options: options, widgets: widgets, ancestors: inherited.ancestors,
            valueHolder: inherited.valueHolder)
    }

    private func value(_ object: PDFObject?, kind: FieldKind) -> FieldValue {
        guard let object else { return kind == .signature ? .signature(signed: false) : .none }
        let resolved = document.resolve(object)
        switch kind {
        case .signature:
            return .signature(signed: resolved.dictionaryValue != nil)
        case .checkbox, .radio, .pushButton:
            if let name = resolved.nameValue { return .state(name.string) }
            if let text = resolved.stringValue { return .state(text.text) }
            return .none
        case .listBox, .comboBox:
            if let items = resolved.arrayValue {
                let texts = items.compactMap { document.resolve($0).stringValue?.text }
                return kind == .listBox && texts.count != 1 ? .choices(texts) : (texts.first.map { .text($0) } ?? .none)
            }
            if let text = resolved.stringValue { return .text(text.text) }
            if let name = resolved.nameValue { return .text(name.string) }
            return .none
        case .text, .unknown:
            if let text = resolved.stringValue { return .text(text.text) }
            // A text stream (rich text values may be streams, §12.7.5.3).
            if let stream = resolved.streamValue, let data = try? stream.decodedData() {
                return .text(PDFString(bytes: data).text)
            }
            if let name = resolved.nameValue { return .text(name.string) }
            return .none
        }
    }
}
