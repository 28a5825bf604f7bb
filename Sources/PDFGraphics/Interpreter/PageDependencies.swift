public import PDFCore

#if canImport(Glibc)
    import Glibc
#endif

/// Everything a page's drawing reads from its file: the objects reachable from the page (its
/// content, resources, annotations and their appearances, and what it inherits from the page
/// tree), the form's default resources, and the document's optional content. A later revision of the same file that writes none
/// of these objects and keeps the page in place draws the page exactly as before, so a display
/// list made for the earlier revision serves the later one (a form filled on page 1 does not make
/// a viewer read page 40 again).
public struct PageDependencies: Sendable {
    /// The document the page was read from: a later one must begin with its bytes (the same file,
    /// not one whose last revision was taken back and written anew).
    public let document: PDFDocument
    /// The revisions of the document the page was read from.
    public var revisionCount: Int { document.revisions.count }
    /// The page object.
    public let page: PDFReference
    /// The numbers of every object the drawing may read.
    public let objects: Set<Int>
    /// The catalog's `/OCProperties` entry as it was (a direct value or a reference).
    public let optionalContent: PDFObject?

    /// The same dependencies, taken from `document`: a later revision in which they ``hold(in:pageAt:)``,
    /// so that the earlier document need not be kept.
    public func rebased(on document: PDFDocument) -> PageDependencies {
        PageDependencies(document: document, page: page, objects: objects, optionalContent: optionalContent)
    }

    /// Whether page `index` of `document` — a later revision of the same file — draws as the page
    /// these dependencies were taken from.
    public func hold(in document: PDFDocument, pageAt index: Int) -> Bool {
        let pages = document.pages
        guard document.revisions.count >= revisionCount, pages.indices.contains(index),
            pages[index].reference == page,
            document.catalog?[.ocProperties] == optionalContent,
            document.objectNumbers(updatedAfter: revisionCount).isDisjoint(with: objects)
        else { return false }
        // The same file, grown by revisions: the earlier document's bytes are its prefix.
        return self.document.withBytes { earlier in
            document.withBytes { later in
                guard later.count >= earlier.count, let first = earlier.baseAddress, let second = later.baseAddress
                else { return earlier.isEmpty }
                return memcmp(first, second, earlier.count) == 0
            }
        }
    }
}

extension GraphicsDocument {
    /// The most objects a page's dependencies are followed to; beyond, none are given (the page is
    /// read again for every revision).
    static let maximumDependencies = 50_000

    /// What the drawing of page `index` reads from the file; nil when the page does not exist or
    /// reaches too many objects.
    public func dependencies(ofPageAt index: Int) -> PageDependencies? {
        let pages = document.pages
        guard pages.indices.contains(index), let reference = pages[index].reference else { return nil }
        var objects: Set<Int> = []
        var pending: [PDFObject] = [.reference(reference)]
        // The page tree above the page: what it inherits (§7.7.3.4), not its other kids.
        var parent = pages[index].dictionary[.parent]
        var depth = 0
        while case .reference(let ancestor)? = parent, depth < 64, objects.insert(ancestor.number).inserted {
            guard let dictionary = document.resolve(.reference(ancestor)).dictionaryValue else { break }
            for key in [PDFName.resources, .mediaBox, .cropBox, .rotate] {
                if let value = dictionary[key] { pending.append(value) }
            }
            parent = dictionary[.parent]
            depth += 1
        }
        let optionalContent = document.catalog?[.ocProperties]
        if let optionalContent { pending.append(optionalContent) }
        // The form's default resources when a FreeText annotation without an appearance stream takes
        // the font its /DA names from them (not the form's fields, which a fill rewrites).
        let annotations = document.resolve(pages[index].dictionary[.annots] ?? .null).arrayValue ?? []
        let drawsFreeText = annotations.prefix(10_000).contains { item in
            guard let annotation = document.resolve(item).dictionaryValue else { return false }
            return annotation[.subtype]?.nameValue?.string == "FreeText" && annotation[.ap] == nil
        }
        if drawsFreeText,
            let formResources = document.resolve(document.catalog?[.acroForm] ?? .null).dictionaryValue?[.dr]
        {
            pending.append(formResources)
        }
        // Keys that lead away from what is drawn: the page tree, an annotation's page, actions and
        // destinations (to other pages).
        let away: Set<PDFName> = [.parent, .p, .dest, .a, .aa, .pa]
        while let object = pending.popLast() {
            switch object {
            case .reference(let target):
                guard objects.insert(target.number).inserted else { continue }
                guard objects.count <= Self.maximumDependencies else { return nil }
                pending.append(document.resolve(object))
            case .array(let items):
                pending.append(contentsOf: items)
            case .dictionary(let dictionary):
                for entry in dictionary where !away.contains(entry.key) { pending.append(entry.value) }
            case .stream(let stream):
                for entry in stream.dictionary where !away.contains(entry.key) { pending.append(entry.value) }
            default:
                break
            }
        }
        return PageDependencies(
            document: document, page: reference, objects: objects, optionalContent: optionalContent)
    }
}
