public import PDFAuthoring
public import PDFCore

/// The signing workflow's transitions as a value: given where the session is and what happened, it
/// says where the session goes and what must be done (ARCHITECTURE.md: a pure state machine; the
/// `DocumentSession` actor performs the actions). No I/O here, so every path is testable directly.
public struct SigningWorkflow: Sendable, Codable, Equatable {
    /// Where a session is.
    public enum Phase: Sendable, Codable, Equatable {
        /// Fields can be edited; accept, refuse, start signing, notes are possible.
        case editing
        /// Several empty signature fields: waiting for the person's choice.
        case selectingField(candidates: [String])
        /// Waiting for a drawn signature.
        case capturingSignature
        /// Waiting for the choice among saved signatures.
        case choosingSavedSignature(ids: [Int])
        /// Waiting for the signature's position on a page.
        case positioning
        /// Preparing the document (an incremental update with the placeholder).
        case preparing
        /// The preview was shown: waiting for `confirmSignature()`.
        case confirming
        /// The digest is out: waiting for the CMS.
        case awaitingSignature
        /// Notes mode (ink) is active.
        case notes
        /// Done: refused, or completed by the host after its signatures; the session accepts no more
        /// changes. A signature that accepts goes back to ``editing`` instead, so the next field or
        /// the next signer can sign.
        case finished(reason: String)
    }

    /// Why the document is being signed.
    public enum Purpose: Sendable, Codable, Equatable {
        /// WYSIWYS `acceptDocument`.
        case accept
        /// WYSIWYS `refuseDocument`: watermark, invisible signature.
        case refuse
        /// signo `startSignature(field)`: capture into this field, then sign.
        case signo(field: String)
    }

    /// What the signature will be, filled in as the person decides.
    public struct Plan: Sendable, Codable, Equatable {
        /// Why the document is signed: accept, refuse, or a signo capture into a field.
        public var purpose: Purpose
        /// The existing empty signature field signed (nil: a new field).
        public var field: String?
        /// The handwriting drawn or chosen; nil for a name signature (or none yet).
        public var handwriting: [InkStroke]?
        /// The name the person typed instead of drawing (the keyboard and screen-reader way to sign,
        /// as WYSIWYS's signer-name appearance allows); drawn as text in the signature's appearance.
        public var typedName: String?
        /// The page (from 0) and rectangle of a new visible field.
        public var placement: Placement?
        /// True for a signature without appearance (a refusal, or `invisibleSignature`).
        public var invisible: Bool
        /// Fields set read-only in the signed revision (from the delegate's `signingProcessStarted`).
        public var readOnlyFields: [String] = []

        /// A new visible field's place.
        public struct Placement: Sendable, Codable, Equatable {
            /// The page, from 0.
            public var pageIndex: Int
            /// The field's rectangle in the page's user space.
            public var rect: PDFRectangle
        }

        /// Whether the prepared revision changes what a page shows (a visible signature or a watermark).
        public var changesAppearance: Bool { purpose == .refuse || !invisible }
    }

    /// What the session knows when the person accepts.
    public struct AcceptFacts: Sendable, Equatable {
        /// Required fields still empty (signature fields aside): accepting is refused
        /// (``requireFilled(_:)``).
        public var missingRequiredFields: [String]
        /// Empty signature fields meant for this user (or every empty one when none is).
        public var emptySignatureFields: [String]
        /// True when the person signs with handwriting (drawn or saved).
        public var handwritingEnabled: Bool
        /// The ids of the person's saved signatures, oldest first.
        public var savedSignatureIDs: [Int]
        /// True for a signature without appearance (``VisualSignatureConfiguration/invisibleSignature``).
        public var invisible: Bool
        /// Where a new signature would go first: the current page, a centred rectangle.
        public var proposedPlacement: Plan.Placement

