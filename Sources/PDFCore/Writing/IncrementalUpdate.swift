/// Changes to a document written as an incremental update (ISO 32000-2 §7.5.6): new and changed
/// objects, a cross-reference section and a trailer appended after the last `%%EOF`. The bytes of
/// the base document are never touched (ARCHITECTURE.md invariant 1).
///
/// ```swift
/// var update = IncrementalUpdate(base: document)
/// let info = update.add(.dictionary(["Title": .string(PDFString(text: "Report"))]))
/// update.setTrailer(.info, to: .reference(info))
/// try update.write(to: "out.pdf")
/// ```
///
/// The update keeps the base's cross-reference form (table or stream), points `/Prev` at the
/// base's newest section, keeps `/ID[0]` and sets a new `/ID[1]`, and encrypts new objects with
/// the base's key when it is encrypted. When reading the base needed repairs (a rebuilt or broken
/// cross-reference, damaged objects), the update's section lists every object and has no `/Prev`,
/// and the damaged objects are written again as they were read, so readers never meet the damage.
/// Call ``PDFDocument/resolveAllObjects()`` first to find all of it.
public struct IncrementalUpdate: Sendable {
    /// The document being updated.
    public let base: PDFDocument
    /// Where the update's random bytes (the new `/ID[1]`, AES initialisation vectors) come from, and whether the ID is
    /// derived from the content instead.
    public var options: WriteOptions
    /// The catalog's reference: the base's `/Root`, or, when the base's trailer holds the catalog
    /// as a direct dictionary (§7.5.5 wants a reference, but such files exist and readers open them),
    /// a new object the update writes the catalog to. Edit the catalog through this reference.
    public private(set) var catalogReference: PDFReference?
    private var objects: [Int: (generation: Int, object: PDFObject)] = [:]
    private var trailerChanges: [PDFName: PDFObject] = [:]
    private var nextNumber: Int
    private var changed = false

    /// An empty update of `base`: new objects are numbered from the base's object count (``PDFDocument/objectCount``)
    /// up.
    ///
    /// A base whose file does not start with its `%PDF-` header is replaced by
    /// ``PDFDocument/startingAtHeader()``, so that the updated file does: write ``base``, not the
    /// document given, before the update.
    public init(base: PDFDocument, options: WriteOptions = .default) {
        let base = (try? base.startingAtHeader()) ?? base
        self.base = base
        self.options = options
        self.nextNumber = max(1, base.objectCount)
        switch base.trailer[.root] {
        case .reference(let root)?:
            catalogReference = root
        case .dictionary(let catalog)?:
            let root = PDFReference(nextNumber, 0)
            nextNumber += 1
            objects[root.number] = (0, .dictionary(catalog))
            trailerChanges[.root] = .reference(root)
            catalogReference = root
        default:
            catalogReference = nil
        }
    }

    /// Adds a new object and returns its reference.
    public mutating func add(_ object: PDFObject) -> PDFReference {
        let reference = PDFReference(nextNumber, 0)
        nextNumber += 1
        objects[reference.number] = (0, object)
        changed = true
        return reference
    }

    /// Reserves an object number for an object written later with ``replace(_:with:)`` (an object
    /// that must be referred to before it can be built, like a font subset).
    public mutating func reserve() -> PDFReference {
        add(.null)
    }

    /// Replaces the object `reference` names (keeping its number and generation).
    public mutating func replace(_ reference: PDFReference, with object: PDFObject) {
        objects[reference.number] = (reference.generation, object)
        nextNumber = max(nextNumber, reference.number + 1)
        changed = true
    }

    /// Sets a trailer entry (`/Info`, `/Root`); `/Size`, `/Prev` and `/ID` are managed by the update.
    public mutating func setTrailer(_ key: PDFName, to value: PDFObject) {
        trailerChanges[key] = value
        changed = true
    }

    /// The object in the update for `reference`, or the base's.
    public func object(_ reference: PDFReference) -> PDFObject {
        if let changed = objects[reference.number], changed.generation == reference.generation { return changed.object }
        return base.object(reference)
    }

    /// True when nothing has been added or replaced (a direct catalog made indirect does not count).
    public var isEmpty: Bool { !changed }

