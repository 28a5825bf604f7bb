import PDFCore

/// A cursor over segment bytes: big-endian integers (T.88 §7.1) and bits, most significant first.
struct JBIG2Reader {
    let data: [UInt8]
    var offset: Int
    let end: Int
    private var bitOffset = 0

    init(_ data: [UInt8], offset: Int = 0, end: Int? = nil) {
        self.data = data
        self.offset = offset
        self.end = min(end ?? data.count, data.count)
    }

    var remaining: Int { max(end - offset, 0) }

    mutating func byte() throws(PDFError) -> UInt8 {
        guard offset < end else { throw JBIG2Error.truncated() }
        defer { offset += 1 }
        return data[offset]
    }

    mutating func uint16() throws(PDFError) -> Int {
        Int(try byte()) << 8 | Int(try byte())
    }

    mutating func uint32() throws(PDFError) -> Int {
        try uint16() << 16 | uint16()
    }

    mutating func int8() throws(PDFError) -> Int { Int(Int8(bitPattern: try byte())) }

    mutating func int32() throws(PDFError) -> Int { Int(Int32(bitPattern: UInt32(try uint32()))) }

    mutating func skip(_ count: Int) throws(PDFError) {
        guard count >= 0, count <= remaining else { throw JBIG2Error.truncated() }
        offset += count
    }

    // Bits (Huffman-coded data, T.88 §6.2.2 and Annex B).

    /// One bit; 0 past the end (callers bound their loops), which `pastEnd` counts.
    mutating func bit() -> Int {
        guard offset < end else {
            pastEnd += 1
            return 0
        }
        let value = Int(data[offset] >> UInt8(7 - bitOffset)) & 1
        bitOffset += 1
        if bitOffset == 8 {
            bitOffset = 0
            offset += 1
        }
        return value
    }

    /// Bits read past the end of the data.
    var pastEnd = 0

    mutating func bits(_ count: Int) throws(PDFError) -> Int {
        var value = 0
        for _ in 0..<count { value = value << 1 | bit() }
        if pastEnd > 64 { throw JBIG2Error.truncated() }
        return value
    }

    /// Skips to the next byte boundary.
    mutating func alignToByte() {
        if bitOffset != 0 {
            bitOffset = 0
            offset += 1
        }
    }
}

/// The errors the JBIG2 decoder throws (all `PDFError`).
enum JBIG2Error {
    static func truncated(fileID: StaticString = #fileID, line: Int = #line) -> PDFError {
        PDFError(.decodeFailed, "JBIG2: data ends too early", fileID: fileID, line: line)
    }

    static func invalid(_ message: String, fileID: StaticString = #fileID, line: Int = #line) -> PDFError {
        PDFError(.decodeFailed, "JBIG2: \(message)", fileID: fileID, line: line)
    }

    static func limit(_ message: String, fileID: StaticString = #fileID, line: Int = #line) -> PDFError {
        PDFError(.limitExceeded, "JBIG2: \(message)", fileID: fileID, line: line)
    }
}

/// Bounds on what one decode may allocate and do, so hostile input cannot exhaust memory or time.
package struct JBIG2Limits: Sendable {
    /// Pixels of one bitmap (page, region, symbol): 64 Mi, a 600 dpi page of 34 × 44 inches.
    package var maxBitmapPixels = 1 << 26
    /// Pixels (bytes) of all bitmaps allocated during one decode.
    package var maxTotalPixels = 1 << 27
    /// Decoded or drawn pixels and symbol instances, all together.
    package var maxWork = 1 << 30
    /// Symbols in one dictionary and in the inputs of one region.
    package var maxSymbols = 1 << 20
    /// Lines of a custom Huffman table.
    package var maxTableLines = 1 << 16

    package init() {}
}

/// Tracks the budgets of ``JBIG2Limits`` during one decode.
final class JBIG2Budget {
    let limits: JBIG2Limits
    private var pixels = 0
    private var work = 0

    init(_ limits: JBIG2Limits) { self.limits = limits }

    /// Accounts for a new bitmap of `width × height` pixels.
    func allocate(width: Int, height: Int) throws(PDFError) {
        guard width >= 0, height >= 0, width <= limits.maxBitmapPixels, height <= limits.maxBitmapPixels,
            width * height <= limits.maxBitmapPixels
        else { throw JBIG2Error.limit("a \(width) × \(height) bitmap is too large") }
        pixels += width * height
        guard pixels <= limits.maxTotalPixels else { throw JBIG2Error.limit("too many pixels allocated") }
    }

    func spend(_ amount: Int) throws(PDFError) {
        work += amount
        guard work <= limits.maxWork else { throw JBIG2Error.limit("too much work for the data given") }
    }
}
