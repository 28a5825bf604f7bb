import PDFCore

/// Reads the tables generated into Swift source as text (`key=value` entries separated by spaces
/// and line feeds: glyph widths, the Adobe Glyph List), on their UTF-8 bytes.
///
/// Splitting such text as `String` walks grapheme clusters and costs more than the rest of a page's
/// work in a short-lived process; the bytes are ASCII, so they are scanned as bytes.
package enum GeneratedTableText {
    /// Calls `body` with each entry's key and the bytes of its value, in order.
    package static func forEachEntry(
        in text: String, _ body: (_ key: String, _ value: UnsafeBufferPointer<UInt8>) -> Void
    ) {
        var text = text
        text.withUTF8 { bytes in
            forEachEntry(in: bytes) { start, equals, end in
                let key = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<equals]), as: UTF8.self)
                body(key, UnsafeBufferPointer(rebasing: bytes[(equals + 1)..<end]))
            }
        }
    }

    /// Calls `body` with where each entry starts, where its `=` is and where it ends, in order.
    static func forEachEntry(
        in bytes: UnsafeBufferPointer<UInt8>, _ body: (_ start: Int, _ equals: Int, _ end: Int) -> Void
    ) {
        var index = 0
        while index < bytes.count {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A { index += 1 }
            let start = index
            var equals: Int? = nil
            while index < bytes.count, bytes[index] != 0x20, bytes[index] != 0x0A {
                if equals == nil, bytes[index] == 0x3D { equals = index }
                index += 1
            }
            if let equals, equals > start { body(start, equals, index) }
        }
    }

    /// The words of `text` (separated by spaces and line feeds), in order.
    package static func words(in text: String) -> [String] {
        var text = text
        return text.withUTF8 { bytes in
            var words: [String] = []
            var index = 0
            while index < bytes.count {
                while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A { index += 1 }
                let start = index
                while index < bytes.count, bytes[index] != 0x20, bytes[index] != 0x0A { index += 1 }
                if index > start {
                    words.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
                }
            }
            return words
        }
    }

    /// The values of a comma-separated list of hexadecimal numbers (`41` or `66,69`).
    package static func hexValues(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt32] {
        var values: [UInt32] = []
        var value: UInt32 = 0
        var digits = 0
        for byte in bytes {
            switch byte {
            case 0x30...0x39: value = value << 4 | UInt32(byte - 0x30)
            case 0x41...0x46: value = value << 4 | UInt32(byte - 0x41 + 10)
            case 0x61...0x66: value = value << 4 | UInt32(byte - 0x61 + 10)
            case 0x2C:
                if digits > 0 { values.append(value) }
                (value, digits) = (0, 0)
                continue
            default: return values
            }
            digits += 1
        }
        if digits > 0 { values.append(value) }
        return values
    }

    /// The value of a decimal number, or nil when the bytes are not one.
    package static func decimal(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard !bytes.isEmpty, bytes.count < 10 else { return nil }
        var value = 0
        for byte in bytes {
            guard (0x30...0x39).contains(byte) else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        return value
    }
}

/// A generated `key=value` table looked up in place: one scan finds where each entry starts, and a
/// key is found by binary search on the bytes. No string or dictionary is built, so a short-lived
/// process that needs a few names of a 4,500-entry table pays for a few names.
package struct SortedTableText: Sendable {
    /// The tables' UTF-8 bytes, joined by line feeds.
    private let bytes: [UInt8]
    /// Each entry's first byte and its `=`, ordered by key.
    private let entries: [(start: Int32, equals: Int32)]

    /// - Parameter texts: the parts of one table; a key in several parts is looked up in the last.
    package init(_ texts: [String]) {
        var bytes: [UInt8] = []
        for text in texts {
            bytes += text.utf8
            bytes.append(0x0A)
        }
        var entries: [(start: Int32, equals: Int32)] = []
        bytes.withUnsafeBufferPointer { buffer in
            GeneratedTableText.forEachEntry(in: buffer) { start, equals, _ in
                entries.append((Int32(start), Int32(equals)))
            }
        }
        // Generated tables are sorted, though a part appended to another may not continue the order.
        // A stable sort keeps later parts after earlier ones for equal keys.
        let isSorted = bytes.withUnsafeBufferPointer { buffer in
            zip(entries, entries.dropFirst()).allSatisfy { Self.compare(buffer, $0, $1) <= 0 }
        }
        if !isSorted {
            bytes.withUnsafeBufferPointer { buffer in
                let ordered = entries.enumerated().sorted { a, b in
                    let order = Self.compare(buffer, a.element, b.element)
                    return order != 0 ? order < 0 : a.offset < b.offset
                }
                entries = ordered.map(\.element)
            }
        }
        self.bytes = bytes
        self.entries = entries
    }

    package var count: Int { entries.count }

    /// Calls `body` with the value bytes of `key`, or returns nil when the table has no such key.
    package func withValue<Result>(
        for key: some StringProtocol, _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result? {
        var key = String(key)
        return key.withUTF8 { key in
            bytes.withUnsafeBufferPointer { buffer in
                // The last entry whose key is ≤ `key`: later parts win over earlier ones.
                var (low, high) = (0, entries.count)
                while low < high {
                    let middle = (low + high) / 2
                    if Self.compare(buffer, entries[middle], key) <= 0 { low = middle + 1 } else { high = middle }
                }
                guard low > 0, Self.compare(buffer, entries[low - 1], key) == 0 else { return nil }
                let entry = entries[low - 1]
                var end = Int(entry.equals) + 1
                while end < buffer.count, buffer[end] != 0x20, buffer[end] != 0x0A { end += 1 }
                return body(UnsafeBufferPointer(rebasing: buffer[(Int(entry.equals) + 1)..<end]))
            }
        }
    }

    private static func key(
        _ buffer: UnsafeBufferPointer<UInt8>, _ entry: (start: Int32, equals: Int32)
    ) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: buffer[Int(entry.start)..<Int(entry.equals)])
    }

    private static func compare(
        _ buffer: UnsafeBufferPointer<UInt8>, _ a: (start: Int32, equals: Int32), _ b: (start: Int32, equals: Int32)
    ) -> Int {
        compare(key(buffer, a), key(buffer, b))
    }

    private static func compare(
        _ buffer: UnsafeBufferPointer<UInt8>, _ a: (start: Int32, equals: Int32), _ b: UnsafeBufferPointer<UInt8>
    ) -> Int {
        compare(key(buffer, a), b)
    }

    /// Byte order: negative, zero or positive as `a` sorts before, with or after `b`.
    private static func compare(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
        for index in 0..<min(a.count, b.count) where a[index] != b[index] {
            return Int(a[index]) - Int(b[index])
        }
        return a.count - b.count
    }
}
