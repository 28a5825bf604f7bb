import CShims
import CZlib

/// FlateDecode (ISO 32000-2 §7.4.4) through zlib.
package enum Flate {
    /// Inflates zlib data. Corrupt or truncated data keeps what was inflated before the damage
    /// (as qpdf and pdf.js do); data without a zlib header is retried as raw deflate.
    /// - Throws: `.limitExceeded` past `maxSize`, `.decodeFailed` when nothing can be inflated.
    package static func decompress(_ input: UnsafeRawBufferPointer, maxSize: Int) throws(PDFError) -> [UInt8] {
        let result = try inflate(input, windowBits: 15, maxSize: maxSize)
        if result.ok || !result.output.isEmpty { return result.output }
        let raw = try inflate(input, windowBits: -15, maxSize: maxSize)
        if raw.ok || !raw.output.isEmpty { return raw.output }
        if input.isEmpty { return [] }
        throw PDFError(.decodeFailed, "Flate data is corrupt: \(result.message)")
    }

    private static func inflate(
        _ input: UnsafeRawBufferPointer, windowBits: Int32, maxSize: Int
    ) throws(PDFError) -> (output: [UInt8], ok: Bool, message: String) {
        var stream = z_stream()
        guard cshim_inflate_init2(&stream, windowBits) == Z_OK else { return ([], false, "zlib init failed") }
        defer { inflateEnd(&stream) }
        // One byte past the limit tells "exactly maxSize" from "more"; never overflow for Int.max.
        let ceiling = maxSize < Int.max ? maxSize + 1 : Int.max
        var output = [UInt8](repeating: 0, count: max(1024, min(input.count * 4, ceiling)))
        var produced = 0
        stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: Bytef.self))
        stream.avail_in = UInt32(clamping: input.count)
        var status = Z_OK
        while true {
            if produced == output.count {
                let grown = min(output.count &* 2, ceiling)
                guard grown > output.count else {
                    throw PDFError(.limitExceeded, "Flate data inflates to more than \(maxSize) bytes")
                }
                output.append(contentsOf: repeatElement(0, count: grown - output.count))
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
        return (output, status == Z_STREAM_END || (status == Z_BUF_ERROR && stream.avail_in == 0), message)
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