    /// The bytes to append to the base file.
    /// - Throws: `.writeFailed` when the base is encrypted but was opened without its key.
    public func serialized() throws(PDFError) -> [UInt8] {
        let baseLength = base.fileSize
        let headerOffset = base.headerOffset
        var serializer = PDFSerializer()
        var extraObjects = 0
        // The update starts on a new line after the base's %%EOF.
        let endsWithNewline = base.withBytes { bytes in
            bytes.last == 0x0A || bytes.last == 0x0D
        }
        if !endsWithNewline { serializer.append("\n") }
        var entries: [(number: Int, entry: XRefEntry)] = []
        for number in objects.keys.sorted() {
            let (generation, object) = objects[number]!
            let offset = baseLength + serializer.output.count - headerOffset
            entries.append((number, .inFile(offset: offset, generation: generation)))
            serializer.append("\(number) \(generation) obj\n")
            try serializer.write(object, encryption: encryption(for: PDFReference(number, generation), object: object))
            serializer.append("\nendobj\n")
        }

        // A damaged base gets a self-sufficient section: every object listed, damaged ones
        // written again as read, and no /Prev into the damaged cross-reference.
        let recovered = base.isDamaged
        if recovered {
            var repairs: [(PDFReference, PDFObject)] = []
            let pageReferences = Set(base.pages.compactMap(\.reference))
            for reference in base.damagedObjects.sorted() where objects[reference.number] == nil {
                let object = base.object(reference)
                guard !object.isNull else { continue }
                repairs.append(
                    (reference, StructureRepair.normalized(object, isPage: pageReferences.contains(reference))))
            }
            // A catalog whose page tree cannot be read gets an empty one.
            if case .reference(let root)? = base.trailer[.root], objects[root.number] == nil,
                var catalog = base.catalog, base.resolve(catalog[.pages] ?? .null).dictionaryValue == nil
            {
                let pagesNumber = nextNumber
                catalog[.pages] = .reference(PDFReference(pagesNumber, 0))
                repairs.removeAll { $0.0 == root }
                repairs.append((root, .dictionary(catalog)))
                repairs.append((PDFReference(pagesNumber, 0), StructureRepair.emptyPageTree))
                extraObjects = 1
            }
            for (reference, object) in repairs {
                let offset = baseLength + serializer.output.count - headerOffset
                entries.append((reference.number, .inFile(offset: offset, generation: reference.generation)))
                serializer.append("\(reference.number) \(reference.generation) obj\n")
                try serializer.write(object, encryption: encryption(for: reference, object: object))
                serializer.append("\nendobj\n")
            }
            // An /Encrypt /Length that did not open the document is written right (never encrypted
            // itself, §7.6.1), so that readers trusting it open the update.
            if let security = base.security, security.lengthWarning != nil,
                case .reference(let reference)? = base.trailer[.encrypt], objects[reference.number] == nil,
                var dictionary = base.object(reference).dictionaryValue
            {
                dictionary[.length] = .integer(security.info.keyLength)
                let offset = baseLength + serializer.output.count - headerOffset
                entries.append((reference.number, .inFile(offset: offset, generation: reference.generation)))
                serializer.append("\(reference.number) \(reference.generation) obj\n")
                try serializer.write(.dictionary(dictionary), encryption: nil)
                serializer.append("\nendobj\n")
            }
        }
        var trailer = PDFDictionary()
        for key in [PDFName.root, .info, .encrypt] {
            if let value = base.trailer[key] { trailer[key] = value }
        }
        for (key, value) in trailerChanges { trailer[key] = value }
        let size = max(nextNumber + extraObjects, base.objectCount)
        trailer[.size] = .integer(size + (usesStream(recovered: recovered) ? 1 : 0))
        if !recovered, let last = base.revisions.last {
            trailer[.prev] = .integer(last.startxref)
        } else {
            // Recovered base: list every object so no reader has to follow the damaged section.
            var listed = Set(entries.map(\.number))
            let damaged = Set(base.damagedObjects.map(\.number))
            for (number, entry) in base.allEntries() where !listed.contains(number) {
                // A damaged object that reads as nothing is listed as free.
                let usable = !damaged.contains(number) || !base.object(PDFReference(number, entry.generation)).isNull
                entries.append((number, usable ? shifted(entry, by: headerOffset) : .free(generation: 0)))
                listed.insert(number)
            }
            entries.append((0, .free(generation: 65535)))
            entries.sort { $0.number < $1.number }
        }
        trailer[.id] = .array(try newID(body: serializer.output))

        let xrefOffset = baseLength + serializer.output.count - headerOffset
        if usesStream(recovered: recovered) {
            serializer.append(XRefWriter.stream(entries, trailer: trailer, number: size, at: xrefOffset))
        } else {
            serializer.append(XRefWriter.table(entries, trailer: trailer, at: xrefOffset))
        }
        return serializer.output
    }

