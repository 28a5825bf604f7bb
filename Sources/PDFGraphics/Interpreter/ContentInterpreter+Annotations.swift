import PDFCore

extension ContentInterpreter {
    /// Draws the normal appearances of the page's annotations over its content, as viewers do
    /// (ISO 32000-2 §12.5.5): flags and optional content decide which, `/AS` picks the state, and
    /// the appearance's `/BBox` (through its `/Matrix`) is mapped onto the annotation's `/Rect`.
    /// An annotation without a normal appearance (or whose `/AS` names none) is drawn from its
    /// dictionary when it is one of the markup kinds ``AnnotationAppearance`` knows.
    func drawAnnotations(of page: Page) {
        let mode = graphics.options.annotations
        let annotations = document.resolve(page.dictionary[.annots] ?? .null).arrayValue ?? []
        var generatedBytes = 0
        for item in annotations.prefix(10_000) {
            guard let annotation = document.resolve(item).dictionaryValue else { continue }
            let subtype = annotation[.subtype]?.nameValue?.string
            if subtype == "Popup" { continue }
            let flags = document.resolve(annotation[.f] ?? .null).intValue ?? 0
            let hidden = flags & 2 != 0
            let printable = flags & 4 != 0
            let noView = flags & 32 != 0
            switch mode {
            case .none: continue
            case .display where hidden || noView: continue
            case .print where hidden || !printable: continue
            default: break
            }
            if let content = annotation[.oc], !graphics.optionalContent.isVisible(content) { continue }
            guard let appearance = normalAppearance(annotation) else {
                // No appearance stream: one made from the dictionary, in default user space.
                guard generatedBytes < Self.maxGeneratedBytes, !self.page.stopped else { continue }
                if let generated = AnnotationAppearance(annotation: annotation, document: document) {
                    generatedBytes += generated.content.count
                    let saved = state
                    state = GraphicsState(ctm: .identity)
                    drawForm(generated.stream)
                    state = saved
                }
                continue
            }
            guard
                let rectNumbers = document.resolve(annotation[.rect] ?? .null).arrayValue?
                    .compactMap({ document.resolve($0).numberValue }), rectNumbers.count == 4
            else { continue }
            let rect = PDFRectangle(x0: rectNumbers[0], y0: rectNumbers[1], x1: rectNumbers[2], y1: rectNumbers[3])
            let formMatrix = PDFMatrix(appearance.dictionary[.matrix], document: document) ?? .identity
            guard
                let bboxNumbers = document.resolve(appearance.dictionary[.bBox] ?? .null).arrayValue?
                    .compactMap({ document.resolve($0).numberValue }), bboxNumbers.count == 4
            else { continue }
            let box = formMatrix.apply(
                PDFRectangle(x0: bboxNumbers[0], y0: bboxNumbers[1], x1: bboxNumbers[2], y1: bboxNumbers[3]))
            guard box.width > 0, box.height > 0 else { continue }
            // A maps the transformed box onto the rectangle.
            let a = PDFMatrix.translation(-box.x0, -box.y0)
                .concatenating(.scale(rect.width / box.width, rect.height / box.height))
                .concatenating(.translation(rect.x0, rect.y0))
            let saved = state
            state = GraphicsState(ctm: a)
            drawForm(appearance)
            state = saved
        }
    }

    /// The content a page's generated appearances may add up to; annotations after it are not drawn.
    static let maxGeneratedBytes = 32 << 20

    /// `/AP /N`: a stream, or the state `/AS` names in a dictionary of states.
    private func normalAppearance(_ annotation: PDFDictionary) -> PDFStream? {
        guard let appearances = document.resolve(annotation[.ap] ?? .null).dictionaryValue,
            let normal = appearances[.n]
        else { return nil }
        let resolved = document.resolve(normal)
        if let stream = resolved.streamValue { return stream }
        guard let states = resolved.dictionaryValue, let state = annotation[.as]?.nameValue else {
            return nil
        }
        return states[state].flatMap { document.resolve($0).streamValue }
    }
}
