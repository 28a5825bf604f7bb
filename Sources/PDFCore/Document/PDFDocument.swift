import Synchronization

/// A PDF document read from a file or from bytes: an immutable snapshot that resolves objects on
/// demand (ISO 32000-2 §7.5).
///
/// Opening reads the header, `startxref` and the cross-reference chain only; objects are parsed,
/// decrypted and cached the first time they are resolved. Damage is repaired with warnings
/// (``warnings``); a document can be read from many tasks at once.
public final class PDFDocument: Sendable {
    package let source: ByteSource
    /// The options the document was opened with.
    public let options: ParseOptions
    /// The version in the header (`%PDF-1.7` → "1.7"); "" when the header is missing.
    public let headerVersion: String
    /// Where `%PDF-` starts (0 unless junk precedes it).
    public let headerOffset: Int
    /// The revisions, oldest first. A recovered file has one revision of form `.recovered`.
    public let revisions: [Revision]
    /// The trailer in force: the newest trailer, completed with older ones' `/Root`, `/Info`,
    /// `/ID` and `/Encrypt` when it lacks them.
    public let trailer: PDFDictionary
    /// True when the cross-reference index was rebuilt by scanning the file.
    public let wasRecovered: Bool
    package let index: XRefIndex
    package let security: SecurityHandler?
    /// Decodes the cross-reference and object streams within ``ParseOptions/maxDecodedStructureSize``.
    package let structure: StructureDecoder
    let state: Mutex<State>

    struct State: ~Copyable {
        var cache: [PDFReference: CachedObject] = [:]
        /// The first object stream refused for passing a limit: the reason opening fails when the catalog was
        /// in it.
        var limitError: PDFError? = nil
        var warnings: [PDFWarning] = []
        var droppedWarnings = 0
        /// Objects whose reading needed a repair (a warning naming them).
        var damaged: Set<PDFReference> = []
        var scannedHeaders: [Int: (offset: Int, generation: Int)]? = nil
        var pages: [Page]? = nil
    }

    /// Opens the file at `path`, memory-mapped.
    /// - Throws: `PDFError` `.fileUnreadable`, `.notAPDF`, `.damaged`, `.passwordRequired`,
    ///   `.wrongPassword`, `.unsupported`.
    public convenience init(contentsOfFile path: String, options: ParseOptions = .default) throws(PDFError) {
        try self.init(source: ByteSource(contentsOfFile: path), options: options)
    }

    /// Opens a document held in memory.
    public convenience init(bytes: some Collection<UInt8>, options: ParseOptions = .default) throws(PDFError) {
        try self.init(source: ByteSource(bytes: bytes), options: options)
    }

