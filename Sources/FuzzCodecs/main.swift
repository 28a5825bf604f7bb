import CShims
import PDFCore
import PDFImageCodecs

/// One fuzzing input for the image codecs: the first byte chooses the decoder and its parameters,
/// the rest is the encoded data.
///
/// - selector bit 0 = 0: CCITTFaxDecode; K from bits 1–2 (−1, 0, 1, 4), EndOfLine bit 3,
///   EncodedByteAlign bit 4, BlackIs1 bit 5, DamagedRowsBeforeError bits 6–7; then /Columns and
///   /Rows (0: unknown) as two big-endian 16-bit numbers.
/// - selector bit 0 = 1: JBIG2Decode; bit 1 set: the next two bytes give the length of a
///   /JBIG2Globals prefix, split off the data.
func fuzz(_ data: UnsafeRawBufferPointer) {
    guard let selector = data.first else { return }
    let body = Array(data.dropFirst())
    if selector & 1 == 0 {
        guard body.count >= 4 else { return }
        var parameters = CCITTParameters()
        parameters.k = [-1, 0, 1, 4][Int(selector >> 1 & 3)]
        parameters.endOfLine = selector & 8 != 0
        parameters.encodedByteAlign = selector & 16 != 0
        parameters.blackIs1 = selector & 32 != 0
        parameters.columns = Int(body[0]) << 8 | Int(body[1])
        parameters.rows = Int(body[2]) << 8 | Int(body[3])
        parameters.damagedRowsBeforeError = Int(selector >> 6)
        if let rows = try? CCITTFax.decode(Array(body.dropFirst(4)), parameters: parameters), parameters.rows > 0 {
            precondition(rows.count == parameters.rows * ((parameters.columns + 7) / 8))
        }
    } else {
        var globals: [UInt8]?
        var stream = body
        if selector & 2 != 0, body.count >= 2 {
            let length = min(Int(body[0]) << 8 | Int(body[1]), body.count - 2)
            globals = Array(body[2..<(2 + length)])
            stream = Array(body[(2 + length)...])
        }
        // Smaller bounds than the library's, so that each input runs in well under a second.
        var limits = JBIG2Limits()
        limits.maxBitmapPixels = 1 << 22
        limits.maxTotalPixels = 1 << 24
        limits.maxWork = 1 << 25
        limits.maxSymbols = 1 << 16
        if let page = try? JBIG2.decode(stream, globals: globals, limits: limits) {
            precondition(page.rows.count == page.height * ((page.width + 7) / 8))
        }
    }
}

#if FUZZING
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
        fuzz(UnsafeRawBufferPointer(start: data, count: size))
        return 0
    }

    @_cdecl("FuzzCodecs_main")
    public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
        var argc = argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
        return LLVMFuzzerRunDriver(&argc, &argv) { data, size in
            fuzz(UnsafeRawBufferPointer(start: data, count: size))
            return 0
        }
    }
#else
    /// Without libFuzzer: replays the inputs named on the command line (to reproduce a crash).
    /// (A declaration rather than a statement: the fuzzing build parses this file as a library.)
    func replay() {
        for path in CommandLine.arguments.dropFirst() {
            do {
                let source = try ByteSource(contentsOfFile: path)
                withExtendedLifetime(source) { fuzz(source.buffer) }
                print("replayed \(path)")
            } catch {
                print("cannot read \(path): \(error)")
            }
        }
    }
    let replayed: Void = replay()
#endif
