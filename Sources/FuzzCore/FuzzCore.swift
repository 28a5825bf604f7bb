import CShims
import PDFCore

/// One fuzzing input: the first byte chooses what reads the rest (a whole document, one object,
/// or a filter chain), so the fuzzer reaches each reader directly.
func fuzz(_ data: UnsafeRawBufferPointer) {
    guard let selector = data.first else { return }
    let body = Array(data.dropFirst())
    var options = ParseOptions()
    options.maxDecodedStreamSize = 1 << 22
    options.maxObjectCount = 100_000
    switch selector % 4 {
    case 0, 1:
        // A whole document: open, walk the pages, read every object and stream.
        guard let document = try? PDFDocument(bytes: body, options: options) else { return }
        _ = document.pageCount
        for reference in document.objectReferences.prefix(5_000) {
            if let stream = document.object(reference).streamValue { _ = try? stream.partiallyDecodedData() }
        }
        var update = IncrementalUpdate(base: document, options: WriteOptions(deterministicID: true))
        update.setDocumentInformation([("Title", "fuzz")])
        _ = try? update.serialized()
    case 2:
        // One object followed by anything.
        body.withUnsafeBytes { buffer in
            var parser = ObjectParser(buffer, maxDepth: 64)
            while let object = try? parser.parseObject() {
                _ = PDFSerializer.bytes(of: object)
                if parser.lexer.isAtEnd { break }
            }
            _ = try? IndirectObjectParser.parse(buffer, at: 0, maxDepth: 64) { _ in 10 }
        }
    default:
        // A filter chain chosen by the second byte, with predictor parameters.
        guard let choice = body.first else { return }
        let names: [PDFName] = [.flateDecode, .lzwDecode, .ascii85Decode, .asciiHexDecode, .runLengthDecode]
        let first = names[Int(choice) % names.count]
        let second = names[Int(choice / 8) % names.count]
        let predictor = [1, 2, 10, 11, 12, 13, 14, 15][Int(choice / 40) % 8]
        let parameters: PDFDictionary = [
            .predictor: .integer(predictor), .columns: .integer(Int(choice % 7) + 1), .colors: 3,
        ]
        let stream = PDFStream(
            dictionary: [
                .filter: .array([.name(first), .name(second)]), .decodeParms: .array([.dictionary(parameters), .null]),
            ],
            encodedBytes: Array(body.dropFirst()))
        _ = try? stream.decodedData(maxSize: 1 << 22)
    }
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
