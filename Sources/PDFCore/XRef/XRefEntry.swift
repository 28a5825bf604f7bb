/// One cross-reference entry (ISO 32000-2 §7.5.4, §7.5.8.3).
public enum XRefEntry: Hashable, Sendable {
    /// A free (deleted) object number.
    case free(generation: Int)
    /// An object stored at a byte offset.
    case inFile(offset: Int, generation: Int)
    /// An object stored in an object stream (generation 0).
    case compressed(objectStream: Int, index: Int)

    package var generation: Int {
        switch self {
        case .free(let generation), .inFile(_, let generation): generation
        case .compressed: 0
        }
    }

    /// True for an object in use (in the file or in an object stream).
    public var isInUse: Bool {
        if case .free = self { return false }
        return true
    }
}

/// One cross-reference section: a table with its trailer, a cross-reference stream, or a hybrid
/// (a table whose trailer names a stream through `/XRefStm`).
public struct XRefSection: Sendable {
    /// How a section was written (§7.5.4, §7.5.8), or that it was rebuilt.
    public enum Form: String, Sendable {
        /// A cross-reference table (`xref` … `trailer`, §7.5.4).
        case table
        /// A cross-reference stream (`/Type /XRef`, PDF 1.5, §7.5.8).
        case stream
        /// A table whose trailer names a cross-reference stream through `/XRefStm` (§7.5.8.4).
        case hybrid
        /// Rebuilt by scanning the file because the cross-reference data was unusable.
        case recovered
    }

    /// The offset of the `xref` keyword or of the cross-reference stream object.
    public let offset: Int
    /// How the section was written, or ``Form-swift.enum/recovered``.
    public let form: Form
    /// The trailer dictionary (for a stream, the stream's dictionary).
    public let trailer: PDFDictionary
    /// Where the section (trailer or stream object) ends.
    public let end: Int
    /// Object numbers and their entries, in the order read.
    package let numbers: [Int]
    package let entries: [XRefEntry]
    /// In a hybrid section, the object numbers the table and the stream both give in use but
    /// differently: readers that ignore `/XRefStm` see other objects than those that read it.
    public let hybridConflicts: [Int]

    package init(
        offset: Int, form: Form, trailer: PDFDictionary, end: Int, numbers: [Int], entries: [XRefEntry],
        hybridConflicts: [Int] = []
    ) {
        self.offset = offset
        self.form = form
        self.trailer = trailer
        self.end = end
        self.numbers = numbers
        self.entries = entries
        self.hybridConflicts = hybridConflicts
    }

    /// The number of entries in the section.
    public var entryCount: Int { numbers.count }
}

/// The merged view of every section: the entry in force for each object number.
package struct XRefIndex: Sendable {
    private var dense: [XRefEntry?] = []
    private var sparse: [Int: XRefEntry] = [:]
    private let denseLimit: Int

    package init(denseLimit: Int) { self.denseLimit = denseLimit }

    package subscript(number: Int) -> XRefEntry? {
        if number >= 0 && number < dense.count { return dense[number] }
        return sparse[number]
    }

    /// Records `entry` unless an entry for `number` is already there (newer sections come first).
    package mutating func addIfAbsent(_ number: Int, _ entry: XRefEntry) {
        guard number >= 0, self[number] == nil else { return }
        set(number, entry)
    }

    package mutating func set(_ number: Int, _ entry: XRefEntry) {
        guard number >= 0 else { return }
        if number < denseLimit {
            if number >= dense.count {
                dense.append(contentsOf: repeatElement(nil, count: number + 1 - dense.count))
            }
            dense[number] = entry
        } else {
            sparse[number] = entry
        }
    }

    /// Every object number with an entry, ascending.
    package var numbers: [Int] {
        var result: [Int] = []
        for (number, entry) in dense.enumerated() where entry != nil { result.append(number) }
        result.append(contentsOf: sparse.keys.sorted())
        return result
    }

    /// One more than the highest object number with an entry.
    package var size: Int {
        var highest = -1
        for number in stride(from: dense.count - 1, through: 0, by: -1) where dense[number] != nil {
            highest = number
            break
        }
        if let top = sparse.keys.max() { highest = max(highest, top) }
        return highest + 1
    }
}
