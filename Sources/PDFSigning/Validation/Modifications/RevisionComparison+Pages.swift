import PDFCore

extension RevisionComparison {
    // MARK: Pages and annotations

    /// The page list, the page dictionaries (only `/Annots` may change) and their annotations.
    mutating func comparePages() {
        let before = oldPages.pages
        let after = newPages.pages
        if before != after {
            for index in 0..<max(before.count, after.count) {
                if index >= after.count {
                    record(.forbidden, .page, object: before[index]?.number, page: index, "page \(index + 1) removed")
                } else if index >= before.count {
                    record(.forbidden, .page, object: after[index]?.number, page: index, "page \(index + 1) added")
                } else if before[index] != after[index] {
                    record(
                        .forbidden, .page, object: after[index]?.number, page: index,
                        "page \(index + 1) replaced by another page object")
                }
            }
        }
        for number in changed.sorted() {
            if let page = newPages.pageByNumber[number], oldPages.pageByNumber[number] == page {
                explain(number, as: .page)
                comparePage(number, page: page)
            } else if let page = newPages.annotsArrays[number] {
                explain(number, as: .annotation)
                compareAnnotations(page: page)
            }
        }
        compareChangedAnnotations()
    }

    private mutating func comparePage(_ number: Int, page: Int) {
        guard let reference = Self.reference(number, in: new),
            let before = Self.reference(number, in: old).flatMap({ old.object($0).dictionaryValue }),
            let after = new.object(reference).dictionaryValue
        else { return }
        for key in Self.differingKeys(before, after) {
            guard !ObjectComparison.same(before[key] ?? .null, in: old, after[key] ?? .null, in: new) else { continue }
            switch key {
            case .annots:
                if case .reference(let array)? = after[key], added.contains(array.number) {
                    explain(array.number, as: .annotation)
                }
                compareAnnotations(page: page)
            case .contents:
                record(.forbidden, .pageContent, object: number, page: page, "the content of page \(page + 1) replaced")
            case .resources:
                record(.forbidden, .page, object: number, page: page, "the resources of page \(page + 1) changed")
            default:
                record(.forbidden, .page, object: number, page: page, "/\(key.string) of page \(page + 1) changed")
            }
        }
    }

    /// Annotations added to or removed from a page: widgets belong to fields (added with a new
    /// field, never alone); other annotations are judged as annotations.
    private mutating func compareAnnotations(page: Int) {
        let before = page < oldPages.annotations.count ? oldPages.annotations[page] : []
        let after = page < newPages.annotations.count ? newPages.annotations[page] : []
        let oldNumbers = Set(before.compactMap(\.referenceValue?.number))
        let newNumbers = Set(after.compactMap(\.referenceValue?.number))
        for element in after {
            guard let reference = element.referenceValue, !oldNumbers.contains(reference.number) else { continue }
            if let node = newForm.nodes[reference.number], node.isWidget {
                if node.fields.allSatisfy({ oldForm.fields[$0] == nil }) { continue }  // a new field's widget
                record(
                    .forbidden, .field, object: reference.number, page: page, field: node.fields.first,
                    "a new widget of field '\(node.fields.first ?? "?")' on page \(page + 1)")
            } else {
                let subtype = new.resolve(new.object(reference).dictionaryValue?[.subtype] ?? .null).nameValue
                record(
                    .annotation, .annotation, object: reference.number, page: page,
                    "\(subtype.map { "/" + $0.string + " " } ?? "")annotation added on page \(page + 1)")
            }
            claim(from: element, by: .annotation, page: page)
        }
        for element in before {
            guard let reference = element.referenceValue, !newNumbers.contains(reference.number) else { continue }
            if let node = oldForm.nodes[reference.number], node.isWidget {
                record(
                    .forbidden, .field, object: reference.number, page: page, field: node.fields.first,
                    "a widget of field '\(node.fields.first ?? "?")' removed from page \(page + 1)")
            } else {
                record(
                    .annotation, .annotation, object: reference.number, page: page,
                    "annotation removed from page \(page + 1)")
            }
        }
        // The order of /Annots is the order of drawing: which annotation covers which.
        let kept = before.compactMap(\.referenceValue?.number).filter(newNumbers.contains)
        if kept != after.compactMap(\.referenceValue?.number).filter(oldNumbers.contains) {
            record(
                .annotation, .annotation, object: nil, page: page,
                "the annotations of page \(page + 1) reordered or repeated (which one is drawn over which)")
        }
        let directBefore = before.filter { $0.referenceValue == nil }
        let directAfter = after.filter { $0.referenceValue == nil }
        if directBefore != directAfter {
            record(.annotation, .annotation, object: nil, page: page, "direct annotations of page \(page + 1) changed")
            for element in directAfter { claim(from: element, by: .annotation, page: page) }
        }
    }

