import PDFCore

/// A segment header (T.88 §7.2) with where its data lies in the stream.
struct JBIG2Segment {
    var number: Int
    /// The segment type (§7.3): 0 symbol dictionary, 4/6/7 text region, 16 pattern dictionary,
    /// 20/22/23 halftone region, 36/38/39 generic region, 40/42/43 refinement region, 48 page
    /// information, 49 end of page, 50 end of stripe, 51 end of file, 52 profiles, 53 tables, 62 extension.
    var type: Int
    var referredTo: [Int]
    var page: Int
    var dataStart: Int
    var dataEnd: Int
    /// The data length was 0xFFFFFFFF: the data ends with the region's row count (§7.4.6.4).
    var unknownLength = false

    /// Reads the segments of an embedded stream (Annex D.3: headers each followed by their data);
    /// at damage, the segments before it and the error.
    static func parseAll(_ data: [UInt8], maxSegments: Int) -> (segments: [JBIG2Segment], error: PDFError?) {
        var segments: [JBIG2Segment] = []
        do {
            try parse(data, maxSegments: maxSegments, into: &segments)
            return (segments, nil)
        } catch {
            return (segments, error)
        }
    }

    private static func parse(_ data: [UInt8], maxSegments: Int, into segments: inout [JBIG2Segment]) throws(PDFError) {
        var reader = JBIG2Reader(data)
        while reader.remaining >= 11 {
            var segment = try parseHeader(&reader)
            let length = try reader.uint32()
            segment.dataStart = reader.offset
            if length == 0xFFFF_FFFF {
                // §7.2.7: an immediate generic region of unknown length ends with a marker and a row count.
                guard segment.type == 38 || segment.type == 39 else {
                    throw JBIG2Error.invalid("segment \(segment.number) of unknown length")
                }
                segment.dataEnd = try endOfUnknownLength(data, start: reader.offset)
                segment.unknownLength = true
            } else {
                segment.dataEnd = min(reader.offset + length, data.count)
            }
            reader.offset = segment.dataEnd
            segments.append(segment)
            guard segments.count <= maxSegments else { throw JBIG2Error.limit("too many segments") }
            if segment.type == 51 { break }
        }
    }

    private static func parseHeader(_ reader: inout JBIG2Reader) throws(PDFError) -> JBIG2Segment {
        let number = try reader.uint32()
        let flags = Int(try reader.byte())
        let type = flags & 0x3F
        let longPage = flags & 0x40 != 0
        let countByte = Int(try reader.byte())
        var count = countByte >> 5
        if count == 7 {
            reader.offset -= 1
            count = try reader.uint32() & 0x1FFF_FFFF
            try reader.skip((count + 8) / 8)
        } else if count > 4 {
            throw JBIG2Error.invalid("segment \(number): invalid referred-to segment count")
        }
        guard count <= reader.remaining else { throw JBIG2Error.truncated() }
        var referred: [Int] = []
        for _ in 0..<count {
            if number <= 256 {
                referred.append(Int(try reader.byte()))
            } else if number <= 65536 {
                referred.append(try reader.uint16())
            } else {
                referred.append(try reader.uint32())
            }
        }
        let page = longPage ? try reader.uint32() : Int(try reader.byte())
        return JBIG2Segment(
            number: number, type: type, referredTo: referred, page: page, dataStart: 0, dataEnd: 0)
    }

    /// Finds the end of an immediate generic region whose length is unknown: the region's data ends
    /// with 0xFF 0xAC (arithmetic) or 0x00 0x00 (MMR) followed by a four-byte row count.
    private static func endOfUnknownLength(_ data: [UInt8], start: Int) throws(PDFError) -> Int {
        guard start + 18 <= data.count else { throw JBIG2Error.truncated() }
        let mmr = data[start + 17] & 1 != 0
        let marker: (UInt8, UInt8) = mmr ? (0x00, 0x00) : (0xFF, 0xAC)
        var index = start + 18
        while index + 6 <= data.count {
            if data[index] == marker.0 && data[index + 1] == marker.1 { return index + 6 }
            index += 1
        }
        throw JBIG2Error.invalid("no end marker for a region of unknown length")
    }
}

/// The region segment information field (T.88 §7.4.1).
struct RegionInfo {
    var width: Int
    var height: Int
    var x: Int
    var y: Int
    var combinationOperator: JBIG2Bitmap.Operator

    init(_ reader: inout JBIG2Reader) throws(PDFError) {
        width = try reader.uint32()
        height = try reader.uint32()
        x = try reader.int32()
        y = try reader.int32()
        combinationOperator = JBIG2Bitmap.Operator(bits: Int(try reader.byte()) & 7)
    }
}
