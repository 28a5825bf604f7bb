import PDFAuthoring
public import PDFCore

/// Writes ink notes as ink annotations (ISO 32000-2 §12.5.6.13): `/InkList` for the points, `/C`
/// and `/BS /W` for the style, and an appearance stream of smoothed vector strokes so that every
/// viewer shows the same ink. All notes go into one incremental update.
public struct InkAnnotator {
    /// The document the notes are added to; its bytes are never changed.
    public let document: PDFDocument
    /// The modification date written in each note's `/M` (§12.5.2).
    public var date: PDFDate
    /// Whether the update's `/ID` is derived from its content, and where its random bytes come from.
    public var writeOptions: WriteOptions = .default

    /// An annotator of `document`, dating the notes `date` (now by default).
    public init(document: PDFDocument, date: PDFDate = .now()) {
        self.document = document
        self.date = date
    }

    /// Refuses documents that claim PDF/A-1: ink notes are annotations drawn over the page, and
    /// PDF/A-1 allows no transparency (the seed: notes mode "does not work with PDF/A-1b").
    /// - Throws: `.pdfA1`.
    public static func checkAllowed(in document: PDFDocument) throws(AnnotationError) {
        if let identification = document.pdfaIdentification, identification.forbidsTransparency {
            throw AnnotationError(
                .pdfA1,
                "the document is PDF/A-1\(identification.conformance?.lowercased() ?? ""), which allows no ink notes (PDF/A-1 forbids transparency)"
            )
        }
    }

    /// The update adding `notes`.
    /// - Throws: `.pdfA1` for a PDF/A-1 document, `.invalidArgument` for a page out of range, a note
    ///   without points or a width that is not positive.
    public func makeUpdate(notes: [InkNote]) throws(AnnotationError) -> IncrementalUpdate {
        try InkAnnotator.checkAllowed(in: document)
        let pages = document.pages
        for note in notes {
            if let problem = PageIndexCheck.problem(note.pageIndex, pageCount: pages.count) {
                throw AnnotationError(.invalidArgument, problem)
            }
            guard pages[note.pageIndex].reference != nil else {
                throw AnnotationError(.invalidArgument, "page index \(note.pageIndex) is not an indirect object")
            }
            guard note.strokes.pointCount > 0 else { throw AnnotationError(.invalidArgument, "a note has no points") }
            guard note.style.width > 0, note.style.width.isFinite else {
                throw AnnotationError(.invalidArgument, "the stroke width must be positive")
            }
        }
        var update = IncrementalUpdate(base: document, options: writeOptions)
        var added: [Int: [PDFReference]] = [:]
        for (number, note) in notes.enumerated() {
            let page = pages[note.pageIndex]
            let annotation = update.add(.dictionary(dictionary(for: note, page: page, number: number, update: &update)))
            added[note.pageIndex, default: []].append(annotation)
        }
        for (pageIndex, references) in added.sorted(by: { $0.key < $1.key }) {
            appendAnnotations(references, to: pages[pageIndex], update: &update)
        }
        return update
    }

    private func dictionary(for note: InkNote, page: Page, number: Int, update: inout IncrementalUpdate)
        -> PDFDictionary
    {
        let bounds = note.strokes.bounds!
        let margin = note.style.width / 2 + 1
        let rect = PDFRectangle(
            x0: bounds.x0 - margin, y0: bounds.y0 - margin, x1: bounds.x1 + margin, y1: bounds.y1 + margin)
        var content = ContentStreamBuilder()
        InkPathWriter(width: note.style.width, color: note.style.color).draw(note.strokes, into: &content)
        // The form's space is the page's: a /BBox equal to /Rect and no /Matrix.
        let appearance = update.add(
            .stream(
                PDFStream(
                    dictionary: [
                        .type: .name("XObject"), .subtype: .name("Form"), .bBox: rect.object,
                        .resources: .dictionary(PDFDictionary()),
                    ], data: content.bytes, compress: true)))
        let inkList: [PDFObject] = note.strokes.filter { !$0.points.isEmpty }.map { stroke in
            .array(stroke.points.flatMap { [PDFObject.real(PDFReal($0.x)), .real(PDFReal($0.y))] })
        }
        var dictionary: PDFDictionary = [
            .type: .name("Annot"), .subtype: .name("Ink"), .rect: rect.object,
            .inkList: .array(inkList), .c: .array(components(note.style.color)),
            .bs: .dictionary([.w: .real(PDFReal(note.style.width)), .s: .name("S")]),
            .f: .integer(4),  // Print
            .m: .string(PDFString(text: date.pdfString)),
            .nm: .string(
                PDFString(text: "autograph-ink-\(String(UInt64.random(in: 0...UInt64.max), radix: 16))-\(number + 1)")),
            .ap: .dictionary([.n: .reference(appearance)]),
        ]
        if let reference = page.reference { dictionary[.p] = .reference(reference) }
        return dictionary
    }

    /// The `/C` array: annotation colours are grey, RGB or CMYK numbers (§12.5.2, Table 166).
    private func components(_ color: PDFColor) -> [PDFObject] {
        switch color {
        case .gray(let g): [.real(PDFReal(g))]
        case .rgb(let r, let g, let b): [r, g, b].map { .real(PDFReal($0)) }
        case .cmyk(let c, let m, let y, let k): [c, m, y, k].map { .real(PDFReal($0)) }
        }
    }

    /// Adds `references` to the page's `/Annots`, which may be an array in the page or an object of its own.
    private func appendAnnotations(_ references: [PDFReference], to page: Page, update: inout IncrementalUpdate) {
        guard let pageReference = page.reference else { return }
        var pageDictionary = update.object(pageReference).dictionaryValue ?? page.dictionary
        let annotations = references.map { PDFObject.reference($0) }
        if case .reference(let arrayReference)? = pageDictionary[.annots],
            let existing = update.object(arrayReference).arrayValue
        {
            update.replace(arrayReference, with: .array(existing + annotations))
            return
        }
        let existing = document.resolve(pageDictionary[.annots] ?? .null).arrayValue ?? []
        pageDictionary[.annots] = .array(existing + annotations)
        update.replace(pageReference, with: .dictionary(pageDictionary))
    }
}
