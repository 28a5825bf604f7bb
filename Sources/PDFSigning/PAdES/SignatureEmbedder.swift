public import PDFCore

/// Embeds a CMS into a prepared file later, in any process (WYSIWYS `embedSignature`): checks the
/// file is the one prepared (size, placeholder, digest of its byte ranges), then writes a copy
/// with the CMS in hex in place of the placeholder.
public enum SignatureEmbedder {
    /// - Throws: `.signatureTooLarge` (-136) when the CMS does not fit, `.signingFailed` when the
    ///   file is not the prepared one or the CMS is for other content, `.writeFailed`.
    public static func embed(
        cms: [UInt8], into preparedPath: String, state: PreparedSignature, writingTo outputPath: String
    ) throws(SigningError) {
        let document: PDFDocument
        do {
            // Opened only to map the file and stream it; its structure was checked when it was prepared.
            document = try PDFDocument(contentsOfFile: preparedPath, options: ParseOptions(password: nil))
        } catch let error where error.code == .passwordRequired {
            // An encrypted prepared file: the bytes are what matter here, not the objects.
            throw SigningError(
                .passwordRequired, "\(error.description); embedding needs no password, but the file must open")
        } catch {
            throw SigningError(error)
        }
        try embed(cms: cms, into: document, state: state, writingTo: outputPath)
    }

    /// The signed file in memory: the prepared document with the CMS in place of the placeholder.
    public static func embed(cms: [UInt8], into document: PDFDocument, state: PreparedSignature) throws(SigningError)
        -> [UInt8]
    {
        let hex = try checkedDigits(cms: cms, document: document, state: state)
        var output: [UInt8] = []
        output.reserveCapacity(document.fileSize)
        document.forEachChunk(in: 0..<(state.contentsOffset + 1)) { output.append(contentsOf: $0) }
        output.append(contentsOf: hex)
        document.forEachChunk(in: (state.contentsOffset + 1 + state.contentsHexLength)..<document.fileSize) {
            output.append(contentsOf: $0)
        }
        return output
    }

    /// Checks that `document` is the prepared file and `cms` signs its digest; the CMS as hex digits.
    static func checkedDigits(cms: [UInt8], document: PDFDocument, state: PreparedSignature) throws(SigningError)
        -> [UInt8]
    {
        guard document.fileSize == state.fileSize else {
            throw SigningError(
                .signingFailed, "the file has \(document.fileSize) bytes, the prepared one had \(state.fileSize)")
        }
        let placeholder = document.bytes(
            in: state.contentsOffset..<(state.contentsOffset + state.contentsHexLength + 2))
        guard placeholder.first == UInt8(ascii: "<"), placeholder.last == UInt8(ascii: ">"),
            placeholder.dropFirst().dropLast().allSatisfy({ $0 == UInt8(ascii: "0") })
        else {
            throw SigningError(
                .signingFailed, "the /Contents placeholder is not at offset \(state.contentsOffset) (already signed?)")
        }
        var hasher = try state.digestAlgorithm.hasher()
        let range = state.byteRange
        document.forEachChunk(in: range[0]..<(range[0] + range[1])) { hasher.update($0) }
        document.forEachChunk(in: range[2]..<(range[2] + range[3])) { hasher.update($0) }
        guard try hasher.finalize() == state.digest else {
            throw SigningError(.signingFailed, "the prepared file changed since it was prepared (its digest differs)")
        }
        try CMSCheck.messageDigest(of: cms, matches: state.digest)
        var hex = [UInt8](repeating: UInt8(ascii: "0"), count: state.contentsHexLength)
        let patch = PreparedDocumentPatch(contentsHexLength: state.contentsHexLength)
        try patch.write(cms, into: &hex)
        return hex
    }

    /// Embeds into an already opened prepared document.
    public static func embed(
        cms: [UInt8], into document: PDFDocument, state: PreparedSignature, writingTo outputPath: String
    ) throws(SigningError) {
        let hex = try checkedDigits(cms: cms, document: document, state: state)
        do {
            let writer = try AtomicFileWriter(path: outputPath)
            do {
                try document.forEachChunk(in: 0..<(state.contentsOffset + 1)) { try writer.write($0) }
                try writer.write(hex)
                try document.forEachChunk(in: (state.contentsOffset + 1 + state.contentsHexLength)..<document.fileSize)
                {
                    try writer.write($0)
                }
            } catch let error as PDFError {
                throw error
            } catch {
                throw PDFError(.writeFailed, "\(error)")
            }
            try writer.commit()
        } catch {
            throw SigningError(.writeFailed, "\(error)")
        }
    }
}

/// Writes a CMS as hex digits into a placeholder's digits.
struct PreparedDocumentPatch {
    let contentsHexLength: Int

    func write(_ cms: [UInt8], into digits: inout [UInt8]) throws(SigningError) {
        guard cms.count * 2 <= contentsHexLength else {
            throw SigningError(
                .signatureTooLarge,
                "the signature needs \(cms.count) bytes but \(contentsHexLength / 2) were reserved; prepare again with a size of at least \(cms.count)"
            )
        }
        let hex = Array("0123456789ABCDEF".utf8)
        for (index, byte) in cms.enumerated() {
            digits[2 * index] = hex[Int(byte >> 4)]
            digits[2 * index + 1] = hex[Int(byte & 0x0F)]
        }
    }
}
