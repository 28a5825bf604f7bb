public import PDFAuthoring
public import PDFCore
import PDFForms
import PDFSigning

/// The entry point (WYSIWYS `WYSIWYSController`): one user, their encrypted store, and the
/// documents they open, reopen, show, sign and dispose.
///
/// ```swift
/// let controller = try SessionController(username: "ada", storageKey: key, storePath: path)
/// let session = try await controller.open(pdf: bytes, documentID: "contract-42")
/// for await event in session.events { … }
/// ```
public final class SessionController: Sendable {
    /// The user whose documents and signatures these are.
    public let username: String
    let store: SecureStore
    let clock: @Sendable () -> PDFDate

    /// - Parameters:
    ///   - username: the user whose documents and signatures these are.
    ///   - storageKey: exactly 64 bytes; it encrypts everything stored and is never written anywhere.
    ///   - storePath: the SQLite database (created when absent).
    ///   - clock: the time written into signatures and notes (injected for deterministic tests).
    public convenience init(
        username: String, storageKey: [UInt8], storePath: String,
        clock: @escaping @Sendable () -> PDFDate = { .now() }
    ) throws(SessionError) {
        try self.init(
            username: username, store: SecureStore(username: username, storageKey: storageKey, path: storePath),
            clock: clock)
    }

    /// A controller on a store the caller made (another database behind `DocumentStore`).
    public init(username: String, store: SecureStore, clock: @escaping @Sendable () -> PDFDate = { .now() }) {
        self.username = username
        self.store = store
        self.clock = clock
    }

    // MARK: - Documents

    /// Opens a document to fill and sign (WYSIWYS `openDocument`); a document in progress with the
    /// same id is replaced. `documentDidLoad` is the first event.
    /// - Parameters:
    ///   - pdf: the document's bytes.
    ///   - documentID: the host's id for it (a document in progress with this id is replaced).
    ///   - viewerConfiguration: how the viewer shows it.
    ///   - signatureConfiguration: how signatures are captured, placed and made.
    ///   - password: the user or owner password of an encrypted document (kept in the encrypted
    ///     store with the document, to read it again after each revision and a restart).
    ///   - delegate: the host's answers to the workflow's decisions.
    /// - Throws: `.passwordRequired` (-122) when the document is encrypted and the password is
    ///   missing or wrong.
    public func open(
        pdf: [UInt8], documentID: String, password: String? = nil,
        viewerConfiguration: ViewerConfiguration = ViewerConfiguration(),
        signatureConfiguration: SignatureConfiguration = SignatureConfiguration(),
        delegate: (any SessionDelegate)? = nil
    ) async throws(SessionError) -> DocumentSession {
        if let problem = DocumentID.problem(documentID) { throw SessionError(.invalidArgument, problem) }
        let document = try DocumentSession.open(pdf, password: password)
        // Revisions extend a file that starts with its header (junk before it dropped, or one added).
        var original = pdf
        if !document.startsWithHeader {
            do {
                original = try document.startingAtHeader().withBytes { Array($0) }
            } catch {
                throw SessionError(error)
            }
        }
        var snapshot = SessionSnapshot(kind: .editable)
        snapshot.documentPassword = password
        try store.create(documentID: documentID, original: original, state: snapshot.encoded())
        return try await start(documentID, viewerConfiguration, signatureConfiguration, delegate)
    }

    /// Reopens a document in progress with its edits and workflow state (WYSIWYS `reopenDocument`).
    public func reopen(
        documentID: String, viewerConfiguration: ViewerConfiguration = ViewerConfiguration(),
        signatureConfiguration: SignatureConfiguration = SignatureConfiguration(),
        delegate: (any SessionDelegate)? = nil
    ) async throws(SessionError) -> DocumentSession {
        try await start(documentID, viewerConfiguration, signatureConfiguration, delegate)
    }

