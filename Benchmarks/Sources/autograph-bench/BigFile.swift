import Glibc

/// The generated 1 GB PDF of step 3: 1000 pages, each with a ~1 MiB uncompressed content stream of
/// ordinary text and path operators, written object by object (never more than a few MB in memory)
/// with a classic cross-reference table:
///
///     header, 3 (font), then per page 4+2i (content) and 5+2i (page), 2 (page tree), 1 (catalog),
///     xref, trailer, startxref, %%EOF
enum BigFile {
    static let pages = 1000
    static let contentBytes = 1 << 20

    /// True when `path` holds a whole generated file (at least `minimumSize` bytes and a final `%%EOF`).
    static func isComplete(_ path: String, minimumSize: Int = 1_000_000_000) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0, info.st_size >= minimumSize, info.st_size >= 32 else { return false }
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var tail = [UInt8](repeating: 0, count: 32)
        let count = tail.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, info.st_size - 32) }
        return count == 32 && String(decoding: tail, as: UTF8.self).contains("%%EOF")
    }

    /// Writes the file to `path` (through `path.partial`, renamed when complete), with progress on stderr.
    /// Other sizes make the baseline file (1 page of a few KB).
    static func generate(at path: String, pages: Int = pages, contentBytes: Int = contentBytes) throws(BenchError) {
        let objectCount = 4 + 2 * pages
        let partial = path + ".partial"
        let descriptor = open(partial, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { throw BenchError("cannot create \(partial): \(String(cString: strerror(errno)))") }
        var writer = Writer(descriptor: descriptor)
        var offsets = [Int](repeating: 0, count: objectCount)
        let template = contentTemplate(bytes: contentBytes)

        writer.append("%PDF-1.7\n%\u{E2}\u{E3}\u{CF}\u{D3}\n")
        offsets[3] = writer.offset
        writer.append(
            "3 0 obj\n<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>\nendobj\n")
        for page in 0..<pages {
            let content = 4 + 2 * page
            let header = "% Autograph benchmark page \(page + 1) of \(pages)\n"
            offsets[content] = writer.offset
            writer.append("\(content) 0 obj\n<< /Length \(header.utf8.count + template.count) >>\nstream\n")
            writer.append(header)
            writer.append(template)
            writer.append("\nendstream\nendobj\n")
            offsets[content + 1] = writer.offset
            writer.append(
                "\(content + 1) 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
                    + "/Resources << /Font << /F1 3 0 R >> >> /Contents \(content) 0 R >>\nendobj\n")
            try writer.flush()
            // A moving line on a terminal; a line per quarter in a log.
            let message = "  generating \(path): \(page + 1)/\(pages) pages (\(Format.megabytes(bytes: writer.offset)))"
            if page % 25 == 24 { Progress.update(message) }
            if pages >= 4, (page + 1) % (pages / 4) == 0, isatty(2) == 0 { Progress.note(message) }
        }
        offsets[2] = writer.offset
        let kids = (0..<pages).map { "\(5 + 2 * $0) 0 R" }.joined(separator: " ")
        writer.append("2 0 obj\n<< /Type /Pages /Count \(pages) /Kids [\(kids)] >>\nendobj\n")
        offsets[1] = writer.offset
        writer.append("1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n")

        let xref = writer.offset
        writer.append("xref\n0 \(objectCount)\n0000000000 65535 f \n")
        for number in 1..<objectCount {
            let digits = String(offsets[number])
            writer.append(String(repeating: "0", count: 10 - digits.count) + digits + " 00000 n \n")
        }
        let id = "<4175746F67726170682062656E636831>"
        writer.append("trailer\n<< /Size \(objectCount) /Root 1 0 R /ID [\(id) \(id)] >>\nstartxref\n\(xref)\n%%EOF\n")
        try writer.flush()
        guard close(descriptor) == 0, rename(partial, path) == 0 else {
            throw BenchError("cannot finish \(path): \(String(cString: strerror(errno)))")
        }
        Progress.finish(
            "  generated \(path): \(pages) page\(pages == 1 ? "" : "s"), \(Format.megabytes(bytes: writer.offset))")
    }

    /// About 1 MiB of content: lines of text and rules down the page, over and over.
    static func contentTemplate(bytes: Int) -> [UInt8] {
        var text = ""
        var line = 0
        while text.utf8.count < bytes - 200 {
            let y = 760 - 12 * (line % 60)
            if line % 60 == 0 { text += "0 g 0.5 w\n" }
            text += "BT /F1 9 Tf 72 \(y) Td (Line \(line + 1): Autograph streams this page to disk; "
            text += "the quick brown fox jumps over the lazy dog.) Tj ET\n"
            if line % 3 == 0 { text += "72 \(y - 3) m 540 \(y - 3) l S\n" }
            if line % 10 == 0 { text += "q 0.9 g 70 \(y - 2) 472 11 re f Q\n" }
            line += 1
        }
        return Array(text.utf8)
    }

    /// Buffered sequential writes with the running offset.
    struct Writer {
        let descriptor: Int32
        var offset = 0
        var buffer: [UInt8] = []

        init(descriptor: Int32) {
            self.descriptor = descriptor
            buffer.reserveCapacity(2 << 20)
        }

        mutating func append(_ text: String) { append(Array(text.utf8)) }

        mutating func append(_ bytes: [UInt8]) {
            buffer.append(contentsOf: bytes)
            offset += bytes.count
        }

        mutating func flush() throws(BenchError) {
            var written = 0
            while written < buffer.count {
                let count = buffer.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, $0.count - written) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { throw BenchError("write failed: \(String(cString: strerror(errno)))") }
                written += count
            }
            buffer.removeAll(keepingCapacity: true)
        }
    }
}
