import PDFAnnotations
public import PDFCore
public import PDFForms
import PDFSigning
import PDFViewer
import Synchronization

/// One open document (WYSIWYS `WYSPDFViewer` + `WYSIWYSController`'s per-document calls, signo
/// `STSignoViewController`'s document side): its fields, edits saved to the encrypted store as they
/// happen, and the signing workflow, whose transitions `SigningWorkflow` decides.
///
/// Events arrive on ``events`` in order; decisions are asked of the ``SessionDelegate``.
public actor DocumentSession {
    /// The document's identity in the store (WYSIWYS document id).
    public nonisolated let documentID: String
    /// `show`: nothing can be changed or signed.
    public nonisolated let isReadOnly: Bool
    /// What happens in the session, in order; the first event is `documentDidLoad`.
    public nonisolated let events: AsyncStream<SessionEvent>
    /// How the document is shown; kept for the viewer, it changes nothing in the document
    /// (``configure(viewer:)`` changes it while the session runs).
    public internal(set) var viewerConfiguration: ViewerConfiguration
    nonisolated let loadedPageCount: Int
    let continuation: AsyncStream<SessionEvent>.Continuation
    let store: SecureStore
    let username: String
    let clock: @Sendable () -> PDFDate
    /// How the document is signed: as given when the session was opened, with the changes
    /// ``configure(capture:)`` and ``configure(appearance:)`` made since.
    public internal(set) var signatureConfiguration: SignatureConfiguration
    weak var delegate: (any SessionDelegate)?

    /// The document as it is now: the original and every revision.
    public private(set) var document: PDFDocument {
        didSet { published.withLock { $0 = document } }
    }
    /// `document`, readable without waiting for the actor (a long write, such as a revision of a
    /// large document, must not hold up a viewer drawing the current one).
    private nonisolated let published: Mutex<PDFDocument>
    /// The document as it is now, read at once from any thread: the same value as `document`,
    /// published when each change is complete.
    public nonisolated var currentDocument: PDFDocument { published.withLock { $0 } }
    var bytes: [UInt8]
    /// The size of each revision after the original, in order.
    var revisionSizes: [Int]
    var revisionCount: Int { revisionSizes.count }
    /// The store's version of the document this session last read or wrote: a write fails with
    /// `.documentChanged` when another session (another process, say) wrote the document since.
    var storeVersion: StoreVersion?
    var snapshot: SessionSnapshot
    /// The viewer's mode: the one record of what the viewer shows besides the workflow's dialogs
    /// (the notes of a notes mode, not stored until saved as the seeds say; search highlights; an
    /// open viewer rectangle).
    var modes = ViewerModeMachine()
    /// The id the next viewer rectangle gets.
    var nextViewerRectID = 1
    var closed = false
    /// A signer (or the delegate) is making the CMS in this process now.
    var signatureInFlight = false
    /// `completeDocument()` is adding its revisions: no other change may come between.
    var completionInFlight = false
    /// What the restart did with a signature under way, until the first write.
    var recovery: SigningWorkflow.Recovery?
    /// The revisions the store keeps once the first write settles a discarded signature.
    var pendingTruncation: Int?

    init(
        documentID: String, stored: StoredDocument, snapshot: SessionSnapshot, store: SecureStore, username: String,
        viewer: ViewerConfiguration, signature: SignatureConfiguration, delegate: (any SessionDelegate)?,
        clock: @escaping @Sendable () -> PDFDate
    ) throws(SessionError) {
        self.documentID = documentID
        self.isReadOnly = snapshot.kind == .readOnly
        self.viewerConfiguration = viewer
        self.signatureConfiguration = signature
        self.delegate = delegate
        self.store = store
        self.username = username
        self.clock = clock
        self.snapshot = snapshot
        // A session restored in the middle of signing (a preview to confirm, a CMS awaited).
        switch snapshot.workflow.phase {
        case .editing, .finished, .notes: break
        default: self.modes = ViewerModeMachine(mode: .signing)
        }
        self.bytes = stored.bytes
        self.revisionSizes = stored.revisions.map(\.count)
        self.storeVersion = stored.version
        let opened = try Self.open(stored.bytes, password: snapshot.documentPassword)
        self.published = Mutex(opened)
        self.document = opened
        self.loadedPageCount = opened.pages.count
        (events, continuation) = AsyncStream.makeStream(of: SessionEvent.self, bufferingPolicy: .unbounded)
        self.snapshot.workflow.acceptedReason = signature.attributes.acceptedReason
        self.snapshot.workflow.refusedReason = signature.attributes.refusedReason
    }

    static func open(_ bytes: [UInt8], password: String? = nil) throws(SessionError) -> PDFDocument {
        do {
            let document = try PDFDocument(bytes: bytes, options: ParseOptions(password: password))
            guard !document.pages.isEmpty else { throw SessionError(.documentUnreadable, "the document has no pages") }
            return document
        } catch let error as SessionError {
            throw error
        } catch let error as PDFError {
            throw SessionError(error)
        } catch {
            throw SessionError(.documentUnreadable, "\(error)")
        }
    }

    deinit {
        // A shown document is erased when its session goes away, closed or not.
        if isReadOnly {
            if !closed { try? store.delete(documentID: documentID) }
        }
        continuation.finish()
    }

    /// Announces the document (WYSIWYS `documentDidLoad`) as the stream's first event.
    nonisolated func announceLoad() {
        continuation.yield(.documentDidLoad(pageCount: loadedPageCount))
    }

    func emit(_ event: SessionEvent) { continuation.yield(event) }

    // MARK: - Document info (WYSIWYS pageCount, pageIndex, didPageChanged)

    /// The number of pages of the document as it is now.
    public var pageCount: Int { document.pages.count }
    /// The page the person looks at, from 0 (see ``setCurrentPage(_:)``).
    public var currentPageIndex: Int { snapshot.currentPageIndex }
    /// The workflow's phase (what the session waits for).
    public var phase: SigningWorkflow.Phase { snapshot.workflow.phase }
    /// The workflow as it stands: its phase, the signature being planned and the placement a
    /// positioning proposes (a viewer rebuilds the step it shows from it after a reload).
    public var workflow: SigningWorkflow { snapshot.workflow }
    /// The current document's bytes (the original with every revision).
    public var documentBytes: [UInt8] { bytes }

    /// The page the person looks at (from 0); emits `pageChanged` when it changes.
    public func setCurrentPage(_ index: Int) throws(SessionError) {
        if let problem = PageIndexCheck.problem(index, pageCount: pageCount) {
            throw SessionError(.invalidArgument, problem)
        }
        guard index != snapshot.currentPageIndex else { return }
        snapshot.currentPageIndex = index
        emit(.pageChanged(index))
        if !isReadOnly { try? persist() }
    }

    // MARK: - Fields

    var form: AcroForm? { AcroForm(document: document) }

    /// Every field of the form (signo `getFormFields`).
    public func formFields() -> [FieldInfo] { closingLockedFields(form?.fields.map(FieldInfo.init) ?? []) }

    /// The signature fields, in document order, with their signed state.
    public func signatureFields() -> [FieldInfo] { form?.signatureFields.map(FieldInfo.init) ?? [] }

    /// Fields a valid certification (P=1: every field) or a field lock of the document closes are
    /// read-only for the person filling it.
    func closingLockedFields(_ fields: [FieldInfo]) -> [FieldInfo] {
        let (certification, locks) = CertificationCheck.restrictions(of: document)
        guard certification == .noChanges || !locks.isEmpty else { return fields }
        return fields.map { field in
            var field = field
            if field.kind != "signature", certification == .noChanges || locks.contains(where: { $0.locks(field.name) })
            {
                field.isReadOnly = true
            }
            return field
        }
    }

    /// Sets a field's value; the change is an incremental revision saved to the store at once.
    /// - Throws: `.invalidState` outside editing; `.invalidField` (-130) when the document has no
    ///   form; `.form` wrapping the `FormError` and keeping its signo code (-129 for an unknown or
    ///   read-only field or a value the field does not take; a read-only field set to the value it
    ///   has is no error and stores nothing); `.certificationViolated` (-129) when a certification or
    ///   field lock forbids the change.
    public func setValue(_ value: FormInput, forField name: String) throws(SessionError) {
        try setValues([(name, value)])
    }

    /// Sets several values in one revision.
    public func setValues(_ values: [(name: String, value: FormInput)]) throws(SessionError) {
        try requireEditing("editing fields")
        guard let form else { throw SessionError(.invalidField, "the document has no form") }
        var filler = FormFiller(form: form)
        let update: IncrementalUpdate
        do {
            try filler.setValues(values)
            // Only read-only fields set to the values they have: nothing to store, nothing changed.
            guard !filler.values.isEmpty else { return }
            update = try filler.makeUpdate()
        } catch {
            throw SessionError(error)
        }
        try appendRevision(update)
        for (name, _) in values {
            if let field = self.form?.field(named: name) { emit(.fieldChanged(FieldInfo(field))) }
        }
    }

    /// Forces a save (WYSIWYS `saveDocument`, signo's save button); no effect once the document is
    /// accepted or refused. Returns the delegate's `documentSaved` answer (grey out the button).
    @discardableResult
    public func saveDocument() async throws(SessionError) -> Bool {
        guard !isReadOnly, !snapshot.workflow.isFinished, snapshot.workflow.phase == .editing else { return false }
        try persist()
        emit(.documentSaved)
        return await delegate?.documentSaved() ?? true
    }

    /// Ends the session: a `show` document's stored copy is erased; others stay in progress.
    public func close() {
        guard !closed else { return }
        closed = true
        if isReadOnly { try? store.delete(documentID: documentID) }
        continuation.finish()
    }

    // MARK: - Store

    func persist() throws(SessionError) {
        try settleRecovery()
        storeVersion = try store.save(documentID: documentID, state: snapshot.encoded(), expecting: storeVersion)
    }

    func appendRevision(_ update: IncrementalUpdate) throws(SessionError) {
        let revision: [UInt8]
        do {
            revision = try update.serialized()
        } catch {
            throw SessionError(error)
        }
        try appendRevision(bytes: revision)
    }

    /// Stores a revision with the state in one transaction, then reloads the document.
    func appendRevision(bytes revision: [UInt8]) throws(SessionError) {
        guard !revision.isEmpty else { return }
        try settleRecovery()
        let updated = bytes + revision
        let document = try Self.open(updated, password: snapshot.documentPassword)
        if !signatureConfiguration.allowsBreakingCertification,
            let violation = CertificationCheck.violations(original: self.document, updated: document).first
        {
            throw SessionError(.certificationViolated, violation.message + "; nothing was stored")
        }
        storeVersion = try store.append(
            documentID: documentID, revision: revision, state: snapshot.encoded(), expecting: storeVersion)
        self.bytes = updated
        self.document = document
        revisionSizes.append(revision.count)
    }

    /// Replaces the last revision (the prepared one by the signed one), with the state, atomically.
    func replaceLastRevision(with revision: [UInt8]) throws(SessionError) {
        guard let last = revisionSizes.last else { throw SessionError(.invalidState, "no revision to replace") }
        try settleRecovery()
        let updated = bytes[..<(bytes.count - last)] + revision
        let document = try Self.open(Array(updated), password: snapshot.documentPassword)
        storeVersion = try store.replaceLastRevision(
            documentID: documentID, with: revision, state: snapshot.encoded(), expecting: storeVersion)
        self.bytes = Array(updated)
        self.document = document
        revisionSizes[revisionSizes.count - 1] = revision.count
    }

    /// Drops the revisions after the first `count` from the session's copy only (the store keeps
    /// them until ``settleRecovery()``).
    func dropRevisionsInMemory(to count: Int) throws(SessionError) {
        guard count < revisionCount else { return }
        let kept = revisionSizes.prefix(count).reduce(bytes.count - revisionSizes.reduce(0, +), +)
        bytes = Array(bytes[..<kept])
        revisionSizes = Array(revisionSizes.prefix(count))
        document = try Self.open(bytes, password: snapshot.documentPassword)
    }

    /// Drops the revisions after the first `count`, atomically with the state.
    func truncateRevisions(to count: Int) throws(SessionError) {
        try settleRecovery()
        guard count < revisionCount else {
            try persist()
            return
        }
        storeVersion = try store.truncate(
            documentID: documentID, revisionCount: count, state: snapshot.encoded(), expecting: storeVersion)
        let kept = revisionSizes.prefix(count).reduce(bytes.count - revisionSizes.reduce(0, +), +)
        bytes = Array(bytes[..<kept])
        revisionSizes = Array(revisionSizes.prefix(count))
        document = try Self.open(bytes, password: snapshot.documentPassword)
    }

    func requireEditing(_ what: String) throws(SessionError) {
        guard !isReadOnly else {
            throw SessionError(.invalidState, "\(what) is not possible: the document is shown read-only")
        }
        guard !closed else { throw SessionError(.invalidState, "\(what) is not possible: the session is closed") }
        guard !completionInFlight else {
            throw SessionError(.invalidState, "\(what) is not possible while the document is being completed")
        }
        guard snapshot.workflow.acceptsEdits else {
            throw SessionError(
                .invalidState, "\(what) is not possible while \(SigningWorkflow.name(of: snapshot.workflow.phase))")
        }
    }
}
