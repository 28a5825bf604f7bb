/// One fuzzing input for the image codecs, shared by the fuzzer (`Sources/FuzzCodecs`) and the tests
/// that replay what it found: the first byte chooses the decoder and its parameters, the rest is the
/// encoded data.
///
/// - selector bit 0 = 0: CCITTFaxDecode; K from bits 1–2 (−1, 0, 1, 4), EndOfLine bit 3,
///   EncodedByteAlign bit 4, BlackIs1 bit 5, DamagedRowsBeforeError bits 6–7; then /Columns and
///   /Rows (0: unknown) as two big-endian 16-bit numbers.
/// - selector bit 0 = 1: JBIG2Decode; bit 1 set: the next two bytes give the length of a
///   /JBIG2Globals prefix, split off the data. The limits are smaller than the library's, so that
///   each input runs in well under a second.
package enum CodecFuzzInput {
    /// The size of a decoded image: the bytes of its rows, and the bytes its width and height call for.
    package struct Decoded: Equatable {
        package var rowBytes: Int
        package var expectedBytes: Int
    }

    /// Decodes `input`; nil when it is too short, the codec refused it, or (CCITT) the row count is
    /// unknown. A caller checks that `rowBytes == expectedBytes`.
    package static func decode(_ input: [UInt8]) -> Decoded? {
        guard let selector = input.first else { return nil }
        let body = Array(input.dropFirst())
        if selector & 1 == 0 {
            guard body.count >= 4 else { return nil }
            var parameters = CCITTParameters()
            parameters.k = [-1, 0, 1, 4][Int(selector >> 1 & 3)]
            parameters.endOfLine = selector & 8 != 0
            parameters.encodedByteAlign = selector & 16 != 0
            parameters.blackIs1 = selector & 32 != 0
            parameters.columns = Int(body[0]) << 8 | Int(body[1])
            parameters.rows = Int(body[2]) << 8 | Int(body[3])
            parameters.damagedRowsBeforeError = Int(selector >> 6)
            guard let rows = try? CCITTFax.decode(Array(body.dropFirst(4)), parameters: parameters),
                parameters.rows > 0
            else { return nil }
            return Decoded(rowBytes: rows.count, expectedBytes: parameters.rows * ((parameters.columns + 7) / 8))
        }
        var globals: [UInt8]?
        var stream = body
        if selector & 2 != 0, body.count >= 2 {
            let length = min(Int(body[0]) << 8 | Int(body[1]), body.count - 2)
            globals = Array(body[2..<(2 + length)])
            stream = Array(body[(2 + length)...])
        }
        var limits = JBIG2Limits()
        limits.maxBitmapPixels = 1 << 22
        // A quarter of what an instrumented build decodes in 2 s on a loaded machine (the
        // library's own limits are what bound real documents; the kept inputs test them).
        limits.maxTotalPixels = 1 << 22
        limits.maxWork = 1 << 24
        limits.maxSymbols = 1 << 16
        guard let page = try? JBIG2.decode(stream, globals: globals, limits: limits) else { return nil }
        return Decoded(rowBytes: page.rows.count, expectedBytes: page.height * ((page.width + 7) / 8))
    }
}
