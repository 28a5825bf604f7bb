import PDFCore

/// The code tables of ITU-T T.4 §4.1 (modified Huffman run lengths) and §4.2.1.3 (two-dimensional
/// mode codes), shared by CCITTFaxDecode (ISO 32000-2 §7.4.6) and JBIG2's MMR coding (T.88 §6.2.6).
enum FaxCodes {
    /// A lookup entry: the run length (or mode) and the code's length in bits; length 0 = no code.
    struct Entry {
        var value: Int16
        var length: UInt8
    }

    /// Bits looked at for a run-length code (the longest, black makeup codes, have 13).
    static let runBits = 13
    /// Bits looked at for a two-dimensional mode code.
    static let modeBits = 7

    /// Two-dimensional modes (T.4 Table 4): pass, horizontal, vertical with offsets −3…3, extension.
    enum Mode: Int16 {
        case pass = 10, horizontal = 11, uncompressed = 12
        case vertical0 = 3, verticalRight1 = 4, verticalRight2 = 5, verticalRight3 = 6
        case verticalLeft1 = 2, verticalLeft2 = 1, verticalLeft3 = 0
    }

    static let white: [Entry] = table(whiteCodes + extendedMakeupCodes, bits: runBits)
    static let black: [Entry] = table(blackCodes + extendedMakeupCodes, bits: runBits)
    static let modes: [Entry] = table(modeCodes, bits: modeBits)

    /// Builds a table indexed by the next `bits` bits from codes written as ("0101", value).
    static func table(_ codes: [(String, Int)], bits: Int) -> [Entry] {
        var entries = [Entry](repeating: Entry(value: 0, length: 0), count: 1 << bits)
        for (text, value) in codes {
            var code = 0
            for character in text.utf8 { code = code << 1 | (character == UInt8(ascii: "1") ? 1 : 0) }
            let length = text.utf8.count
            let shift = bits - length
            for suffix in 0..<(1 << shift) {
                entries[code << shift | suffix] = Entry(value: Int16(value), length: UInt8(length))
            }
        }
        return entries
    }

    static let modeCodes: [(String, Int)] = [
        ("1", 3), ("011", 4), ("000011", 5), ("0000011", 6), ("010", 2), ("000010", 1), ("0000010", 0),
        ("0001", 10), ("001", 11), ("0000001", 12),
    ]

    /// T.4 Table 2 and 3, white runs: terminating codes 0…63, then makeup codes 64…1728.
    static let whiteCodes: [(String, Int)] = [
        ("00110101", 0), ("000111", 1), ("0111", 2), ("1000", 3), ("1011", 4), ("1100", 5), ("1110", 6),
        ("1111", 7), ("10011", 8), ("10100", 9), ("00111", 10), ("01000", 11), ("001000", 12), ("000011", 13),
        ("110100", 14), ("110101", 15), ("101010", 16), ("101011", 17), ("0100111", 18), ("0001100", 19),
        ("0001000", 20), ("0010111", 21), ("0000011", 22), ("0000100", 23), ("0101000", 24), ("0101011", 25),
        ("0010011", 26), ("0100100", 27), ("0011000", 28), ("00000010", 29), ("00000011", 30), ("00011010", 31),
        ("00011011", 32), ("00010010", 33), ("00010011", 34), ("00010100", 35), ("00010101", 36),
        ("00010110", 37), ("00010111", 38), ("00101000", 39), ("00101001", 40), ("00101010", 41),
        ("00101011", 42), ("00101100", 43), ("00101101", 44), ("00000100", 45), ("00000101", 46),
        ("00001010", 47), ("00001011", 48), ("01010010", 49), ("01010011", 50), ("01010100", 51),
        ("01010101", 52), ("00100100", 53), ("00100101", 54), ("01011000", 55), ("01011001", 56),
        ("01011010", 57), ("01011011", 58), ("01001010", 59), ("01001011", 60), ("00110010", 61),
        ("00110011", 62), ("00110100", 63),
        ("11011", 64), ("10010", 128), ("010111", 192), ("0110111", 256), ("00110110", 320), ("00110111", 384),
        ("01100100", 448), ("01100101", 512), ("01101000", 576), ("01100111", 640), ("011001100", 704),
        ("011001101", 768), ("011010010", 832), ("011010011", 896), ("011010100", 960), ("011010101", 1024),
        ("011010110", 1088), ("011010111", 1152), ("011011000", 1216), ("011011001", 1280),
        ("011011010", 1344), ("011011011", 1408), ("010011000", 1472), ("010011001", 1536),
        ("010011010", 1600), ("011000", 1664), ("010011011", 1728),
    ]

