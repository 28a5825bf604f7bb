import PDFCore
import PDFSession
import PDFWeb

/// Which document `serve` shows, so that a restart loses nothing: the stored document of the same
/// id is resumed as it was left (filled, prepared or signed), never replaced unless asked.
extension ServeCommand {
    /// The id of the built-in demo form in the store.
    static let demoDocumentID = "demo-form"

    /// The id of a served file: "file-" and the first 16 hex digits of the SHA-256 of its bytes, so
    /// the same file is the same document after a restart and another file another document.
    /// - Throws: `PDFError` `.unsupported` when the SHA-256 cannot be computed.
    static func documentID(forFile bytes: [UInt8]) throws(PDFError) -> String {
        let digits = Array("0123456789abcdef")
        let digest = try Digest.sha256.hash(bytes)
        return "file-" + String(digest.prefix(8).flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] })
    }

    /// Makes the document `documentID` the backend's current one: the stored document of that id
    /// when there is one (as it was left, signed or not, read with the password stored with it),
    /// else `pdf` afresh, opened with `password` when it is encrypted; with `replace`, `pdf` afresh
    /// over the stored one.
    /// - Returns: the line to print, nil when the document is opened afresh or is stored as `pdf`
    ///   would start ("resuming demo-form: 2 revisions, phase editing; --replace starts over").
    /// - Throws: `SessionError` from the store, `.passwordRequired` (signo -122) for an encrypted
    ///   `pdf` without its password or with a wrong one; a stored document that cannot be resumed
    ///   says that `--replace` starts over.
    static func openDocument(
        _ pdf: [UInt8], documentID: String, password: String? = nil, replace: Bool, in backend: WebBackend
    ) async throws(SessionError) -> String? {
        let controller = backend.controller
        let stored = try controller.documentInProgress(documentID)
        if replace || !stored {
            let before = stored ? (try? controller.documentSummary(documentID)).map(describe) ?? "unreadable" : nil
            try await backend.open(pdf: pdf, documentID: documentID, password: password, replace: true)
            return before.map { "replaced the stored \(documentID) (\($0)) with a fresh copy" }
        }
        // A served file's id is its hash: the stored document must be that file, whatever wrote it.
        if documentID.hasPrefix("file-"),
            try controller.storedWork(documentID: documentID, comparedWith: pdf)?.sameOriginal == false
        {
            throw SessionError(
                .documentExists,
                "the stored \(documentID) is not this file (its original bytes differ); --replace starts over")
        }
        let session: DocumentSession
        let summary: DocumentSummary
        do throws(SessionError) {
            session = try await backend.resume(documentID: documentID)
            summary = try controller.documentSummary(documentID)
        } catch {
            throw SessionError(
                error.code, "cannot resume the stored \(documentID): \(error.message); --replace starts over",
                signoCode: error.signoCode)
        }
        let bytes = await session.documentBytes
        let unchanged = summary.revisionCount == 0 && summary.phase == .editing && bytes == pdf
        return unchanged ? nil : "resuming \(documentID): \(describe(summary)); --replace starts over"
    }

    /// "2 revisions, phase editing".
    static func describe(_ summary: DocumentSummary) -> String {
        let count = summary.revisionCount
        return "\(count) revision\(count == 1 ? "" : "s"), phase \(SessionCommand.describe(summary.phase))"
    }
}
