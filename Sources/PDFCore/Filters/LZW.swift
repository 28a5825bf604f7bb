/// LZWDecode (ISO 32000-2 §7.4.4): 9- to 12-bit codes, 256 clears the table, 257 ends the data;
/// `EarlyChange` 1 (the default) widens codes one entry early.
package enum LZW {
    /// Decodes `input`; with `stopAfter`, stops once that many bytes are out (a prefix of the data).
    /// - Throws: `.limitExceeded` past `maxSize`.
    package static func decode(
        _ input: UnsafeRawBufferPointer, earlyChange: Bool, maxSize: Int, stopAfter: Int? = nil
    ) throws(PDFError) -> [UInt8] {
        // Every table entry is a run of bytes already in the output: (start, length).
        var starts = [Int](repeating: 0, count: 4096)
        var lengths = [Int](repeating: 1, count: 4096)
        var output: [UInt8] = []
        output.reserveCapacity(input.count * 3)
        let early = earlyChange ? 1 : 0
        var nextCode = 258
        var width = 9
        var previous = -1
        var bitBuffer: UInt32 = 0
        var bitCount = 0
        var index = 0
        while true {
            while bitCount < width, index < input.count {
                bitBuffer = bitBuffer << 8 | UInt32(input[index])
                bitCount += 8
                index += 1
            }
            if bitCount < width { break }
            let code = Int((bitBuffer >> UInt32(bitCount - width)) & ((1 << UInt32(width)) - 1))
            bitCount -= width
            if code == 256 {
                nextCode = 258
                width = 9
                previous = -1
                continue
            }
            if code == 257 { break }
            let emitStart = output.count
            if code < 256 {
                output.append(UInt8(code))
            } else if code < nextCode, previous >= 0 {
                let start = starts[code]
                for offset in 0..<lengths[code] { output.append(output[start + offset]) }
            } else if code == nextCode, previous >= 0 {
                let start = previous < 256 ? -1 : starts[previous]
                if previous < 256 {
                    output.append(UInt8(previous))
                    output.append(UInt8(previous))
                } else {
                    for offset in 0..<lengths[previous] { output.append(output[start + offset]) }
                    output.append(output[start])
                }
            } else {
                // A code that is not in the table: the data is corrupt; keep what was decoded.
                break
            }
            if previous >= 0, nextCode < 4096 {
                let previousLength = previous < 256 ? 1 : lengths[previous]
                starts[nextCode] = emitStart - previousLength
                lengths[nextCode] = previousLength + 1
                nextCode += 1
                if nextCode + early >= (1 << width), width < 12 { width += 1 }
            }
            // A literal code's bytes are in the output too, so entries can always point there.
            if code < 256 {
                starts[code] = emitStart
                lengths[code] = 1
            }
            previous = code
            if output.count > maxSize {
                throw PDFError(.limitExceeded, "LZW data decodes to more than \(maxSize) bytes")
            }
            if let stopAfter, output.count >= stopAfter { break }
        }
        return output
    }
}
