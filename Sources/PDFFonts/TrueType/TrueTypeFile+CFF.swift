import PDFCore

extension TrueTypeFile {
    /// For a CID-keyed CFF font (its Top DICT has `ROS`), the CID of every glyph, read from the
    /// charset (Adobe Technical Note #5176, "Charsets"); nil for a name-keyed CFF font, whose
    /// glyph ids serve as CIDs in a PDF CIDFontType0 (ISO 32000-2 §9.7.4.2).
    /// - Throws: `.decodeFailed` when the header, the INDEXes, the Top DICT or the charset are
    ///   truncated or inconsistent.
    static func parseCFFCharset(_ bytes: [UInt8], _ range: Range<Int>, glyphs: Int) throws(PDFError) -> [Int]? {
        var cursor = FontDataCursor(bytes, range: range)
        guard let headerSize = cursor.peekUInt8(at: 2), cursor.skip(Int(headerSize)) else {
            throw damaged("the CFF header is truncated")
        }
        guard try skipIndex(&cursor) != nil, let topDict = try skipIndex(&cursor) else {
            throw damaged("the CFF font has no Top DICT")
        }
        let entries = try dictEntries(bytes, topDict)
        guard entries[1230] != nil else { return nil }  // ROS (12 30): CID-keyed
        guard let charsetOffset = entries[15]?.first, charsetOffset > 2 else {
            throw damaged("the CID-keyed CFF font has no custom charset")
        }
        var charset = FontDataCursor(bytes, from: range.lowerBound + charsetOffset, upTo: range.upperBound)
        var cids = [0]
        cids.reserveCapacity(glyphs)
        guard let format = charset.readUInt8() else { throw damaged("the CFF charset is truncated") }
        while cids.count < glyphs {
            switch format {
            case 0:
                guard let cid = charset.readUInt16() else { throw damaged("the CFF charset is truncated") }
                cids.append(Int(cid))
            case 1, 2:
                guard let first = charset.readUInt16(),
                    let left = format == 1 ? charset.readUInt8().map(Int.init) : charset.readUInt16().map(Int.init)
                else { throw damaged("the CFF charset is truncated") }
                for step in 0...left where cids.count < glyphs { cids.append(Int(first) + step) }
            default:
                throw damaged("CFF charset format \(format) is unknown")
            }
        }
        return cids
    }

    /// Moves past a CFF INDEX and returns the byte range of its first object (nil when empty).
    private static func skipIndex(_ cursor: inout FontDataCursor) throws(PDFError) -> Range<Int>? {
        guard let count = cursor.readUInt16() else { throw damaged("a CFF INDEX is truncated") }
        guard count > 0 else { return nil }
        guard let offsetSize = cursor.readUInt8(), (1...4).contains(offsetSize) else {
            throw damaged("a CFF INDEX has an invalid offset size")
        }
        func offset(_ index: Int) -> Int? {
            var value = 0
            for byte in 0..<Int(offsetSize) {
                guard let next = cursor.peekUInt8(at: index * Int(offsetSize) + byte) else { return nil }
                value = value << 8 | Int(next)
            }
            return value
        }
        // Offsets count from the byte before the object data, which follows the offset array.
        guard let first = offset(0), let second = offset(1), let last = offset(Int(count)), first >= 1,
            first <= second, second <= last
        else { throw damaged("a CFF INDEX has invalid offsets") }
        let dataStart = cursor.offset + (Int(count) + 1) * Int(offsetSize) - 1
        guard cursor.skip(dataStart - cursor.offset + last) else { throw damaged("a CFF INDEX is truncated") }
        return dataStart + first..<dataStart + second
    }

    /// The operands of each operator in a CFF DICT (two-byte operators as 1200 + second byte);
    /// real operands read as 0 (none of the operators used here takes one).
    private static func dictEntries(_ bytes: [UInt8], _ range: Range<Int>) throws(PDFError) -> [Int: [Int]] {
        var cursor = FontDataCursor(bytes, range: range)
        var entries: [Int: [Int]] = [:]
        var operands: [Int] = []
        while let b0 = cursor.readUInt8() {
            switch b0 {
            case 0...11, 13...21:
                entries[Int(b0)] = operands
                operands = []
            case 12:
                guard let b1 = cursor.readUInt8() else { throw damaged("a CFF DICT is truncated") }
                entries[1200 + Int(b1)] = operands
                operands = []
            case 28:
                guard let value = cursor.readInt16() else { throw damaged("a CFF DICT is truncated") }
                operands.append(Int(value))
            case 29:
                guard let value = cursor.readInt32() else { throw damaged("a CFF DICT is truncated") }
                operands.append(Int(value))
            case 30:
                // A real: nibbles up to one equal to 0xF.
                while true {
                    guard let byte = cursor.readUInt8() else { throw damaged("a CFF DICT is truncated") }
                    if byte & 0x0F == 0x0F || byte >> 4 == 0x0F { break }
                }
                operands.append(0)
            case 32...246:
                operands.append(Int(b0) - 139)
            case 247...250:
                guard let b1 = cursor.readUInt8() else { throw damaged("a CFF DICT is truncated") }
                operands.append((Int(b0) - 247) * 256 + Int(b1) + 108)
            case 251...254:
                guard let b1 = cursor.readUInt8() else { throw damaged("a CFF DICT is truncated") }
                operands.append(-(Int(b0) - 251) * 256 - Int(b1) - 108)
            default:
                throw damaged("a CFF DICT has the reserved byte \(b0)")
            }
            guard operands.count <= 48 else { throw damaged("a CFF DICT has too many operands") }
        }
        return entries
    }
}
