import PDFAnnotations
public import PDFAuthoring
public import PDFCore
import PDFForms
import PDFGraphics
import PDFSigning
import PDFViewer

/// The WYSIWYS workflow: accept or refuse, then the decisions the person makes, each a call that
/// continues the flow. `SigningWorkflow` decides; this extension performs.
extension DocumentSession {
    /// Accepts the document (WYSIWYS `acceptDocument`): checks the required fields, lets the person
    /// choose among several empty signature fields, creates the visible signature (handwriting from
    /// the saved signatures), has it positioned, shows the preview, prepares and signs. A new field
    /// is proposed on the current page, on empty space (away from its text and fields) when the
    /// page has some.
    /// - Throws: ``SessionError/Code-swift.enum/requiredFieldsEmpty`` (-129) after
    ///   `missingRequiredFormField` while required fields are empty; `invalidState` when not editing.
    public func acceptDocument() async throws(SessionError) {
        try requireEditing("accepting")
        try requireRequiredFieldsFilled()
        let facts = try await acceptFacts()
        try await run(.accept(facts))
    }

    /// Refuses the document (WYSIWYS `refuseDocument`): a watermark on every page and an invisible
    /// signature whose reason is the refusal's.
    public func refuseDocument() async throws(SessionError) {
        try requireEditing("refusing")
        try await run(.refuse)
    }

    /// The person chose a signature field (WYSIWYS `didSelectSignatureFormField`).
    public func selectSignatureField(_ name: String) async throws(SessionError) {
        try await run(.selectField(name))
    }

    /// The person drew their signature: it is saved among their signatures and applied.
    public func captureSignature(_ strokes: [InkStroke]) async throws(SessionError) {
        if let problem = strokes.problem(within: [InkStroke].captureArea) {
            throw SessionError(.invalidArgument, problem)
        }
        var appearance = SignatureAppearance(mark: .handwriting(strokes, yAxisDown: true))
        appearance.minimumPointCount = 8
        do {
            try appearance.validate()
        } catch {
            let failure = SessionError(error)
            emit(
                .signingProcessFailed(
                    field: snapshot.workflow.plan?.field, code: failure.signoCode, text: failure.message))
            throw failure
        }
        try await run(.signatureCaptured(strokes))
    }

    /// The person typed their name instead of drawing (the keyboard and screen-reader alternative to
    /// the capture pad): the signature shows the name as text. Leading and trailing spaces are
    /// dropped; an empty name, one over 200 characters (or 400 Unicode scalars: combining marks piled
    /// on a letter cost layout time), or one with control characters is refused (`invalidArgument`).
    public func typeSignature(_ name: String) async throws(SessionError) {
        // Bounded before any work: trimming and counting characters cost time in the text's length.
        guard name.utf8.count <= Self.maxTypedNameBytes else {
            throw SessionError(
                .invalidArgument,
                "a typed signature is a name of 1 to 200 characters (this one has \(name.utf8.count) bytes)")
        }
        let trimmed = String(name.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
        guard !trimmed.isEmpty, trimmed.count <= 200, trimmed.unicodeScalars.count <= 400 else {
            throw SessionError(.invalidArgument, "a typed signature is a name of 1 to 200 characters")
        }
        guard !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw SessionError(.invalidArgument, "a typed signature cannot hold control characters")
        }
        // Refused while the person can still type something else, not later when preparing.
        if let missing = signatureConfiguration.appearance.signerNameFont.undrawableCharacter(in: trimmed) {
            throw SessionError(
                .invalidArgument, "no font here has \(FontChain.describe(missing)); type the name without it")
        }
        try await run(.nameTyped(trimmed))
    }

    /// The most UTF-8 bytes a typed name may have before it is trimmed (200 characters of 4 bytes,
    /// with room for spaces around them).
    public static let maxTypedNameBytes = 1024

    /// The person picked one of their saved signatures.
    public func chooseSavedSignature(id: Int) async throws(SessionError) {
        guard let saved = try savedSignatures().first(where: { $0.id == id }) else {
            throw SessionError(.invalidArgument, "no saved signature has id \(id)")
        }
        // A signature saved before the store checked its points (or written by another program).
        if let problem = saved.strokes.problem(within: [InkStroke].captureArea) {
            throw SessionError(.invalidArgument, "saved signature \(id) cannot be drawn: \(problem)")
        }
        try await run(.savedSignatureChosen(id: id, strokes: saved.strokes))
    }

