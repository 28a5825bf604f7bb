import PDFCore
import PDFForms

/// Which corpus files the forms step measures.
enum FormFiles {
    /// True when the file opens and its form has an editable text field with a widget.
    static func hasTextFields(_ file: CorpusFile) -> Bool {
        guard
            let document = try? PDFDocument(contentsOfFile: file.path, options: ParseOptions(password: file.password)),
            let form = AcroForm(document: document)
        else { return false }
        return form.fields.contains { $0.kind == .text && $0.isEditable && $0.widgets.contains { $0.reference != nil } }
    }
}
