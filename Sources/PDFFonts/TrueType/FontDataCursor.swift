import PDFCore

/// A read position in font data: big-endian integers as the OpenType spec lays them out
/// ("Data types"), with every read checked against a limit.
///
/// `peek*` never moves; `read*` moves past what it read. Both return nil when the value does not
/// fit before the limit, and then leave the cursor where it was.
struct FontDataCursor {
    /// The whole file; offsets are positions in it.
    let bytes: [UInt8]
    /// The position of the next read.
    private(set) var offset: Int
    /// The end of the readable range (a table's end, or the file's).
    let limit: Int

    /// A cursor over `range` of `bytes`, clamped to the bytes.
    init(_ bytes: [UInt8], range: Range<Int>) {
        self.init(bytes, from: range.lowerBound, upTo: range.upperBound)
    }

    /// A cursor from offset `start` up to `end`, clamped to the bytes; empty when `start` is past
    /// `end` (offsets read from a font need not be ordered).
    init(_ bytes: [UInt8], from start: Int, upTo end: Int) {
        self.bytes = bytes
        let lower = max(0, min(start, bytes.count))
        self.offset = lower
        self.limit = max(lower, min(end, bytes.count))
    }

    /// A cursor over all of `bytes`.
    init(_ bytes: [UInt8]) {
        self.init(bytes, range: 0..<bytes.count)
    }

    /// The number of bytes left before the limit.
    var remaining: Int { limit - offset }

    /// True when `count` bytes starting `distance` bytes ahead are within the limit.
    func has(_ count: Int, at distance: Int = 0) -> Bool {
        distance >= 0 && count >= 0 && distance <= remaining && count <= remaining - distance
    }

    // MARK: Peeking (the cursor stays put)

    func peekUInt8(at distance: Int = 0) -> UInt8? {
        guard has(1, at: distance) else { return nil }
        return bytes[offset + distance]
    }

    func peekUInt16(at distance: Int = 0) -> UInt16? {
        guard has(2, at: distance) else { return nil }
        let start = offset + distance
        return UInt16(bytes[start]) << 8 | UInt16(bytes[start + 1])
    }

    func peekInt16(at distance: Int = 0) -> Int16? {
        peekUInt16(at: distance).map { Int16(bitPattern: $0) }
    }

    func peekUInt32(at distance: Int = 0) -> UInt32? {
        guard has(4, at: distance) else { return nil }
        let start = offset + distance
        return UInt32(bytes[start]) << 24 | UInt32(bytes[start + 1]) << 16 | UInt32(bytes[start + 2]) << 8
            | UInt32(bytes[start + 3])
    }

    func peekInt32(at distance: Int = 0) -> Int32? {
        peekUInt32(at: distance).map { Int32(bitPattern: $0) }
    }

    // MARK: Reading (the cursor moves past what was read)

    mutating func readUInt8() -> UInt8? {
        guard let value = peekUInt8() else { return nil }
        offset += 1
        return value
    }

    mutating func readUInt16() -> UInt16? {
        guard let value = peekUInt16() else { return nil }
        offset += 2
        return value
    }

    mutating func readInt16() -> Int16? {
        guard let value = peekInt16() else { return nil }
        offset += 2
        return value
    }

    mutating func readUInt32() -> UInt32? {
        guard let value = peekUInt32() else { return nil }
        offset += 4
        return value
    }

    mutating func readInt32() -> Int32? {
        guard let value = peekInt32() else { return nil }
        offset += 4
        return value
    }

    /// The next `count` bytes.
    mutating func readBytes(_ count: Int) -> ArraySlice<UInt8>? {
        guard has(count) else { return nil }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }

    /// Moves `count` bytes ahead; false (and no move) when that passes the limit.
    @discardableResult
    mutating func skip(_ count: Int) -> Bool {
        guard has(count) else { return false }
        offset += count
        return true
    }
}
