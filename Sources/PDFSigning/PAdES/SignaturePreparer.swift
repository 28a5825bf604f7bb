public import PDFCore
import PDFForms

/// Prepares a document for signing (ARCHITECTURE.md "Signing pipeline", step 1): an incremental
/// update that adds or fills the signature field, whose signature dictionary holds a `/Contents`
/// placeholder and a `/ByteRange` patched to the exact offsets; then the digest of those ranges,
/// computed in one streaming pass.
public struct SignaturePreparer {
    /// The document to sign; its bytes are never changed.
    public let document: PDFDocument
    /// What to sign and how.
    public var request: SignatureRequest
    /// Whether the update's `/ID` is derived from its content, and where its random bytes come from.
    public var writeOptions: WriteOptions
    /// Refuse (signo -137) instead of making appearances when the form sets `/NeedAppearances`.
    public var refuseNeedAppearances = false
    /// The caller's identity for the document, carried in the prepared state.
    public var documentID: String?

    /// A preparer of `request` on `document`.
    public init(document: PDFDocument, request: SignatureRequest, writeOptions: WriteOptions = .default) {
        self.document = document
        self.request = request
        self.writeOptions = writeOptions
    }

    static let byteRangePlaceholder = "[0 9999999999 9999999999 9999999999]"

    /// Builds the update with room for a CMS of `contentsSize` bytes.
    /// - Parameters:
    ///   - contentsSize: the bytes reserved for the CMS in `/Contents`.
    ///   - signerName: the name for `/Name` and the appearance when the request gives none.
    /// - Throws: `SigningError` `.invalidFieldName` (-130), `.needAppearances` (-137), `.xrefProblem` (-145), `.writeFailed`.
    public func prepare(contentsSize: Int, signerName: String?) throws(SigningError) -> PreparedDocument {
        var base = document
        if let form = AcroForm(document: document), form.needsAppearances {
            if refuseNeedAppearances {
                throw SigningError(.needAppearances, "the form sets /NeedAppearances true")
            }
            // Real appearances first, in a revision of their own, so that what is signed is what shows.
            do {
                let bytes = try FormFiller(form: form, options: .init(write: writeOptions)).documentBytes()
                base = try PDFDocument(bytes: bytes, options: document.options)
            } catch let error as FormError {
                throw SigningError(.signingFailed, "appearances could not be made: \(error)")
            } catch let error as PDFError {
                throw SigningError(error)
            } catch {
                throw SigningError(.signingFailed, "\(error)")
            }
        }
        var builder = SignatureUpdateBuilder(base: base, request: request, writeOptions: writeOptions)
        try builder.build(contentsSize: contentsSize, signerName: signerName)
        var bytes: [UInt8]
        do {
            bytes = try builder.update.serialized()
        } catch {
            throw SigningError(error)
        }
        // The update's base: the document itself, or the same objects from a file starting at its header.
        return try locate(
            in: &bytes, base: builder.update.base, contentsSize: contentsSize, fieldName: builder.fieldName)
    }

    /// Finds the placeholders in the serialized update, patches `/ByteRange` and computes the digest.
    private func locate(
        in bytes: inout [UInt8], base: PDFDocument, contentsSize: Int, fieldName: String
    ) throws(SigningError) -> PreparedDocument {
        let placeholder = Array(SignaturePreparer.byteRangePlaceholder.utf8)
        let contentsMarker = Array("/Contents<".utf8) + [UInt8](repeating: 0x30, count: contentsSize * 2) + [0x3E]
        guard let rangeIndex = find(placeholder, in: bytes), let contentsIndex = find(contentsMarker, in: bytes) else {
            throw SigningError(.writeFailed, "the signature placeholders were not found in the update")
        }
        let baseSize = base.fileSize
        let contentsStart = baseSize + contentsIndex + 9  // the '<'
        let contentsEnd = contentsStart + contentsSize * 2 + 2  // after the '>'
        let fileSize = baseSize + bytes.count
        let byteRange = [0, contentsStart, contentsEnd, fileSize - contentsEnd]
        var text = "[\(byteRange[0]) \(byteRange[1]) \(byteRange[2]) \(byteRange[3])"
        guard text.utf8.count < placeholder.count else {
            throw SigningError(.writeFailed, "the file is too large to sign")
        }
        text += String(repeating: " ", count: placeholder.count - 1 - text.utf8.count) + "]"
        bytes.replaceSubrange(rangeIndex..<(rangeIndex + placeholder.count), with: Array(text.utf8))

        // The digest of everything but the /Contents value, in one pass: the base streamed, then the update.
        var hasher = try request.digestAlgorithm.hasher()
        base.forEachChunk(in: 0..<baseSize) { hasher.update($0) }
        let contentsInUpdate = contentsStart - baseSize
        bytes.withUnsafeBytes { buffer in
            hasher.update(UnsafeRawBufferPointer(rebasing: buffer[0..<contentsInUpdate]))
            hasher.update(UnsafeRawBufferPointer(rebasing: buffer[(contentsInUpdate + contentsSize * 2 + 2)...]))
        }
        let prepared = PreparedSignature(
            documentID: documentID, fieldName: fieldName, byteRange: byteRange, contentsOffset: contentsStart,
            contentsHexLength: contentsSize * 2, digestAlgorithm: request.digestAlgorithm,
            digest: try hasher.finalize(),
            fileSize: fileSize, subFilter: request.subFilter)
        return PreparedDocument(base: base, update: bytes, signature: prepared)
    }

