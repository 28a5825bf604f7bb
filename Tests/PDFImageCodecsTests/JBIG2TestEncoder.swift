@testable import PDFImageCodecs

/// A small JBIG2 encoder for the tests, written from ITU-T T.88: the MQ encoder (Annex E.2), the
/// integer and symbol ID encoding that mirror Annex A, generic regions with template 0, symbol
/// dictionaries and text regions with arithmetic coding. No installable encoder writes symbol
/// dictionaries that reuse another's contexts; this one makes such streams so that poppler and
/// MuPDF can judge our decoder on them.
struct JBIG2TestEncoder {
    /// A bitmap with one byte per pixel, 1 = black (as JBIG2 codes it).
    struct Bitmap: Equatable {
        var width: Int
        var height: Int
        var pixels: [UInt8]

        init(width: Int, height: Int, pixels: [UInt8]? = nil) {
            self.width = width
            self.height = height
            self.pixels = pixels ?? [UInt8](repeating: 0, count: width * height)
        }

        subscript(x: Int, y: Int) -> UInt8 {
            get { x >= 0 && x < width && y >= 0 && y < height ? pixels[y * width + x] : 0 }
            set { pixels[y * width + x] = newValue }
        }

        /// Packed rows, MSB first, 1 = black, padding bits 0 (a PBM's raster).
        var packed: [UInt8] {
            let bytesPerRow = (width + 7) / 8
            var bytes = [UInt8](repeating: 0, count: bytesPerRow * height)
            for y in 0..<height {
                for x in 0..<width where self[x, y] != 0 { bytes[y * bytesPerRow + x / 8] |= 0x80 >> UInt8(x % 8) }
            }
            return bytes
        }
    }

    /// The MQ encoder of T.88 E.2 with the software conventions of its flow charts; contexts are
    /// the decoder's `index << 1 | MPS` bytes.
    struct MQEncoder {
        private var a: UInt32 = 0x8000
        private var c: UInt32 = 0
        private var ct = 12
        /// `bytes[0]` is the byte before the output that BP starts on (E.2.8); it is dropped.
        private var bytes: [UInt8] = [0]

        mutating func encode(_ bit: Int, _ cx: inout UInt8) {
            let index = Int(cx >> 1)
            var mps = Int(cx & 1)
            let qe = MQDecoder.qe[index]
            a -= qe
            if bit == mps {
                // CODEMPS (Figure E.6)
                guard a & 0x8000 == 0 else {
                    c += qe
                    return
                }
                if a < qe { a = qe } else { c += qe }
                cx = MQDecoder.nmps[index] << 1 | UInt8(mps)
            } else {
                // CODELPS (Figure E.5)
                if a < qe { c += qe } else { a = qe }
                if MQDecoder.switchFlag[index] { mps = 1 - mps }
                cx = MQDecoder.nlps[index] << 1 | UInt8(mps)
            }
            // RENORME (Figure E.8)
            repeat {
                a <<= 1
                c <<= 1
                ct -= 1
                if ct == 0 { byteOut() }
            } while a & 0x8000 == 0
        }

        /// BYTEOUT (Figure E.9), with bit stuffing after 0xFF and the carry into the last byte.
        private mutating func byteOut() {
            if bytes[bytes.count - 1] != 0xFF {
                if c < 0x800_0000 {
                    emit(shift: 19)
                    return
                }
                bytes[bytes.count - 1] += 1
                guard bytes[bytes.count - 1] == 0xFF else {
                    c &= 0x7FF_FFFF
                    emit(shift: 19)
                    return
                }
                c &= 0x7FF_FFFF
            }
            emit(shift: 20)
        }

        private mutating func emit(shift: UInt32) {
            bytes.append(UInt8(c >> shift))
            c &= (1 << shift) - 1
            ct = shift == 19 ? 8 : 7
        }

