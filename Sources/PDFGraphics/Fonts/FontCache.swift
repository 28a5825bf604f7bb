public import PDFCore
import Synchronization

/// The fonts of one document, each loaded once and shared by every page that uses it.
///
/// Thread-safe: pages may be interpreted from many tasks at once. Fonts are keyed by their object
/// reference; a font dictionary written directly in a resource dictionary (as the appearances made
/// for annotations without one write theirs) is keyed by its value, the first 64 of them.
public final class FontCache: Sendable {
    private let document: PDFDocument
    private let fonts = Mutex<[PDFReference: LoadedFont]>([:])
    private let directFonts = Mutex<[PDFDictionary: LoadedFont]>([:])

    /// A cache for the fonts of `document`.
    public init(document: PDFDocument) {
        self.document = document
    }

    /// The font for `object` (a `/Font` resource entry: usually a reference), loading it on first use.
    public func font(_ object: PDFObject) -> LoadedFont {
        guard case .reference(let reference) = object else {
            guard case .dictionary(let dictionary) = object else { return LoadedFont.load(object, document: document) }
            if let font = directFonts.withLock({ $0[dictionary] }) { return font }
            let loaded = LoadedFont.load(object, document: document)
            directFonts.withLock { fonts in
                if fonts.count < 64 { fonts[dictionary] = loaded }
            }
            return loaded
        }
        if let font = fonts.withLock({ $0[reference] }) { return font }
        let loaded = LoadedFont.load(object, document: document)
        return fonts.withLock { fonts in
            if let existing = fonts[reference] { return existing }
            fonts[reference] = loaded
            return loaded
        }
    }
}
