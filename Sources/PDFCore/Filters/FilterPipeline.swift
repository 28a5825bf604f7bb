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