        /// FLUSH (Figure E.10) with SETBITS, then the 0xFF 0xAC end marker; returns the coded bytes.
        mutating func finish() -> [UInt8] {
            let top = c + a
            c |= 0xFFFF
            if c >= top { c -= 0x8000 }
            c <<= UInt32(ct)
            byteOut()
            c <<= UInt32(ct)
            byteOut()
            if bytes[bytes.count - 1] != 0xFF { bytes.append(0xFF) }
            bytes.append(0xAC)
            return Array(bytes.dropFirst())
        }

        /// The integer encoding that Annex A.2's decoding procedure reads; nil is OOB.
        mutating func encodeInteger(_ value: Int?, _ contexts: inout [UInt8]) {
            var bits: [Int]
            if let value {
                let magnitude = abs(value)
                let ranges: [(prefix: [Int], count: Int, low: Int)] = [
                    ([0], 2, 0), ([1, 0], 4, 4), ([1, 1, 0], 6, 20), ([1, 1, 1, 0], 8, 84), ([1, 1, 1, 1, 0], 12, 340),
                    ([1, 1, 1, 1, 1], 32, 4436),
                ]
                let range = ranges.first { magnitude < $0.low + (1 << $0.count) }!
                bits = [value < 0 ? 1 : 0] + range.prefix
                bits += (0..<range.count).reversed().map { (magnitude - range.low) >> $0 & 1 }
            } else {
                bits = [1, 0, 0, 0]
            }
            var previous = 1
            for bit in bits {
                encode(bit, &contexts[previous])
                previous = previous < 256 ? previous << 1 | bit : (previous << 1 | bit) & 511 | 256
            }
        }

        /// The IAID encoding that Annex A.3 reads: `codeLength` bits, most significant first.
        mutating func encodeSymbolID(_ id: Int, codeLength: Int, _ contexts: inout [UInt8]) {
            var previous = 1
            for shift in (0..<codeLength).reversed() {
                let bit = id >> shift & 1
                encode(bit, &contexts[previous])
                previous = previous << 1 | bit
            }
        }

        /// A generic region with template 0, the nominal AT pixels and no typical prediction
        /// (§6.2.5.3, the bit order of Figure 3), with the GB_STATS `contexts`.
        mutating func encodeGeneric(_ bitmap: Bitmap, _ contexts: inout [UInt8]) {
            for y in 0..<bitmap.height {
                for x in 0..<bitmap.width {
                    func p(_ dx: Int, _ dy: Int) -> Int { Int(bitmap[x + dx, y + dy]) }
                    var context = p(-1, 0) | p(-2, 0) << 1 | p(-3, 0) << 2 | p(-4, 0) << 3 | p(3, -1) << 4
                    context |= p(2, -1) << 5 | p(1, -1) << 6 | p(0, -1) << 7 | p(-1, -1) << 8 | p(-2, -1) << 9
                    context |= p(-3, -1) << 10 | p(2, -2) << 11 | p(1, -2) << 12 | p(0, -2) << 13
                    context |= p(-1, -2) << 14 | p(-2, -2) << 15
                    encode(Int(bitmap[x, y]), &contexts[context])
                }
            }
        }
    }

    /// The GB_STATS of a template-0 generic region coder, all states 0.
    static func freshGenericContexts() -> [UInt8] { [UInt8](repeating: 0, count: 1 << 16) }