        /// The facts; each argument sets the property of the same name.
        public init(
            missingRequiredFields: [String], emptySignatureFields: [String], handwritingEnabled: Bool,
            savedSignatureIDs: [Int], invisible: Bool, proposedPlacement: Plan.Placement
        ) {
            self.missingRequiredFields = missingRequiredFields
            self.emptySignatureFields = emptySignatureFields
            self.handwritingEnabled = handwritingEnabled
            self.savedSignatureIDs = savedSignatureIDs
            self.invisible = invisible
            self.proposedPlacement = proposedPlacement
        }
    }

    /// What happened.
    public enum Input: Sendable, Equatable {
        /// The person accepts the document (WYSIWYS `acceptDocument`).
        case accept(AcceptFacts)
        /// The person refuses the document (WYSIWYS `refuseDocument`): a watermark and an invisible signature.
        case refuse
        /// signo: capture for `field` (after `willStartSigning` said yes), making `readOnly` read-only;
        /// refused while `missingRequiredFields` (signature fields aside) is not empty
        /// (``requireFilled(_:)``).
        case startSigno(field: String, readOnly: [String], missingRequiredFields: [String] = [])
        /// The person chose this signature field among the candidates.
        case selectField(String)
        /// The person drew this signature.
        case signatureCaptured([InkStroke])
        /// The person typed their name instead of drawing.
        case nameTyped(String)
        /// The saved signature chosen (its strokes, looked up by the session).
        case savedSignatureChosen(id: Int, strokes: [InkStroke])
        /// signo `willConfirmSigning` answered.
        case captureConfirmed(Bool)
        /// The person placed the new signature field.
        case positioned(Plan.Placement)
        /// The person cancelled whatever the session waits for.
        case cancel
        /// The prepared revision exists; `digest` is what will be signed. `changesAppearance` is false
        /// when no page shows anything new (WYSIWYS: no preview then), e.g. an existing signature field
        /// whose widget has no area.
        case prepared(digest: [UInt8], changesAppearance: Bool = true)
        /// The person confirmed the preview (`confirmSignature()`).
        case confirm
        /// The CMS is embedded: the document is signed.
        case signed
        /// Preparing or signing failed (`.cancelled` when the signer declined).
        case failed(SessionError)
        /// The person starts notes mode.
        case startNotes
        /// The person leaves notes mode.
        case finishNotes
        /// The host says the document is complete: no more signatures or edits.
        case complete
    }

    /// What the session must do, in order.
    public enum Action: Sendable, Equatable {
        /// Emit the event the notice stands for.
        case emit(Notice)
        /// Store the captured handwriting among the saved signatures.
        case saveHandwriting([InkStroke])
        /// Look up the saved signature's strokes and feed `.savedSignatureChosen`.
        case applySavedSignature(id: Int)
        /// Ask the delegate's `willConfirmSigning` (signo), then feed `.captureConfirmed`.
        case askCaptureConfirmation(field: String)
        /// Watermark every page (refusal), as a revision.
        case watermark
        /// Build the prepared revision from the plan, then feed `.prepared` or `.failed`.
        case prepare(Plan)
        /// Render the prepared bytes and emit `onConfirmationRequired`.
        case showPreview
        /// Emit `documentPreparedForSignature` and obtain the CMS as the signing mode says.
        case requestSignature(reason: String)
        /// Remove the prepared revision (and a refusal's watermark): back to the edited document.
        case discardPrepared
        /// Persist the workflow state.
        case persist
    }

