/// One fuzzing input for the core, shared by the fuzzer (`Sources/FuzzCore`) and the tests that replay
/// what it found and the hostile inputs kept beside them (`Tests/Fixtures/fuzz/FuzzCore`). The first
/// byte chooses what reads the rest, so the fuzzer reaches each reader directly:
///
/// - selector % 4 = 0 or 1: a whole document, opened, its pages walked, every object read and every
///   stream decoded, then an incremental update written;
/// - 2: one object followed by anything;
/// - 3: a filter chain chosen by the second byte, with predictor parameters.
///
/// The limits are smaller than the defaults, so that no input can take long: 4 MiB a stream, 16 MiB
/// of cross-reference and object streams a document, 100,000 objects.
package enum CoreFuzzInput {
    /// Reads `input` as its selector says.
    package static func run(_ input: [UInt8]) {
        guard let selector = input.first else { return }
        let body = Array(input.dropFirst())
        var options = ParseOptions()
        options.maxDecodedStreamSize = 1 << 22
        options.maxDecodedStructureSize = 1 << 24
        options.maxObjectCount = 100_000
        switch selector % 4 {
        case 0, 1:
            guard let document = try? PDFDocument(bytes: body, options: options) else { return }
            _ = document.pageCount
            for reference in document.objectReferences.prefix(5_000) {
                if let stream = document.object(reference).streamValue { _ = try? stream.partiallyDecodedData() }
            }
            var update = IncrementalUpdate(base: document, options: WriteOptions(deterministicID: true))
            update.setDocumentInformation([("Title", "fuzz")])
            _ = try? update.serialized()
        case 2:
            body.withUnsafeBytes { buffer in
                var parser = ObjectParser(buffer, maxDepth: 64)
                while let object = try? parser.parseObject() {
                    _ = PDFSerializer.bytes(of: object)
                    if parser.lexer.isAtEnd { break }
                }
                _ = try? IndirectObjectParser.parse(buffer, at: 0, maxDepth: 64) { _ in 10 }
            }
        default:
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
                    .filter: .array([.name(first), .name(second)]),
                    .decodeParms: .array([.dictionary(parameters), .null]),
                ],
                encodedBytes: Array(body.dropFirst()))
            _ = try? stream.decodedData(maxSize: 1 << 22)
        }
    }
}
