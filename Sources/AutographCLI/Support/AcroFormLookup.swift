import PDFCore
import PDFForms

enum AcroFormLookup {
    static func fieldExists(_ name: String, in document: PDFDocument) -> Bool {
        AcroForm(document: document)?.field(named: name) != nil
    }
}