    /// - Parameter knownSections: the cross-reference sections, newest first, when they were read
    ///   already (a document as of an earlier revision of a file just opened): not read again.
    package init(source: ByteSource, options: ParseOptions, knownSections: [XRefSection]? = nil) throws(PDFError) {
        self.source = source
        self.options = options
        let bytes = source.buffer
        var warnings: [PDFWarning] = []
        let structure = StructureDecoder(options: options)

        // Header (§7.5.2): accept junk before it, as readers do.
        let header = PDFDocument.findHeader(bytes)
        headerOffset = header?.offset ?? 0
        headerVersion = header?.version ?? ""
        if header == nil {
            warnings.append(PDFWarning(.headerMissing, "no %PDF- header"))
            guard IndirectObjectParser.search(bytes, for: "obj", from: 0) != nil else {
                throw PDFError(.notAPDF, "not a PDF: no header and no objects")
            }
        } else if headerOffset > 0 {
            warnings.append(PDFWarning(.headerMissing, "\(headerOffset) bytes before the %PDF- header"))
        }

        // Cross-reference chain, or a rebuilt index when it is unusable.
        var sections: [XRefSection] = []
        var complete = false
        if let knownSections {
            sections = knownSections
            complete = true
        } else {
            var reader = XRefReader(source: source, options: options, structure: structure)
            if let startxref = PDFDocument.findStartxref(bytes) {
                do {
                    (sections, complete) = try reader.readChain(from: startxref, headerOffset: headerOffset)
                } catch {
                    warnings.append(PDFWarning(.startxrefInvalid, "startxref \(startxref): \(error.message)"))
                }
            } else {
                warnings.append(PDFWarning(.startxrefInvalid, "no startxref"))
            }
            warnings.append(contentsOf: reader.warnings)
        }

        var recovered = false
        var (index, trailer) = PDFDocument.merge(sections, options: options, size: bytes.count)
        var security: SecurityHandler? = nil
        if !sections.isEmpty, trailer[.root] != nil {
            security = try PDFDocument.openSecurity(trailer, index: index, source: source, options: options)
        }
        var catalogReadable = false
        if !sections.isEmpty {
            catalogReadable = try PDFDocument.catalogReadable(
                trailer, index: index, source: source, options: options, security: security, structure: structure)
        }
        if !catalogReadable {
            if options.strict {
                throw PDFError(.damaged, warnings.last?.message ?? "the document catalog cannot be read")
            }
            if !sections.isEmpty {
                warnings.append(PDFWarning(.xrefInvalid, "the catalog is not where the cross-reference says"))
            }
            var recovery = XRefRecovery(source: source, options: options, structure: structure)
            let section = try recovery.recover()
            warnings.append(contentsOf: recovery.warnings)
            // Keep the trailer keys of readable sections when the scan found none.
            var merged = section.trailer
            for entry in trailer where merged[entry.key] == nil { merged[entry.key] = entry.value }
            sections = [
                XRefSection(
                    offset: section.offset, form: .recovered, trailer: merged, end: section.end,
                    numbers: section.numbers, entries: section.entries)
            ]
            (index, trailer) = PDFDocument.merge(sections, options: options, size: bytes.count)
            security = try PDFDocument.openSecurity(trailer, index: index, source: source, options: options)
            recovered = true
            complete = true
        }
        if !complete {
            warnings.append(PDFWarning(.xrefInvalid, "cross-reference chain incomplete; missing objects are searched"))
        }
        if let lengthWarning = security?.lengthWarning { warnings.append(PDFWarning(.encryption, lengthWarning)) }

        self.index = index
        self.revisions =
            recovered
            ? [Revision(index: 0, sections: sections, startxref: 0, endOffset: bytes.count)]
            : Revision.group(sections, in: bytes)
        self.trailer = trailer
        self.wasRecovered = recovered
        self.security = security
        self.structure = structure
        self.incomplete = !complete
        var state = State()
        state.warnings = Array(warnings.prefix(options.maxWarnings))
        state.droppedWarnings = max(0, warnings.count - options.maxWarnings)
        self.state = Mutex(state)

        if options.strict, let first = warnings.first {
            throw PDFError(.damaged, first.message, offset: first.offset, object: first.object)
        }
        guard catalog != nil else {
            if let limit = self.state.withLock({ $0.limitError }) { throw limit }
            throw PDFError(.damaged, "the document catalog (/Root) cannot be read")
        }
    }

    /// True when the `/Prev` chain broke: objects not in the index are then looked up by scanning.
    package let incomplete: Bool

    /// The warnings gathered so far (opening, and every object resolved since).
    public var warnings: [PDFWarning] {
        state.withLock { state in
            var result = state.warnings
            if state.droppedWarnings > 0 {
                result.append(PDFWarning(.tooManyWarnings, "\(state.droppedWarnings) more warnings not kept"))
            }
            return result
        }
    }

    package func warn(_ warning: PDFWarning) {
        state.withLock { state in
            if let object = warning.object { state.damaged.insert(object) }
            if state.warnings.count < options.maxWarnings {
                state.warnings.append(warning)
            } else {
                state.droppedWarnings += 1
            }
        }
    }

    package func warn(_ warnings: [PDFWarning]) {
        for warning in warnings { warn(warning) }
    }

    /// The objects whose reading needed a repair so far (every object, after ``resolveAllObjects()``).
    public var damagedObjects: Set<PDFReference> { state.withLock { $0.damaged } }

    /// True when reading the document needed any repair so far.
    public var isDamaged: Bool { wasRecovered || incomplete || !warnings.isEmpty }

    /// Resolves every object in the cross-reference index, so that all damage is known (and cached).
    /// - Returns: the number of objects resolved.
    @discardableResult
    public func resolveAllObjects() -> Int {
        let references = objectReferences
        for reference in references { _ = object(reference) }
        return references.count
    }