    /// Events the workflow decides on; the session turns them into `SessionEvent`s with the details.
    public enum Notice: Sendable, Equatable {
        /// The person must choose among these empty signature fields: `selectSignatureFormField`.
        case selectSignatureFormField([String])
        /// The person chose this field: `didSelectSignatureFormField`.
        case didSelectSignatureFormField(String)
        /// A signature must be drawn (for this field; nil: a new one): `signatureCaptureRequired`.
        case signatureCaptureRequired(field: String?)
        /// A saved signature must be chosen among these ids: `savedSignatureSelectionRequired`.
        case savedSignatureSelectionRequired([Int])
        /// The new signature waits to be placed, first at this place: `signatureRequiresPositioning`.
        case signatureRequiresPositioning(Plan.Placement)
        /// Preparing starts: `willPrepareDocument`.
        case willPrepareDocument
        /// Signed, for this reason: `processDidFinish`.
        case processDidFinish(reason: String)
        /// The host completed the document: `documentCompleted`.
        case documentCompleted
        /// Preparing or signing failed: `processDidFail`.
        case processDidFail(SessionError)
        /// The signo capture into this field is signed: `signingProcessConfirmed`.
        case signingProcessConfirmed(field: String)
        /// The person or the delegate cancelled (nil: a new field): `signingProcessCancelled`.
        case signingProcessCancelled(field: String?)
        /// Signing this field failed: `signingProcessFailed`.
        case signingProcessFailed(field: String?, error: SessionError)
        /// Notes mode started: `notesModeDidStart`.
        case notesModeDidStart
        /// Notes mode could not start; `code` is the signo code: `notesModeDidFailToStart`.
        case notesModeDidFailToStart(code: Int)
    }

    /// Where the session is; ``Phase-swift.enum/editing`` at first.
    public private(set) var phase: Phase = .editing
    /// The signature being planned; nil outside signing.
    public private(set) var plan: Plan?
    /// The reason written into the signature.
    public var acceptedReason = "accepted"
    /// The reason written into a refusal's signature.
    public var refusedReason = "refused"
    /// Where a new signature goes first (from the last accept): what ``Phase-swift.enum/positioning``
    /// proposes, so a viewer that reloads shows the same box.
    public private(set) var proposedPlacement: Plan.Placement?
    /// The handwriting facts of the last accept, kept while a field is chosen.
    private var pendingHandwritingEnabled = false
    private var pendingSavedSignatureIDs: [Int] = []

    /// A workflow in the editing phase, with the reasons `accepted` and `refused`.
    public init() {}

    /// True once refused or completed: edits and saves have no effect (WYSIWYS `saveDocument` after a
    /// refusal).
    public var isFinished: Bool {
        if case .finished = phase { return true }
        return false
    }

    /// True when fields may be edited.
    public var acceptsEdits: Bool { phase == .editing }

    /// The reason of the signature planned: ``refusedReason`` for a refusal, else ``acceptedReason``.
    public var reason: String { plan?.purpose == .refuse ? refusedReason : acceptedReason }

