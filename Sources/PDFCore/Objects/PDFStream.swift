/// A PDF stream: a dictionary and its data (ISO 32000-2 §7.3.8).
///
/// A stream read from a file points into the file's mapping (no copy) and decrypts and decodes
/// on demand; a stream built by code owns its encoded bytes.
public struct PDFStream: Hashable, Sendable {
    /// The stream dictionary as it was read or built.
    public var dictionary: PDFDictionary
    package let storage: StreamStorage

    /// A stream whose data is already encoded with the filters named in `dictionary`.
    /// `/Length` is set when the stream is written.
    public init(dictionary: PDFDictionary, encodedBytes: [UInt8]) {
        self.dictionary = dictionary
        self.storage = StreamStorage(bytes: encodedBytes, filters: StreamStorage.filters(in: dictionary))
    }

    /// A stream holding `data`, Flate-compressed when `compress` is true.
    public init(dictionary: PDFDictionary = PDFDictionary(), data: [UInt8], compress: Bool) {
        var dictionary = dictionary
        if compress {
            dictionary[.filter] = .name(.flateDecode)
            dictionary[.decodeParms] = nil
            self.init(dictionary: dictionary, encodedBytes: Flate.compress(data))
        } else {
            dictionary[.filter] = nil
            dictionary[.decodeParms] = nil
            self.init(dictionary: dictionary, encodedBytes: data)
        }
    }

    package init(dictionary: PDFDictionary, storage: StreamStorage) {
        self.dictionary = dictionary
        self.storage = storage
    }

    /// The byte range of the stream's data in its file, when it was read from one.
    public var rangeInFile: Range<Int>? {
        if case .file(_, let range, _) = storage.kind { return range }
        return nil
    }

    /// The data with encryption removed but every filter still applied (what a writer copies).
    public func encodedBytes() -> [UInt8] { storage.encodedBytes() }

    /// The data with every filter undone.
    ///
    /// - Parameter maxSize: the decoded size above which decoding stops with `limitExceeded`;
    ///   by default the limit the document was opened with.
    /// - Throws: `PDFError` `.decodeFailed` for corrupt data or an image codec (DCT, JPX, JBIG2,
    ///   CCITT: see ``partiallyDecodedData(maxSize:)``), `.limitExceeded` for a decompression bomb.
    public func decodedData(maxSize: Int? = nil) throws(PDFError) -> [UInt8] {
        let result = try partiallyDecodedData(maxSize: maxSize)
        if let codec = result.imageCodec {
            throw PDFError(.decodeFailed, "stream is encoded with the image codec /\(codec.string)")
        }
        return result.data
    }

    /// The data with every general-purpose filter undone, stopping at an image codec, which is
    /// returned with its parameters for the renderer to decode.
    public func partiallyDecodedData(maxSize: Int? = nil) throws(PDFError) -> DecodedStreamData {
        try storage.decode(maxSize: maxSize ?? storage.maxDecodedSize)
    }

    /// True when both have equal dictionaries and the same data: equal encoded bytes for streams built by
    /// code, the same range of the same file for streams read (a stream read never equals one built).
    public static func == (lhs: PDFStream, rhs: PDFStream) -> Bool {
        lhs.dictionary == rhs.dictionary && lhs.storage == rhs.storage
    }

    /// Hashes the dictionary and the data, as `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(dictionary)
        hasher.combine(storage)
    }
}

/// The result of decoding a stream's general-purpose filters.
public struct DecodedStreamData: Sendable {
    /// The bytes after the general-purpose filters.
    public var data: [UInt8]
    /// The image codec still to apply (`/DCTDecode`, `/JPXDecode`, `/JBIG2Decode`, `/CCITTFaxDecode`).
    public var imageCodec: PDFName?
    /// That codec's `/DecodeParms`.
    public var imageCodecParameters: PDFDictionary?
}

