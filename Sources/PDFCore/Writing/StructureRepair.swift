/// Small structural repairs applied when damaged objects are written again (full rewrite, or an
/// update over a damaged base), so that strict readers meet well-formed structure.
package enum StructureRepair {
    /// A page tree node whose `/Kids` is a single reference, not an array, gets the array (§7.7.3.2).
    /// A page the tree walk accepted without `/Type /Page` gets it (`isPage`).
    package static func normalized(_ object: PDFObject, isPage: Bool = false) -> PDFObject {
        guard case .dictionary(var dictionary) = object else { return object }
        if isPage {
            guard dictionary.name(.type) != .page else { return object }
            dictionary[.type] = .name(.page)
            return .dictionary(dictionary)
        }
        guard let kids = dictionary[.kids], kids.arrayValue == nil,
            dictionary[.count] != nil || dictionary.name(.type) == .pages
        else { return object }
        dictionary[.kids] = kids.referenceValue != nil ? .array([kids]) : .array([])
        return .dictionary(dictionary)
    }

    /// An empty page tree root, for a catalog whose `/Pages` cannot be read (a document with no pages).
    package static let emptyPageTree: PDFObject = .dictionary([.type: .name(.pages), .kids: .array([]), .count: 0])
}
