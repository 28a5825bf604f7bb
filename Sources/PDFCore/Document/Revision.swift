/// One revision of a document: the original file or one incremental update (ISO 32000-2 §7.5.6).
///
/// A revision ends with its `%%EOF` marker; the document "as of" a revision is the file's prefix up
/// to ``endOffset`` (see ``PDFDocument/document(asOfRevision:)``).
public struct Revision: Sendable {
    /// The position of the revision, 0 for the original document.
    public let index: Int
    /// The cross-reference sections of the revision, newest first (a linearized file's first-page
    /// section and its main section form one revision).
    public let sections: [XRefSection]
    /// The offset `startxref` names for this revision.
    public let startxref: Int
    /// The offset just after the revision's `%%EOF` line.
    public let endOffset: Int

    /// The trailer of the revision's newest section.
    public var trailer: PDFDictionary { sections.first?.trailer ?? PDFDictionary() }

    /// How the revision's cross-reference is written.
    public var form: XRefSection.Form { sections.first?.form ?? .recovered }
}

extension Revision {
    /// Groups sections (newest first) into revisions (oldest first) by their `%%EOF` markers.
    static func group(_ sections: [XRefSection], in bytes: UnsafeRawBufferPointer) -> [Revision] {
        var groups: [(sections: [XRefSection], end: Int)] = []
        for section in sections.reversed() {
            let end = endOfRevision(after: section.end, in: bytes)
            if let last = groups.last, end <= last.end {
                // A section before the end of an older one (a linearized first-page section): same revision.
                groups[groups.count - 1].sections.insert(section, at: 0)
            } else {
                groups.append(([section], end))
            }
        }
        return groups.enumerated().map { index, group in
            Revision(
                index: index, sections: group.sections, startxref: group.sections.first?.offset ?? 0,
                endOffset: group.end)
        }
    }

    /// The offset after the first `%%EOF` (and its end of line) at or after `offset`; the end of the
    /// file when there is none.
    static func endOfRevision(after offset: Int, in bytes: UnsafeRawBufferPointer) -> Int {
        guard let marker = IndirectObjectParser.search(bytes, for: "%%EOF", from: max(0, offset)) else {
            return bytes.count
        }
        var end = marker + 5
        if end < bytes.count, bytes[end] == 0x0D { end += 1 }
        if end < bytes.count, bytes[end] == 0x0A { end += 1 }
        return end
    }
}

extension PDFDocument {
    /// The numbers of the objects the revisions after the first `revisionCount` write (replaced,
    /// added or freed): what can differ between the document as of that revision and this one.
    public func objectNumbers(updatedAfter revisionCount: Int) -> Set<Int> {
        var numbers: Set<Int> = []
        for revision in revisions.dropFirst(max(0, revisionCount)) {
            for section in revision.sections { numbers.formUnion(section.numbers) }
        }
        return numbers
    }
}
