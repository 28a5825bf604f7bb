/// Assembles a PDF by hand, byte by byte, remembering where each object starts: for files that
/// no writer would produce (hybrid sections, broken offsets, loops).
public struct RawPDF {
    public private(set) var bytes: [UInt8] = []
    /// Where each `n 0 obj` starts.
    public private(set) var offsets: [Int: Int] = [:]

    public init(header: String = "%PDF-1.7\n") { append(header) }

    public mutating func append(_ text: String) { bytes.append(contentsOf: text.utf8) }
    public mutating func append(_ data: [UInt8]) { bytes.append(contentsOf: data) }

    /// Appends `n 0 obj body endobj`.
    public mutating func object(_ number: Int, _ body: String) {
        offsets[number] = bytes.count
        append("\(number) 0 obj\n\(body)\nendobj\n")
    }

    /// Appends a stream object with the right `/Length`.
    public mutating func stream(_ number: Int, dictionary: String, data: [UInt8]) {
        offsets[number] = bytes.count
        append("\(number) 0 obj\n<<\(dictionary) /Length \(data.count)>>\nstream\n")
        append(data)
        append("\nendstream\nendobj\n")
    }

    /// The current length: the offset of what is appended next.
    public var position: Int { bytes.count }

    /// Appends a classic cross-reference table for objects `0...size-1` (missing ones free), a
    /// trailer, `startxref` and `%%EOF`; returns the table's offset.
    @discardableResult
    public mutating func xrefTable(size: Int, trailer: String, numbers: [Int]? = nil) -> Int {
        let start = bytes.count
        append("xref\n")
        let listed = numbers ?? Array(0..<size)
        var runs: [(Int, Int)] = []
        for number in listed {
            if let last = runs.last, last.0 + last.1 == number {
                runs[runs.count - 1].1 += 1
            } else {
                runs.append((number, 1))
            }
        }
        for (first, count) in runs {
            append("\(first) \(count)\n")
            for number in first..<(first + count) {
                if let offset = offsets[number] {
                    append(pad(offset, 10) + " 00000 n \n")
                } else {
                    append("0000000000 65535 f \n")
                }
            }
        }
        append("trailer\n\(trailer)\nstartxref\n\(start)\n%%EOF\n")
        return start
    }

    private func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}
