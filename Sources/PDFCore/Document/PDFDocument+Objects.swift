import Synchronization

/// An indirect object with where it is in the file.
public struct IndirectObject: Sendable {
    /// The object's number and generation.
    public var reference: PDFReference
    /// The object as read (`.null` when it is free, missing or unreadable).
    public var object: PDFObject
    /// From `n g obj` to the end of `endobj`; nil for objects inside object streams.
    public var range: Range<Int>?
}

extension PDFDocument {
    /// The object `reference` names; `.null` when it is free, missing or unreadable (with a warning),
    /// as ISO 32000-2 §7.3.10 prescribes for references to missing objects.
    public func object(_ reference: PDFReference) -> PDFObject {
        load(reference, depth: 0).object
    }

    /// The object `reference` names, with its byte range in the file.
    public func indirectObject(_ reference: PDFReference) -> IndirectObject {
        let loaded = load(reference, depth: 0)
        return IndirectObject(reference: reference, object: loaded.object, range: loaded.range)
    }

    /// Follows references until a direct object (at most 32 hops; a longer chain or a cycle is null).
    public func resolve(_ object: PDFObject) -> PDFObject {
        var current = object
        var hops = 0
        while case .reference(let reference) = current {
            hops += 1
            if hops > 32 {
                warn(PDFWarning(.objectInvalid, "reference chain longer than 32 or cyclic", object: reference))
                return .null
            }
            current = self.object(reference)
        }
        return current
    }

    /// The resolved value of `key` in `dictionary`.
    public func resolve(_ dictionary: PDFDictionary, _ key: PDFName) -> PDFObject? {
        guard let value = dictionary[key] else { return nil }
        let resolved = resolve(value)
        return resolved.isNull ? nil : resolved
    }

    package var loader: ObjectLoader {
        ObjectLoader(
            source: source, index: index, security: security, options: options,
            encryptReference: trailer.reference(.encrypt), structure: structure)
    }

    private func load(_ reference: PDFReference, depth: Int) -> (object: PDFObject, range: Range<Int>?) {
        if let cached = cachedObject(reference) { return cached }
        guard depth < 16 else {
            warn(PDFWarning(.objectInvalid, "objects depend on each other too deeply (cycle?)", object: reference))
            return (.null, nil)
        }
        let loader = self.loader
        let length: (PDFReference) -> Int? = { [self] lengthReference in
            self.load(lengthReference, depth: depth + 1).object.intValue
        }
        var loaded: ObjectLoader.Loaded? = nil
        switch index[reference.number] {
        case .inFile(let offset, let generation)?:
            guard generation == reference.generation else {
                warn(PDFWarning(.objectInvalid, "no object with generation \(reference.generation)", object: reference))
                return store(reference, (.null, nil))
            }
            loaded = loader.loadInFile(reference, at: offset, length: length)
            if loaded == nil {
                warn(
                    PDFWarning(
                        .objectOffsetInvalid, "object not found at its cross-reference offset", offset: offset,
                        object: reference))
                loaded = loadFromScan(reference, length: length)
            }
        case .compressed(let streamNumber, let position)?:
            guard reference.generation == 0 else { return store(reference, (.null, nil)) }
            if let (stream, streamReference) = objectStream(streamNumber, depth: depth) {
                do {
                    loaded = try loader.loadCompressed(
                        reference, position: position, from: stream, streamReference: streamReference)
                } catch {
                    if error.code == .limitExceeded { state.withLock { $0.limitError = $0.limitError ?? error } }
                    warn(
                        PDFWarning(
                            .objectStreamInvalid, "object stream unreadable: \(error.message)", object: streamReference)
                    )
                }
            }
            if loaded == nil {
                warn(
                    PDFWarning(
                        .objectStreamInvalid, "object not found in object stream \(streamNumber)", object: reference))
                loaded = loadFromScan(reference, length: length)
            }
        case .free?:
            return store(reference, (.null, nil))
        case nil:
            if incomplete { loaded = loadFromScan(reference, length: length) }
        }
        guard let loaded else { return store(reference, (.null, nil)) }
        warn(loaded.warnings)
        return store(reference, (loaded.object, loaded.range))
    }

    /// Object stream `number` (its dictionary and undecoded data, cached as any object), or nil with a warning.
    private func objectStream(_ number: Int, depth: Int) -> (PDFStream, PDFReference)? {
        guard case .inFile(_, let generation)? = index[number] else {
            warn(
                PDFWarning(
                    .objectStreamInvalid, "object stream \(number) is not a plain object", object: PDFReference(number))
            )
            return nil
        }
        let reference = PDFReference(number, generation)
        guard let stream = load(reference, depth: depth + 1).object.streamValue else {
            warn(PDFWarning(.objectStreamInvalid, "object stream \(number) is not a stream", object: reference))
            return nil
        }
        return (stream, reference)
    }

    /// Looks `reference` up by scanning the file for `n g obj` headers (done once, on first need).
    private func loadFromScan(_ reference: PDFReference, length: (PDFReference) -> Int?) -> ObjectLoader.Loaded? {
        let headers = scannedObjectHeaders()
        guard let header = headers[reference.number], header.generation == reference.generation else { return nil }
        return loader.loadInFile(reference, at: header.offset, length: length)
    }

    /// The `n g obj` headers found by scanning the whole file, computed once.
    package func scannedObjectHeaders() -> [Int: (offset: Int, generation: Int)] {
        if let cached = state.withLock({ $0.scannedHeaders }) { return cached }
        let scanned = XRefRecovery(source: source, options: options).scanObjectHeaders()
        state.withLock { $0.scannedHeaders = scanned }
        return scanned
    }

    private func cachedObject(_ reference: PDFReference) -> (object: PDFObject, range: Range<Int>?)? {
        state.withLock { state in state.cache[reference].map { ($0.object, $0.range) } }
    }

    private func store(
        _ reference: PDFReference, _ value: (object: PDFObject, range: Range<Int>?)
    ) -> (object: PDFObject, range: Range<Int>?) {
        state.withLock { $0.cache[reference] = CachedObject(object: value.object, range: value.range) }
        return value
    }
}

package struct CachedObject: Sendable {
    var object: PDFObject
    var range: Range<Int>?
}

extension PDFDocument {
    /// Every in-use entry: the index's, plus (when the `/Prev` chain broke) objects found by scanning.
    package func allEntries() -> [(number: Int, entry: XRefEntry)] {
        var result: [(number: Int, entry: XRefEntry)] = []
        var seen: Set<Int> = []
        for number in index.numbers {
            guard let entry = index[number] else { continue }
            if case .free = entry { continue }
            result.append((number, entry))
            seen.insert(number)
        }
        if incomplete {
            for (number, header) in scannedObjectHeaders() where !seen.contains(number) {
                result.append((number, .inFile(offset: header.offset, generation: header.generation)))
            }
        }
        return result.sorted { $0.number < $1.number }
    }
}
