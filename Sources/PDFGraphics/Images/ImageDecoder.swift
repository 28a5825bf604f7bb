import PDFCore
import PDFImageCodecs

/// Turns image XObjects and inline images into ``ImageSource`` values that decode on demand
/// (ISO 32000-2 §8.9): the filters, then the image codec (DCT, JPX, CCITT, JBIG2), samples of 1 to
/// 16 bits, `/Decode`, the colour space, and the masks (`/SMask`, `/Mask` as a stencil or a colour
/// key, `/SMaskInData`).
struct ImageDecoder: Sendable {
    let graphics: GraphicsDocument
    var document: PDFDocument { graphics.document }
    var options: GraphicsOptions { graphics.options }
    /// Decoded images larger than this many bytes (RGBA) are refused.
    static let maxBytes = 1 << 29

    /// The image's size and how to decode it, or nil with a warning when its dictionary is unusable.
    /// - Parameter isMask: `/ImageMask true`: the result's alpha is where paint goes.
    /// - Parameter name: how warnings name the image (`image /Im1`, `an inline image`).
    func source(_ stream: PDFStream, resources: PDFDictionary?, name: String) throws(PDFError) -> (
        source: ImageSource, isMask: Bool
    ) {
        let dictionary = stream.dictionary
        let document = self.document
        let options = self.options
        func value(_ key: String) -> PDFObject? { dictionary[PDFName(key)].map { document.resolve($0) } }
        guard let width = value("Width")?.intValue, let height = value("Height")?.intValue, width > 0, height > 0,
            width <= 1 << 16, height <= 1 << 16
        else { throw PDFError(.syntax, "an image without a usable /Width and /Height") }
        let isMask = value("ImageMask") == .boolean(true)
        let interpolate = value("Interpolate") == .boolean(true)
        var space: ColorSpace? = nil
        if !isMask, let object = dictionary[.colorSpace] {
            space = try graphics.colorSpace(object, resources: resources)
        }
        let resolvedSpace = space
        // A mask finer than the image is drawn at its own resolution: the source is as large as both.
        let drawn: (width: Int, height: Int) =
            isMask ? (width, height) : Self.drawnSize(width: width, height: height, document: document, value: value)
        let source = ImageSource(width: drawn.width, height: drawn.height, interpolate: interpolate) { reduction in
            do {
                return (
                    try ImageDecoder.decode(
                        stream, width: width, height: height, isMask: isMask, space: resolvedSpace, document: document,
                        options: options, resources: resources, reduction: reduction, drawn: drawn), []
                )
            } catch let error as PDFError {
                return (nil, ["\(name) (\(width)×\(height)) cannot be decoded and is not drawn: \(error.message)"])
            } catch {
                return (nil, ["\(name) (\(width)×\(height)) cannot be decoded and is not drawn: \(error)"])
            }
        }
        return (source, isMask)
    }

    /// The size an image is drawn at: its own, or that of its `/SMask` or stencil `/Mask` where the
    /// mask has more samples in a direction (poppler and MuPDF composite such a mask at its own
    /// resolution; sampled down to a few image pixels its edges would be blocks), within the
    /// bytes an image may take.
    static func drawnSize(width: Int, height: Int, document: PDFDocument, value: (String) -> PDFObject?) -> (
        width: Int, height: Int
    ) {
        // The mask `decode` applies: `/SMask` when it is a stream, else a stencil `/Mask` stream.
        guard let mask = (value("SMask")?.streamValue ?? value("Mask")?.streamValue)?.dictionary,
            let maskWidth = document.resolve(mask[.width] ?? .null).intValue,
            let maskHeight = document.resolve(mask[.height] ?? .null).intValue,
            maskWidth > width || maskHeight > height, maskWidth <= 1 << 16, maskHeight <= 1 << 16
        else { return (width, height) }
        let drawn = (width: max(width, maskWidth), height: max(height, maskHeight))
        return drawn.width * drawn.height * 4 <= maxBytes ? drawn : (width, height)
    }

    // MARK: Decoding

    /// Samples after the filters and codec: unpacked to one `UInt16` per component.
    struct Samples {
        var width: Int
        var height: Int
        var components: Int
        var bitsPerComponent: Int
        var values: [UInt16]
        /// JPX alpha, for `/SMaskInData`.
        var alpha: [UInt8]?