    /// Feeds an input; returns what to do. An input the phase does not expect changes nothing and
    /// returns an error notice the session throws (`invalidState`).
    public mutating func handle(_ input: Input) throws(SessionError) -> [Action] {
        switch (phase, input) {
        case (.editing, .accept(let facts)):
            try Self.requireFilled(facts.missingRequiredFields)
            proposedPlacement = facts.proposedPlacement
            // Kept for after the field choice, which may come between.
            pendingHandwritingEnabled = facts.handwritingEnabled
            pendingSavedSignatureIDs = facts.savedSignatureIDs
            plan = Plan(purpose: .accept, field: nil, invisible: facts.invisible)
            if facts.emptySignatureFields.count > 1, !facts.invisible {
                phase = .selectingField(candidates: facts.emptySignatureFields)
                return [.emit(.selectSignatureFormField(facts.emptySignatureFields))]
            }
            if !facts.invisible { plan?.field = facts.emptySignatureFields.first }
            return afterField(handwriting: facts.handwritingEnabled, saved: facts.savedSignatureIDs)

        case (.editing, .refuse):
            plan = Plan(purpose: .refuse, field: nil, invisible: true)
            return [.watermark] + prepare()

        case (.editing, .startSigno(let field, let readOnly, let missing)):
            try Self.requireFilled(missing)
            plan = Plan(purpose: .signo(field: field), field: field, invisible: false, readOnlyFields: readOnly)
            phase = .capturingSignature
            return [.emit(.signatureCaptureRequired(field: field))]

        case (.selectingField(let candidates), .selectField(let name)):
            guard candidates.contains(name) else {
                throw SessionError(
                    .invalidField, "\"\(name)\" is not one of the empty signature fields: \(candidates)",
                    signoCode: -130)
            }
            plan?.field = name
            return [.emit(.didSelectSignatureFormField(name))] + afterField(handwriting: nil, saved: nil)

        case (.capturingSignature, .signatureCaptured(let strokes)):
            plan?.handwriting = strokes
            // signo captures for one field each time; WYSIWYS keeps the person's signature for next time.
            if case .signo(let field) = plan?.purpose { return [.askCaptureConfirmation(field: field)] }
            return [.saveHandwriting(strokes)] + afterHandwriting()

        case (.capturingSignature, .nameTyped(let name)):
            plan?.handwriting = nil
            plan?.typedName = name
            // A typed name is not handwriting: nothing is saved among the person's signatures.
            if case .signo(let field) = plan?.purpose { return [.askCaptureConfirmation(field: field)] }
            return afterHandwriting()

        case (.capturingSignature, .captureConfirmed(let yes)):
            guard case .signo = plan?.purpose else { throw Self.unexpected(input, phase) }
            return yes ? prepare() : cancel()

        case (.choosingSavedSignature(let ids), .savedSignatureChosen(let id, let strokes)):
            guard ids.contains(id) else {
                throw SessionError(.invalidArgument, "no saved signature has id \(id)")
            }
            plan?.handwriting = strokes
            return afterHandwriting()

        case (.positioning, .positioned(let placement)):
            guard placement.rect.width > 0, placement.rect.height > 0 else {
                throw SessionError(.invalidArgument, "the signature's rectangle is empty")
            }
            plan?.placement = placement
            return prepare()

        case (.selectingField, .cancel), (.capturingSignature, .cancel), (.choosingSavedSignature, .cancel),
            (.positioning, .cancel), (.confirming, .cancel), (.awaitingSignature, .cancel):
            return cancel()

        case (.preparing, .prepared(_, let visible)):
            if visible, plan?.changesAppearance == true {
                phase = .confirming
                return [.persist, .showPreview]
            }
            // No preview after all (nothing shows the signature): preparing is announced now.
            return (plan?.changesAppearance == true ? [.emit(.willPrepareDocument)] : []) + requestSignature()

        case (.confirming, .confirm):
            // WYSIWYS order: the preview is confirmed, then the document is "prepared" (a spinner a
            // host shows on willPrepareDocument never covers the preview).
            return [.emit(.willPrepareDocument)] + requestSignature()

        case (.awaitingSignature, .signed):
            let reason = reason
            let field = plan?.field
            let purpose = plan?.purpose
            // A refusal ends the document; any other signature leaves it open for the next one.
            phase = purpose == .refuse ? .finished(reason: reason) : .editing
            plan = nil
            var actions: [Action] = [.persist]
            if case .signo = purpose, let field { actions.append(.emit(.signingProcessConfirmed(field: field))) }
            actions.append(.emit(.processDidFinish(reason: reason)))
            return actions

        case (.preparing, .failed(let error)), (.awaitingSignature, .failed(let error)),
            (.confirming, .failed(let error)):
            let field = plan?.field
            phase = .editing
            plan = nil
            var actions: [Action] = [.discardPrepared, .persist]
            actions.append(
                error.code == .cancelled
                    ? .emit(.signingProcessCancelled(field: field))
                    : .emit(.signingProcessFailed(field: field, error: error)))
            actions.append(.emit(.processDidFail(error)))
            return actions

        case (.editing, .startNotes):
            phase = .notes
            return [.emit(.notesModeDidStart)]

        case (.notes, .finishNotes):
            phase = .editing
            return []

        case (.editing, .complete):
            phase = .finished(reason: "completed")
            return [.persist, .emit(.documentCompleted)]

        default:
            throw Self.unexpected(input, phase)
        }
    }