    static func be32(_ value: Int) -> [UInt8] {
        [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    /// A segment header (§7.2) and its data: one-byte referred-to numbers, a one-byte page.
    static func segment(_ number: Int, type: Int, referredTo: [Int] = [], page: Int, data: [UInt8]) -> [UInt8] {
        be32(number) + [UInt8(type), UInt8(referredTo.count << 5)] + referredTo.map { UInt8($0) } + [UInt8(page)]
            + be32(data.count) + data
    }

    /// A symbol dictionary's data (§7.4.3, arithmetic, template 0, no refinement) after
    /// `inputCount` input symbols: `symbols` coded in order, consecutive ones of one height as a
    /// height class; `exported` has a flag per input then per new symbol. `contexts` are the
    /// GB_STATS to start from (those another dictionary retained when `usesContexts`) and are left
    /// as coding ends them.
    static func symbolDictionary(
        inputCount: Int, symbols: [Bitmap], exported: [Bool], contexts: inout [UInt8], usesContexts: Bool,
        retainsContexts: Bool
    ) -> [UInt8] {
        precondition(exported.count == inputCount + symbols.count)
        let flags = (usesContexts ? 0x100 : 0) | (retainsContexts ? 0x200 : 0)
        var data: [UInt8] = [UInt8(flags >> 8), UInt8(flags & 0xFF)]
        data += [3, -1, -3, -1, 2, -2, -2, -2].map { UInt8(bitPattern: Int8($0)) }
        data += be32(exported.filter { $0 }.count) + be32(symbols.count)

        var coder = MQEncoder()
        var heightContexts = [UInt8](repeating: 0, count: 512)
        var widthContexts = [UInt8](repeating: 0, count: 512)
        var exportContexts = [UInt8](repeating: 0, count: 512)
        var height = 0
        var index = 0
        while index < symbols.count {
            let classHeight = symbols[index].height
            coder.encodeInteger(classHeight - height, &heightContexts)
            height = classHeight
            var width = 0
            while index < symbols.count && symbols[index].height == classHeight {
                coder.encodeInteger(symbols[index].width - width, &widthContexts)
                width = symbols[index].width
                coder.encodeGeneric(symbols[index], &contexts)
                index += 1
            }
            coder.encodeInteger(nil, &widthContexts)
        }
        // §6.5.10: run lengths of equal flags, the first run of symbols not exported.
        var flag = false
        var run = 0
        for value in exported {
            if value == flag {
                run += 1
            } else {
                coder.encodeInteger(run, &exportContexts)
                flag = value
                run = 1
            }
        }
        coder.encodeInteger(run, &exportContexts)
        return data + coder.finish()
    }

    /// One symbol instance of a text region: `id` in the region's symbol list, top left corner.
    struct Instance {
        var id: Int
        var x: Int
        var y: Int
    }

    /// An immediate text region's data (§7.4.4, arithmetic, one strip per row of instances,
    /// REFCORNER top left, OR, no refinement) over symbols of `widths`.
    static func textRegion(width: Int, height: Int, widths: [Int], instances: [Instance]) -> [UInt8] {
        var data = be32(width) + be32(height) + be32(0) + be32(0) + [0]
        data += [0x00, 0x10] + be32(instances.count)
        var codeLength = 0
        while 1 << codeLength < widths.count { codeLength += 1 }
        var coder = MQEncoder()
        var dt = [UInt8](repeating: 0, count: 512)
        var fs = [UInt8](repeating: 0, count: 512)
        var ds = [UInt8](repeating: 0, count: 512)
        var ids = [UInt8](repeating: 0, count: 1 << (codeLength + 1))
        coder.encodeInteger(0, &dt)
        var stripT = 0
        var firstS = 0
        let strips = Dictionary(grouping: instances, by: \.y).sorted { $0.key < $1.key }
        for (t, strip) in strips {
            coder.encodeInteger(t - stripT, &dt)
            stripT = t
            var currentS = 0
            for (position, instance) in strip.sorted(by: { $0.x < $1.x }).enumerated() {
                if position == 0 {
                    coder.encodeInteger(instance.x - firstS, &fs)
                    firstS = instance.x
                } else {
                    coder.encodeInteger(instance.x - currentS, &ds)
                }
                coder.encodeSymbolID(instance.id, codeLength: codeLength, &ids)
                currentS = instance.x + widths[instance.id] - 1
            }
            coder.encodeInteger(nil, &ds)
        }
        return data + coder.finish()
    }
}