        /// The samples averaged over `factor`×`factor` blocks (the last ones partial), as 8-bit
        /// levels of the same range: `/Decode` maps them as it mapped the originals.
        func reduced(by factor: Int) -> Samples {
            guard factor > 1, width >= factor || height >= factor else { return self }
            let newWidth = (width + factor - 1) / factor
            let newHeight = (height + factor - 1) / factor
            let maximum = UInt64((1 << bitsPerComponent) - 1)
            var sums = [UInt64](repeating: 0, count: newWidth * components)
            var result = [UInt16](repeating: 0, count: newWidth * newHeight * components)
            var alphaSums = [UInt64](repeating: 0, count: alpha == nil ? 0 : newWidth)
            var reducedAlpha = alpha.map { _ in [UInt8](repeating: 0, count: newWidth * newHeight) }
            values.withUnsafeBufferPointer { values in
                for row in 0..<newHeight {
                    for index in sums.indices { sums[index] = 0 }
                    for index in alphaSums.indices { alphaSums[index] = 0 }
                    let firstY = row * factor
                    let lastY = min(height, firstY + factor)
                    for y in firstY..<lastY {
                        var source = y * width * components
                        for x in 0..<width {
                            let target = (x / factor) * components
                            for component in 0..<components {
                                sums[target + component] += UInt64(values[source + component])
                            }
                            source += components
                        }
                        if let alpha {
                            for x in 0..<width { alphaSums[x / factor] += UInt64(alpha[y * width + x]) }
                        }
                    }
                    for column in 0..<newWidth {
                        let count = UInt64((min(width, (column + 1) * factor) - column * factor) * (lastY - firstY))
                        for component in 0..<components {
                            let sum = sums[column * components + component]
                            result[(row * newWidth + column) * components + component] =
                                UInt16((sum * 255 + count * maximum / 2) / (count * maximum))
                        }
                        if !alphaSums.isEmpty {
                            reducedAlpha?[row * newWidth + column] = UInt8(alphaSums[column] / count)
                        }
                    }
                }
            }
            return Samples(
                width: newWidth, height: newHeight, components: components, bitsPerComponent: 8, values: result,
                alpha: reducedAlpha)
        }
    }

