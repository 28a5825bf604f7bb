import CShims
import PDFCore
import PDFRendering

/// libFuzzer entry for font programs (TrueType, CFF, Type 1, OpenType) and CMaps, read by the font model and FreeType.
/// (`FontFuzzInput` says the layout of an input; the tests replay the inputs kept in
/// `Tests/Fixtures/fuzz/FuzzFonts` through the same function.)
func fuzz(_ data: UnsafeRawBufferPointer) {
    FontFuzzInput.run(Array(data))
}

#if FUZZING
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
        fuzz(UnsafeRawBufferPointer(start: data, count: size))
        return 0
    }

    @_cdecl("FuzzFonts_main")
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
    @main
    struct FuzzReplay {
        static func main() throws {
            for path in CommandLine.arguments.dropFirst() {
                let source = try ByteSource(contentsOfFile: path)
                withExtendedLifetime(source) { fuzz(source.buffer) }
                print("replayed \(path)")
            }
        }
    }
#endif
