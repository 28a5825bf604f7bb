import PDFCore

/// A JBIG2 Huffman table (T.88 Annex B): lines of prefix length, range length and range low, with
/// an optional lower range line, upper range line and out-of-band value; codes assigned by B.3.
struct HuffmanTable {
    struct Line {
        var prefixLength: Int
        var rangeLength: Int
        var rangeLow: Int
        var kind: Kind = .normal
    }

    enum Kind {
        /// Values RANGELOW … RANGELOW + 2^RANGELEN − 1.
        case normal
        /// Values ≤ RANGELOW: RANGELOW − (RANGELEN bits).
        case lower
        /// Out of band.
        case outOfBand
    }

    let lines: [Line]
    /// Code → line index, per prefix length.
    private var codes: [[Int: Int]]
    let maxPrefixLength: Int

    init(_ lines: [Line]) throws(PDFError) {
        self.lines = lines
        maxPrefixLength = lines.map(\.prefixLength).max() ?? 0
        guard maxPrefixLength <= 32 else { throw JBIG2Error.invalid("Huffman prefix longer than 32 bits") }
        // B.3: assign prefix codes by length, in line order.
        var lengthCounts = [Int](repeating: 0, count: maxPrefixLength + 1)
        for line in lines where line.prefixLength > 0 { lengthCounts[line.prefixLength] += 1 }
        codes = [[Int: Int]](repeating: [:], count: maxPrefixLength + 1)
        var firstCode = 0
        for length in stride(from: 1, through: maxPrefixLength, by: 1) {
            firstCode = (firstCode + lengthCounts[length - 1]) << 1
            var code = firstCode
            for (index, line) in lines.enumerated() where line.prefixLength == length {
                codes[length][code] = index
                code += 1
            }
        }
    }

    /// The prefix code assigned to each line (nil for lines of prefix length 0), for tests.
    var assignedCodes: [(code: Int, length: Int)?] {
        var result = [(code: Int, length: Int)?](repeating: nil, count: lines.count)
        for (length, table) in codes.enumerated() {
            for (code, index) in table { result[index] = (code, length) }
        }
        return result
    }

    /// Decodes one value; nil is OOB.
    func decode(_ reader: inout JBIG2Reader) throws(PDFError) -> Int? {
        var code = 0
        for length in stride(from: 1, through: maxPrefixLength, by: 1) {
            code = code << 1 | reader.bit()
            if let index = codes[length][code] {
                let line = lines[index]
                switch line.kind {
                case .outOfBand: return nil
                case .lower: return line.rangeLow - (try reader.bits(line.rangeLength))
                case .normal: return line.rangeLow + (try reader.bits(line.rangeLength))
                }
            }
        }
        if reader.pastEnd > 0 { throw JBIG2Error.truncated() }
        throw JBIG2Error.invalid("invalid Huffman code")
    }

    /// A value that must not be OOB.
    func decodeValue(_ reader: inout JBIG2Reader) throws(PDFError) -> Int {
        guard let value = try decode(&reader) else { throw JBIG2Error.invalid("unexpected out-of-band value") }
        return value
    }

    /// A table defined by a tables segment (T.88 §7.4.13, B.2).
    init(segment data: [UInt8], maxLines: Int) throws(PDFError) {
        var reader = JBIG2Reader(data)
        let flags = Int(try reader.byte())
        let hasOutOfBand = flags & 1 != 0
        let prefixBits = (flags >> 1 & 7) + 1
        let rangeBits = (flags >> 4 & 7) + 1
        let low = try reader.int32()
        let high = try reader.int32()
        guard low < high else { throw JBIG2Error.invalid("Huffman table range \(low)…\(high)") }
        var lines: [Line] = []
        var current = low
        while current < high {
            let prefixLength = try reader.bits(prefixBits)
            let rangeLength = try reader.bits(rangeBits)
            guard rangeLength <= 32 else { throw JBIG2Error.invalid("Huffman range length \(rangeLength)") }
            lines.append(Line(prefixLength: prefixLength, rangeLength: rangeLength, rangeLow: current))
            current += 1 << rangeLength
            guard lines.count <= maxLines else { throw JBIG2Error.limit("Huffman table with too many lines") }
        }
        lines.append(Line(prefixLength: try reader.bits(prefixBits), rangeLength: 32, rangeLow: low - 1, kind: .lower))
        lines.append(Line(prefixLength: try reader.bits(prefixBits), rangeLength: 32, rangeLow: high))
        if hasOutOfBand {
            lines.append(Line(prefixLength: try reader.bits(prefixBits), rangeLength: 0, rangeLow: 0, kind: .outOfBand))
        }
        try self.init(lines)
    }

