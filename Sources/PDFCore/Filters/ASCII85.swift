/// ASCII85Decode (ISO 32000-2 §7.4.3): groups of five characters `!`…`u` for four bytes, `z` for
/// four zero bytes, `~>` at the end; a final partial group of n characters gives n−1 bytes.
///
/// Damaged data is read as poppler and pdf.js read it: a character outside `!`…`u` (or a `z`
/// inside a group) counts by its distance from `!`, and a group over 2³² keeps its low 32 bits.
/// A damaged character then costs the four bytes of its group and the groups after it keep
/// their place, where stopping would lose the rest of the stream.
package enum ASCII85 {
    package static func decode(_ input: UnsafeRawBufferPointer) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(input.count * 4 / 5 + 4)
        var group: UInt32 = 0
        var count = 0
        var index = 0
        // An optional `<~` prefix (seen in the wild, not in the spec).
        if input.count >= 2, input[0] == UInt8(ascii: "<"), input[1] == UInt8(ascii: "~") { index = 2 }
        while index < input.count {
            let byte = input[index]
            index += 1
            if byte == UInt8(ascii: "~") { break }
            if Lexer.isWhitespace(byte) { continue }
            if byte == UInt8(ascii: "z"), count == 0 {
                output.append(contentsOf: [0, 0, 0, 0])
                continue
            }
            group = group &* 85 &+ UInt32(truncatingIfNeeded: Int(byte) - 0x21)
            count += 1
            if count == 5 {
                output.append(UInt8(truncatingIfNeeded: group >> 24))
                output.append(UInt8(truncatingIfNeeded: group >> 16))
                output.append(UInt8(truncatingIfNeeded: group >> 8))
                output.append(UInt8(truncatingIfNeeded: group))
                group = 0
                count = 0
            }
        }
        if count > 1 {
            for _ in count..<5 { group = group &* 85 &+ 84 }
            let bytes = [
                UInt8(truncatingIfNeeded: group >> 24), UInt8(truncatingIfNeeded: group >> 16),
                UInt8(truncatingIfNeeded: group >> 8), UInt8(truncatingIfNeeded: group),
            ]
            output.append(contentsOf: bytes.prefix(count - 1))
        }
        return output
    }

    package static func encode(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let chunk = min(4, bytes.count - index)
            var value: UInt32 = 0
            for offset in 0..<4 {
                value = value << 8 | UInt32(offset < chunk ? bytes[index + offset] : 0)
            }
            if chunk == 4 && value == 0 {
                output.append(UInt8(ascii: "z"))
            } else {
                var digits = [UInt8](repeating: 0, count: 5)
                for position in stride(from: 4, through: 0, by: -1) {
                    digits[position] = UInt8(value % 85) + 0x21
                    value /= 85
                }
                output.append(contentsOf: digits.prefix(chunk + 1))
            }
            index += chunk
        }
        output.append(contentsOf: Array("~>".utf8))
        return output
    }
}
