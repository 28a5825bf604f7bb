package import PDFCore

/// A PNG decoded to samples (W3C PNG §11–13): every colour type and bit depth, palettes with
/// transparency, and Adam7 interlacing.
///
/// The chunks must come in the order PNG prescribes (§5.6): one IHDR, first; at most one PLTE,
/// before the image data; the IDAT chunks one after another; nothing is read after IEND. So the
/// size a caller checks (``PNGChunks/headers``, ``ImageXObject``'s `declaredSize`) is the size decoded,
/// and the image data is inflated no further than that size needs.
package struct PNGImage {
    package let width: Int
    package let height: Int
    package let bitDepth: Int
    package let colorType: Int
    package let interlaced: Bool
    package let palette: [UInt8]
    package let transparency: [UInt8]
    package let data: [UInt8]  // concatenated IDAT

    /// Reads the chunks of `bytes` (the signature first).
    /// - Parameter maxPixels: the most pixels the image may have.
    /// - Throws: `.decodeFailed` for chunks out of order, a header this decoder cannot read or truncated
    ///   data; `.invalidArgument` for more than `maxPixels` pixels.
    package init(_ bytes: [UInt8], maxPixels: Int = .max) throws(PDFError) {
        let chunks = try PNGChunks(bytes)
        if let problem = chunks.problem { throw PDFError(.decodeFailed, problem) }
        guard let header = chunks.headers.first else { throw PDFError(.decodeFailed, "the PNG has no header") }
        width = header.width
        height = header.height
        bitDepth = header.bitDepth
        colorType = header.colorType
        interlaced = header.interlaced
        guard width > 0, height > 0, width <= 1 << 15, height <= 1 << 15, [1, 2, 4, 8, 16].contains(bitDepth),
            [0, 2, 3, 4, 6].contains(colorType)
        else {
            throw PDFError(
                .decodeFailed, "an unsupported PNG (\(width)×\(height), type \(colorType), depth \(bitDepth))")
        }
        guard width * height <= maxPixels else {
            throw PDFError(
                .invalidArgument, "the image declares \(width)×\(height) pixels, more than the \(maxPixels) allowed")
        }
        self.palette = chunks.palette
        self.transparency = chunks.transparency
        self.data = chunks.imageData
    }

    private var channels: Int { [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][colorType]! }

    /// The image as 8-bit (or 16-bit) rows without filters or interlacing, `channels` samples a pixel.
    package func samples() throws(PDFError) -> [UInt8] {
        let bitsPerPixel = channels * bitDepth
        // What the header calls for (each row with its filter byte, pass by pass when interlaced): the data
        // is inflated that far and no further.
        var expected = 0
        for (x0, y0, dx, dy) in interlaced ? Self.adam7 : [(0, 0, 1, 1)] {
            let passWidth = (width - x0 + dx - 1) / dx
            let passHeight = (height - y0 + dy - 1) / dy
            guard passWidth > 0, passHeight > 0 else { continue }
            expected += ((passWidth * bitsPerPixel + 7) / 8 + 1) * passHeight
        }
        let inflated = try data.withUnsafeBytes { buffer in
            Result { () throws(PDFError) in try Flate.decompress(buffer, maxSize: expected, stopAfter: expected).output
            }
        }.get()
        func unfilter(_ input: ArraySlice<UInt8>, width: Int, height: Int) throws(PDFError) -> [UInt8] {
            let rowBytes = (width * bitsPerPixel + 7) / 8
            let parameters: PDFDictionary = [
                .predictor: 15, .colors: .integer(channels), .bitsPerComponent: .integer(bitDepth),
                .columns: .integer(width),
            ]
            let rows = try Predictor.undo(Array(input), parameters: parameters, maxSize: input.count)
            guard rows.count >= rowBytes * height else { throw PDFError(.decodeFailed, "the PNG data is short") }
            return Array(rows.prefix(rowBytes * height))
        }
        guard interlaced else { return try unfilter(inflated[...], width: width, height: height) }
        // Adam7: seven passes of sub-images, put back in place.
        let rowBytes = (width * bitsPerPixel + 7) / 8
        var output = [UInt8](repeating: 0, count: rowBytes * height)
        var offset = 0
        for (x0, y0, dx, dy) in Self.adam7 {
            let passWidth = (width - x0 + dx - 1) / dx
            let passHeight = (height - y0 + dy - 1) / dy
            guard passWidth > 0, passHeight > 0 else { continue }
            let passRowBytes = (passWidth * bitsPerPixel + 7) / 8
            let size = (passRowBytes + 1) * passHeight
            guard offset + size <= inflated.count else { throw PDFError(.decodeFailed, "the PNG data is short") }
            let pass = try unfilter(inflated[offset..<(offset + size)], width: passWidth, height: passHeight)
            offset += size
            for row in 0..<passHeight {
                for column in 0..<passWidth {
                    let x = x0 + column * dx
                    let y = y0 + row * dy
                    copyPixel(
                        from: pass, row: row, column: column, rowBytes: passRowBytes, to: &output, x: x, y: y,
                        rowBytesOut: rowBytes)
                }
            }
        }
        return output
    }

    /// The seven Adam7 passes: first column and row, then the steps across and down (W3C PNG §8.2).
    private static let adam7 = [
        (0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2),
    ]

    private func copyPixel(
        from source: [UInt8], row: Int, column: Int, rowBytes: Int, to target: inout [UInt8], x: Int, y: Int,
        rowBytesOut: Int
    ) {
        let bitsPerPixel = channels * bitDepth
        if bitsPerPixel >= 8 {
            let size = bitsPerPixel / 8
            for byte in 0..<size {
                target[y * rowBytesOut + x * size + byte] = source[row * rowBytes + column * size + byte]
            }
        } else {
            let sourceBit = column * bitsPerPixel
            let value =
                (Int(source[row * rowBytes + sourceBit / 8]) >> (8 - bitsPerPixel - sourceBit % 8))
                & ((1 << bitsPerPixel) - 1)
            let targetBit = x * bitsPerPixel
            let shift = 8 - bitsPerPixel - targetBit % 8
            target[y * rowBytesOut + targetBit / 8] |= UInt8(value << shift)
        }
    }

    /// The image as 8-bit grey or RGB pixels with alpha (from the alpha channel, palette
    /// transparency or a transparent colour key), for scaling.
    package func raster() throws(PDFError) -> RasterImage {
        let samples = try samples()
        let rowBytes = (width * channels * bitDepth + 7) / 8
        let maximum = (1 << bitDepth) - 1
        /// Sample `index` of row `y`, at full precision (0 … 2^bitDepth − 1).
        func sample(_ y: Int, _ index: Int) -> Int {
            switch bitDepth {
            case 16: return Int(samples[y * rowBytes + index * 2]) << 8 | Int(samples[y * rowBytes + index * 2 + 1])
            case 8: return Int(samples[y * rowBytes + index])
            default:
                let bit = index * bitDepth
                return (Int(samples[y * rowBytes + bit / 8]) >> (8 - bitDepth - bit % 8)) & maximum
            }
        }
        func byte(_ value: Int) -> UInt8 { UInt8(value * 255 / maximum) }
        // A transparent colour key (tRNS for grey and RGB), at the sample precision.
        var key: [Int]? = nil
        if colorType == 0 || colorType == 2, transparency.count >= (colorType == 0 ? 2 : 6) {
            key = stride(from: 0, to: colorType == 0 ? 2 : 6, by: 2).map {
                (Int(transparency[$0]) << 8 | Int(transparency[$0 + 1])) & maximum
            }
        }
        let outputChannels = colorType == 0 || colorType == 4 ? 1 : 3
        let hasAlpha = colorType == 4 || colorType == 6 || key != nil || (colorType == 3 && !transparency.isEmpty)
        var pixels = [UInt8]()
        pixels.reserveCapacity(width * height * outputChannels)
        var alpha = [UInt8]()
        if hasAlpha { alpha.reserveCapacity(width * height) }
        for y in 0..<height {
            for x in 0..<width {
                switch colorType {
                case 3:
                    let entry = sample(y, x)
                    for channel in 0..<3 {
                        pixels.append(entry * 3 + channel < palette.count ? palette[entry * 3 + channel] : 0)
                    }
                    if hasAlpha { alpha.append(entry < transparency.count ? transparency[entry] : 255) }
                default:
                    let colour = (0..<outputChannels).map { sample(y, x * channels + $0) }
                    pixels.append(contentsOf: colour.map(byte))
                    if colorType == 4 || colorType == 6 {
                        alpha.append(byte(sample(y, x * channels + outputChannels)))
                    } else if let key {
                        alpha.append(colour == key ? 0 : 255)
                    }
                }
            }
        }
        return RasterImage(
            width: width, height: height, channels: outputChannels, pixels: pixels, alpha: hasAlpha ? alpha : nil)
    }
}

