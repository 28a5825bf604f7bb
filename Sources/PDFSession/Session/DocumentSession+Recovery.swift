import PDFCore
import PDFViewer

/// A signature under way when the process stopped (killed, crashed, the machine lost): settled once,
/// when the stored session starts again, so that no document is left waiting for a CMS nobody
/// makes and no route answers "not possible now" for ever.
extension DocumentSession {
    /// What the restart did with a signature that was under way, until the session next writes
    /// (the person or the host acts); nil when nothing was under way. A viewer says it
    /// (`/api/state`'s `recovery`), and the session emits ``SessionEvent/signingInterrupted(_:)``
    /// once, after `documentDidLoad`.
    public var signingRecovery: SigningWorkflow.Recovery? { recovery }

    /// Settles a signature under way (``SigningWorkflow/resume(_:)``): the waits that need the
    /// person go back to editing; a signature still being prepared, or prepared for another signer
    /// than the one configured now, is discarded (its revisions dropped, the person's edits and
    /// earlier signatures kept); one prepared and confirmed but not made waits for the confirmation
    /// again — the same bytes, so the same preview — or, in deferred signing without a delegate,
    /// for the host's CMS; one made and stored just before the stop is finished as a signature
    /// finishes. Called once by the controller when the session starts.
    ///
    /// Nothing is written now: opening a document only to look at it (`autograph session resume`,
    /// a second reader) must never change what another process — perhaps alive and signing — left.
    /// The outcome is stored with the session's first write (``settleRecovery()``), which fails
    /// (−128) when another session wrote since.
    /// - Parameter hostCMS: the session is started to embed a host's CMS (`embedSignature(documentID:…)`):
    ///   a prepared signature keeps waiting for it, whoever the configured signer is (the CMS is
    ///   checked against the digest).
    func recoverInterruptedSigning(hostCMS: Bool = false) throws(SessionError) {
        guard !isReadOnly else { return }
        var signerMatches = snapshot.preparedSigner == signerFingerprint
        // A prepared signature stored before signers were recorded: only a host's CMS can match it.
        if snapshot.prepared != nil, snapshot.preparedSigner == nil, case .signer = signatureConfiguration.signing {
            signerMatches = signerFingerprint == nil
        }
        var cmsComesFromHost = hostCMS
        // Deferred signing asks a delegate for the CMS first: with one, the next confirmation asks again.
        if case .deferred = signatureConfiguration.signing, delegate == nil { cmsComesFromHost = true }
        let facts = SigningWorkflow.ResumeFacts(
            hasPrepared: snapshot.prepared != nil, signerMatches: signerMatches || hostCMS,
            cmsComesFromHost: cmsComesFromHost)
        let before = snapshot.workflow.phase
        recovery = snapshot.workflow.resume(facts)
        if snapshot.workflow.phase != before, snapshot.workflow.phase == .editing || recovery == .signed {
            modes = ViewerModeMachine()
        }
        if case .discarded = recovery {
            // Dropped here; the store drops them with the session's first write.
            let count = snapshot.revisionsBeforeSigning ?? revisionCount
            snapshot.prepared = nil
            snapshot.revisionsBeforeSigning = nil
            snapshot.preparedSigner = nil
            if count < revisionCount {
                pendingTruncation = count
                try dropRevisionsInMemory(to: count)
            }
        }
        if let recovery { emit(.signingInterrupted(recovery)) }
    }

    /// Stores what ``recoverInterruptedSigning(hostCMS:)`` decided, before the session's first write:
    /// the revisions of a discarded signature are removed with the state, in one transaction, and
    /// fail (−128) when another session wrote since the document was read. The restart's outcome is
    /// then old news.
    func settleRecovery() throws(SessionError) {
        recovery = nil
        guard let count = pendingTruncation else { return }
        storeVersion = try store.truncate(
            documentID: documentID, revisionCount: count, state: snapshot.encoded(), expecting: storeVersion)
        pendingTruncation = nil
    }

    /// Removes the prepared revision and a refusal's watermark (everything added since the signature
    /// started), with the state, in one transaction.
    func discardPrepared() throws(SessionError) {
        let count = snapshot.revisionsBeforeSigning ?? revisionCount
        snapshot.prepared = nil
        snapshot.revisionsBeforeSigning = nil
        snapshot.preparedSigner = nil
        try truncateRevisions(to: count)
    }

    /// The preview of the prepared revision (WYSIWYS `onConfirmationRequired`'s), drawn again from
    /// the prepared bytes: what a viewer shows after a reload or a restart, while the signature
    /// waits for its confirmation or its CMS.
    /// - Throws: `.invalidState` when nothing is prepared.
    public func confirmationPreview() async throws(SessionError) -> ConfirmationPreview {
        switch snapshot.workflow.phase {
        case .confirming, .awaitingSignature: return try await preview()
        default: throw SessionError(.invalidState, "no signature waits for its confirmation")
        }
    }
}