    /// The size of the file in bytes.
    public var fileSize: Int { source.count }

    /// The raw bytes of the file in `range` (for validators that hash byte ranges).
    public func bytes(in range: Range<Int>) -> [UInt8] { source.bytes(in: range) }

    /// Calls `body` with `range` of the file in chunks, giving each chunk's memory back once read
    /// (streamed hashing and copying: memory does not grow with the file).
    public func forEachChunk(in range: Range<Int>, _ body: (UnsafeRawBufferPointer) throws -> Void) rethrows {
        try source.forEachChunk(in: range, body)
    }

    /// Calls `body` with the whole file's bytes, without copying them.
    public func withBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try body(source.buffer)
    }

    /// The encryption of the document, or nil when it is not encrypted.
    public var encryption: EncryptionInfo? { security?.info }

    /// The document catalog (§7.7.2).
    public var catalog: PDFDictionary? { resolve(trailer[.root] ?? .null).dictionaryValue }

    /// The document information dictionary (§14.3.3).
    public var info: PDFDictionary? { resolve(trailer[.info] ?? .null).dictionaryValue }

    /// The version in force: the catalog's `/Version` when later than the header's (§7.2.2).
    public var version: String {
        if let catalogVersion = catalog?.name(.version)?.string,
            catalogVersion.split(separator: ".").compactMap({ Int($0) })
                .lexicographicallyPrecedes(headerVersion.split(separator: ".").compactMap({ Int($0) })) == false
        {
            return catalogVersion
        }
        return headerVersion
    }

    /// Every object number the index holds an in-use entry for, ascending, as references.
    public var objectReferences: [PDFReference] {
        index.numbers.compactMap { number in
            switch index[number] {
            case .inFile(_, let generation)?: PDFReference(number, generation)
            case .compressed?: PDFReference(number, 0)
            default: nil
            }
        }
    }

    /// One more than the highest object number in use (the trailer's `/Size` when larger).
    public var objectCount: Int { max(index.size, trailer.int(.size) ?? 0) }

    /// The document as it was at the end of revision `revision` (0 = the original): the prefix of
    /// the file up to that revision's `%%EOF`, opened with the same options.
    public func document(asOfRevision revision: Int) throws(PDFError) -> PDFDocument {
        guard revisions.indices.contains(revision) else {
            throw PDFError(.invalidArgument, "revision \(revision) does not exist (\(revisions.count) revisions)")
        }
        // The sections of revisions 0 … `revision` were read when this document was opened.
        let known = wasRecovered ? nil : Array(revisions[0...revision].reversed().flatMap(\.sections))
        return try PDFDocument(
            source: source.prefix(revisions[revision].endOffset), options: options, knownSections: known)
    }

    // MARK: Opening helpers

    /// The `%PDF-` header: in the first 1024 bytes as §7.5.2 allows, or after more junk (a mail
    /// or a download wrapper) as long as it is followed by a version, within the first MiB.
    static func findHeader(_ bytes: UnsafeRawBufferPointer) -> (offset: Int, version: String)? {
        func search(_ limit: Int, from start: Int) -> Int? {
            IndirectObjectParser.search(
                UnsafeRawBufferPointer(rebasing: bytes[0..<min(bytes.count, limit)]), for: "%PDF-", from: start)
        }
        var found = search(1024, from: 0)
        var start = 1024 - 5
        while found == nil, start < min(bytes.count, 1 << 20), let candidate = search(1 << 20, from: max(0, start)) {
            // Far from the start, only a header with a version counts ("%PDF-1.7").
            if candidate + 7 < bytes.count, Lexer.isDigit(bytes[candidate + 5]),
                bytes[candidate + 6] == UInt8(ascii: "."),
                Lexer.isDigit(bytes[candidate + 7])
            {
                found = candidate
            }
            start = candidate + 1
        }
        guard let offset = found else { return nil }
        var end = offset + 5
        while end < bytes.count, end < offset + 12,
            Lexer.isDigit(bytes[end]) || bytes[end] == UInt8(ascii: ".")
        {
            end += 1
        }
        return (offset, String(decoding: UnsafeRawBufferPointer(rebasing: bytes[(offset + 5)..<end]), as: UTF8.self))
    }

    /// The offset after the last `startxref` keyword (§7.5.5).
    static func findStartxref(_ bytes: UnsafeRawBufferPointer) -> Int? {
        guard let keyword = IndirectObjectParser.searchBackward(bytes, for: "startxref", before: bytes.count) else {
            return nil
        }
        var lexer = Lexer(bytes, at: keyword + 9)
        lexer.skipWhitespace()
        return lexer.readUnsigned()
    }

    /// Merges sections (newest first) into one index and one trailer.
    private static func merge(
        _ sections: [XRefSection], options: ParseOptions, size: Int
    ) -> (XRefIndex, PDFDictionary) {
        var index = XRefIndex(denseLimit: min(options.maxObjectCount, max(1024, size / 8)))
        var trailer = PDFDictionary()
        for section in sections {
            for (number, entry) in zip(section.numbers, section.entries) where number <= options.maxObjectCount {
                index.addIfAbsent(number, entry)
            }
            for entry in section.trailer
            where [.root, .info, .id, .encrypt, .size].contains(entry.key) && trailer[entry.key] == nil {
                trailer[entry.key] = entry.value
            }
        }
        return (index, trailer)
    }

    /// The security handler of an encrypted document (§7.6), or nil.
    private static func openSecurity(
        _ trailer: PDFDictionary, index: XRefIndex, source: ByteSource, options: ParseOptions
    ) throws(PDFError) -> SecurityHandler? {
        guard let encryptObject = trailer[.encrypt] else { return nil }
        var dictionary = encryptObject.dictionaryValue
        if case .reference(let reference) = encryptObject {
            dictionary = loadUnencrypted(reference, index: index, source: source, options: options)
        }
        guard let dictionary else { throw PDFError(.damaged, "the /Encrypt dictionary cannot be read") }
        let fileID = trailer.array(.id)?.first?.stringValue?.bytes ?? []
        return try SecurityHandler(dictionary: dictionary, fileID: fileID, password: options.password)
    }

    /// True when `/Root` names a dictionary that can be read where the index says.
    /// - Throws: `.limitExceeded` when the catalog is in an object stream that passes a limit (the file is
    ///   not damaged, and rebuilding its index would not help).
    private static func catalogReadable(
        _ trailer: PDFDictionary, index: XRefIndex, source: ByteSource, options: ParseOptions,
        security: SecurityHandler?, structure: StructureDecoder
    ) throws(PDFError) -> Bool {
        guard let root = trailer[.root] else { return false }
        guard case .reference(let reference) = root else { return root.dictionaryValue != nil }
        let loader = ObjectLoader(
            source: source, index: index, security: security, options: options,
            encryptReference: trailer.reference(.encrypt), structure: structure)
        switch index[reference.number] {
        case .inFile(let offset, let generation)?:
            guard generation == reference.generation else { return false }
            return loader.loadInFile(reference, at: offset, length: { _ in nil })?.object.dictionaryValue != nil
        case .compressed(let streamNumber, let position)?:
            guard case .inFile(let offset, let generation)? = index[streamNumber] else { return false }
            let streamReference = PDFReference(streamNumber, generation)
            guard let stream = loader.loadInFile(streamReference, at: offset, length: { _ in nil })?.object.streamValue
            else { return false }
            do {
                return try loader.loadCompressed(
                    reference, position: position, from: stream, streamReference: streamReference)?.object
                    .dictionaryValue != nil
            } catch {
                if error.code == .limitExceeded { throw error }
                return false
            }
        default:
            return false
        }
    }

    /// Reads an object without decryption (the `/Encrypt` dictionary, before the key is known).
    private static func loadUnencrypted(
        _ reference: PDFReference, index: XRefIndex, source: ByteSource, options: ParseOptions
    ) -> PDFDictionary? {
        guard case .inFile(let offset, _)? = index[reference.number] else { return nil }
        let parsed = try? IndirectObjectParser.parse(
            source.buffer, at: offset, maxDepth: options.maxNestingDepth, length: { _ in nil })
        return parsed?.object.dictionaryValue
    }
}
