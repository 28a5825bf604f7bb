import PDFCore

extension RenderedImage {
    /// The image as a PNG file: 8-bit RGB when every pixel is opaque (pages usually are), else
    /// RGBA with the colours un-premultiplied.
    ///
    /// Written here rather than by cairo's libpng writer, which tries every row filter on every
    /// row: each row is filtered with Up (a page's blank rows and margins become runs of zeros)
    /// and deflated at zlib's default level as it is made, as MuPDF writes them — a third of the
    /// time for files of about the same size.
    ///
    /// - Parameter compressionLevel: zlib's level, 1 (fastest: for tiles sent to a browser on the
    ///   same machine) to 9; 6 by default.
    public func pngData(compressionLevel: Int = 6) -> [UInt8] {
        guard width > 0, height > 0, rgba.count >= width * height * 4 else { return [] }
        let opaque = rgba.withUnsafeBufferPointer { pixels in
            var alphas: UInt8 = 255
            for index in stride(from: 3, to: width &* height &* 4, by: 4) { alphas &= pixels[index] }
            return alphas == 255
        }
        let channels = opaque ? 3 : 4
        let rowBytes = width * channels
        // Each row filtered with Up and deflated at once: no page-sized buffer besides the image.
        let deflater = Flate.Deflater(level: Int32(min(max(compressionLevel, 1), 9)))
        let line = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: rowBytes + 1)
        defer { line.deallocate() }
        let out = line.baseAddress!
        out[0] = 2  // Up
        let filtered = out + 1
        rgba.withUnsafeBufferPointer { buffer in
            let pixels = buffer.baseAddress!
            if opaque {
                // Straight from the image: each pixel's R G B minus those of the pixel above.
                for y in 0..<height {
                    let source = pixels + y * width * 4
                    if y == 0 {
                        for x in 0..<width {
                            filtered[x &* 3] = source[x &* 4]
                            filtered[x &* 3 &+ 1] = source[x &* 4 &+ 1]
                            filtered[x &* 3 &+ 2] = source[x &* 4 &+ 2]
                        }
                    } else {
                        let above = source - width * 4
                        for x in 0..<width {
                            filtered[x &* 3] = source[x &* 4] &- above[x &* 4]
                            filtered[x &* 3 &+ 1] = source[x &* 4 &+ 1] &- above[x &* 4 &+ 1]
                            filtered[x &* 3 &+ 2] = source[x &* 4 &+ 2] &- above[x &* 4 &+ 2]
                        }
                    }
                    deflater.append(out, count: rowBytes + 1)
                }
                return
            }
            // Un-premultiplied RGBA rows, the previous one kept for the filter.
            let rows = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 2 * rowBytes)
            rows.initialize(repeating: 0)
            defer { rows.deallocate() }
            var previous = rows.baseAddress!
            var current = previous + rowBytes
            for y in 0..<height {
                var source = pixels + y * width * 4
                for x in 0..<width {
                    let alpha = Int(source[3])
                    for channel in 0..<3 {
                        let value = Int(source[channel])
                        current[x * 4 + channel] = alpha == 0 ? 0 : UInt8(min(255, (value * 255 + alpha / 2) / alpha))
                    }
                    current[x * 4 + 3] = UInt8(alpha)
                    source += 4
                }
                for index in 0..<rowBytes { filtered[index] = current[index] &- previous[index] }
                deflater.append(out, count: rowBytes + 1)
                swap(&previous, &current)
            }
        }
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var header: [UInt8] = []
        header.appendBigEndian(UInt32(width))
        header.appendBigEndian(UInt32(height))
        header += [8, opaque ? 2 : 6, 0, 0, 0]  // depth, colour type, deflate, adaptive filters, no interlace
        png.appendChunk("IHDR", header)
        png.appendChunk("IDAT", deflater.finish())
        png.appendChunk("IEND", [])
        return png
    }
}

extension [UInt8] {
    fileprivate mutating func appendBigEndian(_ value: UInt32) {
        append(contentsOf: [
            UInt8(value >> 24), UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 8),
            UInt8(truncatingIfNeeded: value),
        ])
    }

    /// A PNG chunk: length, type, data and the CRC-32 of type and data.
    fileprivate mutating func appendChunk(_ type: String, _ data: [UInt8]) {
        appendBigEndian(UInt32(data.count))
        let start = count
        append(contentsOf: Array(type.utf8))
        append(contentsOf: data)
        let crc = self[start...].withUnsafeBytes { Flate.crc32($0) }
        appendBigEndian(crc)
    }
}
