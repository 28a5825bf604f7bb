/// Writes a whole new file from a document (qpdf's default mode): only objects reachable from the
/// trailer, renumbered from 1 in the order they are reached, optionally packed into object streams
/// with a cross-reference stream, optionally decrypted.
///
/// Never used for a signed document by the workflows above the core (ARCHITECTURE.md invariant 1):
/// renumbering breaks every signature.
public struct DocumentWriter {
    /// How the new file is written: object streams, encryption, reproducibility.
    public struct Options: Sendable {
        /// Pack non-stream objects into object streams and write a cross-reference stream (PDF 1.5).
        public var objectStreams: Bool
        /// Write the document without encryption.
        public var decrypt: Bool
        /// Reproducible output: IDs derived from content, and (with `write`) the same bytes every run.
        public var write: WriteOptions

        /// Options for writing; by default a cross-reference table without object streams, the document's encryption
        /// kept, and ``WriteOptions/default``.
        public init(objectStreams: Bool = false, decrypt: Bool = false, write: WriteOptions = .default) {
            self.objectStreams = objectStreams
            self.decrypt = decrypt
            self.write = write
        }
    }

    /// The document written.
    public let document: PDFDocument
    /// How it is written.
    public var options: Options

    /// A writer of `document` with the given options.
    public init(document: PDFDocument, options: Options = Options()) {
        self.document = document
        self.options = options
    }

    /// Writes the new file to `path`, atomically.
    public func write(to path: String) throws(PDFError) {
        let bytes = try serialized()
        let writer = try AtomicFileWriter(path: path)
        try writer.write(bytes)
        try writer.commit()
    }

