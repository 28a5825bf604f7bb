import PDFAuthoring
public import PDFCore

/// Bakes field appearances into page content and removes the fields (ISO 32000-2 §12.5.5 maps an
/// appearance's bounding box onto the annotation rectangle; the same mapping is drawn here).
///
/// Signature fields are kept: flattening them would destroy what they prove. Widgets without a
/// normal appearance, or hidden ones, are removed without drawing anything.
public struct FormFlattener {
    /// The form whose fields are flattened.
    public let form: AcroForm
    /// Whether the update's `/ID` is derived from its content, and where its random bytes come from.
    public var options: WriteOptions

    /// A flattener of `form`.
    public init(form: AcroForm, options: WriteOptions = .default) {
        self.form = form
        self.options = options
    }

    /// The incremental update that flattens every non-signature field.
    public func makeUpdate() throws(FormError) -> IncrementalUpdate {
        let document = form.document
        var update = IncrementalUpdate(base: document, options: options)
        var flattened: Set<PDFReference> = []
        for field in form.fields where field.kind != .signature {
            for widget in field.widgets { if let reference = widget.reference { flattened.insert(reference) } }
        }
        guard !flattened.isEmpty else { return update }
        var widgetsByReference: [PDFReference: Widget] = [:]
        for field in form.fields {
            for widget in field.widgets {
                if let reference = widget.reference { widgetsByReference[reference] = widget }
            }
        }

        for page in document.pages {
            guard let pageReference = page.reference else { continue }
            let annotations = document.resolve(page.dictionary[.annots] ?? .null).arrayValue ?? []
            var kept: [PDFObject] = []
            var content = ContentStreamBuilder()
            var xObjects =
                document.resolve(page.resources?[.xObject] ?? .null).dictionaryValue ?? PDFDictionary()
            var drawn = 0
            for annotation in annotations {
                guard let reference = annotation.referenceValue, flattened.contains(reference),
                    let widget = widgetsByReference[reference]
                else {
                    kept.append(annotation)
                    continue
                }
                guard widget.isVisible, !widget.flags.contains(.hidden),
                    let (appearance, appearanceObject) = normalAppearance(widget),
                    let matrix = placement(appearance.dictionary, rect: widget.rect)
                else { continue }
                let name = PDFName("AutographFlat\(drawn)")
                drawn += 1
                xObjects[name] = appearanceObject
                content.saveState()
                content.concatenate(matrix[0], matrix[1], matrix[2], matrix[3], matrix[4], matrix[5])
                content.drawXObject(name)
                content.restoreState()
            }
            guard kept.count != annotations.count else { continue }
            var pageDictionary = page.dictionary
            pageDictionary[.annots] = kept.isEmpty ? nil : .array(kept)
            if drawn > 0 {
                var resources = page.resources ?? PDFDictionary()
                resources[.xObject] = .dictionary(xObjects)
                pageDictionary[.resources] = .dictionary(resources)
                // The page's own content may leave its graphics state changed: enclose it in q … Q.
                let opening = update.add(.stream(PDFStream(data: Array("q\n".utf8), compress: false)))
                let closing = update.add(.stream(PDFStream(data: Array("Q\n".utf8) + content.bytes, compress: true)))
                var contents: [PDFObject] = [.reference(opening)]
                switch pageDictionary[.contents] {
                case .array(let items)?: contents += items
                case let single?: contents.append(single)
                case nil: break
                }
                contents.append(.reference(closing))
                pageDictionary[.contents] = .array(contents)
            }
            update.replace(pageReference, with: .dictionary(pageDictionary))
        }

        // The form keeps its signature fields only.
        let remaining = (document.resolve(form.dictionary[.fields] ?? .null).arrayValue ?? []).filter { field in
            guard let dictionary = document.resolve(field).dictionaryValue else { return false }
            return subtreeHasSignature(dictionary, depth: 0)
        }
        var formDictionary = form.dictionary
        formDictionary[.fields] = .array(remaining)
        formDictionary[.needAppearances] = nil
        if let reference = form.reference {
            update.replace(reference, with: .dictionary(formDictionary))
        } else if let root = update.catalogReference, var catalog = document.catalog {
            catalog[.acroForm] = .dictionary(formDictionary)
            update.replace(root, with: .dictionary(catalog))
        }
        return update
    }

    private func subtreeHasSignature(_ dictionary: PDFDictionary, depth: Int) -> Bool {
        let document = form.document
        if document.resolve(dictionary[.ft] ?? .null).nameValue == .sig { return true }
        guard depth < 32 else { return false }
        return (document.resolve(dictionary[.kids] ?? .null).arrayValue ?? []).contains { kid in
            document.resolve(kid).dictionaryValue.map { subtreeHasSignature($0, depth: depth + 1) } ?? false
        }
    }

    /// The widget's normal appearance stream (for its `/AS` state when `/N` holds states).
    private func normalAppearance(_ widget: Widget) -> (PDFStream, PDFObject)? {
        let document = form.document
        guard let appearances = document.resolve(widget.dictionary[.ap] ?? .null).dictionaryValue,
            let normal = appearances[.n]
        else { return nil }
        if let stream = document.resolve(normal).streamValue { return (stream, normal) }
        guard let states = document.resolve(normal).dictionaryValue, let state = widget.appearanceState,
            let chosen = states[PDFName(state)], let stream = document.resolve(chosen).streamValue
        else { return nil }
        return (stream, chosen)
    }

    /// The matrix that maps the appearance's transformed `/BBox` onto `rect` (§12.5.5, steps a–c).
    private func placement(_ dictionary: PDFDictionary, rect: PDFRectangle) -> [Double]? {
        let document = form.document
        guard
            let bbox = PDFRectangle(
                .array(
                    (document.resolve(dictionary[.bBox] ?? .null).arrayValue ?? []).map {
                        document.resolve($0)
                    }))
        else { return nil }
        let matrixItems = (document.resolve(dictionary[.matrix] ?? .null).arrayValue ?? []).compactMap {
            document.resolve($0).numberValue
        }
        let m = matrixItems.count == 6 ? matrixItems : [1, 0, 0, 1, 0, 0]
        let corners = [(bbox.x0, bbox.y0), (bbox.x1, bbox.y0), (bbox.x0, bbox.y1), (bbox.x1, bbox.y1)].map { x, y in
            (m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5])
        }
        let minX = corners.map(\.0).min()!
        let maxX = corners.map(\.0).max()!
        let minY = corners.map(\.1).min()!
        let maxY = corners.map(\.1).max()!
        guard maxX > minX, maxY > minY else { return nil }
        let scaleX = rect.width / (maxX - minX)
        let scaleY = rect.height / (maxY - minY)
        return [scaleX, 0, 0, scaleY, rect.x0 - minX * scaleX, rect.y0 - minY * scaleY]
    }
}
