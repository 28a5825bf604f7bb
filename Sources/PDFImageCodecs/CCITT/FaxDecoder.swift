import PDFCore

/// The row engine behind CCITTFaxDecode (ISO 32000-2 §7.4.6, ITU-T T.4 and T.6) and JBIG2's MMR
/// coding (T.88 §6.2.6): decodes rows as changing elements and packs them with black = 1.
struct FaxDecoder {
    /// What ended decoding.
    enum Ending: Equatable {
        /// The requested rows were decoded.
        case complete
        /// The data ended (or an RTC / EOFB mark was read) before the requested rows.
        case endOfData
        /// A row could not be decoded and could not be resynchronised.
        case damaged(String)
        /// More rows than the output limit.
        case limit
    }

    struct Result {
        /// `rowCount` rows of `(columns + 7) / 8` bytes, black = 1.
        var rows: [UInt8]
        var rowCount: Int
        /// Bytes consumed, rounded up to a whole byte (T.88 §6.2.6: after an EOFB).
        var consumedBytes: Int
        var ending: Ending
    }

    private struct RowError: Error {
        var message: String
    }

    var reader: FaxBitReader
    let columns: Int
    /// T.4/T.6 K: < 0 pure two-dimensional (Group 4), 0 one-dimensional, > 0 mixed (Group 3 2-D).
    let k: Int
    let endOfLine: Bool
    let encodedByteAlign: Bool
    /// Consecutive damaged rows tolerated (replaced by the previous row) when rows are marked by EOLs.
    let damagedRowsBeforeError: Int

    init(
        data: [UInt8], byteOffset: Int = 0, columns: Int, k: Int, endOfLine: Bool = false,
        encodedByteAlign: Bool = false, damagedRowsBeforeError: Int = 0
    ) {
        self.reader = FaxBitReader(data, byteOffset: byteOffset)
        self.columns = columns
        self.k = k
        self.endOfLine = endOfLine
        self.encodedByteAlign = encodedByteAlign
        self.damagedRowsBeforeError = damagedRowsBeforeError
    }

    /// Decodes up to `rows` rows (0: until the data, an RTC or an EOFB ends), never more than `maxRows`.
    mutating func decode(rows: Int, maxRows: Int) -> Result {
        let bytesPerRow = (columns + 7) / 8
        var output: [UInt8] = []
        output.reserveCapacity(min(rows > 0 ? rows : 64, maxRows, 1 << 16) * bytesPerRow)
        // Changing elements of the reference row, with sentinels at `columns`.
        var reference: [Int] = [columns, columns, columns]
        var current: [Int] = []
        current.reserveCapacity(64)
        var rowCount = 0
        var damagedRun = 0
        var ending = Ending.complete
        while rows == 0 || rowCount < rows {
            guard let twoDimensional = startRow() else {
                ending = .endOfData
                break
            }
            if rowCount >= maxRows {
                ending = .limit
                break
            }
            do throws(RowError) {
                if twoDimensional {
                    try decodeTwoDimensionalRow(reference: reference, into: &current)
                } else {
                    try decodeOneDimensionalRow(into: &current)
                }
                damagedRun = 0
            } catch {
                // Rows framed by EOLs can be resynchronised: the damaged row repeats the previous one.
                let canResync = k >= 0 && endOfLine && findNextEndOfLine()
                damagedRun += 1
                if !canResync || (damagedRowsBeforeError > 0 && damagedRun > damagedRowsBeforeError) {
                    ending = .damaged(error.message)
                    break
                }
                current = Array(reference.dropLast(3))
            }
            current.append(contentsOf: [columns, columns, columns])
            FaxDecoder.pack(current.dropLast(3), columns: columns, into: &output)
            swap(&reference, &current)
            rowCount += 1
        }
        if k < 0, ending == .complete, reader.peek(24) == 0x001001 { reader.skip(24) }
        return Result(
            rows: output, rowCount: rowCount, consumedBytes: min((reader.position + 7) / 8, reader.data.count),
            ending: ending)
    }

    /// Reads what precedes a row (fill bits, EOL, tag bit); nil at the end of the data or at an
    /// RTC (six EOLs, T.4 §4.1.4) or EOFB (two EOLs, T.6 §2.4.2). Returns whether the row is 2-D.
    private mutating func startRow() -> Bool? {
        var sawEndOfLine = false
        if reader.peek(11) == 0 {
            // Fill bits and an EOL (≥ 11 zeros then a 1: no run or mode code has as many zeros).
            _ = reader.skipZeros()
            if reader.isAtEnd { return nil }
            reader.skip(1)
            sawEndOfLine = true
            // A second EOL (after the tag bit in 2-D Group 3) marks the end: RTC or EOFB.
            let saved = reader.position
            if k > 0 { reader.skip(1) }
            if reader.peek(11) == 0 {
                _ = reader.skipZeros()
                return nil
            }
            reader.position = saved
        }
        if !sawEndOfLine && encodedByteAlign { reader.alignToByte() }
        if reader.isAtEnd { return nil }
        if k < 0 { return true }
        if k == 0 { return false }
        return reader.read(1) == 0
    }

