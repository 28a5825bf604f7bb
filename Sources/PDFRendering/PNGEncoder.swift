import Dispatch
import PDFCore

#if canImport(Glibc)
    import Glibc
#endif

extension RenderedImage {
    /// The image as a PNG file: 8-bit RGB when every pixel is opaque (pages usually are), else
    /// RGBA with the colours un-premultiplied.
    ///
    /// Written here rather than by cairo's libpng writer, which tries every row filter on every
    /// row: each row is filtered with Up (a page's blank rows and margins become runs of zeros)
    /// and deflated at zlib's default level as it is made — a third of the time for files of about
    /// the same size. Deflating is most of the cost of a page, so a large image is cut into bands
    /// of rows deflated on separate threads (as pigz does) and joined into one zlib stream; each
    /// band's dictionary starts empty, which costs well under 1 % in size.
    ///
    /// - Parameters:
    ///   - compressionLevel: zlib's level, 1 (fastest: for tiles sent to a browser on the same
    ///     machine) to 9; 6 by default.
    ///   - maxThreads: the most threads deflating at once; 0 for one per core. Callers that already
    ///     encode several images at once pass 1.
    public func pngData(compressionLevel: Int = 6, maxThreads: Int = 0) -> [UInt8] {
        guard width > 0, height > 0, rgba.count >= width * height * 4 else { return [] }
        let opaque = rgba.withUnsafeBufferPointer { pixels in
            pixels.withMemoryRebound(to: UInt32.self) { words in
                var all: UInt32 = .max
                for index in 0..<(width &* height) { all &= words[index] }
                // Alpha is the fourth byte: the high byte of a little-endian word.
                return UInt32(littleEndian: all) >> 24 == 255
            }
        }
        let level = Int32(min(max(compressionLevel, 1), 9))
        let rowBytes = width * (opaque ? 3 : 4)
        let threads = maxThreads > 0 ? maxThreads : Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        // At least a megabyte a band: smaller ones gain nothing from a thread.
        let bands = max(1, min(threads, 8, height / 16, (height * (rowBytes + 1)) >> 20))
        let rowsPerBand = (height + bands - 1) / bands
        let pieces = BandPieces(count: bands)
        defer {
            _ = pieces.slots.deinitialize()
            pieces.slots.deallocate()
        }
        rgba.withUnsafeBufferPointer { buffer in
            let rows = PNGRows(pixels: buffer.baseAddress!, width: width, opaque: opaque)
            let height = height
            let encode = { @Sendable (band: Int) in
                let first = band * rowsPerBand
                let end = min(height, first + rowsPerBand)
                // Each band writes its own slot.
                pieces.slots[band] = rows.deflate(first..<end, level: level, last: end == height)
            }
            if bands == 1 {
                encode(0)
            } else {
                DispatchQueue.concurrentPerform(iterations: bands, execute: encode)
            }
        }
        var zlib: [UInt8] = [0x78, 0]
        // FLEVEL (RFC 1950) tells the level used; the header's two bytes are a multiple of 31.
        zlib[1] = (level == 1 ? 0 : level < 6 ? 1 : level == 6 ? 2 : 3) << 6
        zlib[1] += UInt8(31 - (0x7800 | Int(zlib[1])) % 31)
        var adler: UInt32 = 1
        for band in 0..<bands {
            let first = band * rowsPerBand
            let count = (min(height, first + rowsPerBand) - first) * (rowBytes + 1)
            zlib += pieces.slots[band].data
            adler =
                band == 0
                ? pieces.slots[band].adler
                : Flate.adler32(combining: adler, pieces.slots[band].adler, secondLength: count)
        }
        zlib.appendBigEndian(adler)
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var header: [UInt8] = []
        header.appendBigEndian(UInt32(width))
        header.appendBigEndian(UInt32(height))
        header += [8, opaque ? 2 : 6, 0, 0, 0]  // depth, colour type, deflate, adaptive filters, no interlace
        png.appendChunk("IHDR", header)
        png.appendChunk("IDAT", zlib)
        png.appendChunk("IEND", [])
        return png
    }
}

/// Each band's raw deflate and checksum, written by the band's thread.
private struct BandPieces: @unchecked Sendable {
    let slots: UnsafeMutableBufferPointer<(data: [UInt8], adler: UInt32)>

    init(count: Int) {
        slots = .allocate(capacity: count)
        slots.initialize(repeating: ([], 1))
    }
}

/// The rows of an image as PNG filters them, for one band at a time.
private struct PNGRows: @unchecked Sendable {
    /// Premultiplied RGBA.
    let pixels: UnsafePointer<UInt8>
    let width: Int
    /// RGB rows; else un-premultiplied RGBA.
    let opaque: Bool

    var rowBytes: Int { width * (opaque ? 3 : 4) }

    /// Raw deflate of `rows` filtered with Up (the row before the first comes from the image), and
    /// the Adler-32 of the filtered bytes.
    func deflate(_ rows: Range<Int>, level: Int32, last: Bool) -> (data: [UInt8], adler: UInt32) {
        let rowBytes = self.rowBytes
        let deflater = Flate.Deflater(level: level, raw: true)
        // The filter type, then the filtered row; the current and the previous row unfiltered.
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 3 * rowBytes + 1)
        buffer.initialize(repeating: 0)
        defer { buffer.deallocate() }
        let line = buffer.baseAddress!
        line[0] = 2  // Up
        let filtered = line + 1
        var current = filtered + rowBytes
        var previous = current + rowBytes
        if rows.lowerBound > 0 { unfiltered(rows.lowerBound - 1, into: previous) }
        var adler: UInt32 = 1
        for y in rows {
            unfiltered(y, into: current)
            for index in 0..<rowBytes { filtered[index] = current[index] &- previous[index] }
            adler = Flate.adler32(UnsafeRawBufferPointer(start: line, count: rowBytes + 1), continuing: adler)
            deflater.append(line, count: rowBytes + 1)
            swap(&previous, &current)
        }
        return (deflater.finish(last: last), adler)
    }

    /// Row `y` as stored in the file: R G B, or R G B A with the colours un-premultiplied.
    private func unfiltered(_ y: Int, into row: UnsafeMutablePointer<UInt8>) {
        var source = pixels + y * width * 4
        if opaque {
            for x in 0..<width {
                row[x &* 3] = source[0]
                row[x &* 3 &+ 1] = source[1]
                row[x &* 3 &+ 2] = source[2]
                source += 4
            }
            return
        }
        for x in 0..<width {
            let alpha = Int(source[3])
            for channel in 0..<3 {
                let value = Int(source[channel])
                row[x * 4 + channel] = alpha == 0 ? 0 : UInt8(min(255, (value * 255 + alpha / 2) / alpha))
            }
            row[x * 4 + 3] = UInt8(alpha)
            source += 4
        }
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