    /// Shows a document read-only (WYSIWYS `showDocument`): kept in the store (not in memory) while
    /// the session lives, and erased when it closes or goes away, whichever comes first; signing
    /// and editing calls are errors.
    /// - Parameters:
    ///   - pdf: the document's bytes.
    ///   - password: the user or owner password of an encrypted document (kept, encrypted, with the
    ///     stored copy, and erased with it).
    ///   - viewerConfiguration: how the viewer shows it.
    /// - Throws: `.passwordRequired` (-122) when the document is encrypted and the password is
    ///   missing or wrong; -120 or -121 for bytes that are not a readable PDF.
    public func show(
        pdf: [UInt8], password: String? = nil, viewerConfiguration: ViewerConfiguration = ViewerConfiguration()
    ) async throws(SessionError) -> DocumentSession {
        _ = try DocumentSession.open(pdf, password: password)
        let documentID = "show-" + Self.randomID()
        var snapshot = SessionSnapshot(kind: .readOnly)
        snapshot.documentPassword = password
        try store.create(documentID: documentID, original: pdf, state: snapshot.encoded())
        return try await start(documentID, viewerConfiguration, SignatureConfiguration(), nil)
    }

    private func start(
        _ documentID: String, _ viewer: ViewerConfiguration, _ signature: SignatureConfiguration,
        _ delegate: (any SessionDelegate)?, hostCMS: Bool = false
    ) async throws(SessionError) -> DocumentSession {
        let stored = try store.load(documentID: documentID)
        let snapshot = try SessionSnapshot.decoded(stored.state)
        let session = try DocumentSession(
            documentID: documentID, stored: stored, snapshot: snapshot, store: store, username: username,
            viewer: viewer, signature: signature, delegate: delegate, clock: clock)
        session.announceLoad()
        // A signature under way when the process stopped is settled now, never left waiting.
        try await session.recoverInterruptedSigning(hostCMS: hostCMS)
        return session
    }

    /// Whether a document is in progress (WYSIWYS `documentInProgress`).
    public func documentInProgress(_ documentID: String) throws(SessionError) -> Bool {
        try store.contains(documentID: documentID)
    }

    /// Checks that `pdf` opens as a document with `password` (the user or owner password of an
    /// encrypted one), as ``open(pdf:documentID:password:viewerConfiguration:signatureConfiguration:delegate:)``
    /// would, without storing anything.
    /// - Throws: `.passwordRequired` (-122) for a missing or wrong password; -120 or -121 for bytes
    ///   that are not a readable PDF.
    public static func checkOpens(pdf: [UInt8], password: String?) throws(SessionError) {
        _ = try DocumentSession.open(pdf, password: password)
    }

    /// What a document in progress holds that opening other bytes under its id would throw away:
    /// nil when there is no such document, or when its original is `pdf` itself (reopening it loses
    /// nothing); else its revisions (edits, signatures) and the signed signature fields of its
    /// current bytes (its original's included).
    /// - Throws: `SessionError` from the store, `.tamperedRecord`.
    public func storedWork(documentID: String, comparedWith pdf: [UInt8]) throws(SessionError) -> StoredWork? {
        guard try store.contains(documentID: documentID) else { return nil }
        let stored = try store.load(documentID: documentID)
        if stored.original == pdf {
            return StoredWork(revisionCount: stored.revisions.count, signatureCount: 0, sameOriginal: true)
        }
        let snapshot = try SessionSnapshot.decoded(stored.state)
        var signed = 0
        if let document = try? DocumentSession.open(stored.bytes, password: snapshot.documentPassword),
            let form = AcroForm(document: document)
        {
            signed = form.signatureFields.filter { $0.value == .signature(signed: true) }.count
        }
        return StoredWork(revisionCount: stored.revisions.count, signatureCount: signed, sameOriginal: false)
    }

    /// The documents in progress: id, workflow phase, revision count.
    public func documentsInProgress() throws(SessionError) -> [DocumentSummary] {
        try store.documentIDs().filter { !$0.hasPrefix("show-") }.map { id throws(SessionError) in
            try documentSummary(id)
        }
    }

    /// One document in progress: its workflow phase, revision count, size.
    /// - Throws: `SessionError` `.documentNotFound`, `.tamperedRecord`, `.storeUnavailable`.
    public func documentSummary(_ documentID: String) throws(SessionError) -> DocumentSummary {
        let stored = try store.load(documentID: documentID)
        let snapshot = try SessionSnapshot.decoded(stored.state)
        return DocumentSummary(
            documentID: documentID, phase: snapshot.workflow.phase, revisionCount: stored.revisions.count,
            size: stored.original.count + stored.revisions.reduce(0) { $0 + $1.count },
            digestToSign: snapshot.prepared?.digest)
    }

