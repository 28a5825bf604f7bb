import PDFCore

/// Whether an object of one revision equals an object of another: by value, streams by their
/// dictionary and their encoded bytes (compared in slices, so a large stream is not held twice).
enum ObjectComparison {
    static func same(_ a: PDFObject, in first: PDFDocument, _ b: PDFObject, in second: PDFDocument) -> Bool {
        switch (a, b) {
        case (.stream(let x), .stream(let y)):
            return sameStream(x, in: first, y, in: second)
        case (.array(let x), .array(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { same($0, in: first, $1, in: second) }
        case (.dictionary(let x), .dictionary(let y)):
            guard x.count == y.count else { return false }
            return x.allSatisfy { entry in y[entry.key].map { same(entry.value, in: first, $0, in: second) } ?? false }
        default:
            return a == b
        }
    }

    static func sameStream(_ a: PDFStream, in first: PDFDocument, _ b: PDFStream, in second: PDFDocument) -> Bool {
        var x = a.dictionary
        var y = b.dictionary
        // /Length may be written differently (direct or indirect) for the same data.
        x[.length] = nil
        y[.length] = nil
        guard x == y else { return false }
        if let rangeA = a.rangeInFile, let rangeB = b.rangeInFile, first.encryption == nil, second.encryption == nil {
            if rangeA == rangeB { return true }
            guard rangeA.count == rangeB.count else { return false }
            let slice = 1 << 20
            var offset = 0
            while offset < rangeA.count {
                let count = min(slice, rangeA.count - offset)
                let lower = rangeA.lowerBound + offset
                let otherLower = rangeB.lowerBound + offset
                guard first.bytes(in: lower..<(lower + count)) == second.bytes(in: otherLower..<(otherLower + count))
                else { return false }
                offset += count
            }
            return true
        }
        return a.encodedBytes() == b.encodedBytes()
    }
}
