import PDFCore
import PDFForms

extension RevisionComparison {
    // MARK: The catalog

    /// The catalog's keys: the form, the DSS, metadata and extensions may change; `/Perms`, `/Pages`
    /// and everything else (`/OpenAction`, `/Names`, `/OCProperties`…) may not.
    mutating func compareCatalog() {
        guard let root = new.trailer.reference(.root), root == old.trailer.reference(.root),
            changed.contains(root.number)
        else { return }
        explained.insert(root.number)
        let before = old.catalog ?? PDFDictionary()
        let after = new.catalog ?? PDFDictionary()
        for key in Self.differingKeys(before, after) {
            let action = before[key] == nil ? "added to" : after[key] == nil ? "removed from" : "changed in"
            switch key {
            case .acroForm:
                // Compared by compareForm, whether the dictionary is direct or indirect.
                if let value = after[key], case .reference(let reference) = value, added.contains(reference.number) {
                    explained.insert(reference.number)
                }
            case PDFName("DSS"):
                record(.validationMaterial, .dss, object: root.number, "the DSS was \(action) the catalog")
                if let value = after[key] { claim(from: value, by: .dss) }
            case PDFName("Extensions"), .version:
                record(.validationMaterial, .catalog, object: root.number, "/\(key.string) \(action) the catalog")
                if let value = after[key] { claim(from: value, by: .catalog) }
            case PDFName("MarkInfo"):
                record(.bookkeeping, .catalog, object: root.number, "/MarkInfo \(action) the catalog")
            case .metadata:
                record(.metadata, .metadata, object: root.number, "the XMP metadata was \(action) the catalog")
                if let value = after[key] { claim(from: value, by: .metadata) }
            case .perms:
                record(
                    .forbidden, .catalog, object: root.number,
                    "/Perms \(action) the catalog: a certification cannot be added or changed after signing")
            case .pages:
                record(.forbidden, .page, object: root.number, "the catalog's /Pages names another page tree")
            default:
                record(.forbidden, .catalog, object: root.number, "/\(key.string) \(action) the catalog")
            }
        }
    }

    // MARK: The form dictionary and its fields

    mutating func compareForm() {
        if let reference = newForm.form?.reference,
            changed.contains(reference.number) || added.contains(reference.number)
        {
            explained.insert(reference.number)
        }
        let before = oldForm.form?.dictionary ?? PDFDictionary()
        let after = newForm.form?.dictionary ?? PDFDictionary()
        let object = newForm.form?.reference?.number
        for key in Self.differingKeys(before, after) {
            guard !ObjectComparison.same(before[key] ?? .null, in: old, after[key] ?? .null, in: new) else { continue }
            switch key {
            case .fields:
                if case .reference(let reference)? = after[key],
                    added.contains(reference.number) || changed.contains(reference.number)
                {
                    explained.insert(reference.number)
                }
            case PDFName("SigFlags"):
                record(.bookkeeping, .form, object: object, "/SigFlags of the form set")
            case PDFName("NeedAppearances"):
                record(
                    .formFilling, .form, object: object, "/NeedAppearances set: viewers regenerate field appearances")
            case PDFName("DR"), PDFName("DA"):
                record(.formFilling, .form, object: object, "the form's default /\(key.string) updated")
                if let value = after[key] { claim(from: value, by: .font) }
            default:
                record(.forbidden, .form, object: object, "/\(key.string) of the form changed")
            }
        }
        compareFields()
    }

    /// Fields added, removed, and the objects of existing fields and widgets the update changes.
    mutating func compareFields() {
        for (name, field) in newForm.fields.sorted(by: { $0.key < $1.key }) where oldForm.fields[name] == nil {
            addedField(name, field)
        }
        for name in oldForm.fields.keys.sorted() where newForm.fields[name] == nil {
            record(
                .forbidden, .field, object: oldForm.fields[name]?.reference?.number, page: oldForm.page(of: name),
                field: name, "field '\(name)' removed")
        }
        for number in changed.sorted() {
            guard let node = newForm.nodes[number], oldForm.nodes[number] != nil,
                let reference = Self.reference(number, in: new),
                let after = new.object(reference).dictionaryValue
            else { continue }
            let before = Self.reference(number, in: old).flatMap { old.object($0).dictionaryValue } ?? PDFDictionary()
            explained.insert(number)
            changedFieldObject(number, node: node, before: before, after: after)
        }
    }

    private mutating func addedField(_ name: String, _ field: FormField) {
        let page = newForm.page(of: name)
        let object = field.reference?.number
        if field.kind == .signature {
            if field.value == .signature(signed: true) {
                signatureValue(of: name, field: field, page: page, isNewField: true)
            } else {
                record(
                    .newSignatureField(visible: newForm.hasVisibleWidget(name)), .signature, object: object, page: page,
                    field: name, "new signature field '\(name)', not signed")
            }
        } else {
            record(.newFormField, .field, object: object, page: page, field: name, "new form field '\(name)'")
        }
        if let reference = field.reference { claim(from: .reference(reference), by: .field, page: page) }
        for widget in field.widgets {
            if let reference = widget.reference { claim(from: .reference(reference), by: .field, page: page) }
        }
    }

