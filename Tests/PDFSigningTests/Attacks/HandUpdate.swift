import PDFCore

/// An incremental update written by hand, byte by byte, so that a test controls everything a
/// writer would get right: the cross-reference form (table, stream, hybrid), `/Prev`, generation
/// numbers, free entries, object streams, and entries pointing at bytes already in the file.
struct HandUpdate {
    /// How the update's cross-reference is written.
    enum XRef: String, CaseIterable, Sendable {
        case table
        case stream
    }

    /// The file the update is appended to.
    let base: [UInt8]
    /// The base parsed (for its trailer, its last `startxref` and its objects).
    let document: PDFDocument
    /// The update's bytes written so far (objects), after the base.
    private(set) var body: [UInt8] = []
    /// The cross-reference entries of the update, by object number.
    private(set) var entries: [Int: XRefEntry] = [:]
    /// Entries the table gives one way and the cross-reference stream another (hybrid files only).
    var streamOnlyEntries: [Int: XRefEntry] = [:]
    /// Trailer entries besides `/Size`, `/Prev` and those copied from the base (`/Root`, `/Info`, `/ID`).
    var trailer = PDFDictionary()
    /// `/Prev`: the base's last `startxref` unless set; `.some(nil)` leaves it out.
    var prev: Int??
    private var nextNumber: Int

    init(base: [UInt8]) throws {
        self.base = base
        document = try PDFDocument(bytes: base)
        nextNumber = max(1, document.objectCount)
        if !(base.last == 0x0A || base.last == 0x0D) { body.append(0x0A) }
    }

    /// The offset in the whole file of what is appended next.
    var position: Int { base.count + body.count }

    /// The base's object `reference`.
    func object(_ reference: PDFReference) -> PDFObject { document.object(reference) }

    /// A new object number (not written yet).
    mutating func reserve() -> PDFReference {
        defer { nextNumber += 1 }
        return PDFReference(nextNumber, 0)
    }

    /// Writes `object` as a new object and returns its reference.
    @discardableResult
    mutating func add(_ object: PDFObject) -> PDFReference {
        let reference = reserve()
        write(reference, object)
        return reference
    }

    /// Writes `object` as `reference` (a new or an existing number).
    mutating func write(_ reference: PDFReference, _ object: PDFObject) {
        var serializer = PDFSerializer()
        serializer.write(object)
        writeRaw(reference, serializer.output)
    }

    /// Writes `n g obj BODY endobj` with `body` as given.
    mutating func writeRaw(_ reference: PDFReference, _ text: [UInt8]) {
        entries[reference.number] = .inFile(offset: position, generation: reference.generation)
        body += Array("\(reference.number) \(reference.generation) obj\n".utf8) + text + Array("\nendobj\n".utf8)
        nextNumber = max(nextNumber, reference.number + 1)
    }

    /// Appends bytes that are no object (junk, comments) to the body.
    mutating func appendRaw(_ text: String) { body += Array(text.utf8) }

    /// Appends bytes that are no object by themselves (an object's body written apart from its entry).
    mutating func appendRaw(_ bytes: [UInt8]) { body += bytes }

    /// Makes the cross-reference give `number` at `offset` (anywhere in the file, the base included).
    mutating func point(_ number: Int, at offset: Int, generation: Int = 0) {
        entries[number] = .inFile(offset: offset, generation: generation)
    }

    /// Frees `number` (next generation `generation`).
    mutating func free(_ number: Int, generation: Int = 1) { entries[number] = .free(generation: generation) }

    /// Writes `objects` into one object stream (which gets a new number) and returns its reference;
    /// only a cross-reference stream can list them.
    @discardableResult
    mutating func objectStream(_ objects: [(PDFReference, PDFObject)], number: Int? = nil) -> PDFReference {
        var offsets: [Int] = []
        var data: [UInt8] = []
        for (_, object) in objects {
            offsets.append(data.count)
            var serializer = PDFSerializer()
            serializer.write(object)
            data += serializer.output + [0x0A]
        }
        let header = Array(zip(objects, offsets).map { "\($0.0.number) \($1)" }.joined(separator: " ").utf8) + [0x0A]
        let stream = number.map { PDFReference($0, 0) } ?? reserve()
        write(
            stream,
            .stream(
                PDFStream(
                    dictionary: [
                        .type: .name("ObjStm"), PDFName("N"): .integer(objects.count),
                        PDFName("First"): .integer(header.count),
                    ], data: header + data, compress: true)))
        for (index, (reference, _)) in objects.enumerated() {
            entries[reference.number] = .compressed(objectStream: stream.number, index: index)
        }
        return stream
    }

    /// The trailer the update writes: the base's `/Root`, `/Info` and `/ID`, then ``trailer``.
    private func trailerDictionary(size: Int) -> PDFDictionary {
        var dictionary = PDFDictionary()
        for key in [PDFName.root, .info, .id] {
            if let value = document.trailer[key] { dictionary[key] = value }
        }
        dictionary[.size] = .integer(size)
        let previous = prev ?? document.revisions.last?.startxref
        if let previous { dictionary[.prev] = .integer(previous) }
        for entry in trailer { dictionary[entry.key] = entry.value }
        return dictionary
    }

