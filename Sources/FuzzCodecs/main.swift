import CShims
import PDFCore
import PDFImageCodecs

/// Decodes one input (`CodecFuzzInput` says its layout); a decoded image must have the size it claims.
func fuzz(_ data: UnsafeRawBufferPointer) {
    if let decoded = CodecFuzzInput.decode(Array(data)) {
        precondition(decoded.rowBytes == decoded.expectedBytes)
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