/// Where a stream's bytes live, and the resolved filter chain to decode them.
package final class StreamStorage: Hashable, Sendable {
    package enum Kind: Sendable {
        /// Encoded bytes owned by the value (never encrypted).
        case bytes([UInt8])
        /// Encoded bytes in a file, encrypted with the cipher when there is one.
        case file(ByteSource, Range<Int>, ObjectCipher?)
    }

    package struct Filter: Hashable, Sendable {
        package var name: PDFName
        package var parameters: PDFDictionary?
    }

    package let kind: Kind
    /// The filters to apply in order, with references already resolved and `/Crypt` removed.
    package let filters: [Filter]
    package let maxDecodedSize: Int

    package init(kind: Kind, filters: [Filter], maxDecodedSize: Int) {
        self.kind = kind
        self.filters = filters
        self.maxDecodedSize = maxDecodedSize
    }

    convenience init(bytes: [UInt8], filters: [Filter]) {
        self.init(kind: .bytes(bytes), filters: filters, maxDecodedSize: ParseOptions.default.maxDecodedStreamSize)
    }

    /// The filter chain named by a dictionary whose `/Filter` and `/DecodeParms` are direct objects.
    package static func filters(in dictionary: PDFDictionary, resolve: (PDFObject) -> PDFObject = { $0 }) -> [Filter] {
        let filterObject = resolve(dictionary[.filter] ?? dictionary[.f] ?? .null)
        let parametersObject = resolve(dictionary[.decodeParms] ?? dictionary[.dp] ?? .null)
        var names: [PDFName] = []
        switch filterObject {
        case .name(let name): names = [name]
        case .array(let items): names = items.compactMap { resolve($0).nameValue }
        default: break
        }
        var parameters: [PDFDictionary?] = []
        switch parametersObject {
        case .dictionary(let dictionary): parameters = [dictionary]
        case .array(let items): parameters = items.map { resolve($0).dictionaryValue }
        default: break
        }
        var result: [Filter] = []
        for (index, name) in names.enumerated() {
            let expanded = FilterKind.expandAbbreviation(name)
            if expanded == .crypt { continue }
            result.append(Filter(name: expanded, parameters: index < parameters.count ? parameters[index] : nil))
        }
        return result
    }

    package func encodedBytes() -> [UInt8] {
        switch kind {
        case .bytes(let bytes): return bytes
        case .file(let source, let range, let cipher):
            let raw = source.bytes(in: range)
            return cipher?.decrypt(raw) ?? raw
        }
    }

    package func decode(maxSize: Int) throws(PDFError) -> DecodedStreamData {
        switch kind {
        case .bytes(let bytes):
            return try bytes.withUnsafeBytes { buffer in
                Result { () throws(PDFError) in try FilterPipeline.decode(buffer, filters: filters, maxSize: maxSize) }
            }.get()
        case .file(let source, let range, let cipher):
            source.willRead(range)
            if let cipher {
                let plain = cipher.decrypt(source.bytes(in: range))
                return try plain.withUnsafeBytes { buffer in
                    Result { () throws(PDFError) in
                        try FilterPipeline.decode(buffer, filters: filters, maxSize: maxSize)
                    }
                }.get()
            }
            let lower = min(range.lowerBound, source.count)
            let upper = min(range.upperBound, source.count)
            return try FilterPipeline.decode(
                UnsafeRawBufferPointer(rebasing: source.buffer[lower..<upper]), filters: filters, maxSize: maxSize)
        }
    }

    /// The start of the decoded data, at least `prefix` bytes of it when it has them, and whether that is all
    /// (``FilterPipeline/decodePrefix(_:filters:prefix:maxSize:produced:)``).
    package func decodePrefix(
        _ prefix: Int, maxSize: Int, produced: inout Int
    ) throws(PDFError) -> (data: [UInt8], complete: Bool) {
        func run(_ buffer: UnsafeRawBufferPointer, _ produced: inout Int) throws(PDFError) -> (
            data: [UInt8], complete: Bool
        ) {
            try FilterPipeline.decodePrefix(
                buffer, filters: filters, prefix: prefix, maxSize: maxSize, produced: &produced)
        }
        switch kind {
        case .bytes(let bytes):
            return try bytes.withUnsafeBytes { buffer in
                Result { () throws(PDFError) in try run(buffer, &produced) }
            }.get()
        case .file(let source, let range, let cipher):
            if let cipher {
                let plain = cipher.decrypt(source.bytes(in: range))
                return try plain.withUnsafeBytes { buffer in
                    Result { () throws(PDFError) in try run(buffer, &produced) }
                }.get()
            }
            let lower = min(range.lowerBound, source.count)
            let upper = min(range.upperBound, source.count)
            return try run(UnsafeRawBufferPointer(rebasing: source.buffer[lower..<upper]), &produced)
        }
    }

    package static func == (lhs: StreamStorage, rhs: StreamStorage) -> Bool {
        if lhs === rhs { return true }
        switch (lhs.kind, rhs.kind) {
        case (.bytes(let a), .bytes(let b)): return a == b && lhs.filters == rhs.filters
        case (.file(let sourceA, let rangeA, let cipherA), .file(let sourceB, let rangeB, let cipherB)):
            return sourceA === sourceB && rangeA == rangeB && cipherA == cipherB
        default: return false
        }
    }

    package func hash(into hasher: inout Hasher) {
        switch kind {
        case .bytes(let bytes): hasher.combine(bytes.count)
        case .file(_, let range, _): hasher.combine(range)
        }
    }
}
