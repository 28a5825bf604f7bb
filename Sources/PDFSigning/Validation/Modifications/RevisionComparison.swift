import PDFCore
import PDFForms

/// What one incremental update changed: every object it writes compared with the revision before
/// it and classified by where it is used (ISO 32000-2 §7.5.6, §12.8.2.2), before any policy.
///
/// The comparison is by object, not by bytes: an update that rewrites an object identically
/// changes nothing; one whose cross-reference points an old number at other bytes (a "shadow"
/// update) changes that object. Rules explain changes — a field's new value, a new signature, an
/// annotation, the DSS — and claim the new objects those changes bring (appearance streams,
/// fonts); whatever no rule explains is forbidden, described by where the document uses it.
struct RevisionComparison {
    let old: PDFDocument
    let new: PDFDocument
    /// The index of the update (the revision of `new`).
    let revision: Int
    private(set) var changes: [ObservedChange] = []

    /// Existing objects the update changes (their numbers), and objects it adds.
    var changed: Set<Int> = []
    var added: Set<Int> = []
    var freed: Set<Int> = []
    /// Objects a rule has accounted for.
    var explained: Set<Int> = []

    let oldForm: FormIndex
    let newForm: FormIndex
    let oldPages: PageIndex
    let newPages: PageIndex
    private var oldGraphStorage: ObjectGraph?
    private var newGraphStorage: ObjectGraph?

    init(old: PDFDocument, new: PDFDocument, revision: Int) {
        self.old = old
        self.new = new
        self.revision = revision
        oldForm = FormIndex(document: old)
        newForm = FormIndex(document: new)
        oldPages = PageIndex(document: old)
        newPages = PageIndex(document: new)
    }

    /// Compares the two revisions and returns the classified changes.
    static func compare(old: PDFDocument, new: PDFDocument, revision: Int) -> [ObservedChange] {
        var comparison = RevisionComparison(old: old, new: new, revision: revision)
        comparison.run()
        return comparison.changes
    }

    mutating func run() {
        findWrittenObjects()
        checkTrailer()
        compareCatalog()
        compareForm()
        comparePages()
        compareObjectsByPlace()
        explainRemaining()
    }

    mutating func record(
        _ category: ObservedChange.Category, _ kind: Modification.Kind, object: Int?, page: Int? = nil,
        field: String? = nil, _ what: String
    ) {
        changes.append(
            ObservedChange(object: object, kind: kind, pageIndex: page, category: category, what: what, field: field))
    }

    // MARK: The objects the update writes

    /// Fills ``changed``, ``added`` and ``freed`` from the update's cross-reference sections,
    /// leaving out its object streams and cross-reference streams (containers, not content).
    mutating func findWrittenObjects() {
        guard new.revisions.indices.contains(revision) else { return }
        var seen: Set<Int> = []
        for section in new.revisions[revision].sections {
            for (number, entry) in zip(section.numbers, section.entries) where seen.insert(number).inserted {
                let oldReference = Self.reference(number, in: old)
                switch entry {
                case .free:
                    if let oldReference, !old.object(oldReference).isNull { freed.insert(number) }
                case .inFile, .compressed:
                    guard let newReference = Self.reference(number, in: new) else { continue }
                    let object = new.object(newReference)
                    if let type = object.streamValue?.dictionary.name(.type), type == .objStm || type == .xRef {
                        continue
                    }
                    guard let oldReference else {
                        added.insert(number)
                        continue
                    }
                    let before = old.object(oldReference)
                    if before.isNull {
                        added.insert(number)
                    } else if oldReference.generation != newReference.generation
                        || !ObjectComparison.same(before, in: old, object, in: new)
                    {
                        changed.insert(number)
                    }
                }
            }
        }
    }

    /// The reference in force for `number` in `document`, nil when the number is free or unused.
    static func reference(_ number: Int, in document: PDFDocument) -> PDFReference? {
        switch document.index[number] {
        case .inFile(_, let generation)?: PDFReference(number, generation)
        case .compressed?: PDFReference(number, 0)
        default: nil
        }
    }

    // MARK: The trailer

