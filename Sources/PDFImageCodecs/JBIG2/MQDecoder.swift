import PDFCore

/// The MQ arithmetic decoder of ITU-T T.88 Annex E (E.3, the software conventions of Figure E.20).
struct MQDecoder {
    private let data: [UInt8]
    private var position: Int
    private let end: Int
    private var c: UInt32 = 0
    private var a: UInt32 = 0
    private var ct = 0
    /// Bytes that had to be invented after the end of the data (0xFF, as in E.3.4).
    private(set) var pastEnd = 0

    /// Qe, NMPS, NLPS and SWITCH of Table E.1, one entry per state (the tests' encoder uses them too).
    static let qe: [UInt32] = [
        0x5601, 0x3401, 0x1801, 0x0AC1, 0x0521, 0x0221, 0x5601, 0x5401, 0x4801, 0x3801, 0x3001, 0x2401, 0x1C01,
        0x1601, 0x5601, 0x5401, 0x5101, 0x4801, 0x3801, 0x3401, 0x3001, 0x2801, 0x2401, 0x2201, 0x1C01, 0x1801,
        0x1601, 0x1401, 0x1201, 0x1101, 0x0AC1, 0x09C1, 0x08A1, 0x0521, 0x0441, 0x02A1, 0x0221, 0x0141, 0x0111,
        0x0085, 0x0049, 0x0025, 0x0015, 0x0009, 0x0005, 0x0001, 0x5601,
    ]
    static let nmps: [UInt8] = [
        1, 2, 3, 4, 5, 38, 7, 8, 9, 10, 11, 12, 13, 29, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29,
        30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 45, 46,
    ]
    static let nlps: [UInt8] = [
        1, 6, 9, 12, 29, 33, 6, 14, 14, 14, 17, 18, 20, 21, 14, 14, 15, 16, 17, 18, 19, 19, 20, 21, 22, 23, 24, 25,
        26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 46,
    ]
    static let switchFlag: [Bool] = (0..<47).map { $0 == 0 || $0 == 6 || $0 == 14 }

    /// INITDEC (E.3.5) on `data[start..<end]`.
    init(_ data: [UInt8], start: Int = 0, end: Int? = nil) {
        self.data = data
        self.position = start
        self.end = min(end ?? data.count, data.count)
        c = UInt32(byte(at: position)) << 16
        byteIn()
        c <<= 7
        ct -= 7
        a = 0x8000
    }

    @inline(__always)
    private func byte(at index: Int) -> UInt8 {
        index < end && index >= 0 ? data[index] : 0xFF
    }

    /// BYTEIN (E.3.4): a 0xFF followed by more than 0x8F is a marker and feeds 1 bits.
    @inline(__always)
    private mutating func byteIn() {
        if position >= end - 1 { pastEnd += 1 }
        if byte(at: position) == 0xFF {
            if byte(at: position + 1) > 0x8F {
                c &+= 0xFF00
                ct = 8
            } else {
                position += 1
                c &+= UInt32(byte(at: position)) << 9
                ct = 7
            }
        } else {
            position += 1
            c &+= UInt32(byte(at: position)) << 8
            ct = 8
        }
    }

    /// DECODE (E.3.2) with the context state `cx` (index << 1 | MPS), updated in place.
    @inline(__always)
    mutating func decode(_ cx: inout UInt8) -> Int {
        let index = Int(cx >> 1)
        var mps = Int(cx & 1)
        let qe = MQDecoder.qe[index]
        var d: Int
        var next: Int
        a -= qe
        if (c >> 16) < qe {
            // LPS_EXCHANGE
            if a < qe {
                d = mps
                next = Int(MQDecoder.nmps[index])
            } else {
                d = 1 - mps
                if MQDecoder.switchFlag[index] { mps = 1 - mps }
                next = Int(MQDecoder.nlps[index])
            }
            a = qe
        } else {
            c -= qe << 16
            if a & 0x8000 != 0 { return mps }
            // MPS_EXCHANGE
            if a < qe {
                d = 1 - mps
                if MQDecoder.switchFlag[index] { mps = 1 - mps }
                next = Int(MQDecoder.nlps[index])
            } else {
                d = mps
                next = Int(MQDecoder.nmps[index])
            }
        }
        // RENORMD
        repeat {
            if ct == 0 { byteIn() }
            a <<= 1
            c <<= 1
            ct -= 1
        } while a & 0x8000 == 0
        cx = UInt8(next << 1 | mps)
        return d
    }