    /// Existing annotations (not widgets) the update rewrites: permitted as annotation changes,
    /// except a new appearance, which shows something else where the signer saw the old one.
    private mutating func compareChangedAnnotations() {
        for number in changed.sorted() where !explained.contains(number) && newForm.nodes[number] == nil {
            guard let page = newPages.annotationPage[number], oldPages.annotationPage[number] != nil,
                let reference = Self.reference(number, in: new),
                let after = new.object(reference).dictionaryValue,
                let before = Self.reference(number, in: old).flatMap({ old.object($0).dictionaryValue })
            else { continue }
            explain(number, as: .annotation)
            let keys = Self.differingKeys(before, after).filter {
                !ObjectComparison.same(before[$0] ?? .null, in: old, after[$0] ?? .null, in: new)
            }
            if keys.contains(.ap) || keys.contains(.as) {
                record(
                    .forbidden, .annotation, object: number, page: page,
                    "the appearance of an existing annotation on page \(page + 1) replaced"
                        + (keys.contains(.ap) ? "" : " (another appearance state, /AS)"))
            } else if Self.isHidden(before, in: old) && !Self.isHidden(after, in: new) {
                record(
                    .forbidden, .annotation, object: number, page: page,
                    "an annotation on page \(page + 1) hidden when signed is shown (its /F or /OC changed)")
            } else if !keys.isEmpty {
                record(
                    .annotation, .annotation, object: number, page: page,
                    "annotation on page \(page + 1) changed (" + keys.map { "/" + $0.string }.joined(separator: ", ")
                        + ")")
                claim(from: .reference(reference), by: .annotation, page: page, changedRoot: true)
            }
        }
    }

    /// Whether an annotation is not shown: flagged invisible, hidden or no-view (§12.5.3), or in
    /// optional content (its `/OC`, which may be off).
    static func isHidden(_ annotation: PDFDictionary, in document: PDFDocument) -> Bool {
        let flags = document.resolve(annotation[.f] ?? .null).intValue ?? 0
        return flags & (1 | 2 | 32) != 0 || annotation[.oc] != nil
    }

    // MARK: Everything else

    /// Signature dictionaries rewritten, XMP metadata, and what no rule explained: described by
    /// where the document uses it (page content, a font, an image…), forbidden.
    mutating func compareObjectsByPlace() {
        let metadata = new.catalog?.reference(.metadata)?.number
        for number in changed.sorted() where !explained.contains(number) {
            if let name = oldForm.signatureDictionaries[number] {
                explain(number, as: .signature)
                record(
                    .forbidden, .signature, object: number, page: oldForm.page(of: name), field: name,
                    "the signature dictionary of field '\(name)' rewritten after signing")
            } else if number == metadata {
                explain(number, as: .metadata)
                record(.metadata, .metadata, object: number, "the XMP metadata stream rewritten")
            }
        }
    }

    mutating func explainRemaining() {
        let remaining = changed.union(added).union(freed).subtracting(explained)
        guard !remaining.isEmpty else { return }
        let graph = newGraph()
        var unused = 0
        var newObjects: [String: (count: Int, first: Int, role: ObjectGraph.Role)] = [:]
        for number in remaining.sorted() {
            guard let role = graph[number] else {
                unused += 1
                continue
            }
            let place = Self.describe(role)
            if role.kind == .dss {
                record(.validationMaterial, .dss, object: number, "DSS object \(number) written")
            } else if role.kind == .metadata, !freed.contains(number) {
                record(.metadata, .metadata, object: number, "metadata object \(number) written")
            } else if freed.contains(number) {
                record(
                    .forbidden, role.kind, object: number, page: role.pageIndex,
                    "object \(number), \(place), freed while still used")
            } else if added.contains(number) {
                let key = "\(role.kind.rawValue)/\(role.pageIndex ?? -1)"
                let entry = newObjects[key]
                newObjects[key] = ((entry?.count ?? 0) + 1, entry?.first ?? number, role)
            } else {
                record(
                    .forbidden, role.kind, object: number, page: role.pageIndex, "object \(number), \(place), changed")
            }
        }
        for (_, entry) in newObjects.sorted(by: { $0.value.first < $1.value.first }) {
            let what = entry.count == 1 ? "object \(entry.first)" : "\(entry.count) objects (from \(entry.first))"
            record(
                .forbidden, entry.role.kind, object: entry.first, page: entry.role.pageIndex,
                "new \(what) used as \(Self.describe(entry.role))")
        }
        if unused > 0 {
            record(
                .bookkeeping, .other, object: nil,
                "\(unused) object\(unused == 1 ? "" : "s") written or freed that nothing uses")
        }
    }

    /// "a content stream of page 2", "a font of page 1", "the catalog".
    static func describe(_ role: ObjectGraph.Role) -> String {
        let page = role.pageIndex.map { " of page \($0 + 1)" } ?? ""
        switch role.kind {
        case .pageContent: return "a content stream" + page
        case .page: return role.pageIndex == nil ? "the page tree" : "page \(role.pageIndex! + 1) or its tree"
        case .font: return "a font" + page
        case .xobject: return "a resource (image, form XObject, graphics state)" + page
        case .optionalContent: return "optional content" + page
        case .annotation: return "part of an annotation" + page
        case .field: return "part of a form field"
        case .form: return "part of the form dictionary"
        case .catalog, .other: return "an object the catalog uses"
        case .metadata: return "metadata"
        case .signature: return "part of a signature"
        case .dss: return "part of the DSS"
        case .hiddenObject, .trailingBytes, .structure: return "structure"
        }
    }
}