    static func decode(
        _ stream: PDFStream, width: Int, height: Int, isMask: Bool, space: ColorSpace?, document: PDFDocument,
        options: GraphicsOptions, resources: PDFDictionary?, reduction: Int = 0,
        drawn: (width: Int, height: Int)? = nil
    ) throws(PDFError) -> DecodedImage {
        guard width * height * 4 <= maxBytes else {
            throw PDFError(.limitExceeded, "a \(width)×\(height) image is too large to draw")
        }
        let dictionary = stream.dictionary
        func value(_ key: String) -> PDFObject? { dictionary[PDFName(key)].map { document.resolve($0) } }
        var space = space
        let declaredBits = isMask ? 1 : (value("BitsPerComponent")?.intValue ?? 8)
        // Averaging is right for samples that are levels: not for palette indices, nor where a
        // colour key compares the samples themselves.
        let reducible = space?.isIndexed != true && value("Mask")?.arrayValue == nil
        // The size drawn, reduced as asked; the image is reduced only while it stays as large as that
        // (all the way when a finer mask does not set the size). Sizes round up, as `readSamples`'s.
        let reduction = max(0, min(reduction, 8))
        func reduced(_ side: Int, _ times: Int) -> Int { (side + (1 << times) - 1) >> times }
        let size = drawn ?? (width, height)
        let target = (width: reduced(size.width, reduction), height: reduced(size.height, reduction))
        var imageReduction = reduction
        while imageReduction > 0,
            reduced(width, imageReduction) < target.width || reduced(height, imageReduction) < target.height
        {
            imageReduction -= 1
        }
        let samples = try readSamples(
            stream, width: width, height: height, components: isMask ? 1 : (space?.componentCount ?? 0),
            bitsPerComponent: declaredBits, document: document, options: options,
            reduction: reducible ? imageReduction : 0)
        if space == nil || (space!.componentCount != samples.components && !isMask) {
            // JPX images may carry their own colour space.
            switch samples.components {
            case 1: space = .deviceGray
            case 3: space = .deviceRGB
            case 4: space = .deviceCMYK
            default: throw PDFError(.unsupported, "an image with \(samples.components) components and no colour space")
            }
        }
        let pixelCount = samples.width * samples.height
        let decodeArray = value("Decode")?.arrayValue?.compactMap { document.resolve($0).numberValue }
        var rgba = [UInt8](repeating: 255, count: pixelCount * 4)

        if isMask {
            // Stencil: sample 0 paints unless /Decode is [1 0] (§8.9.6.2).
            let paintsOne = (decodeArray?.first ?? 0) == 1
            let maximum = UInt16((1 << samples.bitsPerComponent) - 1)
            for index in 0..<pixelCount {
                rgba[index * 4] = 0
                rgba[index * 4 + 1] = 0
                rgba[index * 4 + 2] = 0
                // Reduced masks keep the share of painting samples as coverage.
                let level = UInt32(samples.values[index]) * 255 / UInt32(maximum)
                rgba[index * 4 + 3] = UInt8(paintsOne ? level : 255 - level)
            }
            return DecodedImage(width: samples.width, height: samples.height, rgba: rgba)
        }

        let colorSpace = space!
        let decode: [Double]
        if let decodeArray, decodeArray.count == colorSpace.componentCount * 2 {
            decode = decodeArray
        } else {
            decode = colorSpace.defaultDecode(bitsPerComponent: samples.bitsPerComponent)
        }
        let rgb = samples.values.withUnsafeBufferPointer { buffer in
            colorSpace.rgbBytes(
                samples: buffer, pixelCount: pixelCount, bitsPerComponent: samples.bitsPerComponent, decode: decode)
        }
        for index in 0..<min(pixelCount, rgb.count / 3) {
            rgba[index * 4] = rgb[index * 3]
            rgba[index * 4 + 1] = rgb[index * 3 + 1]
            rgba[index * 4 + 2] = rgb[index * 3 + 2]
        }

        // Masks (§11.6.5.3, §8.9.6), at the mask's resolution when it is finer than the image's.
        if let smask = value("SMask"), let maskStream = smask.streamValue {
            let (size, pixels) = Self.resampled(rgba, from: (samples.width, samples.height), to: target)
            rgba = pixels
            let alpha = try maskAlpha(
                maskStream, stencil: false, width: size.width, height: size.height, document: document,
                options: options)
            for index in alpha.indices { rgba[index * 4 + 3] = alpha[index] }
            return DecodedImage(width: size.width, height: size.height, rgba: rgba)
        } else if let mask = value("Mask") {
            if let maskStream = mask.streamValue {
                let (size, pixels) = Self.resampled(rgba, from: (samples.width, samples.height), to: target)
                rgba = pixels
                let alpha = try maskAlpha(
                    maskStream, stencil: true, width: size.width, height: size.height, document: document,
                    options: options)
                for index in alpha.indices { rgba[index * 4 + 3] = alpha[index] }
                return DecodedImage(width: size.width, height: size.height, rgba: rgba)
            } else if let ranges = mask.arrayValue?.compactMap({ document.resolve($0).numberValue }),
                ranges.count >= samples.components * 2
            {
                // Colour key: pixels whose every component lies in its range are transparent.
                for index in 0..<pixelCount {
                    var masked = true
                    for component in 0..<samples.components {
                        let sample = Double(samples.values[index * samples.components + component])
                        if sample < ranges[component * 2] || sample > ranges[component * 2 + 1] {
                            masked = false
                            break
                        }
                    }
                    if masked { rgba[index * 4 + 3] = 0 }
                }
            }
        } else if let alpha = samples.alpha, value("SMaskInData")?.intValue ?? 0 != 0, alpha.count == pixelCount {
            for index in 0..<pixelCount { rgba[index * 4 + 3] = alpha[index] }
        }
        return DecodedImage(width: samples.width, height: samples.height, rgba: rgba)
    }

    /// `rgba` of `from` pixels at `to`'s size when that is larger in a direction (nearest
    /// neighbour, as poppler and MuPDF scale an image to its finer mask); else unchanged.
    static func resampled(
        _ rgba: [UInt8], from: (width: Int, height: Int), to: (width: Int, height: Int)
    ) -> (size: (width: Int, height: Int), rgba: [UInt8]) {
        guard to.width > from.width || to.height > from.height, to.width * to.height * 4 <= maxBytes,
            from.width > 0, from.height > 0
        else { return (from, rgba) }
        var result = [UInt8](repeating: 0, count: to.width * to.height * 4)
        let columns = (0..<to.width).map { min(from.width - 1, $0 * from.width / to.width) * 4 }
        rgba.withUnsafeBufferPointer { source in
            result.withUnsafeMutableBufferPointer { target in
                for y in 0..<to.height {
                    let row = min(from.height - 1, y * from.height / to.height) * from.width * 4
                    var output = y * to.width * 4
                    for column in columns {
                        for channel in 0..<4 { target[output + channel] = source[row + column + channel] }
                        output += 4
                    }
                }
            }
        }
        return (to, result)
    }