    /// Cancels the capture or the choice of a saved signature.
    public func cancelSignatureCapture() async throws(SessionError) { try await run(.cancel) }

    /// The signature is placed (WYSIWYS `signaturePositionned`): page from 0, rectangle in PDF user space.
    public func signaturePositioned(pageIndex: Int, rect: PDFRectangle) async throws(SessionError) {
        if let problem = PageIndexCheck.problem(pageIndex, pageCount: pageCount) {
            throw SessionError(.invalidArgument, problem)
        }
        let page = document.pages[pageIndex].cropBox
        guard rect.x0 >= page.x0 - 0.5, rect.y0 >= page.y0 - 0.5, rect.x1 <= page.x1 + 0.5, rect.y1 <= page.y1 + 0.5
        else {
            throw SessionError(.invalidArgument, "the signature's rectangle \(rect) is not inside the page \(page)")
        }
        try await run(.positioned(.init(pageIndex: pageIndex, rect: rect)))
    }

    /// WYSIWYS `cancelSignaturePositioning`.
    public func cancelSignaturePositioning() async throws(SessionError) { try await run(.cancel) }

    /// The person confirmed the preview (WYSIWYS `confirmSignature`).
    public func confirmSignature() async throws(SessionError) { try await run(.confirm) }

    /// The person declined the preview: the prepared revision is removed, editing goes on.
    public func cancelConfirmation() async throws(SessionError) { try await run(.cancel) }

    /// Cancels whatever the workflow waits for (a field choice, a capture, positioning, the preview).
    public func cancelSigning() async throws(SessionError) { try await run(.cancel) }

    /// Says the document is complete: after the signatures it needs (each one leaves the session
    /// editing, so the next field or the next signer can sign), nothing more may change it. Emits
    /// `documentCompleted`; the phase becomes `finished(reason: "completed")`.
    ///
    /// With a time-stamp authority in the configuration, a signed document is made to last first
    /// (PAdES B-LTA): the validation material of its signatures, then a document time-stamp, each
    /// a revision of its own. A material that cannot be fetched is named in `problems`; an authority
    /// that fails is −146 and the document is not completed.
    @discardableResult
    public func completeDocument() async throws(SessionError) -> [String] {
        try requireEditing("completing the document")
        // While the material and the time-stamp are fetched, no edit, signature or second completion
        // comes between: each revision is made on the bytes as they were when it was asked for.
        completionInFlight = true
        defer { completionInFlight = false }
        var problems: [String] = []
        if let authority = signatureConfiguration.timeStampAuthority,
            !SignatureValidator(document: document, trustRoots: []).validate().isEmpty
        {
            do {
                let validation = LongTermValidation(document: document, revocation: completionSource())
                // Each update alone is written (never the whole document again), after the bytes it
                // was made on.
                var base = bytes.count
                let (material, missing) = try await validation.validationMaterialUpdate()
                problems = missing
                try Self.requireUnchanged(bytes.count, since: base)
                try appendRevision(material)
                base = bytes.count
                let stamped = try await DocumentTimestamper(document: document, authority: authority).timestamp()
                try Self.requireUnchanged(bytes.count, since: base)
                try appendRevision(bytes: try stamped.update())
            } catch let error as SigningError {
                throw SessionError(error)
            } catch let error as SessionError {
                throw error
            } catch {
                throw SessionError(.signing, "\(error)")
            }
        }
        completionInFlight = false
        try await run(.complete)
        return problems
    }

    /// A revision made on `base` bytes is appended only to those bytes.
    private static func requireUnchanged(_ now: Int, since base: Int) throws(SessionError) {
        guard now == base else {
            throw SessionError(.documentChanged, "the document changed while it was being completed; complete it again")
        }
    }

    /// Where completing fetches validation material: anywhere the certificates say, or — with a
    /// ``SignatureConfiguration/revocationFetchPolicy`` — only for paths leading to its anchors or
    /// to the seal's own chain, only where it allows.
    private func completionSource() -> OnlineRevocationSource {
        guard var policy = signatureConfiguration.revocationFetchPolicy else { return OnlineRevocationSource() }
        if case .signer(let seal) = signatureConfiguration.signing { policy.trustAnchors += seal.certificates }
        return OnlineRevocationSource(policy: policy)
    }

