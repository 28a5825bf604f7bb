public import PDFCore
import PDFForms

/// Adds an empty signature field, to be signed later (signo `createNewSignatureField`): a field
/// merged with its widget on a page, listed in `/Fields` and the page's `/Annots`, `/SigFlags` 1
/// (ISO 32000-2 §12.7.5.5, §12.7.3).
public struct SignatureFieldMaker {
    /// The document the field is added to.
    public let document: PDFDocument
    /// Whether the update's `/ID` is derived from its content, and where its random bytes come from.
    public var writeOptions: WriteOptions = .default

    /// A maker of signature fields in `document`.
    public init(document: PDFDocument) { self.document = document }

    /// The update adding the field named `name` on page `pageIndex` (from 0) at `rect`.
    /// - Throws: `.invalidFieldName` (-130) for an empty or taken name, `.invalidArgument` for a
    ///   page that does not exist or an empty rectangle.
    public func makeUpdate(name: String, pageIndex: Int, rect: PDFRectangle) throws(SigningError) -> IncrementalUpdate {
        guard !name.isEmpty, !name.contains(".") else {
            throw SigningError(.invalidFieldName, "a field name must be non-empty and without a period: \"\(name)\"")
        }
        let form = AcroForm(document: document)
        guard form?.field(named: name) == nil else {
            throw SigningError(.invalidFieldName, "a field named \"\(name)\" already exists")
        }
        let pages = document.pages
        if let problem = PageIndexCheck.problem(pageIndex, pageCount: pages.count) {
            throw SigningError(.invalidArgument, problem)
        }
        guard let pageReference = pages[pageIndex].reference else {
            throw SigningError(.invalidArgument, "page index \(pageIndex) is not an indirect object")
        }
        guard rect.width > 0, rect.height > 0 else {
            throw SigningError(.invalidArgument, "the signature field's rectangle is empty")
        }
        var builder = SignatureUpdateBuilder(
            base: document, request: SignatureRequest(fieldName: name), writeOptions: writeOptions)
        let widget: PDFDictionary = [
            .type: .name("Annot"), .subtype: .name("Widget"), .ft: .name(.sig),
            .t: .string(PDFString(text: name)), .rect: rect.object,
            .p: .reference(pageReference), .f: .integer(4),
        ]
        let reference = builder.update.add(.dictionary(widget))
        builder.addAnnotation(reference, to: pages[pageIndex])
        builder.addToForm(reference, form: form, signatureFlags: 1)
        builder.applyEdits()
        return builder.update
    }
}