    /// A soft mask or stencil mask as one alpha byte per pixel of the image it masks (resampled to
    /// its size, nearest neighbour).
    static func maskAlpha(
        _ stream: PDFStream, stencil: Bool, width: Int, height: Int, document: PDFDocument, options: GraphicsOptions
    ) throws(PDFError) -> [UInt8] {
        let dictionary = stream.dictionary
        func value(_ key: String) -> PDFObject? { dictionary[PDFName(key)].map { document.resolve($0) } }
        guard let maskWidth = value("Width")?.intValue, let maskHeight = value("Height")?.intValue, maskWidth > 0,
            maskHeight > 0, maskWidth <= 1 << 16, maskHeight <= 1 << 16
        else { throw PDFError(.syntax, "a mask without a usable size") }
        // The same bound as an image's: a mask's samples are decoded whole before they are scaled.
        guard maskWidth * maskHeight * 4 <= maxBytes else {
            throw PDFError(.limitExceeded, "a \(maskWidth)×\(maskHeight) mask is too large to draw")
        }
        let bits = stencil ? 1 : (value("BitsPerComponent")?.intValue ?? 8)
        let samples = try readSamples(
            stream, width: maskWidth, height: maskHeight, components: 1, bitsPerComponent: bits, document: document,
            options: options)
        let decodeArray = value("Decode")?.arrayValue?.compactMap { document.resolve($0).numberValue }
        let maximum = Double((1 << samples.bitsPerComponent) - 1)
        // A stencil /Mask hides where the sample is 1 (with the default /Decode [0 1]).
        let (low, high) = decodeArray.map { $0.count >= 2 ? ($0[0], $0[1]) : (0, 1) } ?? (0.0, 1.0)
        var table = [UInt8](repeating: 0, count: 1 << samples.bitsPerComponent)
        for sample in table.indices {
            let level = low + Double(sample) / maximum * (high - low)
            table[sample] = stencil ? (level >= 0.5 ? 0 : 255) : UInt8(max(0, min(255, (level * 255).rounded())))
        }
        var alpha = [UInt8](repeating: 255, count: width * height)
        for y in 0..<height {
            let maskY = min(samples.height - 1, y * samples.height / height)
            for x in 0..<width {
                let maskX = min(samples.width - 1, x * samples.width / width)
                alpha[y * width + x] = table[Int(samples.values[maskY * samples.width + maskX])]
            }
        }
        return alpha
    }

    /// Filters, then the codec, then samples unpacked and, when `reduction` > 0, averaged down by
    /// `2^reduction` (1-bit images straight from their packed rows).
    static func readSamples(
        _ stream: PDFStream, width: Int, height: Int, components: Int, bitsPerComponent: Int, document: PDFDocument,
        options: GraphicsOptions, reduction: Int = 0
    ) throws(PDFError) -> Samples {
        let factor = 1 << max(0, min(reduction, 8))
        func unpacked(_ rows: [UInt8], width: Int, height: Int, components: Int, bits: Int) -> Samples {
            if factor > 1, components == 1, bits == 1 {
                return reducedBits(rows, width: width, height: height, factor: factor)
            }
            let samples = unpack(rows, width: width, height: height, components: components, bits: bits)
            return factor > 1 ? samples.reduced(by: factor) : samples
        }
        let partial = try stream.partiallyDecodedData(maxSize: maxBytes)
        switch partial.imageCodec?.string {
        case "DCTDecode", "DCT":
            let transform = partial.imageCodecParameters?[.colorTransform].flatMap { document.resolve($0).intValue }
            let jpeg = try JPEGCodec.decodeComponents(
                partial.data, colorTransform: transform, gray: components == 1, lenient: true)
            var values = jpeg.samples.map { UInt16($0) }
            if jpeg.components == 4 && jpeg.adobeInverted {
                for index in values.indices { values[index] = 255 - values[index] }
            }
            let samples = Samples(
                width: jpeg.width, height: jpeg.height, components: jpeg.components, bitsPerComponent: 8, values: values
            )
            return factor > 1 ? samples.reduced(by: factor) : samples
        case "JPXDecode":
            let image = try JPXDecoder.decode(partial.data)
            let samples = Samples(
                width: image.width, height: image.height, components: image.components, bitsPerComponent: 8,
                values: image.samples.map { UInt16($0) }, alpha: image.alpha)
            return factor > 1 ? samples.reduced(by: factor) : samples
        case "CCITTFaxDecode", "CCF":
            var parameters = CCITTParameters(partial.imageCodecParameters, document: document)
            if parameters.rows == 0 { parameters.rows = height }
            let rows = try CCITTFax.decode(partial.data, parameters: parameters)
            return unpacked(rows, width: width, height: height, components: 1, bits: 1)
        case "JBIG2Decode":
            var globals: [UInt8]? = nil
            if let object = partial.imageCodecParameters?[.jbig2Globals],
                let globalsStream = document.resolve(object).streamValue
            {
                globals = try globalsStream.decodedData(maxSize: 1 << 26)
            }
            let page = try JBIG2.decode(partial.data, globals: globals)
            return unpacked(page.rows, width: page.width, height: page.height, components: 1, bits: 1)
        case nil:
            guard [1, 2, 4, 8, 16].contains(bitsPerComponent), components > 0 else {
                throw PDFError(.unsupported, "images of \(bitsPerComponent) bits per component")
            }
            return unpacked(partial.data, width: width, height: height, components: components, bits: bitsPerComponent)
        case let other?:
            throw PDFError(.unsupported, "the image filter /\(other)")
        }
    }

