import Foundation

/// A valid PDF of any size, made in milliseconds: one page of text, and one stream object of zero
/// bytes that nothing refers to (as a stream an update replaced stays in a file). The stream's data
/// is a hole in a sparse file, so a 1 GB document takes no disk space and no time to make, while
/// every reader sees an ordinary file of that size; what is written from it is real. Nothing
/// refers to the stream, so `qpdf --check` checks the structure without reading a gigabyte.
///
///     header, 1 catalog, 2 pages, 3 page, 4 content, 5 the large stream, xref, trailer, startxref, %%EOF
enum LargeDocument {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Writes the document to `path`, with a stream of `streamBytes` zero bytes.
    /// - Returns: the file's size.
    @discardableResult
    static func write(to path: String, streamBytes: Int) throws -> Int {
        var offsets: [Int] = []
        var head = "%PDF-1.7\n%\u{E2}\u{E3}\u{CF}\u{D3}\n"
        func object(_ body: String) {
            offsets.append(head.utf8.count)
            head += "\(offsets.count) 0 obj\n\(body)\nendobj\n"
        }
        let content = "BT /F1 24 Tf 72 700 Td (One page and a stream of \(streamBytes) bytes) Tj ET"
        object("<< /Type /Catalog /Pages 2 0 R >>")
        object("<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
        object(
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
                + "/Resources << /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >> >> >>")
        object("<< /Length \(content.utf8.count) >>\nstream\n\(content)\nendstream")
        offsets.append(head.utf8.count)
        head += "5 0 obj\n<< /Length \(streamBytes) >>\nstream\n"
        let dataEnd = head.utf8.count + streamBytes
        var tail = "\nendstream\nendobj\n"
        let xref = dataEnd + tail.utf8.count
        tail += "xref\n0 6\n0000000000 65535 f \n"
        for offset in offsets {
            let digits = String(offset)
            tail += String(repeating: "0", count: 10 - digits.count) + digits + " 00000 n \n"
        }
        let id = "<4C61726765446F63756D656E74>"
        tail += "trailer\n<< /Size 6 /Root 1 0 R /ID [\(id) \(id)] >>\nstartxref\n\(xref)\n%%EOF\n"

        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw Failure(description: "cannot create \(path)") }
        defer { close(descriptor) }
        // The head at 0 and the tail after the stream's data: what lies between is a hole, read as zeros.
        for (text, offset) in [(head, 0), (tail, dataEnd)] {
            let bytes = Array(text.utf8)
            let written = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, off_t(offset)) }
            guard written == bytes.count else {
                throw Failure(description: "cannot write \(path): \(String(cString: strerror(errno)))")
            }
        }
        return dataEnd + tail.utf8.count
    }
}