    /// The one check of required fields: a signature that accepts the document — Accept, signo's
    /// sign button, a signature field's "Sign here", a host's or the HTTP API's start — starts only
    /// when no required field is empty (WYSIWYS: "the SDK verifies that a document containing
    /// required fields is completed before being accepted"). A refusal is not one: it signs that
    /// the document was not accepted, whatever it holds.
    /// - Parameter missingRequiredFields: the fields with the Required flag (`/Ff` bit 2) still
    ///   empty, signature fields aside (they are what is signed).
    /// - Throws: ``SessionError/Code-swift.enum/requiredFieldsEmpty`` (-129) naming them; nothing
    ///   changes.
    public static func requireFilled(_ missingRequiredFields: [String]) throws(SessionError) {
        guard !missingRequiredFields.isEmpty else { return }
        throw SessionError.requiredFieldsEmpty(missingRequiredFields)
    }

    /// What a restart did with a signature that was under way when the process stopped.
    public enum Recovery: Sendable, Codable, Equatable {
        /// The prepared signature waits for the person's confirmation again: the same bytes, the
        /// same digest, the same preview (the person had confirmed it; the signature was not made).
        case confirmAgain
        /// The signature was made and stored just before the process stopped; only the step after it
        /// was lost: the workflow is where a signature leaves it (editing, or finished after a refusal).
        case signed
        /// The host's CMS for the same digest is still awaited (``SigningMode/deferred``):
        /// `embedSignature` takes it, `cancelSigning()` drops the prepared revision.
        case awaitingCMS
        /// The signature under way was dropped and the revisions it had added removed; the person's
        /// edits and earlier signatures stay. `reason` says why (it was still being prepared, or the
        /// signer is no longer the one the prepared signature names).
        case discarded(reason: String)
    }

    /// What a restarted session knows of the signature it prepared before it stopped.
    public struct ResumeFacts: Sendable, Equatable {
        /// The prepared signature (placeholder, byte range, digest) is stored. While a signature is
        /// awaited, its absence means the signed revision replaced it (they are stored together).
        public var hasPrepared: Bool
        /// The signer configured now is the one the prepared signature names (its certificate);
        /// true when neither names a certificate.
        public var signerMatches: Bool
        /// The CMS comes from the host through `embedSignature` (``SigningMode/deferred``): nothing
        /// in this process was making it, and the host may still send it.
        public var cmsComesFromHost: Bool

        /// The facts; each argument sets the property of the same name.
        public init(hasPrepared: Bool, signerMatches: Bool, cmsComesFromHost: Bool) {
            self.hasPrepared = hasPrepared
            self.signerMatches = signerMatches
            self.cmsComesFromHost = cmsComesFromHost
        }
    }

    /// Restores a phase read from the store after the process stopped. The waits that need the
    /// person on screen (choosing, capturing, positioning) go back to editing. A signature under way
    /// is never left stuck: still being prepared, it is discarded; prepared and confirmed but not
    /// made, it waits for the confirmation again (or for the host's CMS); prepared for another
    /// signer, it is discarded. Returns what was done to a signature under way, nil when none was.
    /// The session removes the revisions of a discarded signature.
    public mutating func resume(_ facts: ResumeFacts) -> Recovery? {
        switch phase {
        case .selectingField, .capturingSignature, .choosingSavedSignature, .positioning, .notes:
            phase = .editing
            plan = nil
            return nil
        case .preparing:
            return abandon("the server stopped while the signature was being prepared")
        case .awaitingSignature where !facts.hasPrepared:
            // The signed revision is stored (it replaced the prepared one in one write); the state
            // after it was not.
            let reason = reason
            phase = plan?.purpose == .refuse ? .finished(reason: reason) : .editing
            plan = nil
            return .signed
        case .confirming, .awaitingSignature:
            guard facts.hasPrepared else { return abandon("the prepared signature was not stored") }
            guard facts.signerMatches else {
                return abandon("the signature was prepared for another signer than the one configured now")
            }
            guard phase == .awaitingSignature else { return nil }
            if facts.cmsComesFromHost { return .awaitingCMS }
            phase = .confirming
            return .confirmAgain
        case .editing, .finished:
            return nil
        }
    }

