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
    /// Objects a rule has accounted for, and the kind of object the rule took each for.
    var explained: Set<Int> = []
    var explainedAs: [Int: Modification.Kind] = [:]
    /// The signature fields whose signatures verify (digest and CMS signature), and the revision
    /// each signs; nil when not known (every signature dictionary is then taken as what it claims).
    let signatures: [String: Int]?

    let oldForm: FormIndex
    let newForm: FormIndex
    let oldPages: PageIndex
    let newPages: PageIndex
    private var oldGraphStorage: ObjectGraph?
    private var newGraphStorage: ObjectGraph?

    init(old: PDFDocument, new: PDFDocument, revision: Int, signatures: [String: Int]? = nil) {
        self.old = old
        self.new = new
        self.revision = revision
        self.signatures = signatures
        oldForm = FormIndex(document: old)
        newForm = FormIndex(document: new)
        oldPages = PageIndex(document: old)
        newPages = PageIndex(document: new)
    }

    /// Compares the two revisions and returns the classified changes.
    static func compare(
        old: PDFDocument, new: PDFDocument, revision: Int, signatures: [String: Int]? = nil
    ) -> [ObservedChange] {
        var comparison = RevisionComparison(old: old, new: new, revision: revision, signatures: signatures)
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
        checkExplainedPlaces()
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

    /// Fills ``changed``, ``added`` and ``freed`` from the numbers the update's cross-reference
    /// sections list, each as the document now reads it (whatever the entry claims), leaving out
    /// the update's own object streams and cross-reference streams (containers, not content) when
    /// they take new numbers: one written over an object in use is compared like any object.
    mutating func findWrittenObjects() {
        guard new.revisions.indices.contains(revision) else { return }
        var seen: Set<Int> = []
        var listed: [PDFReference] = []
        for section in new.revisions[revision].sections {
            for number in section.numbers where seen.insert(number).inserted {
                let before = Self.reference(number, in: old).map { old.object($0) } ?? .null
                guard let newReference = Self.reference(number, in: new) else {
                    if !before.isNull { freed.insert(number) }
                    continue
                }
                listed.append(newReference)
                let object = new.object(newReference)
                if before.isNull {
                    if let type = object.streamValue?.dictionary.name(.type), type == .objStm || type == .xRef {
                        continue
                    }
                    added.insert(number)
                } else if Self.reference(number, in: old)?.generation != newReference.generation
                    || !ObjectComparison.same(before, in: old, object, in: new)
                {
                    changed.insert(number)
                }
            }
        }
        // Entries that do not lead to their object: what a reader shows depends on how it repairs them.
        let misplaced = Set(
            new.warnings.filter { $0.code == .objectOffsetInvalid || $0.code == .objectStreamInvalid }
                .compactMap(\.object))
        for reference in listed where misplaced.contains(reference) {
            record(
                .forbidden, .structure, object: reference.number,
                "the cross-reference entry of object \(reference.number) in revision \(revision) does not lead to it: "
                    + "readers repair it differently")
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
        explain(reference.number, as: .metadata)
        let bookkeeping: Set<PDFName> = [.modDate, .producer]
        let differing = Self.differingKeys(oldInfo ?? PDFDictionary(), newInfo)
        if differing.isEmpty { return }
        if differing.allSatisfy({ bookkeeping.contains($0) }) {
            record(.bookkeeping, .metadata, object: reference.number, "/Info /ModDate or /Producer updated")
        } else {
            let names = differing.map { "/" + $0.string }.joined(separator: ", ")
            record(.metadata, .metadata, object: reference.number, "document information \(names) changed")
        }
        claim(from: .reference(reference), by: .metadata, changedRoot: true)
    }

    /// The keys whose values differ between two dictionaries (added, removed or changed).
    static func differingKeys(_ a: PDFDictionary, _ b: PDFDictionary) -> [PDFName] {
        var keys: [PDFName] = []
        for entry in b where a[entry.key] != entry.value { keys.append(entry.key) }
        for entry in a where b[entry.key] == nil { keys.append(entry.key) }
        return keys
    }

    // MARK: Explaining objects

    /// Records that a rule accounts for `number`, taking it for an object of `kind`.
    mutating func explain(_ number: Int, as kind: Modification.Kind) {
        explained.insert(number)
        if explainedAs[number] == nil { explainedAs[number] = kind }
    }

    /// An existing object explained by a rule is judged where the previous revision uses it too:
    /// what the pages draw (outside their annotations) is never changed, and an object taken for
    /// metadata, a form, a field or an annotation must have been one (the same object may be both
    /// the XMP metadata and a page's content stream, or `/Info` and a font).
    mutating func checkExplainedPlaces() {
        for number in changed.intersection(explained).sorted() {
            guard let kind = explainedAs[number], oldPages.pageByNumber[number] == nil else { continue }
            let graph = oldGraph()
            guard let role = graph[number] else { continue }
            let drawn = graph.isDrawn(number)
            guard drawn || !Self.compatible(role.kind, with: kind) else { continue }
            var used = role
            if drawn, ![.page, .pageContent, .xobject, .font, .optionalContent].contains(role.kind) {
                used.kind = .xobject
            }
            record(
                .forbidden, used.kind, object: number, page: used.pageIndex,
                "object \(number), \(Self.describe(used)), changed (the update passes it off as "
                    + "\(Self.describe(ObjectGraph.Role(kind: kind))))")
        }
    }

    /// Whether an object used as `used` may be changed by a rule about `kind`: the same kind, a
    /// widget (an annotation) by the rules of fields, a catalog entry by the rules of the catalog.
    static func compatible(_ used: Modification.Kind, with kind: Modification.Kind) -> Bool {
        switch kind {
        case .field: return used == .field || used == .annotation
        case .signature: return used == .field || used == .signature
        case .catalog: return used == .catalog || used == .other
        default: return used == kind
        }
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
    /// An existing object the update changed is claimed only when it is `object` itself and
    /// `changedRoot` says the rule is about that object (the `/Info` dictionary, the DSS, an
    /// annotation already compared); one merely reached, or named by a new field or annotation, is
    /// left to be judged where it is used.
    mutating func claim(
        from object: PDFObject, by kind: Modification.Kind, page: Int? = nil, changedRoot: Bool = false
    ) {
        var queue: [PDFReference] = []
        var root: Int? = nil
        if case .reference(let reference) = object {
            queue.append(reference)
            root = changedRoot ? reference.number : nil
        } else {
            ObjectGraph.forEachChild(of: object, role: .init(kind: kind)) { child, _ in queue.append(child) }
        }
        var visited: Set<Int> = []
        var head = 0
        while head < queue.count, visited.count < 1_000_000 {
            let reference = queue[head]
            head += 1
            guard visited.insert(reference.number).inserted else { continue }
            if added.contains(reference.number) || (reference.number == root && changed.contains(reference.number)) {
                explain(reference.number, as: kind)
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