    /// Bytes of the data not yet read into the decoder's register.
    var unread: Int { max(0, end - position - 1) }

    /// Throws when decoding has run far past the end of the data (it would only produce noise).
    func checkNotExhausted() throws(PDFError) {
        if pastEnd > 1 << 12 { throw JBIG2Error.truncated() }
    }

    /// The integer decoding procedure (Annex A.2) with a 512-entry context table; nil is OOB.
    mutating func decodeInteger(_ contexts: inout [UInt8]) -> Int? {
        var previous = 1
        func bit(_ decoder: inout MQDecoder, _ contexts: inout [UInt8]) -> Int {
            let value = decoder.decode(&contexts[previous])
            previous = previous < 256 ? (previous << 1 | value) : ((previous << 1 | value) & 511) | 256
            return value
        }
        func bits(_ count: Int, _ decoder: inout MQDecoder, _ contexts: inout [UInt8]) -> Int {
            var value = 0
            for _ in 0..<count { value = value << 1 | bit(&decoder, &contexts) }
            return value
        }
        let sign = bit(&self, &contexts)
        let value: Int
        if bit(&self, &contexts) == 0 {
            value = bits(2, &self, &contexts)
        } else if bit(&self, &contexts) == 0 {
            value = bits(4, &self, &contexts) + 4
        } else if bit(&self, &contexts) == 0 {
            value = bits(6, &self, &contexts) + 20
        } else if bit(&self, &contexts) == 0 {
            value = bits(8, &self, &contexts) + 84
        } else if bit(&self, &contexts) == 0 {
            value = bits(12, &self, &contexts) + 340
        } else {
            value = bits(32, &self, &contexts) + 4436
        }
        if sign == 1 {
            return value == 0 ? nil : -value
        }
        return value
    }

    /// The IAID decoding procedure (Annex A.3): `codeLength` bits with `1 << (codeLength + 1)` contexts.
    mutating func decodeSymbolID(_ contexts: inout [UInt8], codeLength: Int) -> Int {
        var previous = 1
        for _ in 0..<codeLength {
            previous = previous << 1 | decode(&contexts[previous])
        }
        return previous - (1 << codeLength)
    }
}

/// The context tables of the integer decoders used by text regions and symbol dictionaries
/// (T.88 Table 31 / §6.5.5: IADH, IADW, IAEX, IAAI, IADT, IAFS, IADS, IAIT, IARI, IARDW … IAID).
struct IntegerContexts {
    var dh = [UInt8](repeating: 0, count: 512)
    var dw = [UInt8](repeating: 0, count: 512)
    var ex = [UInt8](repeating: 0, count: 512)
    var ai = [UInt8](repeating: 0, count: 512)
    var dt = [UInt8](repeating: 0, count: 512)
    var fs = [UInt8](repeating: 0, count: 512)
    var ds = [UInt8](repeating: 0, count: 512)
    var it = [UInt8](repeating: 0, count: 512)
    var ri = [UInt8](repeating: 0, count: 512)
    var rdw = [UInt8](repeating: 0, count: 512)
    var rdh = [UInt8](repeating: 0, count: 512)
    var rdx = [UInt8](repeating: 0, count: 512)
    var rdy = [UInt8](repeating: 0, count: 512)
    var id: [UInt8]
    let symbolCodeLength: Int

    init(symbolCodeLength: Int) {
        self.symbolCodeLength = symbolCodeLength
        id = [UInt8](repeating: 0, count: 1 << (symbolCodeLength + 1))
    }
}