    private mutating func abandon(_ reason: String) -> Recovery {
        phase = .editing
        plan = nil
        return .discarded(reason: reason)
    }

    // MARK: - Steps

    private mutating func afterField(handwriting: Bool?, saved: [Int]?) -> [Action] {
        guard let plan, !plan.invisible else { return prepare() }
        // Remembered from the accept when the choice of a field came between.
        let handwriting = handwriting ?? pendingHandwritingEnabled
        let saved = saved ?? pendingSavedSignatureIDs
        pendingHandwritingEnabled = handwriting
        pendingSavedSignatureIDs = saved
        guard handwriting else { return afterHandwriting() }
        switch saved.count {
        case 0:
            phase = .capturingSignature
            return [.emit(.signatureCaptureRequired(field: plan.field))]
        case 1:
            // The only one is applied without asking.
            phase = .choosingSavedSignature(ids: saved)
            return [.applySavedSignature(id: saved[0])]
        default:
            phase = .choosingSavedSignature(ids: saved)
            return [.emit(.savedSignatureSelectionRequired(saved))]
        }
    }

    private mutating func afterHandwriting() -> [Action] {
        guard let plan else { return [] }
        if plan.field == nil, !plan.invisible {
            let placement =
                proposedPlacement ?? Plan.Placement(pageIndex: 0, rect: PDFRectangle(x0: 36, y0: 36, x1: 236, y1: 106))
            proposedPlacement = placement
            phase = .positioning
            return [.emit(.signatureRequiresPositioning(placement))]
        }
        return prepare()
    }

    private mutating func prepare() -> [Action] {
        guard let plan else { return [] }
        phase = .preparing
        // With a preview, willPrepareDocument comes after its confirmation (see `.confirm`).
        return (plan.changesAppearance ? [] : [.emit(.willPrepareDocument)]) + [.prepare(plan)]
    }

    private mutating func requestSignature() -> [Action] {
        phase = .awaitingSignature
        return [.persist, .requestSignature(reason: reason)]
    }

    private mutating func cancel() -> [Action] {
        let field = plan?.field
        let prepared = phase == .confirming || phase == .awaitingSignature
        phase = .editing
        plan = nil
        return (prepared ? [.discardPrepared, .persist] : []) + [.emit(.signingProcessCancelled(field: field))]
    }

    static func unexpected(_ input: Input, _ phase: Phase) -> SessionError {
        SessionError(.invalidState, "\(Self.name(of: input)) is not possible while \(Self.name(of: phase))")
    }

    static func name(of input: Input) -> String {
        switch input {
        case .accept: "accepting"
        case .refuse: "refusing"
        case .startSigno: "starting a signature"
        case .selectField: "selecting a signature field"
        case .signatureCaptured: "capturing a signature"
        case .nameTyped: "typing the signer's name"
        case .savedSignatureChosen: "choosing a saved signature"
        case .captureConfirmed: "confirming the capture"
        case .positioned: "positioning the signature"
        case .cancel: "cancelling"
        case .prepared: "preparing"
        case .confirm: "confirming the signature"
        case .signed: "embedding the signature"
        case .failed: "failing"
        case .startNotes: "starting notes mode"
        case .finishNotes: "finishing notes mode"
        case .complete: "completing the document"
        }
    }

    static func name(of phase: Phase) -> String {
        switch phase {
        case .editing: "the document is being edited"
        case .selectingField: "a signature field is being chosen"
        case .capturingSignature: "a signature is being drawn"
        case .choosingSavedSignature: "a saved signature is being chosen"
        case .positioning: "the signature is being positioned"
        case .preparing: "the document is being prepared"
        case .confirming: "the signature waits for confirmation"
        case .awaitingSignature: "the document waits for its signature"
        case .notes: "notes mode is active"
        case .finished: "the document is complete"
        }
    }
}