    /// The new file's bytes.
    /// - Throws: `.damaged` when the document has no readable catalog.
    public func serialized() throws(PDFError) -> [UInt8] {
        guard document.catalog != nil else { throw PDFError(.damaged, "the document has no readable catalog") }
        let keepEncryption = document.security != nil && !options.decrypt
        let encryptReference = document.trailer.reference(.encrypt)

        // Number reachable objects breadth-first from the trailer.
        var numbers: [PDFReference: Int] = [:]
        var order: [PDFReference] = []
        var queue: [PDFObject] = []
        var trailerRoots: [PDFName] = [.root, .info]
        if keepEncryption { trailerRoots.append(.encrypt) }
        for key in trailerRoots { if let value = document.trailer[key] { queue.append(value) } }
        var head = 0
        func enqueueReferences(in object: PDFObject) {
            switch object {
            case .reference(let reference):
                guard numbers[reference] == nil else { return }
                let resolved = document.object(reference)
                guard !resolved.isNull else { return }
                numbers[reference] = order.count + 1
                order.append(reference)
                queue.append(resolved)
            case .array(let items): for item in items { enqueueReferences(in: item) }
            case .dictionary(let dictionary): for entry in dictionary { enqueueReferences(in: entry.value) }
            case .stream(let stream): for entry in stream.dictionary { enqueueReferences(in: entry.value) }
            default: break
            }
        }
        while head < queue.count {
            let object = queue[head]
            head += 1
            if head <= trailerRoots.count, case .reference = object {
                enqueueReferences(in: object)
            } else {
                enqueueReferences(in: object)
            }
        }

        func renumber(_ object: PDFObject) -> PDFObject {
            switch object {
            case .reference(let reference):
                guard let number = numbers[reference] else { return .null }
                return .reference(PDFReference(number, 0))
            case .array(let items): return .array(items.map(renumber))
            case .dictionary(let dictionary): return .dictionary(renumber(dictionary))
            case .stream(let stream):
                var dictionary = renumber(stream.dictionary)
                dictionary[.length] = nil
                if options.decrypt { dictionary = removingCryptFilter(dictionary) }
                return .stream(PDFStream(dictionary: dictionary, storage: stream.storage))
            default: return object
            }
        }
        func renumber(_ dictionary: PDFDictionary) -> PDFDictionary {
            var result = PDFDictionary()
            for entry in dictionary {
                let value = renumber(entry.value)
                if !value.isNull { result.appendParsed(key: entry.key, value: value) }
            }
            return result
        }

        let pageReferences = Set(document.pages.compactMap(\.reference))
        let packed = options.objectStreams
        let version =
            packed ? maxVersion(document.version, "1.5") : (document.version.isEmpty ? "1.4" : document.version)
        var serializer = PDFSerializer()
        serializer.append("%PDF-\(version)\n")
        serializer.append([0x25, 0xE2, 0xE3, 0xCF, 0xD3, 0x0A])
        var entries: [(number: Int, entry: XRefEntry)] = [(0, .free(generation: 65535))]
        var pending: [(number: Int, object: PDFObject)] = []
        let encryptNumber = encryptReference.flatMap { numbers[$0] }

        func encryption(_ number: Int, _ object: PDFObject) throws(PDFError) -> PDFSerializer.Encryption? {
            guard keepEncryption, let security = document.security, number != encryptNumber else { return nil }
            let random = options.write.randomBytes
            let reference = PDFReference(number, 0)
            return PDFSerializer.Encryption(
                strings: try security.stringCipher(for: reference),
                stream: try object.streamValue.flatMap { (stream) throws(PDFError) in
                    try security.streamCipher(for: reference, dictionary: stream.dictionary)
                },
                iv: { () throws(PDFError) in try random(16) })
        }
        func writeObject(_ number: Int, _ object: PDFObject) throws(PDFError) {
            entries.append((number, .inFile(offset: serializer.output.count, generation: 0)))
            serializer.append("\(number) 0 obj\n")
            try serializer.write(object, encryption: encryption(number, object))
            serializer.append("\nendobj\n")
        }
        var nextNumber = order.count + 1
        func flushObjectStream() throws(PDFError) {
            guard !pending.isEmpty else { return }
            let streamNumber = nextNumber
            nextNumber += 1
            var header = ""
            var body = PDFSerializer()
            for (index, item) in pending.enumerated() {
                header += "\(item.number) \(body.output.count) "
                body.write(item.object)
                body.append("\n")
                entries.append((item.number, .compressed(objectStream: streamNumber, index: index)))
            }
            let first = header.utf8.count
            let data = Array(header.utf8) + body.output
            let stream = PDFStream(
                dictionary: [.type: .name(.objStm), .n: .integer(pending.count), .first: .integer(first)],
                data: data, compress: true)
            try writeObject(streamNumber, .stream(stream))
            pending.removeAll()
        }
        for (position, reference) in order.enumerated() {
            let number = position + 1
            let object = StructureRepair.normalized(
                renumber(document.object(reference)), isPage: pageReferences.contains(reference))
            if packed, object.streamValue == nil, number != encryptNumber {
                pending.append((number, object))
                if pending.count == 100 { try flushObjectStream() }
            } else {
                try writeObject(number, object)
            }
        }
        try flushObjectStream()

        var trailer = PDFDictionary()
        trailer[.root] = renumber(document.trailer[.root] ?? .null)
        // A catalog without a readable page tree gets an empty one, so the output is a valid document.
        if let rootNumber = trailer[.root]?.referenceValue?.number,
            document.resolve(document.catalog?[.pages] ?? .null).dictionaryValue == nil
        {
            let pagesNumber = nextNumber
            nextNumber += 1
            try writeObject(pagesNumber, StructureRepair.emptyPageTree)
            var catalog = renumber(document.catalog ?? PDFDictionary())
            catalog[.pages] = .reference(PDFReference(pagesNumber, 0))
            if let index = entries.firstIndex(where: { $0.number == rootNumber }) { entries.remove(at: index) }
            try writeObject(rootNumber, .dictionary(catalog))
        }
        if let info = document.trailer[.info] { trailer[.info] = renumber(info) }
        if keepEncryption, let encryptNumber { trailer[.encrypt] = .reference(PDFReference(encryptNumber, 0)) }
        let existingID = document.trailer.array(.id)?.first?.stringValue?.bytes
        let second =
            try options.write.deterministicID
            ? Digest.md5.hash(serializer.output) : options.write.randomBytes(16)
        // The first ID keys the encryption (§7.6.4.3), so it stays when the file stays encrypted.
        let first =
            keepEncryption ? (existingID ?? second) : (options.write.deterministicID ? second : existingID ?? second)
        trailer[.id] = .array([
            .string(PDFString(bytes: first, isHex: true)), .string(PDFString(bytes: second, isHex: true)),
        ])
        entries.sort { $0.number < $1.number }
        let xrefOffset = serializer.output.count
        if packed {
            trailer[.size] = .integer(nextNumber + 1)
            serializer.append(XRefWriter.stream(entries, trailer: trailer, number: nextNumber, at: xrefOffset))
        } else {
            trailer[.size] = .integer(nextNumber)
            serializer.append(XRefWriter.table(entries, trailer: trailer, at: xrefOffset))
        }
        return serializer.output
    }

    private func removingCryptFilter(_ dictionary: PDFDictionary) -> PDFDictionary {
        guard case .array(let filters)? = dictionary[.filter], filters.contains(.name(.crypt)) else {
            return dictionary
        }
        var result = dictionary
        var parameters = dictionary[.decodeParms]?.arrayValue
        var kept: [PDFObject] = []
        for (index, filter) in filters.enumerated() {
            if filter == .name(.crypt) {
                if parameters != nil, index < parameters!.count { parameters![index] = .null }
                continue
            }
            kept.append(filter)
        }
        result[.filter] = kept.isEmpty ? nil : .array(kept)
        if let parameters {
            let remaining = parameters.filter { !$0.isNull }
            result[.decodeParms] =
                remaining.isEmpty ? nil : .array(parameters.filter { _ in true }.filter { !$0.isNull })
        }
        return result
    }

    private func maxVersion(_ a: String, _ b: String) -> String {
        let left = a.split(separator: ".").compactMap { Int($0) }
        let right = b.split(separator: ".").compactMap { Int($0) }
        return left.lexicographicallyPrecedes(right) ? b : a
    }
}
