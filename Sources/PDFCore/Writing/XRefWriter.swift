/// Writes cross-reference sections (ISO 32000-2 §7.5.4 tables, §7.5.8 streams).
package enum XRefWriter {
    /// Consecutive runs of object numbers: (first, count).
    static func subsections(_ numbers: [Int]) -> [(first: Int, count: Int)] {
        var result: [(first: Int, count: Int)] = []
        for number in numbers {
            if let last = result.last, last.first + last.count == number {
                result[result.count - 1].count += 1
            } else {
                result.append((number, 1))
            }
        }
        return result
    }

    /// A table and its trailer, then `startxref` and `%%EOF`.
    /// - Parameter entries: sorted by object number; offsets already relative to the header.
    package static func table(
        _ entries: [(number: Int, entry: XRefEntry)], trailer: PDFDictionary, at offset: Int
    ) -> [UInt8] {
        var serializer = PDFSerializer()
        serializer.append("xref\n")
        var index = 0
        for subsection in subsections(entries.map(\.number)) {
            serializer.append("\(subsection.first) \(subsection.count)\n")
            for _ in 0..<subsection.count {
                let line: String
                switch entries[index].entry {
                case .inFile(let position, let generation):
                    line = pad(position, 10) + " " + pad(generation, 5) + " n \n"
                case .free(let generation):
                    line = "0000000000 " + pad(generation, 5) + " f \n"
                case .compressed:
                    line = "0000000000 00000 f \n"  // not expressible in a table; callers use a stream
                }
                serializer.append(line)
                index += 1
            }
        }
        serializer.append("trailer\n")
        serializer.write(.dictionary(trailer))
        serializer.append("\nstartxref\n\(offset)\n%%EOF\n")
        return serializer.output
    }

    /// A cross-reference stream object numbered `number` (its own entry included), then
    /// `startxref` and `%%EOF`.
    package static func stream(
        _ entries: [(number: Int, entry: XRefEntry)], trailer: PDFDictionary, number: Int, at offset: Int
    ) -> [UInt8] {
        var all = entries
        all.append((number, .inFile(offset: offset, generation: 0)))
        all.sort { $0.number < $1.number }
        let maxOffset =
            all.map { entry -> Int in
                switch entry.entry {
                case .inFile(let position, _): position
                case .compressed(let stream, _): stream
                case .free: 0
                }
            }.max() ?? 0
        let middle = max(1, bytesNeeded(maxOffset))
        let last = max(
            1,
            bytesNeeded(
                all.map { entry -> Int in
                    switch entry.entry {
                    case .inFile(_, let generation), .free(let generation): generation
                    case .compressed(_, let index): index
                    }
                }.max() ?? 0))
        var rows: [UInt8] = []
        rows.reserveCapacity(all.count * (1 + middle + last))
        func put(_ value: Int, _ width: Int) {
            for shift in stride(from: (width - 1) * 8, through: 0, by: -8) {
                rows.append(UInt8(truncatingIfNeeded: value >> shift))
            }
        }
        for item in all {
            switch item.entry {
            case .free(let generation):
                put(0, 1)
                put(0, middle)
                put(generation, last)
            case .inFile(let position, let generation):
                put(1, 1)
                put(position, middle)
                put(generation, last)
            case .compressed(let stream, let index):
                put(2, 1)
                put(stream, middle)
                put(index, last)
            }
        }
        var dictionary = trailer
        dictionary[.type] = .name(.xRef)
        dictionary[.w] = .array([1, .integer(middle), .integer(last)])
        var index: [PDFObject] = []
        for subsection in subsections(all.map(\.number)) {
            index.append(.integer(subsection.first))
            index.append(.integer(subsection.count))
        }
        dictionary[.index] = .array(index)
        let stream = PDFStream(dictionary: dictionary, data: rows, compress: true)
        var serializer = PDFSerializer()
        serializer.append("\(number) 0 obj\n")
        serializer.write(.stream(stream))
        serializer.append("\nendobj\nstartxref\n\(offset)\n%%EOF\n")
        return serializer.output
    }

    private static func bytesNeeded(_ value: Int) -> Int {
        var count = 0
        var remaining = value
        while remaining > 0 {
            count += 1
            remaining >>= 8
        }
        return count
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}
