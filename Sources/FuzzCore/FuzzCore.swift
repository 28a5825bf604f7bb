import CShims
import PDFCore

/// One fuzzing input (``CoreFuzzInput``: a whole document, one object, or a filter chain).
func fuzz(_ data: UnsafeRawBufferPointer) {
    CoreFuzzInput.run(Array(data))
}

#if FUZZING
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
        fuzz(UnsafeRawBufferPointer(start: data, count: size))
        return 0
    }

    @_cdecl("FuzzCore_main")
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
