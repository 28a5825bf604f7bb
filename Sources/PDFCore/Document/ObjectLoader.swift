/// Parses, decrypts and materialises indirect objects from the file, without caching; the
/// document adds the cache, the warnings and the scan fallback.
package struct ObjectLoader: Sendable {
    package let source: ByteSource
    package let index: XRefIndex
    package let security: SecurityHandler?
    package let options: ParseOptions
    /// The `/Encrypt` dictionary's reference: its strings are never encrypted (§7.6.2).
    package let encryptReference: PDFReference?
    /// Decodes object streams within the document's budget, and keeps what it decoded.
    package let structure: StructureDecoder

    /// An object read from the file with where it is.
    package struct Loaded {
        package var object: PDFObject
        package var range: Range<Int>?
        package var warnings: [PDFWarning]
    }

    /// Reads the object at `offset`; nil when no object with `reference`'s number starts there.
    /// `depth` counts the indirect `/Filter` and `/DecodeParms` objects followed to get here; past a
    /// few the chain is cut (a stream whose filter names itself must not recurse forever).
    package func loadInFile(
        _ reference: PDFReference, at offset: Int, length: (PDFReference) -> Int?, depth: Int = 0
    ) -> Loaded? {
        let bytes = source.buffer
        var touched = offset..<(offset + 1)
        defer { source.releasePages(around: touched) }
        guard offset >= 0, offset < bytes.count,
            let (found, _) = IndirectObjectParser.readHeader(bytes, at: offset), found.number == reference.number
        else { return nil }
        guard
            let parsed = try? IndirectObjectParser.parse(
                bytes, at: offset, maxDepth: options.maxNestingDepth, length: length)
        else { return nil }
        touched = parsed.range
        var object = parsed.object
        var warnings = parsed.warnings.map { warning in
            var warning = warning
            if warning.object == nil { warning.object = reference }
            return warning
        }
        do {
            if let security, reference != encryptReference {
                let isXRefStream = parsed.streamData != nil && object.dictionaryValue?.name(.type) == .xRef
                if !isXRefStream, let cipher = try security.stringCipher(for: reference) {
                    object = ObjectLoader.decryptStrings(in: object, with: cipher)
                }
            }
            if let data = parsed.streamData, case .dictionary(let dictionary) = object {
                var cipher: ObjectCipher? = nil
                if reference != encryptReference {
                    cipher = try security?.streamCipher(for: reference, dictionary: dictionary)
                }
                object = .stream(makeStream(dictionary, data: data, cipher: cipher, depth: depth))
            }
        } catch {
            // The object key cannot be derived (the crypto library refuses MD5): the object cannot
            // be decrypted, so it reads as null with a warning rather than as ciphertext.
            warnings.append(PDFWarning(.encryption, error.message, offset: offset, object: reference))
            object = .null
        }
        return Loaded(object: object, range: parsed.range, warnings: warnings)
    }

    /// A stream value for data in the file, with its filter chain resolved.
    package func makeStream(
        _ dictionary: PDFDictionary, data: Range<Int>, cipher: ObjectCipher?, depth: Int = 0
    ) -> PDFStream {
        let filters = StreamStorage.filters(in: dictionary) { object in
            if case .reference(let reference) = object, case .inFile(let offset, _)? = index[reference.number],
                depth < 4
            {
                // Filters named indirectly (rare): read without caching.
                return loadInFile(reference, at: offset, length: { _ in nil }, depth: depth + 1)?.object ?? .null
            }
            return object
        }
        let storage = StreamStorage(
            kind: .file(source, data, cipher), filters: filters, maxDecodedSize: options.maxDecodedStreamSize)
        return PDFStream(dictionary: dictionary, storage: storage)
    }

    /// Parses object `reference` from object stream `streamReference` (`stream`), where `position` is its
    /// index there. The stream is decoded only as far as the object needs: until a dictionary, array or
    /// string has closed, or past the next object's offset; a longer start is decoded when the object runs
    /// on, up to the whole stream.
    /// - Returns: nil when the stream does not hold the object.
    /// - Throws: the stream's decoding error (`.limitExceeded` past the document's budget).
    package func loadCompressed(
        _ reference: PDFReference, position: Int, from stream: PDFStream, streamReference: PDFReference
    ) throws(PDFError) -> Loaded? {
        var length = 0
        while true {
            let contents = try structure.objectStream(stream, reference: streamReference, atLeast: length)
            switch parseCompressed(reference, position: position, in: contents) {
            case .done(let loaded): return loaded
            case .needs(let more): length = max(more, contents.data.count + 1)
            }
        }
    }

    private enum CompressedParse {
        case done(Loaded?)
        /// The data decoded so far ends before the object can be told complete: decode this much.
        case needs(Int)
    }

    /// Bytes past an object's end that its parse may look at (`n g R` after a number, say).
    private static let lookahead = 64

    private func parseCompressed(
        _ reference: PDFReference, position: Int, in contents: ObjectStreamContents
    ) -> CompressedParse {
        let more = max(contents.data.count * 2, StructureDecoder.minimumPrefix)
        var itemIndex = position
        if !(contents.objects.indices.contains(position) && contents.objects[position].number == reference.number) {
            guard let found = contents.objects.firstIndex(where: { $0.number == reference.number }) else {
                return contents.complete ? .done(nil) : .needs(more)
            }
            itemIndex = found
        }
        let (offset, overflow) = contents.first.addingReportingOverflow(contents.objects[itemIndex].offset)
        guard !overflow, offset < contents.data.count else {
            if contents.complete || overflow { return .done(nil) }
            return .needs(max(more, offset &+ StructureDecoder.minimumPrefix))
        }
        let end = contents.offset(after: contents.objects[itemIndex].offset).flatMap { next -> Int? in
            let (sum, overflow) = contents.first.addingReportingOverflow(next)
            return overflow ? nil : sum
        }
        return contents.data.withUnsafeBytes { bytes -> CompressedParse in
            var parser = ObjectParser(bytes, at: offset, maxDepth: options.maxNestingDepth)
            let object = try? parser.parseObject()
            if !contents.complete {
                let stop = parser.lexer.position
                // A dictionary, array or string that closed before the end of the data decoded so far reads the
                // same from the whole stream; any other object is whole once the data goes past the next
                // object's offset (`end`), where it ends at the latest.
                let closed: Bool
                switch object {
                case .dictionary?, .array?, .string?: closed = stop < bytes.count - Self.lookahead
                default: closed = false
                }
                if !closed {
                    guard let end, end < Int.max - Self.lookahead else { return .needs(more) }
                    guard end + Self.lookahead < bytes.count else { return .needs(max(more, end + Self.lookahead + 1)) }
                    if object == nil || stop > end { return .needs(more) }
                }
            }
            guard let object else { return .done(nil) }
            return .done(
                Loaded(
                    object: object, range: nil,
                    warnings: parser.warnings.map { warning in
                        var warning = warning
                        warning.offset = nil
                        warning.object = reference
                        return warning
                    }))
        }
    }

    /// Decrypts every string in `object`, except a signature dictionary's `/Contents` (§7.6.2).
    package static func decryptStrings(in object: PDFObject, with cipher: ObjectCipher) -> PDFObject {
        switch object {
        case .string(let string):
            return .string(PDFString(bytes: cipher.decrypt(string.bytes), isHex: string.isHex))
        case .array(let items):
            return .array(items.map { decryptStrings(in: $0, with: cipher) })
        case .dictionary(let dictionary):
            let isSignature = dictionary[.byteRange] != nil && dictionary[.contents]?.stringValue != nil
            var result = PDFDictionary()
            for entry in dictionary {
                if isSignature && entry.key == .contents {
                    result.appendParsed(key: entry.key, value: entry.value)
                } else {
                    result.appendParsed(key: entry.key, value: decryptStrings(in: entry.value, with: cipher))
                }
            }
            return .dictionary(result)
        default:
            return object
        }
    }
}
