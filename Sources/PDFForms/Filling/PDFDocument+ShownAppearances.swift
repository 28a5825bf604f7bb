public import PDFCore

extension PDFDocument {
    /// The document as viewers show it: where its form sets `/NeedAppearances true`, every field
    /// gets an appearance made from its value (poppler and MuPDF draw such forms so); any other
    /// document is returned as it is.
    ///
    /// The appearances are an incremental update made in memory (``FormFiller/makeUpdate()``);
    /// the file is not changed. Text extraction and search use it, so a value the viewer shows is
    /// a value they find. When no appearance can be made (no font draws a value), the document is
    /// returned as it is.
    public func withShownFieldAppearances() -> PDFDocument {
        guard let form = AcroForm(document: self), form.needsAppearances else { return self }
        do {
            let update = try FormFiller(form: form).makeUpdate()
            return try PDFDocument(bytes: update.documentBytes(), options: options)
        } catch {
            return self
        }
    }
}
