/// Rebuilds the cross-reference index by scanning the whole file, as qpdf and pdf.js do when
/// `startxref` or a section is unusable: every `n g obj` header, every trailer, and the entries of
/// cross-reference and object streams (for objects that live only there).
package struct XRefRecovery {
    package let bytes: UnsafeRawBufferPointer
    package let source: ByteSource
    package let options: ParseOptions
    /// Decodes the cross-reference and object streams found within the document's budget.
    package let structure: StructureDecoder
    package var warnings: [PDFWarning] = []

    package init(source: ByteSource, options: ParseOptions, structure: StructureDecoder? = nil) {
        self.source = source
        self.bytes = source.buffer
        self.options = options
        self.structure = structure ?? StructureDecoder(options: options)
    }

    /// Every `n g obj` in the file: the last definition of a number wins, as in an incremental file.
    package func scanObjectHeaders() -> [Int: (offset: Int, generation: Int)] {
        var found: [Int: (offset: Int, generation: Int)] = [:]
        var searchFrom = 0
        while let hit = IndirectObjectParser.search(bytes, for: "obj", from: searchFrom) {
            searchFrom = hit + 3
            if hit + 3 < bytes.count, Lexer.isRegular(bytes[hit + 3]) { continue }
            // Walk back over white space, the generation, white space and the number.
            var index = hit - 1
            guard index >= 0, Lexer.isWhitespace(bytes[index]) || bytes[index] == 0x30 else { continue }
            while index >= 0, Lexer.isWhitespace(bytes[index]) { index -= 1 }
            let generationEnd = index + 1
            while index >= 0, Lexer.isDigit(bytes[index]) { index -= 1 }
            let generationStart = index + 1
            guard generationStart < generationEnd, generationEnd - generationStart <= 5,
                index >= 0, Lexer.isWhitespace(bytes[index])
            else { continue }
            while index >= 0, Lexer.isWhitespace(bytes[index]) { index -= 1 }
            let numberEnd = index + 1
            while index >= 0, Lexer.isDigit(bytes[index]) { index -= 1 }
            let numberStart = index + 1
            guard numberStart < numberEnd, numberEnd - numberStart <= 10 else { continue }
            if index >= 0, Lexer.isRegular(bytes[index]) { continue }
            var lexer = Lexer(bytes, at: numberStart)
            guard let number = lexer.readUnsigned(), number > 0, number <= options.maxObjectCount else { continue }
            lexer = Lexer(bytes, at: generationStart)
            guard let generation = lexer.readUnsigned(), generation <= 65535 else { continue }
            found[number] = (numberStart, generation)
        }
        return found
    }

    /// Scans the file and returns one recovered section holding every object found.
    package mutating func recover() throws(PDFError) -> XRefSection {
        let headers = scanObjectHeaders()
        var entries: [Int: XRefEntry] = [:]
        for (number, header) in headers {
            entries[number] = .inFile(offset: header.offset, generation: header.generation)
        }
        let sortedOffsets = headers.map { ($0.value.offset, $0.key) }.sorted { $0.0 < $1.0 }

        // Trailers: merge them oldest to newest so the last one in the file wins.
        var trailer = PDFDictionary()
        var searchFrom = 0
        while let hit = IndirectObjectParser.search(bytes, for: "trailer", from: searchFrom) {
            searchFrom = hit + 7
            var parser = ObjectParser(bytes, at: hit + 7, maxDepth: options.maxNestingDepth)
            guard case .dictionary(let dictionary)? = try? parser.parseObject() else { continue }
            for entry in dictionary where entry.key != .prev && entry.key != .xRefStm {
                trailer[entry.key] = entry.value
            }
        }

        // Objects in object streams, found through the streams that list them.
        func containingObject(_ offset: Int) -> (offset: Int, number: Int)? {
            var low = 0
            var high = sortedOffsets.count - 1
            var best: (Int, Int)? = nil
            while low <= high {
                let middle = (low + high) / 2
                if sortedOffsets[middle].0 <= offset {
                    best = sortedOffsets[middle]
                    low = middle + 1
                } else {
                    high = middle - 1
                }
            }
            return best.map { (offset: $0.0, number: $0.1) }
        }
        var streamsSeen: Set<Int> = []
        for marker: StaticString in ["/XRef", "/ObjStm"] {
            searchFrom = 0
            while let hit = IndirectObjectParser.search(bytes, for: marker, from: searchFrom) {
                searchFrom = hit + marker.utf8CodeUnitCount
                guard let container = containingObject(hit), streamsSeen.insert(container.offset).inserted,
                    let parsed = try? IndirectObjectParser.parse(
                        bytes, at: container.offset, maxDepth: options.maxNestingDepth, length: { _ in nil }),
                    case .dictionary(let dictionary) = parsed.object, let data = parsed.streamData
                else { continue }
                if dictionary.name(.type) == .xRef {
                    var reader = XRefReader(source: source, options: options, structure: structure)
                    if let section = try? reader.readSection(at: container.offset, headerOffset: 0) {
                        for (number, entry) in zip(section.numbers, section.entries) {
                            if case .compressed = entry, entries[number] == nil { entries[number] = entry }
                        }
                        for entry in dictionary
                        where [.root, .info, .id, .encrypt].contains(entry.key) && trailer[entry.key] == nil {
                            trailer[entry.key] = entry.value
                        }
                    }
                } else if dictionary.name(.type) == .objStm, trailer[.encrypt] == nil {
                    // Unencrypted object streams can be listed directly; encrypted ones need the key
                    // and are reached through a recovered cross-reference stream instead.
                    // Only the header is needed: the stream is decoded that far (and kept for the objects).
                    let storage = StreamStorage(
                        kind: .file(source, data, nil), filters: StreamStorage.filters(in: dictionary),
                        maxDecodedSize: options.maxDecodedStreamSize)
                    guard let count = dictionary.int(.n), count > 0,
                        let contents = try? structure.objectStream(
                            PDFStream(dictionary: dictionary, storage: storage), reference: parsed.reference, atLeast: 0
                        )
                    else { continue }
                    let list = contents.objects
                    for (index, item) in list.enumerated() where entries[item.number] == nil {
                        entries[item.number] = .compressed(objectStream: container.number, index: index)
                    }
                }
            }
        }

        // No trailer naming a catalog (or a /Root cut short): look for one.
        if trailer[.root]?.referenceValue.flatMap({ entries[$0.number] }) == nil {
            trailer[.root] = nil
            searchFrom = 0
            while let hit = IndirectObjectParser.search(bytes, for: "/Catalog", from: searchFrom) {
                searchFrom = hit + 8
                guard let container = containingObject(hit),
                    let parsed = try? IndirectObjectParser.parse(
                        bytes, at: container.offset, maxDepth: options.maxNestingDepth, length: { _ in nil }),
                    parsed.object.dictionaryValue?.name(.type) == .catalog
                else { continue }
                trailer[.root] = .reference(parsed.reference)
            }
        }
        guard !entries.isEmpty else { throw PDFError(.notAPDF, "no objects found in the file") }
        let numbers = entries.keys.sorted()
        trailer[.size] = .integer((numbers.last ?? 0) + 1)
        warnings.append(PDFWarning(.xrefRebuilt, "cross-reference index rebuilt from \(numbers.count) objects"))
        return XRefSection(
            offset: 0, form: .recovered, trailer: trailer, end: bytes.count, numbers: numbers,
            entries: numbers.map { entries[$0]! })
    }
}

/// The header of an object stream (§7.5.7): pairs of object number and offset.
package enum ObjectStreamIndex {
    package static func readHeader(_ bytes: UnsafeRawBufferPointer, count: Int) -> [(number: Int, offset: Int)] {
        var lexer = Lexer(bytes)
        var result: [(number: Int, offset: Int)] = []
        result.reserveCapacity(min(count, bytes.count / 4))
        for _ in 0..<count {
            lexer.skipWhitespace()
            guard let number = lexer.readUnsigned() else { break }
            lexer.skipWhitespace()
            guard let offset = lexer.readUnsigned() else { break }
            result.append((number, offset))
        }
        return result
    }
}