    /// 1-bit rows (each starting on a byte) averaged over `factor`×`factor` blocks into 8-bit
    /// levels, without unpacking: a scanned page's 33 million samples are counted bytes at a time.
    static func reducedBits(_ data: [UInt8], width: Int, height: Int, factor: Int) -> Samples {
        let rowBytes = (width + 7) / 8
        let newWidth = (width + factor - 1) / factor
        let newHeight = (height + factor - 1) / factor
        var counts = [Int](repeating: 0, count: newWidth)
        var values = [UInt16](repeating: 0, count: newWidth * newHeight)
        data.withUnsafeBufferPointer { data in
            for row in 0..<newHeight {
                for index in counts.indices { counts[index] = 0 }
                let firstY = row * factor
                let lastY = min(height, firstY + factor)
                for y in firstY..<lastY {
                    let start = y * rowBytes
                    guard start < data.count else { break }
                    let end = min(data.count, start + rowBytes)
                    if factor >= 8 {
                        // Blocks hold whole bytes.
                        let bytesPerBlock = factor / 8
                        for byte in start..<end {
                            counts[(byte - start) / bytesPerBlock] += data[byte].nonzeroBitCount
                        }
                    } else {
                        let groups = 8 / factor
                        let mask = UInt8((1 << factor) - 1)
                        for byte in start..<end {
                            let value = data[byte]
                            guard value != 0 else { continue }
                            let base = (byte - start) * groups
                            for group in 0..<groups where base + group < newWidth {
                                counts[base + group] +=
                                    ((value >> UInt8(8 - (group + 1) * factor)) & mask).nonzeroBitCount
                            }
                        }
                    }
                }
                let rows = lastY - firstY
                for column in 0..<newWidth {
                    let columns = min(width, (column + 1) * factor) - column * factor
                    // Bits past the width in the last byte of a row are not samples.
                    let count = min(counts[column], columns * rows)
                    values[row * newWidth + column] = UInt16((count * 255 + columns * rows / 2) / (columns * rows))
                }
            }
        }
        return Samples(width: newWidth, height: newHeight, components: 1, bitsPerComponent: 8, values: values)
    }

    /// Unpacks rows of `bits`-bit samples (each row starting on a byte); missing data reads as 0.
    static func unpack(_ data: [UInt8], width: Int, height: Int, components: Int, bits: Int) -> Samples {
        let perRow = width * components
        let rowBytes = (perRow * bits + 7) / 8
        var values = [UInt16](repeating: 0, count: perRow * height)
        data.withUnsafeBufferPointer { bytes in
            for y in 0..<height {
                let rowStart = y * rowBytes
                guard rowStart < bytes.count else { break }
                let base = y * perRow
                switch bits {
                case 8:
                    let count = min(perRow, bytes.count - rowStart)
                    for index in 0..<count { values[base + index] = UInt16(bytes[rowStart + index]) }
                case 16:
                    for index in 0..<perRow {
                        let offset = rowStart + index * 2
                        guard offset + 1 < bytes.count else { break }
                        values[base + index] = UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
                    }
                default:
                    let mask = UInt16((1 << bits) - 1)
                    for index in 0..<perRow {
                        let bit = index * bits
                        let offset = rowStart + bit / 8
                        guard offset < bytes.count else { break }
                        values[base + index] = UInt16(bytes[offset]) >> UInt16(8 - bits - bit % 8) & mask
                    }
                }
            }
        }
        return Samples(width: width, height: height, components: components, bitsPerComponent: bits, values: values)
    }
}