/// The chunks of a PNG datastream read in order (W3C PNG §5.3, §5.6), without decoding anything.
package struct PNGChunks: Sendable {
    /// The facts of an IHDR chunk (§11.2.2).
    package struct Header: Sendable, Equatable {
        package var width: Int
        package var height: Int
        package var bitDepth: Int
        package var colorType: Int
        package var interlaced: Bool
    }

    /// Every IHDR chunk found, in order (one in a well-formed PNG).
    package private(set) var headers: [Header] = []
    /// The PLTE chunk's data.
    package private(set) var palette: [UInt8] = []
    /// The tRNS chunk's data.
    package private(set) var transparency: [UInt8] = []
    /// The IDAT chunks' data, joined.
    package private(set) var imageData: [UInt8] = []
    /// The first way the chunks break PNG's order, when they do: such a PNG is not decoded.
    package private(set) var problem: String? = nil

    private static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Reads the chunks up to IEND (or the end of the data). A chunk out of order is noted in ``problem``
    /// and the reading goes on, so that every IHDR is seen.
    /// - Throws: `.decodeFailed` when the bytes are not a PNG or a chunk runs past the end.
    package init(_ bytes: [UInt8]) throws(PDFError) {
        guard bytes.starts(with: Self.signature) else { throw PDFError(.decodeFailed, "not a PNG (no signature)") }
        var index = 8
        var sawImageData = false
        var imageDataEnded = false
        func note(_ text: String) { if problem == nil { problem = text } }
        while index + 12 <= bytes.count {
            let length =
                Int(bytes[index]) << 24 | Int(bytes[index + 1]) << 16 | Int(bytes[index + 2]) << 8
                | Int(bytes[index + 3])
            let type = String(decoding: bytes[(index + 4)..<(index + 8)], as: UTF8.self)
            guard index + 12 + length <= bytes.count else { throw PDFError(.decodeFailed, "the PNG is truncated") }
            let body = (index + 8)..<(index + 8 + length)
            if index == 8, type != "IHDR" { note("the PNG does not start with its IHDR chunk") }
            if sawImageData, type != "IDAT" { imageDataEnded = true }
            switch type {
            case "IHDR":
                if !headers.isEmpty { note("the PNG has more than one IHDR chunk") }
                if length == 13 {
                    let word = { (at: Int) in bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
                    headers.append(
                        Header(
                            width: word(body.lowerBound), height: word(body.lowerBound + 4),
                            bitDepth: Int(bytes[body.lowerBound + 8]), colorType: Int(bytes[body.lowerBound + 9]),
                            interlaced: bytes[body.lowerBound + 12] == 1))
                } else {
                    note("the PNG's IHDR chunk is \(length) bytes, not 13")
                }
            case "PLTE":
                if !palette.isEmpty { note("the PNG has more than one PLTE chunk") }
                if sawImageData { note("the PNG's PLTE chunk comes after its image data") }
                palette = Array(bytes[body])
            case "tRNS":
                // After the image data it is ignored, as libpng does.
                if !sawImageData { transparency = Array(bytes[body]) }
            case "IDAT":
                if imageDataEnded { note("the PNG's IDAT chunks are not one after another") }
                sawImageData = true
                imageData += bytes[body]
            default: break
            }
            index += 12 + length
            if type == "IEND" { break }
        }
        if headers.isEmpty { note("the PNG has no header") }
    }
}