    /// The standard tables B.1 … B.15 (T.88 Annex B.5), `standard[n]` being Table B.n.
    static let standard: [HuffmanTable] = {
        // (PREFLEN, RANGELEN, RANGELOW) in the order the tables list them; "L" lower, "O" OOB.
        typealias Row = (Int, Int, Int)
        func table(_ rows: [Row], lower: Row? = nil, upper: Row? = nil, oob: Int? = nil) -> HuffmanTable {
            var lines = rows.map { Line(prefixLength: $0.0, rangeLength: $0.1, rangeLow: $0.2) }
            if let lower {
                lines.append(Line(prefixLength: lower.0, rangeLength: lower.1, rangeLow: lower.2, kind: .lower))
            }
            if let upper { lines.append(Line(prefixLength: upper.0, rangeLength: upper.1, rangeLow: upper.2)) }
            if let oob { lines.append(Line(prefixLength: oob, rangeLength: 0, rangeLow: 0, kind: .outOfBand)) }
            // The standard tables are well formed: construction cannot fail.
            return (try? HuffmanTable(lines)) ?? (try! HuffmanTable([]))
        }
        return [
            try! HuffmanTable([]),
            // B.1
            table([(1, 4, 0), (2, 8, 16), (3, 16, 272)], upper: (3, 32, 65808)),
            // B.2
            table([(1, 0, 0), (2, 0, 1), (3, 0, 2), (4, 3, 3), (5, 6, 11)], upper: (6, 32, 75), oob: 6),
            // B.3
            table(
                [(8, 8, -256), (1, 0, 0), (2, 0, 1), (3, 0, 2), (4, 3, 3), (5, 6, 11)], lower: (8, 32, -257),
                upper: (7, 32, 75), oob: 6),
            // B.4
            table([(1, 0, 1), (2, 0, 2), (3, 0, 3), (4, 3, 4), (5, 6, 12)], upper: (5, 32, 76)),
            // B.5
            table(
                [(7, 8, -255), (1, 0, 1), (2, 0, 2), (3, 0, 3), (4, 3, 4), (5, 6, 12)], lower: (7, 32, -256),
                upper: (6, 32, 76)),
            // B.6
            table(
                [
                    (5, 10, -2048), (4, 9, -1024), (4, 8, -512), (4, 7, -256), (5, 6, -128), (5, 5, -64),
                    (4, 5, -32), (2, 7, 0), (3, 7, 128), (3, 8, 256), (4, 9, 512), (4, 10, 1024),
                ], lower: (6, 32, -2049), upper: (6, 32, 2048)),
            // B.7
            table(
                [
                    (4, 9, -1024), (3, 8, -512), (4, 7, -256), (5, 6, -128), (5, 5, -64), (4, 5, -32), (4, 5, 0),
                    (5, 5, 32), (5, 6, 64), (4, 7, 128), (3, 8, 256), (3, 9, 512), (3, 10, 1024),
                ], lower: (5, 32, -1025), upper: (5, 32, 2048)),
            // B.8
            table(
                [
                    (8, 3, -15), (9, 1, -7), (8, 1, -5), (9, 0, -3), (7, 0, -2), (4, 0, -1), (2, 1, 0), (5, 0, 2),
                    (6, 0, 3), (3, 4, 4), (6, 1, 20), (4, 4, 22), (4, 5, 38), (5, 6, 70), (5, 7, 134), (6, 7, 262),
                    (7, 8, 390), (6, 10, 646),
                ], lower: (9, 32, -16), upper: (9, 32, 1670), oob: 2),
            // B.9
            table(
                [
                    (8, 4, -31), (9, 2, -15), (8, 2, -11), (9, 1, -7), (7, 1, -5), (4, 1, -3), (3, 1, -1), (3, 1, 1),
                    (5, 1, 3), (6, 1, 5), (3, 5, 7), (6, 2, 39), (4, 5, 43), (4, 6, 75), (5, 7, 139), (5, 8, 267),
                    (6, 8, 523), (7, 9, 779), (6, 11, 1291),
                ], lower: (9, 32, -32), upper: (9, 32, 3339), oob: 2),
            // B.10
            table(
                [
                    (7, 4, -21), (8, 0, -5), (7, 0, -4), (5, 0, -3), (2, 2, -2), (5, 0, 2), (6, 0, 3), (7, 0, 4),
                    (8, 0, 5), (2, 6, 6), (5, 5, 70), (6, 5, 102), (6, 6, 134), (6, 7, 198), (6, 8, 326),
                    (6, 9, 582), (6, 10, 1094), (7, 11, 2118),
                ], lower: (8, 32, -22), upper: (8, 32, 4166), oob: 2),
            // B.11
            table(
                [
                    (1, 0, 1), (2, 1, 2), (4, 0, 4), (4, 1, 5), (5, 1, 7), (5, 2, 9), (6, 2, 13), (7, 2, 17),
                    (7, 3, 21), (7, 4, 29), (7, 5, 45), (7, 6, 77),
                ], upper: (7, 32, 141)),
            // B.12
            table(
                [
                    (1, 0, 1), (2, 0, 2), (3, 1, 3), (5, 0, 5), (5, 1, 6), (6, 1, 8), (7, 0, 10), (7, 1, 11),
                    (7, 2, 13), (7, 3, 17), (7, 4, 25), (8, 5, 41),
                ], upper: (8, 32, 73)),
            // B.13
            table(
                [
                    (1, 0, 1), (3, 0, 2), (4, 0, 3), (5, 0, 4), (4, 1, 5), (3, 3, 7), (6, 1, 15), (6, 2, 17),
                    (6, 3, 21), (6, 4, 29), (6, 5, 45), (7, 6, 77),
                ], upper: (7, 32, 141)),
            // B.14
            table([(3, 0, -2), (3, 0, -1), (1, 0, 0), (3, 0, 1), (3, 0, 2)]),
            // B.15
            table(
                [
                    (7, 4, -24), (6, 2, -8), (5, 1, -4), (4, 0, -2), (3, 0, -1), (1, 0, 0), (3, 0, 1), (4, 0, 2),
                    (5, 1, 3), (6, 2, 5), (7, 4, 9),
                ], lower: (7, 32, -25), upper: (7, 32, 25)),
        ]
    }()
}
