package import PDFCore

extension LongTermValidation {
    /// Writes the document to `path` with its validation material (B-LT) and, when `authority` is
    /// given, a document time-stamp over it (B-LTA), atomically: each an incremental update
    /// appended to the file being written, the document streamed in chunks, so that memory does
    /// not grow with its size (ARCHITECTURE.md invariant 4).
    /// - Returns: what could not be fetched, one sentence each.
    /// - Throws: as ``addValidationMaterial()`` and ``archive(with:)``; `.writeFailed`.
    public func write(
        to path: String, archivingWith authority: (any TimeStampAuthority)?
    ) async throws(SigningError) -> Problems {
        let writer: AtomicFileWriter
        do {
            writer = try AtomicFileWriter(path: path)
        } catch {
            throw SigningError(error)
        }
        let problems = try await write(to: writer, after: 0, archivingWith: authority)
        do {
            try writer.commit()
        } catch {
            throw SigningError(error)
        }
        return problems
    }

    /// Appends to `writer` the rest of the document (it holds the first `written` bytes already:
    /// 0, or all of them when the document was opened from its ``AtomicFileWriter/temporaryPath``),
    /// the validation material's update and, with `authority`, a document time-stamp's update,
    /// made over the file as written so far, read back from it.
    /// - Returns: what could not be fetched.
    package func write(
        to writer: AtomicFileWriter, after written: Int, archivingWith authority: (any TimeStampAuthority)?
    ) async throws(SigningError) -> Problems {
        let (update, problems) = try await validationMaterialUpdate()
        do {
            try IncrementalUpdate.append(base: update.base, from: written, update: try update.serialized(), to: writer)
        } catch {
            throw SigningError(error)
        }
        guard let authority else { return problems }
        let extended: PDFDocument
        do {
            extended = try PDFDocument(contentsOfFile: writer.temporaryPath, options: document.options)
        } catch {
            throw SigningError(.writeFailed, "the extended document cannot be read back: \(error)")
        }
        var stamper = DocumentTimestamper(document: extended, authority: authority)
        stamper.writeOptions = writeOptions
        try await stamper.timestamp().write(to: writer, after: extended.fileSize)
        return problems
    }
}