    /// A signature field's `/V` set by the update: a signature, or a document time-stamp; the
    /// signature dictionary must be new (one reused from another field signs nothing new).
    private mutating func signatureValue(of name: String, field: FormField, page: Int?, isNewField: Bool) {
        let value = field.dictionary[.v]
        let where_ = isNewField ? "new signature field '\(name)'" : "signature field '\(name)'"
        if case .reference(let reference)? = value, !added.contains(reference.number) {
            let other = oldForm.signatureDictionaries[reference.number]
            record(
                .forbidden, .signature, object: reference.number, page: page, field: name,
                "\(where_) reuses the signature dictionary \(reference.number)"
                    + (other.map { " of field '\($0)'" } ?? " of an earlier revision"))
            return
        }
        let dictionary = new.resolve(value ?? .null).dictionaryValue
        let isTimestamp =
            dictionary.flatMap { new.resolve($0, .type)?.nameValue } == PDFName("DocTimeStamp")
            || dictionary.flatMap { new.resolve($0, PDFName("SubFilter"))?.nameValue } == PDFName("ETSI.RFC3161")
        if isTimestamp {
            record(
                .validationMaterial, .dss, object: field.reference?.number, page: page, field: name,
                "document time-stamp in \(where_)")
        } else {
            record(.signing, .signature, object: field.reference?.number, page: page, field: name, "\(where_) signed")
        }
        if let value { claim(from: value, by: .signature, page: page) }
    }

    /// An existing field, widget or ancestor object changed: which keys, and whether filling or
    /// signing explains them.
    private mutating func changedFieldObject(
        _ number: Int, node: FormIndex.Node, before: PDFDictionary, after: PDFDictionary
    ) {
        let names = node.fields
        let name = names.first ?? "?"
        let page = newForm.page(of: name)
        let field = newForm.fields[name]
        let valueChanged = names.contains { oldForm.fields[$0]?.value != newForm.fields[$0]?.value }
        let signedNow =
            field?.kind == .signature && oldForm.fields[name]?.value != .signature(signed: true)
            && field?.value == .signature(signed: true)
        for key in Self.differingKeys(before, after) {
            guard !ObjectComparison.same(before[key] ?? .null, in: old, after[key] ?? .null, in: new) else { continue }
            switch key {
            case .v:
                if field?.kind == .signature {
                    if signedNow, let field {
                        signatureValue(of: name, field: field, page: page, isNewField: false)
                    } else {
                        record(
                            .forbidden, .signature, object: number, page: page, field: name,
                            "the signature of field '\(name)' replaced or removed")
                    }
                } else {
                    for name in names where oldForm.fields[name]?.value != newForm.fields[name]?.value {
                        record(
                            .formFilling, .field, object: number, page: newForm.page(of: name), field: name,
                            "the value of field '\(name)' changed")
                    }
                    if let value = after[key] { claim(from: value, by: .field, page: page) }
                }
            case PDFName("AS"), PDFName("AP"), PDFName("MK"), PDFName("DA"):
                // A fillable field's appearance is what filling it shows (a photo in a push button
                // or a text field, signoAPI's photo fields): form filling, as its value would be.
                // A signature's appearance, or a read-only field's, changes only by signing.
                let fillable =
                    oldForm.fields[name].map { $0.kind != .signature && !$0.isReadOnly } ?? false
                if valueChanged || signedNow || fillable {
                    let category: ObservedChange.Category = signedNow ? .signing : .formFilling
                    if key != PDFName("AS") {
                        let how = valueChanged || signedNow ? "regenerated" : "replaced (its value did not change)"
                        record(
                            category, .field, object: number, page: page, field: name,
                            "the appearance (/\(key.string)) of field '\(name)' \(how)")
                    }
                    if let value = after[key] { claim(from: value, by: .field, page: page) }
                } else {
                    record(
                        .forbidden, .field, object: number, page: page, field: name,
                        "the appearance (/\(key.string)) of \(field?.kind == .signature ? "signature" : "read-only") "
                            + "field '\(name)' changed")
                }
            case PDFName("Ff"):
                let old = before.int(PDFName("Ff")) ?? 0
                let new = after.int(PDFName("Ff")) ?? 0
                if new == old | 1 {
                    record(
                        .formFilling, .field, object: number, page: page, field: name, "field '\(name)' made read-only")
                } else {
                    record(
                        .forbidden, .field, object: number, page: page, field: name,
                        "the flags (/Ff) of field '\(name)' changed")
                }
            default:
                record(
                    .forbidden, .field, object: number, page: page, field: name,
                    "/\(key.string) of field '\(name)' changed")
            }
        }
    }
}
