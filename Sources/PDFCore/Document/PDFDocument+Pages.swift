import Synchronization

extension PDFDocument {
    /// The pages in order (ISO 32000-2 §7.7.3), walked once and cached.
    ///
    /// Damaged trees are read liberally, with a warning each: a catalog `/Pages` that points inside
    /// the tree is followed up through `/Parent`; a node with `/Kids` is a node (a lone kid without its
    /// array is read as one); a leaf is a page when it says `/Type /Page`, or has no `/Type` but page
    /// keys; kids that are not dictionaries are skipped, and loops are cut.
    public var pages: [Page] {
        if let cached = state.withLock({ $0.pages }) { return cached }
        let pages = walkPageTree()
        state.withLock { $0.pages = pages }
        return pages
    }

    /// The number of pages.
    public var pageCount: Int { pages.count }

    private struct Inherited {
        var resources: PDFObject?
        var mediaBox: PDFObject?
        var cropBox: PDFObject?
        var rotate: PDFObject?
    }

    private func walkPageTree() -> [Page] {
        guard let catalog, var rootObject = catalog[.pages] else { return [] }
        // A /Pages that names a node inside the tree: climb to the real root.
        var climbed: Set<PDFReference> = []
        while let reference = rootObject.referenceValue, climbed.insert(reference).inserted,
            let parent = resolve(rootObject).dictionaryValue?[.parent], resolve(parent).dictionaryValue != nil
        {
            warn(PDFWarning(.pageTreeInvalid, "catalog /Pages is not the root of the page tree", object: reference))
            rootObject = parent
        }
        var pages: [Page] = []
        var path: Set<PDFReference> = []
        var visitedNodes = 0
        func visit(_ object: PDFObject, inherited: Inherited, depth: Int) {
            let reference = object.referenceValue
            guard let dictionary = resolve(object).dictionaryValue else {
                warn(PDFWarning(.pageTreeInvalid, "page tree kid is not a dictionary; skipped", object: reference))
                return
            }
            visitedNodes += 1
            guard depth < options.maxNestingDepth, visitedNodes <= options.maxObjectCount else {
                warn(PDFWarning(.pageTreeInvalid, "page tree too deep or too large", object: reference))
                return
            }
            if let reference {
                guard path.insert(reference).inserted else {
                    warn(PDFWarning(.pageTreeInvalid, "loop in the page tree; cut", object: reference))
                    return
                }
            }
            defer { if let reference { path.remove(reference) } }
            var inherited = inherited
            if let value = dictionary[.resources] { inherited.resources = value }
            if let value = dictionary[.mediaBox] { inherited.mediaBox = value }
            if let value = dictionary[.cropBox] { inherited.cropBox = value }
            if let value = dictionary[.rotate] { inherited.rotate = value }
            if let kids = dictionary[.kids] {
                if dictionary.name(.type) != .pages {
                    warn(PDFWarning(.pageTreeInvalid, "page tree node without /Type /Pages", object: reference))
                }
                // A single kid written without its array is read as one kid.
                let list = resolve(kids).arrayValue ?? (resolve(kids).dictionaryValue != nil ? [kids] : [])
                for kid in list {
                    visit(kid, inherited: inherited, depth: depth + 1)
                }
                return
            }
            if dictionary.name(.type) != .page {
                // A leaf that is plainly something else (an action, an annotation) is not a page.
                let pageKeys: [PDFName] = [.contents, .mediaBox, .resources, .parent]
                guard dictionary[.type] == nil, pageKeys.contains(where: { dictionary[$0] != nil }) else {
                    warn(PDFWarning(.pageTreeInvalid, "page tree leaf is not a page; skipped", object: reference))
                    return
                }
                warn(PDFWarning(.pageTreeInvalid, "page without /Type /Page", object: reference))
            }
            pages.append(
                makePage(index: pages.count, reference: reference, dictionary: dictionary, inherited: inherited))
        }
        visit(rootObject, inherited: Inherited(), depth: 0)
        return pages
    }

    private func makePage(index: Int, reference: PDFReference?, dictionary: PDFDictionary, inherited: Inherited) -> Page
    {
        func rectangle(_ object: PDFObject?) -> PDFRectangle? {
            guard let object else { return nil }
            guard case .array(let items) = resolve(object) else { return nil }
            return PDFRectangle(.array(items.map { resolve($0) }))
        }
        let mediaBox = rectangle(inherited.mediaBox) ?? .letter
        let cropBox = rectangle(inherited.cropBox).flatMap { $0.intersection(mediaBox) } ?? mediaBox
        var rotation = (inherited.rotate.map { resolve($0) }?.intValue ?? 0) % 360
        if rotation < 0 { rotation += 360 }
        rotation = rotation / 90 * 90
        var userUnit = resolve(dictionary[.userUnit] ?? .null).numberValue ?? 1
        if !(userUnit > 0 && userUnit.isFinite) { userUnit = 1 }
        let resources = inherited.resources.flatMap { resolve($0).dictionaryValue }
        return Page(
            index: index, reference: reference, dictionary: dictionary, mediaBox: mediaBox, cropBox: cropBox,
            rotation: rotation, userUnit: userUnit, resources: resources)
    }
}