    /// Skips to just after the next EOL; false when there is none.
    private mutating func findNextEndOfLine() -> Bool {
        while !reader.isAtEnd {
            if reader.skipZeros() >= 11, !reader.isAtEnd {
                reader.position -= 11
                return true
            }
            reader.skip(1)
        }
        return false
    }

    private mutating func readRun(white: Bool) throws(RowError) -> Int {
        var total = 0
        while true {
            let entry = (white ? FaxCodes.white : FaxCodes.black)[reader.peek(FaxCodes.runBits)]
            guard entry.length > 0, !reader.isAtEnd else {
                throw RowError(message: "invalid \(white ? "white" : "black") run code at bit \(reader.position)")
            }
            reader.skip(Int(entry.length))
            total += Int(entry.value)
            if entry.value < 64 { return total }
            guard total <= columns else { throw RowError(message: "run longer than the row") }
        }
    }

    private mutating func decodeOneDimensionalRow(into current: inout [Int]) throws(RowError) {
        current.removeAll(keepingCapacity: true)
        var position = 0
        var white = true
        while position < columns {
            position += try readRun(white: white)
            guard position <= columns else { throw RowError(message: "run past the end of the row") }
            current.append(position)
            white.toggle()
        }
    }

    private mutating func decodeTwoDimensionalRow(reference: [Int], into current: inout [Int]) throws(RowError) {
        current.removeAll(keepingCapacity: true)
        var a0 = -1
        var color = 0  // 0 white, 1 black: the colour of a0
        var index = 0
        while a0 < columns {
            // b1: the first changing element right of a0 whose colour is opposite to a0's.
            while index > 0 && reference[index - 1] > a0 { index -= 1 }
            while reference[index] <= a0 || index & 1 != color { index += 1 }
            let b1 = reference[index]
            let b2 = reference[index + 1]
            let entry = FaxCodes.modes[reader.peek(FaxCodes.modeBits)]
            guard entry.length > 0, !reader.isAtEnd else {
                throw RowError(message: "invalid mode code at bit \(reader.position)")
            }
            reader.skip(Int(entry.length))
            switch FaxCodes.Mode(rawValue: entry.value) {
            case .pass:
                a0 = b2
            case .horizontal:
                let start = max(a0, 0)
                let a1 = start + (try readRun(white: color == 0))
                let a2 = a1 + (try readRun(white: color != 0))
                guard a2 <= columns else { throw RowError(message: "horizontal runs past the end of the row") }
                current.append(a1)
                current.append(a2)
                a0 = a2
            case .uncompressed, nil:
                throw RowError(message: "uncompressed mode (extension code) is not supported")
            case .some(let mode):
                let a1 = b1 + Int(mode.rawValue) - 3
                guard a1 >= 0, a1 <= columns, a1 >= a0 else {
                    throw RowError(message: "vertical mode outside the row at bit \(reader.position)")
                }
                current.append(a1)
                a0 = a1
                color ^= 1
            }
            guard current.count <= columns + 2 else { throw RowError(message: "too many changes in a row") }
        }
    }

    /// Appends one row packed MSB first, black = 1, from its changing elements.
    static func pack(_ changes: ArraySlice<Int>, columns: Int, into output: inout [UInt8]) {
        let start = output.count
        let bytesPerRow = (columns + 7) / 8
        output.append(contentsOf: repeatElement(0, count: bytesPerRow))
        var index = changes.startIndex
        while index < changes.endIndex {
            let from = min(changes[index], columns)
            let to = index + 1 < changes.endIndex ? min(changes[index + 1], columns) : columns
            if to > from { setBits(&output, rowStart: start, from: from, to: to) }
            index += 2
        }
    }

    private static func setBits(_ output: inout [UInt8], rowStart: Int, from: Int, to: Int) {
        var x = from
        while x < to {
            if x & 7 == 0 && to - x >= 8 {
                output[rowStart + x >> 3] = 0xFF
                x += 8
            } else {
                output[rowStart + x >> 3] |= UInt8(0x80) >> UInt8(x & 7)
                x += 1
            }
        }
    }
}
