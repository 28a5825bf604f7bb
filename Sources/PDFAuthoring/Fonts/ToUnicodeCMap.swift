import PDFCore

/// Builds the text of a `/ToUnicode` CMap (ISO 32000-2 §9.10.3; Adobe Technical Note #5411): the
/// map from a font's character codes to the Unicode text they stand for, so that text drawn with
/// the font can be extracted, copied and searched.
///
/// Codes are written in `bfrange` entries where consecutive codes map to consecutive single
/// UTF-16 code units (both varying only in their last byte), else in `bfchar` entries; at most 100
/// entries a block. Destinations are UTF-16BE, so characters outside the Basic Multilingual Plane
/// are surrogate pairs.
package enum ToUnicodeCMap {
    /// The CMap program for `mappings` (code → text) with codes of `codeLength` bytes (1 to 4).
    /// Empty texts are left out; a text is cut after 256 UTF-16 code units (the limit for a
    /// destination string).
    package static func make(_ mappings: [UInt32: String], codeLength: Int = 2) -> [UInt8] {
        let length = max(1, min(4, codeLength))
        let entries: [(code: UInt32, units: [UInt16])] = mappings.keys.sorted().compactMap { code in
            let units = Array(mappings[code, default: ""].utf16.prefix(256))
            guard !units.isEmpty, length == 4 || code >> UInt32(8 * length) == 0 else { return nil }
            return (code, units)
        }

        var chars: [String] = []
        var ranges: [String] = []
        var index = 0
        while index < entries.count {
            // Extend a range while codes and single code units both step by one within their last byte.
            var end = index
            if entries[index].units.count == 1 {
                while end + 1 < entries.count, entries[end + 1].units.count == 1,
                    entries[end + 1].code == entries[end].code &+ 1, entries[end + 1].code & 0xFF != 0,
                    entries[end + 1].units[0] == entries[end].units[0] &+ 1, entries[end + 1].units[0] & 0xFF != 0
                {
                    end += 1
                }
            }
            let first = entries[index]
            if end > index {
                ranges.append(
                    "<\(hex(first.code, bytes: length))> <\(hex(entries[end].code, bytes: length))> "
                        + "<\(hex(units: first.units))>")
            } else {
                chars.append("<\(hex(first.code, bytes: length))> <\(hex(units: first.units))>")
            }
            index = end + 1
        }

        var text = """
            /CIDInit /ProcSet findresource begin
            12 dict begin
            begincmap
            /CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def
            /CMapName /Adobe-Identity-UCS def
            /CMapType 2 def
            1 begincodespacerange
            <\(hex(0, bytes: length))> <\(hex(length == 4 ? UInt32.max : (1 << UInt32(8 * length)) - 1, bytes: length))>
            endcodespacerange

            """
        for block in stride(from: 0, to: chars.count, by: 100) {
            let slice = chars[block..<min(block + 100, chars.count)]
            text += "\(slice.count) beginbfchar\n" + slice.joined(separator: "\n") + "\nendbfchar\n"
        }
        for block in stride(from: 0, to: ranges.count, by: 100) {
            let slice = ranges[block..<min(block + 100, ranges.count)]
            text += "\(slice.count) beginbfrange\n" + slice.joined(separator: "\n") + "\nendbfrange\n"
        }
        text += """
            endcmap
            CMapName currentdict /CMap defineresource pop
            end
            end

            """
        return Array(text.utf8)
    }

    private static let digits = Array("0123456789ABCDEF".utf8)

    /// `value` as `bytes` bytes of upper-case hexadecimal.
    private static func hex(_ value: UInt32, bytes: Int) -> String {
        var output: [UInt8] = []
        for shift in stride(from: 8 * bytes - 4, through: 0, by: -4) {
            output.append(digits[Int((value >> UInt32(shift)) & 0xF)])
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// UTF-16 code units as big-endian hexadecimal.
    private static func hex(units: [UInt16]) -> String {
        units.map { hex(UInt32($0), bytes: 2) }.joined()
    }
}