    mutating func checkTrailer() {
        let oldRoot = old.trailer.reference(.root)
        let newRoot = new.trailer.reference(.root)
        if oldRoot != newRoot {
            record(
                .forbidden, .catalog, object: newRoot?.number,
                "the trailer's /Root names another catalog (\(newRoot.map(\.description) ?? "none") instead of "
                    + "\(oldRoot.map(\.description) ?? "none"))")
        }
        if old.trailer[.encrypt] != new.trailer[.encrypt] {
            record(.forbidden, .structure, object: nil, "the trailer's /Encrypt changed")
        }
        let oldInfo = old.trailer.reference(.info)
        let newInfo = new.trailer.reference(.info)
        if let newInfo, newInfo != oldInfo || changed.contains(newInfo.number) {
            compareInfo(old: oldInfo.flatMap { old.object($0).dictionaryValue }, newInfo)
        } else if newInfo == nil, oldInfo != nil {
            record(.metadata, .metadata, object: nil, "the trailer's /Info was removed")
        }
    }

    mutating func compareInfo(old oldInfo: PDFDictionary?, _ reference: PDFReference) {
        guard let newInfo = new.object(reference).dictionaryValue else {
            record(.forbidden, .metadata, object: reference.number, "the trailer's /Info is not a dictionary")
            return
        }
        explained.insert(reference.number)
        let bookkeeping: Set<PDFName> = [PDFName("ModDate"), PDFName("Producer")]
        let differing = Self.differingKeys(oldInfo ?? PDFDictionary(), newInfo)
        if differing.isEmpty { return }
        if differing.allSatisfy({ bookkeeping.contains($0) }) {
            record(.bookkeeping, .metadata, object: reference.number, "/Info /ModDate or /Producer updated")
        } else {
            let names = differing.map { "/" + $0.string }.joined(separator: ", ")
            record(.metadata, .metadata, object: reference.number, "document information \(names) changed")
        }
        claim(from: .reference(reference), by: .metadata)
    }

    /// The keys whose values differ between two dictionaries (added, removed or changed).
    static func differingKeys(_ a: PDFDictionary, _ b: PDFDictionary) -> [PDFName] {
        var keys: [PDFName] = []
        for entry in b where a[entry.key] != entry.value { keys.append(entry.key) }
        for entry in a where b[entry.key] == nil { keys.append(entry.key) }
        return keys
    }

    // MARK: Claiming new objects

    /// The revisions' object graphs, built the first time they are needed.
    mutating func oldGraph() -> ObjectGraph {
        if let oldGraphStorage { return oldGraphStorage }
        let graph = ObjectGraph(document: old)
        oldGraphStorage = graph
        return graph
    }

    mutating func newGraph() -> ObjectGraph {
        if let newGraphStorage { return newGraphStorage }
        let graph = ObjectGraph(document: new)
        newGraphStorage = graph
        return graph
    }

    /// Accounts for the objects a permitted change brings: `object` and every object it reaches
    /// through objects the update adds. An old object that reaches no reader as of the previous
    /// revision and is reached now is a hidden object made visible ("shadow hide"): forbidden.
    mutating func claim(from object: PDFObject, by kind: Modification.Kind, page: Int? = nil) {
        var queue: [PDFReference] = []
        if case .reference(let reference) = object {
            queue.append(reference)
        } else {
            ObjectGraph.forEachChild(of: object, role: .init(kind: kind)) { child, _ in queue.append(child) }
        }
        var visited: Set<Int> = []
        var head = 0
        while head < queue.count, visited.count < 1_000_000 {
            let reference = queue[head]
            head += 1
            guard visited.insert(reference.number).inserted else { continue }
            if added.contains(reference.number) || (head == 1 && changed.contains(reference.number)) {
                explained.insert(reference.number)
                ObjectGraph.forEachChild(of: new.object(reference), role: .init(kind: kind)) { child, _ in
                    queue.append(child)
                }
            } else if !changed.contains(reference.number), !new.object(reference).isNull,
                !oldGraph().contains(reference.number)
            {
                record(
                    .forbidden, .hiddenObject, object: reference.number, page: page,
                    "object \(reference.number), which the signed revision did not use, is now used")
            }
        }
    }
}
