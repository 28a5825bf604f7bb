import PDFCore

/// zlib streams of a part repeated many times, made without the repeated bytes existing at once: the
/// part is deflated once, raw, and its copies follow each other (each refers only to itself).
package enum RepeatedDeflate {
    /// One zlib stream of `start`, `times` copies of `repeated` and `end`, each part deflated on its own.
    package static func zlib(_ start: [UInt8], repeating repeated: [UInt8], times: Int, then end: [UInt8]) -> [UInt8] {
        func deflated(_ part: [UInt8], last: Bool) -> [UInt8] {
            let deflater = Flate.Deflater(level: 9, raw: true)
            part.withUnsafeBufferPointer { if let base = $0.baseAddress { deflater.append(base, count: $0.count) } }
            return deflater.finish(last: last)
        }
        var output: [UInt8] = [0x78, 0xDA] + deflated(start, last: false)
        var adler = start.withUnsafeBytes { Flate.adler32($0) }
        if times > 0 {
            let once = deflated(repeated, last: false)
            let repeatedAdler = repeated.withUnsafeBytes { Flate.adler32($0) }
            output.reserveCapacity(output.count + once.count * times + end.count + 64)
            for _ in 0..<times {
                output += once
                adler = Flate.adler32(combining: adler, repeatedAdler, secondLength: repeated.count)
            }
        }
        output += deflated(end, last: true)
        adler = end.withUnsafeBytes { Flate.adler32($0, continuing: adler) }
        output += [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: adler >> $0) }
        return output
    }
}
