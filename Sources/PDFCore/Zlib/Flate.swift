import CShims
import CZlib

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// FlateDecode (ISO 32000-2 §7.4.4) through zlib.
package enum Flate {
    /// Inflates zlib data. Corrupt or truncated data keeps what was inflated before the damage
    /// (as qpdf and pdf.js do); data without a zlib header is retried as raw deflate.
    /// - Throws: `.limitExceeded` past `maxSize`, `.decodeFailed` when nothing can be inflated.
    package static func decompress(_ input: UnsafeRawBufferPointer, maxSize: Int) throws(PDFError) -> [UInt8] {
        try decompress(input, maxSize: maxSize, stopAfter: nil).output
    }

    /// Inflates zlib data as ``decompress(_:maxSize:)`` does, stopping once `stopAfter` bytes are out when it is
    /// given: a stream read only in part (an object stream's first objects) is inflated no further than that.
    /// - Returns: the bytes inflated (exactly `stopAfter` when it stopped there) and whether they are all the
    ///   data holds (false when it stopped, even if the data happened to end there too).
    package static func decompress(
        _ input: UnsafeRawBufferPointer, maxSize: Int, stopAfter: Int?
    ) throws(PDFError) -> (output: [UInt8], complete: Bool) {
        let result = try inflate(input, windowBits: 15, maxSize: maxSize, stopAfter: stopAfter)
        if result.ok || !result.output.isEmpty { return (result.output, !result.stopped) }
        let raw = try inflate(input, windowBits: -15, maxSize: maxSize, stopAfter: stopAfter)
        if raw.ok || !raw.output.isEmpty { return (raw.output, !raw.stopped) }
        if input.isEmpty { return ([], true) }
        throw PDFError(.decodeFailed, "Flate data is corrupt: \(result.message)")
    }

    private static func inflate(
        _ input: UnsafeRawBufferPointer, windowBits: Int32, maxSize: Int, stopAfter: Int?
    ) throws(PDFError) -> (output: [UInt8], ok: Bool, stopped: Bool, message: String) {
        var stream = z_stream()
        guard cshim_inflate_init2(&stream, windowBits) == Z_OK else { return ([], false, false, "zlib init failed") }
        defer { inflateEnd(&stream) }
        // One byte past the limit tells "exactly maxSize" from "more"; never overflow for Int.max.
        let ceiling = maxSize < Int.max ? maxSize + 1 : Int.max
        // Stopping early caps the output at what is asked for, below the limit.
        let stopping = stopAfter.map { $0 < ceiling } ?? false
        let cap = stopping ? max(0, stopAfter ?? 0) : ceiling
        var output = [UInt8](repeating: 0, count: min(cap, max(1024, min(input.count * 4, cap))))
        var produced = 0
        var stopped = false
        stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: Bytef.self))
        stream.avail_in = UInt32(clamping: input.count)
        var status = Z_OK
        while true {
            if produced == output.count {
                let grown = min(output.count &* 2, cap)
                guard grown > output.count else {
                    if stopping {
                        stopped = true
                        break
                    }
                    throw PDFError(.limitExceeded, "Flate data inflates to more than \(maxSize) bytes")
                }
                grow(&output, to: grown)
            }
            status = output.withUnsafeMutableBytes { buffer -> Int32 in
                stream.next_out = buffer.baseAddress!.assumingMemoryBound(to: Bytef.self) + produced
                let room = UInt32(clamping: buffer.count - produced)
                stream.avail_out = room
                let status = CZlib.inflate(&stream, Z_NO_FLUSH)
                produced += Int(room - stream.avail_out)
                return status
            }
            if status == Z_STREAM_END { break }
            if status == Z_BUF_ERROR && stream.avail_in == 0 { break }  // truncated: keep what we have
            if status != Z_OK && status != Z_BUF_ERROR { break }
        }
        if produced > maxSize {
            throw PDFError(.limitExceeded, "Flate data inflates to more than \(maxSize) bytes")
        }
        output.removeSubrange(produced...)
        let message = stream.msg.map { String(cString: $0) } ?? "error \(status)"
        let ok = stopped || status == Z_STREAM_END || (status == Z_BUF_ERROR && stream.avail_in == 0)
        return (output, ok, stopped, message)
    }

    /// Lengthens `output` to `count` bytes, the new ones zero: one copy and one `memset` (appending a repeated
    /// element goes byte by byte, which in a debug build costs a second a few megabytes).
    private static func grow(_ output: inout [UInt8], to count: Int) {
        let old = output.count
        output = output.withUnsafeBytes { previous in
            [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
                let raw = UnsafeMutableRawBufferPointer(buffer)
                if let from = previous.baseAddress, old > 0 {
                    raw.baseAddress!.copyMemory(from: from, byteCount: old)
                }
                _ = memset(raw.baseAddress! + old, 0, count - old)
                initialized = count
            }
        }
    }

    /// Deflates `data` with zlib's default level.
    package static func compress(_ data: [UInt8], level: Int32 = 6) -> [UInt8] {
        var stream = z_stream()
        guard cshim_deflate_init(&stream, level) == Z_OK else { return [] }
        defer { deflateEnd(&stream) }
        let bound = Int(deflateBound(&stream, UInt(data.count)))
        var output = [UInt8](repeating: 0, count: bound)
        let written = data.withUnsafeBytes { input -> Int in
            output.withUnsafeMutableBytes { buffer -> Int in
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: Bytef.self))
                stream.avail_in = UInt32(data.count)
                stream.next_out = buffer.baseAddress!.assumingMemoryBound(to: Bytef.self)
                stream.avail_out = UInt32(bound)
                _ = deflate(&stream, Z_FINISH)
                return bound - Int(stream.avail_out)
            }
        }
        output.removeSubrange(written...)
        return output
    }

    /// Deflates data given piece by piece (rows of an image, say) into a growing output, so that
    /// the whole input never has to exist at once.
    package final class Deflater {
        private var stream = z_stream()
        private var isOpen: Bool
        /// The compressed bytes so far (complete after ``finish()``).
        package private(set) var output: [UInt8] = []
        private var chunk = [UInt8](repeating: 0, count: 1 << 16)

        /// - Parameter raw: raw deflate, without the zlib header and checksum: a piece of a longer
        ///   stream (see ``finish(last:)``), compressed apart from the others.
        package init(level: Int32 = 6, raw: Bool = false) {
            isOpen = (raw ? cshim_deflate_init_raw(&stream, level) : cshim_deflate_init(&stream, level)) == Z_OK
        }

        deinit { if isOpen { deflateEnd(&stream) } }

        /// Compresses `bytes` (`count` of them).
        package func append(_ bytes: UnsafePointer<UInt8>, count: Int) {
            run(bytes, count: count, flush: Z_NO_FLUSH)
        }

        /// Ends the stream; ``output`` is then the whole zlib stream (empty if zlib failed).
        ///
        /// - Parameter last: false ends a raw piece that others follow: its blocks end on a byte
        ///   boundary (a sync flush) and none is marked final, so the next piece's blocks can be
        ///   appended to it as they are.
        package func finish(last: Bool = true) -> [UInt8] {
            var none: UInt8 = 0
            run(&none, count: 0, flush: last ? Z_FINISH : Z_SYNC_FLUSH)
            if isOpen { deflateEnd(&stream) }
            isOpen = false
            return output
        }

        private func run(_ bytes: UnsafePointer<UInt8>, count: Int, flush: Int32) {
            guard isOpen else { return }
            stream.next_in = UnsafeMutablePointer(mutating: bytes)
            stream.avail_in = UInt32(count)
            repeat {
                let status = chunk.withUnsafeMutableBufferPointer { buffer -> Int32 in
                    stream.next_out = buffer.baseAddress
                    stream.avail_out = UInt32(buffer.count)
                    let status = deflate(&stream, flush)
                    output.append(contentsOf: buffer[..<(buffer.count - Int(stream.avail_out))])
                    return status
                }
                guard status == Z_OK || status == Z_BUF_ERROR || status == Z_STREAM_END else {
                    output = []
                    isOpen = false
                    deflateEnd(&stream)
                    return
                }
                if flush == Z_FINISH, status == Z_STREAM_END { return }
            } while stream.avail_out == 0 || flush == Z_FINISH
        }
    }

    /// The Adler-32 checksum of `bytes` (a zlib stream's trailer), continuing `adler` (1 to start).
    package static func adler32(_ bytes: UnsafeRawBufferPointer, continuing adler: UInt32 = 1) -> UInt32 {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return adler }
        return UInt32(CZlib.adler32(UInt(adler), base.assumingMemoryBound(to: Bytef.self), UInt32(bytes.count)))
    }

    /// The Adler-32 of two pieces joined, from each one's checksum and the second one's length.
    package static func adler32(combining first: UInt32, _ second: UInt32, secondLength: Int) -> UInt32 {
        UInt32(CZlib.adler32_combine(UInt(first), UInt(second), secondLength))
    }

    /// The CRC-32 of `bytes` (ISO 3309, as PNG chunks and ZIP entries use), continuing `crc`.
    package static func crc32(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32 = 0) -> UInt32 {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return crc }
        return UInt32(CZlib.crc32(UInt(crc), base.assumingMemoryBound(to: Bytef.self), UInt32(bytes.count)))
    }
}
