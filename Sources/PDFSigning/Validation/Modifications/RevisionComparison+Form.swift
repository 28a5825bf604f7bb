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
        explain(root.number, as: .catalog)
        let before = old.catalog ?? PDFDictionary()
        let after = new.catalog ?? PDFDictionary()
        for key in Self.differingKeys(before, after) {
            let action = before[key] == nil ? "added to" : after[key] == nil ? "removed from" : "changed in"
            switch key {
            case .acroForm:
                // Compared by compareForm, whether the dictionary is direct or indirect.
                if let value = after[key], case .reference(let reference) = value, added.contains(reference.number) {
                    explain(reference.number, as: .form)
                }
            case .dss:
                record(.validationMaterial, .dss, object: root.number, "the DSS was \(action) the catalog")
                if let value = after[key] { claim(from: value, by: .dss, changedRoot: true) }
            case .extensions, .version:
                record(.validationMaterial, .catalog, object: root.number, "/\(key.string) \(action) the catalog")
                if let value = after[key] { claim(from: value, by: .catalog, changedRoot: true) }
            case .markInfo:
                record(.bookkeeping, .catalog, object: root.number, "/MarkInfo \(action) the catalog")
            case .metadata:
                record(.metadata, .metadata, object: root.number, "the XMP metadata was \(action) the catalog")
                if let value = after[key] { claim(from: value, by: .metadata, changedRoot: true) }
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

    /// The form's default resources (§12.7.3.3), from which fields' appearances are made: resources
    /// may be added, but one already named cannot be redefined or removed (a font redefined
    /// changes every appearance made from it, "shadow replace"). Indirect resource dictionaries
    /// the update rewrites are explained here.
    mutating func compareDefaultResources(_ before: PDFObject?, _ after: PDFObject?, object: Int?) {
        if let reference = after?.referenceValue, changed.contains(reference.number) || added.contains(reference.number)
        {
            explain(reference.number, as: .font)
        }
        let oldResources = old.resolve(before ?? .null).dictionaryValue ?? PDFDictionary()
        let newResources = new.resolve(after ?? .null).dictionaryValue ?? PDFDictionary()
        var redefined: [String] = []
        var extended = false
        for category in Set(oldResources.map(\.key) + newResources.map(\.key)).sorted(by: { $0.string < $1.string }) {
            let oldValue = oldResources[category] ?? .null
            let newValue = newResources[category] ?? .null
            if let reference = newValue.referenceValue,
                changed.contains(reference.number) || added.contains(reference.number)
            {
                explain(reference.number, as: .font)
            }
            guard let oldEntries = old.resolve(oldValue).dictionaryValue,
                let newEntries = new.resolve(newValue).dictionaryValue
            else {
                if !ObjectComparison.same(old.resolve(oldValue), in: old, new.resolve(newValue), in: new) {
                    if oldValue.isNull { extended = true } else { redefined.append("/" + category.string) }
                    claim(from: newValue, by: .font)
                }
                continue
            }
            for entry in oldEntries {
                let value = newEntries[entry.key] ?? .null
                if !ObjectComparison.same(old.resolve(entry.value), in: old, new.resolve(value), in: new) {
                    redefined.append("/\(category.string) /\(entry.key.string)")
                }
            }
            for entry in newEntries where oldEntries[entry.key] == nil {
                extended = true
                claim(from: entry.value, by: .font)
            }
        }
        if !redefined.isEmpty {
            record(
                .forbidden, .form, object: object,
                "the form's default resources redefine or remove " + redefined.prefix(5).joined(separator: ", ")
                    + ": appearances made from them change")
        } else if extended {
            record(.formFilling, .form, object: object, "resources added to the form's default resources")
        }
    }

    mutating func compareForm() {
        if let reference = newForm.form?.reference,
            changed.contains(reference.number) || added.contains(reference.number)
        {
            explain(reference.number, as: .form)
        }
        let before = oldForm.form?.dictionary ?? PDFDictionary()
        let after = newForm.form?.dictionary ?? PDFDictionary()
        let object = newForm.form?.reference?.number
        compareDefaultResources(before[.dr], after[.dr], object: object)
        for key in Self.differingKeys(before, after) where key != .dr {
            guard !ObjectComparison.same(before[key] ?? .null, in: old, after[key] ?? .null, in: new) else { continue }
            switch key {
            case .fields:
                if case .reference(let reference)? = after[key],
                    added.contains(reference.number) || changed.contains(reference.number)
                {
                    explain(reference.number, as: .field)
                }
            case .sigFlags:
                record(.bookkeeping, .form, object: object, "/SigFlags of the form set")
            case .needAppearances:
                if new.resolve(after[key] ?? .null).boolValue == true {
                    record(
                        .forbidden, .form, object: object,
                        "/NeedAppearances set: viewers redraw every field from its value, not as it was signed")
                } else {
                    record(.formFilling, .form, object: object, "/NeedAppearances cleared")
                }
            case .da:
                record(.formFilling, .form, object: object, "the form's default /DA updated")
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
            explain(number, as: .field)
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
            dictionary.flatMap { new.resolve($0, .type)?.nameValue } == PDFName.docTimeStamp
            || dictionary.flatMap { new.resolve($0, .subFilter)?.nameValue } == PDFName.etsiRFC3161
        let visible = newForm.hasVisibleWidget(name)
        if let signatures, signatures[name] != revision {
            // Not a signature of this revision (it does not verify, or signs another): only what
            // the field shows is new ("sneaky signature").
            record(
                .newSignatureField(visible: visible), .signature, object: field.reference?.number, page: page,
                field: name, "\(where_) holds a signature that does not verify or signs another revision")
        } else if isTimestamp && !visible {
            record(
                .validationMaterial, .dss, object: field.reference?.number, page: page, field: name,
                "document time-stamp in \(where_)")
        } else {
            record(
                .signing, .signature, object: field.reference?.number, page: page, field: name,
                isTimestamp ? "visible document time-stamp in \(where_)" : "\(where_) signed")
        }
        if let value { claim(from: value, by: .signature, page: page) }
    }

    /// Whether two values are the same (strings by their bytes, however they are written).
    static func sameValue(_ a: PDFObject, _ b: PDFObject) -> Bool {
        if let x = a.stringValue, let y = b.stringValue { return x.bytes == y.bytes }
        return a == b
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
                    let filled = names.filter { oldForm.fields[$0]?.value != newForm.fields[$0]?.value }
                    for name in filled {
                        record(
                            .formFilling, .field, object: number, page: newForm.page(of: name), field: name,
                            "the value of field '\(name)' changed")
                    }
                    let rewritten =
                        node.isTerminal
                        && Self.sameValue(old.resolve(before[key] ?? .null), new.resolve(after[key] ?? .null))
                    if filled.isEmpty && !rewritten {
                        // A /V that is no field's value (on a widget, a parent, or a field named twice):
                        // readers that take it show a value no rule vetted.
                        record(
                            .forbidden, .field, object: number, page: page, field: name,
                            "a /V written where it is not the value of field '\(name)'")
                    }
                    if let value = after[key] { claim(from: value, by: .field, page: page) }
                }
            case .as, .ap, .mk, .da:
                // A fillable field's appearance is what filling it shows (a photo in a push button
                // or a text field, signoAPI's photo fields): form filling, as its value would be.
                // A signature's appearance, or a read-only field's, changes only by signing.
                let fillable =
                    oldForm.fields[name].map { $0.kind != .signature && !$0.isReadOnly } ?? false
                if valueChanged || signedNow || fillable {
                    let category: ObservedChange.Category = signedNow ? .signing : .formFilling
                    // /AS follows a new value unremarked; alone, it switches what the field shows
                    // and is judged as filling (certification and locks), never passed over.
                    if key != .as || !(valueChanged || signedNow) {
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
            case .lock where signedNow:
                // The fields a signature locks take effect as it is signed (§12.7.5.5): part of signing.
                record(
                    .signing, .signature, object: number, page: page, field: name,
                    "the lock (/Lock) of signature field '\(name)' set as it is signed")
            case .ff:
                let old = before.int(.ff) ?? 0
                let new = after.int(.ff) ?? 0
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
