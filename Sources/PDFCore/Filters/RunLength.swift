/// RunLengthDecode (ISO 32000-2 §7.4.5): a length byte 0…127 copies n+1 bytes, 129…255 repeats
/// the next byte 257−n times, 128 ends the data.
package enum RunLength {
    /// Decodes `input`; with `stopAfter`, stops once that many bytes are out (a prefix of the data).
    /// - Throws: `.limitExceeded` past `maxSize`.
    package static func decode(
        _ input: UnsafeRawBufferPointer, maxSize: Int, stopAfter: Int? = nil
    ) throws(PDFError) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(input.count * 2)
        var index = 0
        while index < input.count {
            let length = Int(input[index])
            index += 1
            if length == 128 { break }
            if length < 128 {
                let end = min(index + length + 1, input.count)
                output.append(contentsOf: UnsafeRawBufferPointer(rebasing: input[index..<end]))
                index = end
            } else {
                guard index < input.count else { break }
                output.append(contentsOf: repeatElement(input[index], count: 257 - length))
                index += 1
            }
            if output.count > maxSize {
                throw PDFError(.limitExceeded, "RunLength data decodes to more than \(maxSize) bytes")
            }
            if let stopAfter, output.count >= stopAfter { break }
        }
        return output
    }

    package static func encode(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        var index = 0
        while index < bytes.count {
            var run = 1
            while index + run < bytes.count, run < 128, bytes[index + run] == bytes[index] { run += 1 }
            if run > 1 {
                output.append(UInt8(257 - run))
                output.append(bytes[index])
                index += run
            } else {
                var literal = 1
                while index + literal < bytes.count, literal < 128,
                    index + literal + 1 >= bytes.count || bytes[index + literal] != bytes[index + literal + 1]
                {
                    literal += 1
                }
                output.append(UInt8(literal - 1))
                output.append(contentsOf: bytes[index..<(index + literal)])
                index += literal
            }
        }
        output.append(128)
        return output
    }
}
