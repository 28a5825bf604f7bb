/// The standard filters (ISO 32000-2 §7.4.1, Table 6), with the abbreviations of inline images (§8.9.7).
package enum FilterKind {
    /// The full name for an abbreviated filter name (`/Fl` → `/FlateDecode`); other names unchanged.
    package static func expandAbbreviation(_ name: PDFName) -> PDFName {
        switch name.string {
        case "AHx": .asciiHexDecode
        case "A85": .ascii85Decode
        case "LZW": .lzwDecode
        case "Fl": .flateDecode
        case "RL": .runLengthDecode
        case "CCF": .ccittFaxDecode
        case "DCT": .dctDecode
        default: name
        }
    }

    /// True for the image codecs that the renderer decodes.
    package static func isImageCodec(_ name: PDFName) -> Bool {
        name == .dctDecode || name == .jpxDecode || name == .jbig2Decode || name == .ccittFaxDecode
    }
}

/// Applies a stream's filter chain.
package enum FilterPipeline {
    package static func decode(
        _ input: UnsafeRawBufferPointer, filters: [StreamStorage.Filter], maxSize: Int
    ) throws(PDFError) -> DecodedStreamData {
        var current: [UInt8]? = nil
        for filter in filters {
            if FilterKind.isImageCodec(filter.name) {
                let data = current ?? Array(input)
                return DecodedStreamData(data: data, imageCodec: filter.name, imageCodecParameters: filter.parameters)
            }
            if let previous = current {
                current = try previous.withUnsafeBytes { buffer in
                    Result { () throws(PDFError) in try apply(filter, to: buffer, maxSize: maxSize) }
                }.get()
            } else {
                current = try apply(filter, to: input, maxSize: maxSize)
            }
        }
        return DecodedStreamData(data: current ?? Array(input), imageCodec: nil, imageCodecParameters: nil)
    }

    /// The start of a stream's decoded data, at least `prefix` bytes of it when it has them: the last
    /// filter stops there, so a stream read only in part (an object stream's first objects, the rows a
    /// cross-reference stream declares) is not decoded further. Filters before the last decode whole.
    ///
    /// - Parameters:
    ///   - maxSize: the most bytes all the filters together may produce.
    ///   - produced: grows by the bytes each filter produced, also when one throws (its output then
    ///     counts as `maxSize` when it passed the limit).
    /// - Returns: the data and whether it is all of the stream's (false when the last filter stopped).
    /// - Throws: `.limitExceeded` past `maxSize`, `.decodeFailed` for corrupt data, an unknown filter
    ///   or an image codec.
    package static func decodePrefix(
        _ input: UnsafeRawBufferPointer, filters: [StreamStorage.Filter], prefix: Int, maxSize: Int,
        produced: inout Int
    ) throws(PDFError) -> (data: [UInt8], complete: Bool) {
        if let codec = filters.first(where: { FilterKind.isImageCodec($0.name) }) {
            throw PDFError(.decodeFailed, "stream is encoded with the image codec /\(codec.name.string)")
        }
        let start = produced
        var current: [UInt8]? = nil
        var complete = true
        do throws(PDFError) {
            for (index, filter) in filters.enumerated() {
                let stop = index == filters.count - 1 ? prefix : nil
                let allowance = max(0, maxSize - (produced - start))
                let result: (data: [UInt8], complete: Bool)
                if let previous = current {
                    result = try previous.withUnsafeBytes { buffer in
                        Result { () throws(PDFError) in
                            try applyPrefix(filter, to: buffer, maxSize: allowance, stopAfter: stop)
                        }
                    }.get()
                } else {
                    result = try applyPrefix(filter, to: input, maxSize: allowance, stopAfter: stop)
                }
                produced += result.data.count
                complete = result.complete
                current = result.data
            }
        } catch {
            if error.code == .limitExceeded { produced = start + maxSize }
            throw error
        }
        if let current { return (current, complete) }
        guard input.count <= maxSize else {
            produced = start + maxSize
            throw PDFError(.limitExceeded, "stream data is larger than \(maxSize) bytes")
        }
        produced += input.count
        return (Array(input), true)
    }

    private static func applyPrefix(
        _ filter: StreamStorage.Filter, to input: UnsafeRawBufferPointer, maxSize: Int, stopAfter: Int?
    ) throws(PDFError) -> (data: [UInt8], complete: Bool) {
        switch filter.name {
        case .flateDecode:
            // Predicted rows carry a filter byte each: inflate what holds the rows asked for.
            let inflateStop = stopAfter.map {
                Predictor.encodedLength(ofDecoded: $0, parameters: filter.parameters) ?? $0
            }
            let inflated = try Flate.decompress(input, maxSize: maxSize, stopAfter: inflateStop)
            return (
                try Predictor.undo(inflated.output, parameters: filter.parameters, maxSize: maxSize), inflated.complete
            )
        case .lzwDecode:
            let earlyChange = filter.parameters?.int(.earlyChange) ?? 1
            let lzwStop = stopAfter.map { Predictor.encodedLength(ofDecoded: $0, parameters: filter.parameters) ?? $0 }
            let expanded = try LZW.decode(input, earlyChange: earlyChange != 0, maxSize: maxSize, stopAfter: lzwStop)
            let complete = lzwStop.map { expanded.count < $0 } ?? true
            return (try Predictor.undo(expanded, parameters: filter.parameters, maxSize: maxSize), complete)
        case .runLengthDecode:
            let decoded = try RunLength.decode(input, maxSize: maxSize, stopAfter: stopAfter)
            return (decoded, stopAfter.map { decoded.count < $0 } ?? true)
        default:
            let decoded = try apply(filter, to: input, maxSize: maxSize)
            guard decoded.count <= maxSize else {
                throw PDFError(.limitExceeded, "/\(filter.name.string) data decodes to more than \(maxSize) bytes")
            }
            return (decoded, true)
        }
    }

    private static func apply(
        _ filter: StreamStorage.Filter, to input: UnsafeRawBufferPointer, maxSize: Int
    ) throws(PDFError) -> [UInt8] {
        switch filter.name {
        case .flateDecode:
            let inflated = try Flate.decompress(input, maxSize: maxSize)
            return try Predictor.undo(inflated, parameters: filter.parameters, maxSize: maxSize)
        case .lzwDecode:
            let earlyChange = filter.parameters?.int(.earlyChange) ?? 1
            let expanded = try LZW.decode(input, earlyChange: earlyChange != 0, maxSize: maxSize)
            return try Predictor.undo(expanded, parameters: filter.parameters, maxSize: maxSize)
        case .asciiHexDecode:
            return ASCIIHex.decode(input)
        case .ascii85Decode:
            return ASCII85.decode(input)
        case .runLengthDecode:
            return try RunLength.decode(input, maxSize: maxSize)
        default:
            throw PDFError(.decodeFailed, "unknown filter /\(filter.name.string)")
        }
    }
}
