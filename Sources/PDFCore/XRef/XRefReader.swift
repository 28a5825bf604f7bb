/// Reads cross-reference sections (ISO 32000-2 §7.5.4, §7.5.8) and follows the `/Prev` chain.
package struct XRefReader {
    package let bytes: UnsafeRawBufferPointer
    package let source: ByteSource
    package let options: ParseOptions
    /// Decodes cross-reference streams within the document's budget (a fresh one when none is given).
    package let structure: StructureDecoder
    package var warnings: [PDFWarning] = []

    package init(source: ByteSource, options: ParseOptions, structure: StructureDecoder? = nil) {
        self.source = source
        self.bytes = source.buffer
        self.options = options
        self.structure = structure ?? StructureDecoder(options: options)
    }

    /// Reads the sections from `startxref` back through `/Prev`, newest first.
    /// - Returns: the sections read, and whether the chain ended cleanly.
    /// - Throws: when the newest section cannot be read (the caller then rebuilds the index).
    package mutating func readChain(from startxref: Int, headerOffset: Int) throws(PDFError) -> (
        sections: [XRefSection], complete: Bool
    ) {
        var sections: [XRefSection] = []
        var visited: Set<Int> = []
        var next: Int? = startxref
        var complete = true
        while let offset = next {
            guard sections.count < options.maxRevisions else {
                warnings.append(PDFWarning(.xrefInvalid, "more than \(options.maxRevisions) /Prev sections"))
                complete = false
                break
            }
            guard visited.insert(offset).inserted else {
                warnings.append(PDFWarning(.xrefInvalid, "loop in the /Prev chain", offset: offset))
                break
            }
            let section: XRefSection
            do {
                section = try readSection(at: offset, headerOffset: headerOffset)
            } catch {
                if sections.isEmpty { throw error }
                warnings.append(
                    PDFWarning(
                        .xrefInvalid, "previous cross-reference section unreadable: \(error.message)", offset: offset))
                complete = false
                break
            }
            sections.append(section)
            next = nil
            if let prev = section.trailer[.prev]?.intValue {
                next = prev
            } else if section.trailer[.prev] != nil {
                warnings.append(PDFWarning(.xrefInvalid, "/Prev is not an integer", offset: offset))
            }
        }
        return (sections, complete)
    }

    /// Reads the section at `offset` (or at `offset + headerOffset` when the file has junk before its header).
    package mutating func readSection(at offset: Int, headerOffset: Int) throws(PDFError) -> XRefSection {
        do {
            return try readSection(at: offset)
        } catch {
            guard headerOffset > 0 else { throw error }
            let section = try readSection(at: offset + headerOffset)
            warnings.append(
                PDFWarning(.xrefInvalid, "offsets are relative to the header at \(headerOffset)", offset: offset))
            // Its entries are relative to the header too: the index holds file offsets.
            let entries = section.entries.map { entry in
                if case .inFile(let offset, let generation) = entry {
                    return XRefEntry.inFile(offset: offset + headerOffset, generation: generation)
                }
                return entry
            }
            return XRefSection(
                offset: section.offset, form: section.form, trailer: section.trailer, end: section.end,
                numbers: section.numbers, entries: entries, hybridConflicts: section.hybridConflicts)
        }
    }

    private mutating func readSection(at offset: Int) throws(PDFError) -> XRefSection {
        guard offset >= 0, offset < bytes.count else {
            throw PDFError(.xref, "cross-reference offset \(offset) is outside the file")
        }
        var lexer = Lexer(bytes, at: offset)
        lexer.skipWhitespace()
        if lexer.hasKeyword("xref") {
            return try readTable(at: lexer.position)
        }
        if IndirectObjectParser.readHeader(bytes, at: offset) != nil {
            return try readStream(at: offset)
        }
        throw PDFError(.xref, "no cross-reference section", offset: offset)
    }

    // MARK: Tables

    private mutating func readTable(at offset: Int) throws(PDFError) -> XRefSection {
        var lexer = Lexer(bytes, at: offset + 4)
        var numbers: [Int] = []
        var entries: [XRefEntry] = []
        while true {
            lexer.skipWhitespace()
            if lexer.hasKeyword("trailer") || lexer.isAtEnd { break }
            let subsectionOffset = lexer.position
            guard var first = lexer.readUnsigned(), lexer.position < bytes.count else {
                throw PDFError(.xref, "bad cross-reference subsection header", offset: subsectionOffset)
            }
            skipSpaces(&lexer)
            guard let count = lexer.readUnsigned(), count <= options.maxObjectCount,
                first <= options.maxObjectCount
            else {
                throw PDFError(.xref, "bad cross-reference subsection header", offset: subsectionOffset)
            }
            numbers.reserveCapacity(numbers.count + min(count, bytes.count / 18))
            entries.reserveCapacity(entries.count + min(count, bytes.count / 18))
            let firstIndex = numbers.count
            for index in 0..<count {
                lexer.skipWhitespace()
                let entryOffset = lexer.position
                guard let position = lexer.readUnsigned() else {
                    throw PDFError(.xref, "bad cross-reference entry", offset: entryOffset)
                }
                skipSpaces(&lexer)
                guard let generation = lexer.readUnsigned() else {
                    throw PDFError(.xref, "bad cross-reference entry", offset: entryOffset)
                }
                skipSpaces(&lexer)
                let type = lexer.byte(at: lexer.position)
                lexer.position += 1
                numbers.append(first + index)
                switch type {
                case UInt8(ascii: "n"): entries.append(.inFile(offset: position, generation: generation))
                case UInt8(ascii: "f"): entries.append(.free(generation: generation))
                default: throw PDFError(.xref, "bad cross-reference entry type", offset: entryOffset)
                }
            }
            // A common off-by-one: a table starting at 1 whose first entry is the head of the free list.
            if first == 1, count > 0, entries[firstIndex] == .free(generation: 65535) {
                warnings.append(
                    PDFWarning(.xrefEntryInvalid, "subsection starts at 1; read as 0", offset: subsectionOffset))
                first = 0
                for index in 0..<count { numbers[firstIndex + index] = index }
            }
        }
        guard lexer.hasKeyword("trailer") else {
            throw PDFError(.xref, "cross-reference table has no trailer", offset: offset)
        }
        var parser = ObjectParser(bytes, at: lexer.position + 7, maxDepth: options.maxNestingDepth)
        guard case .dictionary(let trailer) = try parser.parseObject() else {
            throw PDFError(.xref, "trailer is not a dictionary", offset: lexer.position)
        }
        warnings.append(contentsOf: parser.warnings)
        var end = parser.lexer.position
        var form = XRefSection.Form.table
        var conflicts: [Int] = []
        // Hybrid file (§7.5.8.4): the stream's entries fill the numbers the table leaves free or absent.
        if let streamOffset = trailer[.xRefStm]?.intValue {
            do {
                let stream = try readStream(at: streamOffset)
                var position: [Int: Int] = [:]
                for (index, number) in numbers.enumerated() { position[number] = index }
                for (number, entry) in zip(stream.numbers, stream.entries) {
                    if let index = position[number] {
                        if case .inFile = entries[index] {
                            if entry != entries[index], entry.isInUse { conflicts.append(number) }
                            continue
                        }
                        entries[index] = entry
                    } else {
                        position[number] = numbers.count
                        numbers.append(number)
                        entries.append(entry)
                    }
                }
                form = .hybrid
                end = max(end, stream.end)
            } catch {
                warnings.append(PDFWarning(.xrefInvalid, "/XRefStm unreadable: \(error.message)", offset: streamOffset))
            }
        }
        return XRefSection(
            offset: offset, form: form, trailer: trailer, end: end, numbers: numbers, entries: entries,
            hybridConflicts: conflicts)
    }

    private func skipSpaces(_ lexer: inout Lexer) {
        while let byte = lexer.byte(at: lexer.position), byte == 0x20 || byte == 0x09 { lexer.position += 1 }
        // Some writers put line breaks inside entries; accept any white space.
        lexer.skipWhitespace()
    }

    // MARK: Streams

    private mutating func readStream(at offset: Int) throws(PDFError) -> XRefSection {
        let parsed = try IndirectObjectParser.parse(bytes, at: offset, maxDepth: options.maxNestingDepth) { _ in nil }
        warnings.append(contentsOf: parsed.warnings)
        guard case .dictionary(let dictionary) = parsed.object, let dataRange = parsed.streamData else {
            throw PDFError(.xref, "cross-reference stream expected", offset: offset)
        }
        if dictionary.name(.type) != .xRef {
            warnings.append(PDFWarning(.xrefInvalid, "cross-reference stream without /Type /XRef", offset: offset))
        }
        guard let widths = dictionary.array(.w)?.compactMap(\.intValue), widths.count >= 3,
            widths.allSatisfy({ $0 >= 0 && $0 <= 8 })
        else {
            throw PDFError(.xref, "cross-reference stream has a bad /W", offset: offset)
        }
        let size = dictionary.int(.size) ?? 0
        var ranges: [(Int, Int)] = []
        if let index = dictionary.array(.index)?.compactMap(\.intValue), index.count >= 2 {
            for pair in stride(from: 0, to: index.count - 1, by: 2) { ranges.append((index[pair], index[pair + 1])) }
        } else {
            ranges = [(0, size)]
        }
        let rowLength = widths[0] + widths[1] + widths[2]
        guard rowLength > 0 else { throw PDFError(.xref, "cross-reference stream has empty rows", offset: offset) }
        // Only the rows /Index (or /Size) declares are decoded: more data is never read.
        let rowCap = Int.max / 64
        let declaredRows = ranges.reduce(0) { total, range in min(rowCap, total + max(0, min(range.1, rowCap))) }
        let declaredBytes = declaredRows * rowLength
        let storage = StreamStorage(
            kind: .file(source, dataRange, nil), filters: StreamStorage.filters(in: dictionary),
            maxDecodedSize: options.maxDecodedStreamSize)
        let decoded = try structure.decode(
            storage, prefix: max(declaredBytes, StructureDecoder.minimumPrefix), object: parsed.reference,
            offset: offset)
        var data = decoded.data
        if !decoded.complete, data.count > declaredBytes { data.removeSubrange(declaredBytes...) }
        var numbers: [Int] = []
        var entries: [XRefEntry] = []
        let rows = data.count / rowLength
        numbers.reserveCapacity(rows)
        entries.reserveCapacity(rows)
        var row = 0
        var reserved = 0
        let declared = ranges.reduce(0) { total, range in total + max(0, min(range.1, data.count)) }
        if data.count % rowLength != 0 || rows < declared {
            // Rows missing or a ragged end: the data is not what /W and /Index describe (a damaged
            // /Filter gives the compressed bytes, say), so its entries cannot be trusted as read.
            warnings.append(
                PDFWarning(
                    .xrefInvalid,
                    "cross-reference stream data is \(data.count) bytes for \(declared) rows of \(rowLength)",
                    offset: offset))
        }
        data.withUnsafeBufferPointer { data in
            func field(_ start: Int, _ width: Int) -> Int {
                var value = 0
                for index in 0..<width { value = value << 8 | Int(data[start + index]) }
                return value
            }
            outer: for (first, count) in ranges {
                guard first >= 0, count >= 0, first <= options.maxObjectCount else { continue }
                for index in 0..<count {
                    guard row < rows else { break outer }
                    let base = row * rowLength
                    row += 1
                    let type = widths[0] == 0 ? 1 : field(base, widths[0])
                    let second = field(base + widths[0], widths[1])
                    let third = field(base + widths[0] + widths[1], widths[2])
                    let entry: XRefEntry
                    switch type {
                    case 0: entry = .free(generation: third)
                    case 1: entry = .inFile(offset: second, generation: third)
                    case 2: entry = .compressed(objectStream: second, index: third)
                    default:
                        // Reserved types are ignored (§7.5.8.3), and counted.
                        reserved += 1
                        continue
                    }
                    numbers.append(first + index)
                    entries.append(entry)
                }
            }
        }
        if reserved > 0 {
            warnings.append(
                PDFWarning(
                    .xrefInvalid, "cross-reference stream has \(reserved) entries of a reserved type", offset: offset))
        }
        return XRefSection(
            offset: offset, form: .stream, trailer: dictionary, end: parsed.range.upperBound, numbers: numbers,
            entries: entries)
    }
}
