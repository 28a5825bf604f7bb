/// ASCIIHexDecode (ISO 32000-2 §7.4.2): pairs of hex digits, white space ignored, `>` ends the data,
/// an odd final digit is followed by an implied 0. A byte that is neither a digit nor white space
/// counts as a 0 digit, as poppler reads it: damage that replaced a digit then costs one byte,
/// where skipping it would shift every later pair by half a byte.
package enum ASCIIHex {
    package static func decode(_ input: UnsafeRawBufferPointer) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(input.count / 2)
        var high: UInt8? = nil
        for byte in input {
            if byte == UInt8(ascii: ">") { break }
            let value: UInt8
            if let digit = hexValue(byte) {
                value = digit
            } else if Lexer.isWhitespace(byte) {
                continue
            } else {
                value = 0
            }
            if let pending = high {
                output.append(pending << 4 | value)
                high = nil
            } else {
                high = value
            }
        }
        if let pending = high { output.append(pending << 4) }
        return output
    }

    @inline(__always) package static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    package static func encode(_ bytes: [UInt8]) -> [UInt8] {
        let digits = Array("0123456789ABCDEF".utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count * 2 + 1)
        for byte in bytes {
            output.append(digits[Int(byte >> 4)])
            output.append(digits[Int(byte & 0x0F)])
        }
        return output
    }
}
