import PDFCore
import PDFViewer

/// A signature under way when the process stopped (killed, crashed, the machine lost): settled once,
/// when the stored session starts again, so that no document is left waiting for a CMS nobody
/// makes and no route answers "not possible now" for ever.
extension DocumentSession {
    /// What the last restart did with a signature that was under way, until the person or the host
    /// moves the workflow on; nil when nothing was under way. A viewer says it (`/api/state`'s
    /// `recovery`), and the session emits ``SessionEvent/signingInterrupted(_:)`` once, after
    /// `documentDidLoad`.
    public var signingRecovery: SigningWorkflow.Recovery? { snapshot.recovery }

    /// Settles a signature under way (``SigningWorkflow/resume(_:)``): the waits that need the
    /// person go back to editing; a signature still being prepared, or prepared for another signer
    /// than the one configured now, is discarded (its revisions removed, the person's edits and
    /// earlier signatures kept); one prepared and confirmed but not made waits for the confirmation
    /// again — the same bytes, so the same preview — or for the host's CMS in deferred signing; one
    /// made and stored just before the stop is finished as a signature finishes.
    /// The outcome is stored with the session. Called once by the controller when the session starts.
    func recoverInterruptedSigning() throws(SessionError) {
        guard !isReadOnly else { return }
        var signerMatches = snapshot.preparedSigner == signerFingerprint
        // A prepared signature stored before signers were recorded: only a host's CMS can match it.
        if snapshot.prepared != nil, snapshot.preparedSigner == nil, case .signer = signatureConfiguration.signing {
            signerMatches = signerFingerprint == nil
        }
        var cmsComesFromHost = false
        if case .deferred = signatureConfiguration.signing { cmsComesFromHost = true }
        let before = snapshot.workflow.phase
        let facts = SigningWorkflow.ResumeFacts(
            hasPrepared: snapshot.prepared != nil, signerMatches: signerMatches, cmsComesFromHost: cmsComesFromHost)
        let recovery = snapshot.workflow.resume(facts)
        if let recovery { snapshot.recovery = recovery }
        switch recovery {
        case .discarded:
            modes = ViewerModeMachine()
            try discardPrepared()
        case .confirmAgain, .awaitingCMS, .signed:
            if recovery == .signed { modes = ViewerModeMachine() }
            try persist()
        case nil:
            if snapshot.workflow.phase != before {
                modes = ViewerModeMachine()
                try persist()
            }
        }
        if let recovery { emit(.signingInterrupted(recovery)) }
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
    public func confirmationPreview() throws(SessionError) -> ConfirmationPreview {
        switch snapshot.workflow.phase {
        case .confirming, .awaitingSignature: return try preview()
        default: throw SessionError(.invalidState, "no signature waits for its confirmation")
        }
    }
}