    /// T.4 Table 2 and 3, black runs.
    static let blackCodes: [(String, Int)] = [
        ("0000110111", 0), ("010", 1), ("11", 2), ("10", 3), ("011", 4), ("0011", 5), ("0010", 6), ("00011", 7),
        ("000101", 8), ("000100", 9), ("0000100", 10), ("0000101", 11), ("0000111", 12), ("00000100", 13),
        ("00000111", 14), ("000011000", 15), ("0000010111", 16), ("0000011000", 17), ("0000001000", 18),
        ("00001100111", 19), ("00001101000", 20), ("00001101100", 21), ("00000110111", 22),
        ("00000101000", 23), ("00000010111", 24), ("00000011000", 25), ("000011001010", 26),
        ("000011001011", 27), ("000011001100", 28), ("000011001101", 29), ("000001101000", 30),
        ("000001101001", 31), ("000001101010", 32), ("000001101011", 33), ("000011010010", 34),
        ("000011010011", 35), ("000011010100", 36), ("000011010101", 37), ("000011010110", 38),
        ("000011010111", 39), ("000001101100", 40), ("000001101101", 41), ("000011011010", 42),
        ("000011011011", 43), ("000001010100", 44), ("000001010101", 45), ("000001010110", 46),
        ("000001010111", 47), ("000001100100", 48), ("000001100101", 49), ("000001010010", 50),
        ("000001010011", 51), ("000000100100", 52), ("000000110111", 53), ("000000111000", 54),
        ("000000100111", 55), ("000000101000", 56), ("000001011000", 57), ("000001011001", 58),
        ("000000101011", 59), ("000000101100", 60), ("000001011010", 61), ("000001100110", 62),
        ("000001100111", 63),
        ("0000001111", 64), ("000011001000", 128), ("000011001001", 192), ("000001011011", 256),
        ("000000110011", 320), ("000000110100", 384), ("000000110101", 448), ("0000001101100", 512),
        ("0000001101101", 576), ("0000001001010", 640), ("0000001001011", 704), ("0000001001100", 768),
        ("0000001001101", 832), ("0000001110010", 896), ("0000001110011", 960), ("0000001110100", 1024),
        ("0000001110101", 1088), ("0000001110110", 1152), ("0000001110111", 1216), ("0000001010010", 1280),
        ("0000001010011", 1344), ("0000001010100", 1408), ("0000001010101", 1472), ("0000001011010", 1536),
        ("0000001011011", 1600), ("0000001100100", 1664), ("0000001100101", 1728),
    ]

    /// T.4 Table 3 extended makeup codes, the same for both colours.
    static let extendedMakeupCodes: [(String, Int)] = [
        ("00000001000", 1792), ("00000001100", 1856), ("00000001101", 1920), ("000000010010", 1984),
        ("000000010011", 2048), ("000000010100", 2112), ("000000010101", 2176), ("000000010110", 2240),
        ("000000010111", 2304), ("000000011100", 2368), ("000000011101", 2432), ("000000011110", 2496),
        ("000000011111", 2560),
    ]
}

/// Reads bits most significant first; bits past the end read as 0 and `isAtEnd` tells.
struct FaxBitReader {
    let data: [UInt8]
    /// The position in bits from the start of `data`.
    var position: Int

    init(_ data: [UInt8], byteOffset: Int = 0) {
        self.data = data
        self.position = byteOffset * 8
    }

    var bitCount: Int { data.count * 8 }
    var isAtEnd: Bool { position >= bitCount }

    /// The next `count` bits (at most 32) without moving.
    func peek(_ count: Int) -> Int {
        var value: UInt64 = 0
        var index = position >> 3
        for _ in 0..<5 {
            value = value << 8 | (index < data.count && index >= 0 ? UInt64(data[index]) : 0)
            index += 1
        }
        let offset = position & 7
        return Int((value >> UInt64(40 - offset - count)) & ((1 << UInt64(count)) - 1))
    }

    mutating func skip(_ count: Int) { position += count }

    mutating func read(_ count: Int) -> Int {
        let value = peek(count)
        position += count
        return value
    }

    mutating func alignToByte() { position = (position + 7) & ~7 }

    /// Skips zero bits up to the next 1 bit or the end; returns how many were skipped.
    mutating func skipZeros() -> Int {
        let start = position
        while position < bitCount {
            let byte = data[position >> 3] << UInt8(position & 7)
            if byte == 0 {
                position = (position | 7) + 1
            } else {
                position += byte.leadingZeroBitCount
                return position - start
            }
        }
        position = max(position, bitCount)
        return position - start
    }
}
