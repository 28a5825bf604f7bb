import PDFCore
import PDFForms

/// A revision's form by object number: which fields, widgets and signature dictionaries each
/// object is (ISO 32000-2 §12.7), for telling what a changed object is.
struct FormIndex: Sendable {
    struct Node: Sendable {
        /// The terminal fields the object belongs to (itself, its widgets, or its ancestors).
        var fields: [String] = []
        var isTerminal = false
        var isWidget = false
        var isAncestor = false
    }

    let form: AcroForm?
    private(set) var nodes: [Int: Node] = [:]
    private(set) var fields: [String: FormField] = [:]
    /// Signature dictionaries (the `/V` of signature fields) and their fields.
    private(set) var signatureDictionaries: [Int: String] = [:]

    init(document: PDFDocument) {
        form = AcroForm(document: document)
        for field in form?.fields ?? [] {
            fields[field.name] = field
            if let reference = field.reference {
                nodes[reference.number, default: Node()].fields.append(field.name)
                nodes[reference.number, default: Node()].isTerminal = true
            }
            for widget in field.widgets {
                guard let reference = widget.reference else { continue }
                if reference != field.reference { nodes[reference.number, default: Node()].fields.append(field.name) }
                nodes[reference.number, default: Node()].isWidget = true
            }
            for ancestor in field.ancestors {
                nodes[ancestor.number, default: Node()].fields.append(field.name)
                nodes[ancestor.number, default: Node()].isAncestor = true
            }
            if field.kind == .signature, case .reference(let value)? = field.dictionary[.v] {
                signatureDictionaries[value.number] = field.name
            }
        }
    }

    /// The widgets of the field `name` that are visible: a non-empty rectangle, not hidden.
    func hasVisibleWidget(_ name: String) -> Bool {
        fields[name]?.widgets.contains { $0.isVisible && $0.rect.width > 0.5 && $0.rect.height > 0.5 } ?? false
    }

    /// The page of the field's first widget.
    func page(of name: String) -> Int? { fields[name]?.widgets.lazy.compactMap(\.pageIndex).first }
}

/// A revision's pages and their annotations by object number.
struct PageIndex: Sendable {
    /// The page references in order (nil for a page that is a direct object).
    private(set) var pages: [PDFReference?] = []
    private(set) var pageByNumber: [Int: Int] = [:]
    /// Indirect `/Annots` arrays and their pages.
    private(set) var annotsArrays: [Int: Int] = [:]
    /// Each page's `/Annots` elements, as written.
    private(set) var annotations: [[PDFObject]] = []
    /// Annotations by object number: their page.
    private(set) var annotationPage: [Int: Int] = [:]

    init(document: PDFDocument) {
        for page in document.pages {
            pages.append(page.reference)
            if let reference = page.reference { pageByNumber[reference.number] = page.index }
            let annots = page.dictionary[.annots]
            if let reference = annots?.referenceValue { annotsArrays[reference.number] = page.index }
            let elements = Array(document.resolve(annots ?? .null).arrayValue?.prefix(100_000) ?? [])
            annotations.append(elements)
            for element in elements {
                if let reference = element.referenceValue { annotationPage[reference.number] = page.index }
            }
        }
    }
}