    // MARK: - Running the workflow

    /// Feeds an input and performs the actions, feeding what they produce until the workflow waits.
    func run(_ input: SigningWorkflow.Input) async throws(SessionError) {
        switch input {
        case .accept, .refuse, .startSigno:
            if case .viewerRect(let id) = modes.mode {
                throw SessionError(.invalidState, "viewer rectangle \(id) is open: create or cancel it first")
            }
        case .cancel where signatureInFlight:
            throw SessionError(.invalidState, "the signature is being made: it cannot be cancelled now")
        default: break
        }
        guard !completionInFlight else {
            throw SessionError(.invalidState, "the document is being completed: nothing else can start now")
        }
        defer { followWorkflow() }
        var pending: [SigningWorkflow.Input] = [input]
        var first = true
        while !pending.isEmpty {
            let next = pending.removeFirst()
            let actions: [SigningWorkflow.Action]
            do {
                actions = try snapshot.workflow.handle(next)
            } catch {
                guard first else { continue }
                if error.code == .requiredFieldsEmpty { emit(.missingRequiredFormField(missingRequiredFields())) }
                throw error
            }
            first = false
            for action in actions {
                if let follow = await perform(action) { pending.append(follow) }
            }
        }
    }

    /// Keeps the viewer's mode in step with the workflow: a signing phase has the screen (a search
    /// shown ends); back in editing or finished, the viewer browses.
    private func followWorkflow() {
        switch snapshot.workflow.phase {
        case .editing, .finished: modes.endSigning()
        case .notes: break
        default: modes.beginSigning()
        }
    }

    /// Performs one action; returns the input it produces, if any.
    private func perform(_ action: SigningWorkflow.Action) async -> SigningWorkflow.Input? {
        switch action {
        case .emit(let notice):
            emit(event(for: notice))
            return nil
        case .saveHandwriting(let strokes):
            _ = try? addSavedSignature(strokes)
            return nil
        case .applySavedSignature(let id):
            guard let saved = try? savedSignatures().first(where: { $0.id == id }),
                saved.strokes.problem(within: [InkStroke].captureArea) == nil
            else { return .cancel }
            return .savedSignatureChosen(id: id, strokes: saved.strokes)
        case .askCaptureConfirmation(let field):
            return .captureConfirmed(await delegate?.willConfirmSigning(field: field) ?? true)
        case .watermark:
            do {
                snapshot.revisionsBeforeSigning = revisionCount
                let update = try Watermarker(
                    document: document, appearance: signatureConfiguration.watermark, date: clock()
                ).makeUpdate()
                try appendRevision(update)
                return nil
            } catch let error as AnnotationError {
                return .failed(SessionError(error))
            } catch let error as SessionError {
                return .failed(error)
            } catch {
                return .failed(SessionError(.writeFailed, "\(error)"))
            }
        case .prepare(let plan):
            do {
                // A preview to confirm when a page changes — for signo's flow only when asked
                // (there `willConfirmSigning` was the confirmation).
                var previewed = changesWhatIsShown(plan)
                if case .signo = plan.purpose, !signatureConfiguration.previewsSignoSignatures { previewed = false }
                return .prepared(digest: try await prepare(plan), changesAppearance: previewed)
            } catch {
                return .failed(error)
            }
        case .showPreview:
            do {
                emit(.onConfirmationRequired(try await preview()))
                return nil
            } catch {
                return .failed(error)
            }
        case .requestSignature(let reason):
            return await requestSignature(reason: reason)
        case .discardPrepared:
            try? discardPrepared()
            return nil
        case .persist:
            try? persist()
            return nil
        }
    }