    /// Moves the SQLite store at `storePath` to another storage key: every record of every user is
    /// sealed again under `newKey` in one transaction, or nothing changes (`SecureStore.rekey`).
    /// - Parameters:
    ///   - storePath: the SQLite database.
    ///   - usernames: every user of the store.
    ///   - oldKey: the 64-byte key the store was written with.
    ///   - newKey: the 64-byte key to move to.
    /// - Throws: `SessionError` `.storeUnavailable` when no store is at `storePath`; otherwise as
    ///   `SecureStore.rekey(backend:usernames:from:to:)` (`.wrongStorageKey` for a wrong old key).
    public static func rekeyStore(
        at storePath: String, usernames: [String], from oldKey: [UInt8], to newKey: [UInt8]
    ) throws(SessionError) -> SecureStore.RekeySummary {
        guard storePath != ":memory:", StoreFiles.exists(storePath) else {
            throw SessionError(.storeUnavailable, "no store is at \(storePath)")
        }
        return try SecureStore.rekey(
            backend: SQLiteDocumentStore(path: storePath), usernames: usernames, from: oldKey, to: newKey)
    }

    /// Forgets a document (WYSIWYS `disposeDocument`): its bytes and state are deleted from the store.
    public func dispose(documentID: String) throws(SessionError) {
        try store.delete(documentID: documentID)
    }

    /// The current bytes of a document in progress (signed once the workflow finished).
    public func documentBytes(documentID: String) throws(SessionError) -> [UInt8] {
        try store.load(documentID: documentID).bytes
    }

    /// Embeds a CMS into a prepared document from the store alone, in any process (WYSIWYS
    /// `embedSignature:signatureConfiguration:signature:`); returns the signed document.
    public func embedSignature(
        documentID: String, signatureConfiguration: SignatureConfiguration = SignatureConfiguration(), cms: [UInt8]
    ) async throws(SessionError) -> [UInt8] {
        let session = try await start(documentID, ViewerConfiguration(), signatureConfiguration, nil, hostCMS: true)
        defer { Task { await session.close() } }
        try await session.embedSignature(cms)
        return await session.documentBytes
    }

    // MARK: - Saved handwritten signatures (WYSIWYS signature settings)

    /// The person's saved signatures, oldest first.
    public func savedSignatures() throws(SessionError) -> [SavedSignature] { try store.handwrittenSignatures() }

    /// Saves handwriting among the user's signatures, dated now, and returns it with its id.
    /// - Throws: `.invalidArgument` for points outside `[InkStroke].captureArea` or too many of them.
    @discardableResult
    public func addSavedSignature(_ strokes: [InkStroke]) throws(SessionError) -> SavedSignature {
        try store.addHandwrittenSignature(strokes, created: clock())
    }

    /// Deletes the saved signature `id`; no error when there is none.
    public func deleteSavedSignature(id: Int) throws(SessionError) { try store.deleteSignature(id: id) }

    static func randomID() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<16).map { _ in String(UInt8.random(in: 0...255, using: &generator), radix: 16) }.joined()
    }
}

/// What a stored document holds (``SessionController/storedWork(documentID:comparedWith:)``).
public struct StoredWork: Sendable, Equatable {
    /// The incremental updates stored after the original (edits, signatures, notes).
    public var revisionCount: Int
    /// The signed signature fields of its current bytes (0 when `sameOriginal`).
    public var signatureCount: Int
    /// Its original is the bytes compared with: reopening it loses nothing.
    public var sameOriginal: Bool

    /// Whether opening other bytes under its id would throw work away.
    public var wouldLoseWork: Bool { !sameOriginal && (revisionCount > 0 || signatureCount > 0) }
}

/// A document in progress as listed by `SessionController.documentsInProgress()`.
public struct DocumentSummary: Sendable {
    /// The document's identity in the store.
    public var documentID: String
    /// Where its workflow stands.
    public var phase: SigningWorkflow.Phase
    /// The number of incremental updates stored after the original.
    public var revisionCount: Int
    /// The bytes of the original and every revision.
    public var size: Int
    /// The digest waiting for a CMS, when the document is prepared.
    public var digestToSign: [UInt8]?
}