    /// Writes the base file followed by the update to `path`, atomically.
    public func write(to path: String) throws(PDFError) {
        try IncrementalUpdate.write(base: base, update: try serialized(), to: path)
    }

    /// Writes `base` followed by `update` to `path`, atomically, streaming the base in chunks.
    package static func write(base: PDFDocument, update: [UInt8], to path: String) throws(PDFError) {
        let writer = try AtomicFileWriter(path: path)
        try append(base: base, update: update, to: writer)
        try writer.commit()
    }

    /// Appends `base`'s bytes from `offset` on (the writer holds the first `offset` already), then
    /// `update`, to `writer`: the base streamed in chunks, never copied whole into memory.
    package static func append(
        base: PDFDocument, from offset: Int = 0, update: [UInt8], to writer: AtomicFileWriter
    ) throws(PDFError) {
        guard (0...base.fileSize).contains(offset) else {
            throw PDFError(.writeFailed, "the file written holds \(offset) bytes, its base only \(base.fileSize)")
        }
        do {
            try base.forEachChunk(in: offset..<base.fileSize) { chunk in try writer.write(chunk) }
        } catch let error as PDFError {
            throw error
        } catch {
            throw PDFError(.writeFailed, "\(error)")
        }
        try writer.write(update)
    }

    /// The whole updated document in memory.
    public func documentBytes() throws(PDFError) -> [UInt8] {
        let update = try serialized()
        return base.withBytes { Self.joined($0, update) }
    }

    /// `first` followed by `second` in one array, allocated once.
    package static func joined(_ first: UnsafeRawBufferPointer, _ second: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(first.count + second.count)
        bytes.append(contentsOf: first)
        bytes.append(contentsOf: second)
        return bytes
    }

    private func usesStream(recovered: Bool) -> Bool {
        if recovered {
            return base.allEntries().contains { item in
                if case .compressed = item.entry { return true }
                return false
            }
        }
        guard let form = base.revisions.last?.form else { return false }
        return form == .stream
    }

    private func shifted(_ entry: XRefEntry, by headerOffset: Int) -> XRefEntry {
        if case .inFile(let offset, let generation) = entry {
            return .inFile(offset: offset - headerOffset, generation: generation)
        }
        return entry
    }

    private func encryption(
        for reference: PDFReference, object: PDFObject
    ) throws(PDFError) -> PDFSerializer.Encryption? {
        guard let security = base.security else { return nil }
        let random = options.randomBytes
        return PDFSerializer.Encryption(
            strings: try security.stringCipher(for: reference),
            stream: try object.streamValue.flatMap { (stream) throws(PDFError) in
                try security.streamCipher(for: reference, dictionary: stream.dictionary)
            },
            iv: { () throws(PDFError) in try random(16) })
    }

    /// `/ID[0]` from the base (or new), `/ID[1]` new: random, or an MD5 of the update when deterministic.
    private func newID(body: [UInt8]) throws(PDFError) -> [PDFObject] {
        let second: [UInt8] =
            try options.deterministicID
            ? Digest.md5.hash(base.trailer.array(.id)?.first?.stringValue?.bytes ?? [], body)
            : options.randomBytes(16)
        let first = base.trailer.array(.id)?.first?.stringValue?.bytes ?? second
        return [.string(PDFString(bytes: first, isHex: true)), .string(PDFString(bytes: second, isHex: true))]
    }
}