    private func event(for notice: SigningWorkflow.Notice) -> SessionEvent {
        switch notice {
        case .selectSignatureFormField(let names): .selectSignatureFormField(fields(named: names))
        case .didSelectSignatureFormField(let name):
            .didSelectSignatureFormField(fields(named: [name]).first ?? placeholderField(name))
        case .signatureCaptureRequired(let field):
            .signatureCaptureRequired(field: field, configuration: signatureConfiguration.capture)
        case .savedSignatureSelectionRequired(let ids):
            .savedSignatureSelectionRequired(((try? savedSignatures()) ?? []).filter { ids.contains($0.id) })
        case .signatureRequiresPositioning(let placement):
            .signatureRequiresPositioning(pageIndex: placement.pageIndex, proposedRect: placement.rect)
        case .willPrepareDocument: .willPrepareDocument
        case .processDidFinish(let reason): .processDidFinish(reason: reason, document: bytes)
        case .documentCompleted: .documentCompleted
        case .processDidFail(let error): .processDidFail(error)
        case .signingProcessConfirmed(let field): .signingProcessConfirmed(field: field)
        case .signingProcessCancelled(let field): .signingProcessCancelled(field: field)
        case .signingProcessFailed(let field, let error):
            .signingProcessFailed(field: field, code: error.signoCode, text: error.message)
        case .notesModeDidStart: .notesModeDidStart
        case .notesModeDidFailToStart(let code): .notesModeDidFailToStart(code: code)
        }
    }

    func fields(named names: [String]) -> [FieldInfo] {
        guard let form else { return [] }
        return names.compactMap { form.field(named: $0).map(FieldInfo.init) }
    }

    private func placeholderField(_ name: String) -> FieldInfo {
        FieldInfo(
            name: name, kind: "signature", pageIndex: nil, rect: nil, isRequired: false, isReadOnly: false,
            isSigned: false, value: "", label: nil, options: [])
    }

    /// The fields with the Required flag (`/Ff` bit 2) that are still empty — text empty, check box
    /// off, no radio button or choice chosen — signature fields aside (they are what is signed), in
    /// the document's order.
    func missingRequiredFields() -> [FieldInfo] {
        (form?.missingRequiredFields ?? []).filter { $0.kind != .signature }.map(FieldInfo.init)
    }

    /// The check every signature that accepts the document goes through where it starts
    /// (``SigningWorkflow/requireFilled(_:)``), before anything is asked or shown: while required
    /// fields are empty, `missingRequiredFormField` names them and the start is refused.
    /// - Throws: ``SessionError/Code-swift.enum/requiredFieldsEmpty`` (-129).
    func requireRequiredFieldsFilled() throws(SessionError) {
        let missing = missingRequiredFields()
        do {
            try SigningWorkflow.requireFilled(missing.map(\.name))
        } catch {
            emit(.missingRequiredFormField(missing))
            throw error
        }
    }

    /// What the workflow needs to decide an accept. The place proposed for a new field is found
    /// first (the page's text is read for it, off the session); the rest is read after it, as the
    /// document is then, and fed to the workflow with no wait between.
    private func acceptFacts() async throws(SessionError) -> SigningWorkflow.AcceptFacts {
        // A new field is placed only when no empty field is signed (and the signature shows).
        let placement = await proposedPlacement(
            onEmptySpace: signatureCandidates().isEmpty && !signatureConfiguration.appearance.invisibleSignature)
        let appearance = signatureConfiguration.appearance
        let saved = appearance.handwrittenSignatureEnabled ? try savedSignatures().map(\.id) : []
        return SigningWorkflow.AcceptFacts(
            missingRequiredFields: missingRequiredFields().map(\.name), emptySignatureFields: signatureCandidates(),
            handwritingEnabled: appearance.handwrittenSignatureEnabled, savedSignatureIDs: saved,
            invisible: appearance.invisibleSignature, proposedPlacement: placement)
    }

    /// The empty signature fields an accept signs: those meant for this user (WYSIWYS: the username
    /// finds a signature field dedicated to the user), else every empty one.
    private func signatureCandidates() -> [String] {
        let empty = (form?.signatureFields ?? []).filter { $0.value == .signature(signed: false) }
        let user = username.lowercased()
        let dedicated = empty.filter { !user.isEmpty && $0.name.lowercased().contains(user) }
        return (dedicated.isEmpty ? empty : dedicated).map(\.name)
    }
}

extension FieldInfo {
    init(
        name: String, kind: String, pageIndex: Int?, rect: PDFRectangle?, isRequired: Bool, isReadOnly: Bool,
        isSigned: Bool, value: String, label: String?, options: [String]
    ) {
        self.name = name
        self.kind = kind
        self.pageIndex = pageIndex
        self.rect = rect
        self.isRequired = isRequired
        self.isReadOnly = isReadOnly
        self.isSigned = isSigned
        self.value = value
        self.label = label
        self.options = options
    }
}
