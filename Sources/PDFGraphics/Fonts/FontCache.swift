public import PDFCore
import Synchronization

/// The fonts of one document, each loaded once and shared by every page that uses it.
///
/// Thread-safe: pages may be interpreted from many tasks at once. Fonts are keyed by their object
/// reference; a font dictionary written directly in a resource dictionary is loaded each time.
public final class FontCache: Sendable {
    private let document: PDFDocument
    private let fonts = Mutex<[PDFReference: LoadedFont]>([:])

    /// A cache for the fonts of `document`.
    public init(document: PDFDocument) {
        self.document = document
    }

    /// The font for `object` (a `/Font` resource entry: usually a reference), loading it on first use.
    public func font(_ object: PDFObject) -> LoadedFont {
        guard case .reference(let reference) = object else { return LoadedFont.load(object, document: document) }
        if let font = fonts.withLock({ $0[reference] }) { return font }
        let loaded = LoadedFont.load(object, document: document)
        return fonts.withLock { fonts in
            if let existing = fonts[reference] { return existing }
            fonts[reference] = loaded
            return loaded
        }
    }
}