    private func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count else { return nil }
        let first = needle[0]
        var index = 0
        let last = haystack.count - needle.count
        while index <= last {
            if haystack[index] == first, haystack[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}

/// A prepared document: the base and the update holding the placeholder, not yet written.
public struct PreparedDocument: Sendable {
    /// The document the update is appended to (with the appearances made when the form set `/NeedAppearances`).
    public let base: PDFDocument
    /// The update's bytes, `/ByteRange` patched, `/Contents` still zeros.
    public var update: [UInt8]
    /// Where the signature goes in the file and the digest to sign.
    public let signature: PreparedSignature

    /// Writes the prepared file (with the placeholder) to `path`, for an embedding later.
    public func write(to path: String) throws(SigningError) {
        do {
            try IncrementalUpdate.write(base: base, update: update, to: path)
        } catch {
            throw SigningError(error)
        }
    }

    /// Puts `cms` into the placeholder and writes the signed file to `path`, the base streamed.
    /// - Throws: `.signatureTooLarge` (-136) when the CMS does not fit; nothing is written then.
    public func write(embedding cms: [UInt8], to path: String) throws(SigningError) {
        let update = try update(embedding: cms)
        do {
            try IncrementalUpdate.write(base: base, update: update, to: path)
        } catch {
            throw SigningError(error)
        }
    }

    /// Appends the signed file to `writer`, which holds its first `written` bytes already (a file
    /// this one's base was opened from): the rest of the base streamed in chunks, then the update
    /// with `cms` in place. Memory does not grow with the document.
    /// - Throws: `.signatureTooLarge` (-136) when the CMS does not fit, before anything is written;
    ///   `.writeFailed`.
    package func write(embedding cms: [UInt8], to writer: AtomicFileWriter, after written: Int = 0)
        throws(SigningError)
    {
        let update = try update(embedding: cms)
        do {
            try IncrementalUpdate.append(base: base, from: written, update: update, to: writer)
        } catch {
            throw SigningError(error)
        }
    }

    /// The update with `cms` in place of the placeholder: the bytes the signed file has after the base.
    /// - Throws: `.signatureTooLarge` (-136) when the CMS does not fit.
    public func update(embedding cms: [UInt8]) throws(SigningError) -> [UInt8] {
        var update = self.update
        try PreparedDocument.patch(
            &update, at: signature.contentsOffset - base.fileSize, signature: signature, cms: cms)
        return update
    }

    /// The signed file in memory (a copy of the whole document: to write it, ``write(embedding:to:)``
    /// streams instead).
    public func bytes(embedding cms: [UInt8]) throws(SigningError) -> [UInt8] {
        let update = try update(embedding: cms)
        return base.withBytes { IncrementalUpdate.joined($0, update) }
    }

    /// Writes the CMS in hex into `bytes` at the `<` at `offset`.
    static func patch(_ bytes: inout [UInt8], at offset: Int, signature: PreparedSignature, cms: [UInt8])
        throws(SigningError)
    {
        guard offset >= 0, offset + signature.contentsHexLength + 2 <= bytes.count, bytes[offset] == UInt8(ascii: "<")
        else {
            throw SigningError(.writeFailed, "the /Contents placeholder is not where the prepared state says")
        }
        var digits = Array(bytes[(offset + 1)..<(offset + 1 + signature.contentsHexLength)])
        try PreparedDocumentPatch(contentsHexLength: signature.contentsHexLength).write(cms, into: &digits)
        bytes.replaceSubrange((offset + 1)..<(offset + 1 + signature.contentsHexLength), with: digits)
    }
}