    /// The whole file: the base, the body, the cross-reference section, the trailer, `startxref` and `%%EOF`.
    func bytes(xref: XRef = .table) -> [UInt8] {
        base + body + section(xref: xref, at: position)
    }

    /// A hybrid section (§7.5.8.4): a cross-reference stream with ``streamOnlyEntries`` (and the
    /// compressed entries), then a table with the other entries whose trailer names it in `/XRefStm`.
    func hybridBytes() -> [UInt8] {
        var tableEntries = entries
        var streamEntries = streamOnlyEntries
        for (number, entry) in entries {
            if case .compressed = entry {
                streamEntries[number] = entry
                tableEntries[number] = nil
            }
        }
        let size = max(nextNumber + 1, document.objectCount)
        let streamNumber = size - 1
        let streamOffset = position
        var dictionary = trailerDictionary(size: size)
        dictionary[.prev] = nil
        let stream = Self.xrefStream(streamEntries, number: streamNumber, offset: streamOffset, dictionary: dictionary)
        var file = base + body + stream
        var trailerEntries = trailerDictionary(size: size)
        trailerEntries[.xRefStm] = .integer(streamOffset)
        file += Self.table(tableEntries, trailer: trailerEntries, at: file.count)
        return file
    }

    private func section(xref: XRef, at offset: Int) -> [UInt8] {
        switch xref {
        case .table:
            return Self.table(
                entries, trailer: trailerDictionary(size: max(nextNumber, document.objectCount)), at: offset)
        case .stream:
            let size = max(nextNumber + 1, document.objectCount)
            return Self.xrefStream(
                entries, number: size - 1, offset: offset, dictionary: trailerDictionary(size: size))
                + Array("startxref\n\(offset)\n%%EOF\n".utf8)
        }
    }

    /// A cross-reference table with `entries` and `trailer`, `startxref` and `%%EOF`.
    static func table(_ entries: [Int: XRefEntry], trailer: PDFDictionary, at offset: Int) -> [UInt8] {
        var text = "xref\n"
        for run in runs(entries.keys.sorted()) {
            text += "\(run.lowerBound) \(run.count)\n"
            for number in run {
                switch entries[number]! {
                case .inFile(let position, let generation):
                    text += pad(position, 10) + " " + pad(generation, 5) + " n \n"
                case .free(let generation):
                    text += "0000000000 " + pad(generation, 5) + " f \n"
                case .compressed:
                    text += "0000000000 00000 f \n"
                }
            }
        }
        var serializer = PDFSerializer()
        serializer.write(.dictionary(trailer))
        return Array(text.utf8) + Array("trailer\n".utf8) + serializer.output
            + Array("\nstartxref\n\(offset)\n%%EOF\n".utf8)
    }

    /// A cross-reference stream object numbered `number` at `offset` listing `entries` and itself.
    static func xrefStream(
        _ entries: [Int: XRefEntry], number: Int, offset: Int, dictionary: PDFDictionary
    ) -> [UInt8] {
        var all = entries
        all[number] = .inFile(offset: offset, generation: 0)
        var rows: [UInt8] = []
        func put(_ value: Int, _ width: Int) {
            for shift in stride(from: (width - 1) * 8, through: 0, by: -8) {
                rows.append(UInt8(truncatingIfNeeded: value >> shift))
            }
        }
        var index: [PDFObject] = []
        for run in runs(all.keys.sorted()) {
            index += [.integer(run.lowerBound), .integer(run.count)]
            for number in run {
                switch all[number]! {
                case .free(let generation):
                    put(0, 1)
                    put(0, 4)
                    put(generation, 2)
                case .inFile(let position, let generation):
                    put(1, 1)
                    put(position, 4)
                    put(generation, 2)
                case .compressed(let stream, let position):
                    put(2, 1)
                    put(stream, 4)
                    put(position, 2)
                }
            }
        }
        var stream = dictionary
        stream[.type] = .name("XRef")
        stream[PDFName("W")] = [1, 4, 2]
        stream[PDFName("Index")] = .array(index)
        var serializer = PDFSerializer()
        serializer.append("\(number) 0 obj\n")
        serializer.write(.stream(PDFStream(dictionary: stream, data: rows, compress: true)))
        serializer.append("\nendobj\n")
        return serializer.output
    }

    /// Consecutive runs of sorted numbers.
    static func runs(_ numbers: [Int]) -> [Range<Int>] {
        var result: [Range<Int>] = []
        for number in numbers {
            if let last = result.last, last.upperBound == number {
                result[result.count - 1] = last.lowerBound..<(number + 1)
            } else {
                result.append(number..<(number + 1))
            }
        }
        return result
    }

    static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}
