import PDFCore
import PDFForms
import PDFGraphics
import PDFRendering
import PDFSigning

/// Preparing, previewing and signing: the prepared revision is what the preview shows and what
/// the digest covers — the same bytes, kept in the store until the CMS arrives.
extension DocumentSession {
    /// The FieldMDP lock of a signature made now: for ``SignatureFieldLock/filled``, every form field
    /// holding a value (signature fields aside); nil when there is nothing to lock.
    func fieldLock(_ choice: SignatureFieldLock?) -> SignatureRequest.FieldLock? {
        switch choice {
        case .all?: return .all
        case .filled?:
            let filled = (form?.fields ?? []).filter { field in
                switch field.value {
                case .text(let text): !text.isEmpty
                case .state(let state): state != "Off"
                case .choices(let choices): !choices.isEmpty
                case .none, .signature: false
                }
            }
            let names = filled.map(\.name)
            return names.isEmpty ? nil : .include(names)
        case .none?, nil: return nil
        }
    }

    /// The resolution of the confirmation preview.
    static let previewDPI = 110.0

    /// Builds the prepared revision for `plan`, stores it, and returns the digest to sign.
    func prepare(_ plan: SigningWorkflow.Plan) async throws(SessionError) -> [UInt8] {
        // Asked first, before anything is read for the revision: the host's provider may take its
        // time (the phase is `preparing`, so no edit comes in meanwhile).
        let appearance = plan.invisible ? nil : try await signatureAppearance(for: plan, size: appearanceBox(for: plan))
        let configuration = signatureConfiguration
        let attributes = configuration.attributes
        var request: SignatureRequest
        if plan.invisible {
            request = SignatureRequest(fieldName: nil, placement: .invisible)
        } else if let field = plan.field {
            request = SignatureRequest(fieldName: field, placement: .existingField)
        } else if let placement = plan.placement {
            request = SignatureRequest(
                fieldName: nil, placement: .visible(page: placement.pageIndex, rect: placement.rect))
        } else {
            throw SessionError(.invalidState, "the signature has neither a field nor a place")
        }
        request.name = attributes.signatureName ?? username
        request.location = attributes.signatureLocation
        request.reason = attributes.signatureReason ?? snapshot.workflow.reason
        request.signingTime = clock()
        request.digestAlgorithm = attributes.digestAlgorithm
        request.subFilter = attributes.subFilter
        request.contentsSize = attributes.estimatedSignatureSize
        request.readOnlyFields = configuration.readOnlyFields + plan.readOnlyFields
        request.lockFields = fieldLock(attributes.fieldLock)
        request.appearance = appearance
        if let strokes = plan.handwriting, let certificate = configuration.biometricsCertificate {
            request.biometrics = BiometricCapture(strokes: strokes)
            request.biometricsCertificate = certificate
        }

        var preparer = SignaturePreparer(document: document, request: request)
        preparer.refuseNeedAppearances = configuration.refusesNeedAppearances
        preparer.documentID = documentID
        let prepared: PreparedDocument
        do {
            prepared = try preparer.prepare(
                contentsSize: attributes.estimatedSignatureSize, signerName: signerName)
        } catch {
            throw SessionError(error)
        }
        if snapshot.revisionsBeforeSigning == nil { snapshot.revisionsBeforeSigning = revisionCount }
        snapshot.preparedSigner = signerFingerprint
        // The base may hold a revision of its own (appearances for a /NeedAppearances form).
        let preparedBytes = prepared.base.withBytes { Array($0) } + prepared.update
        snapshot.prepared = prepared.signature
        try appendRevision(bytes: Array(preparedBytes[bytes.count...]))
        return prepared.signature.digest
    }

    /// The SHA-256 of the configured signer's certificate; nil when the host makes the CMS or the
    /// signer names no certificate before signing.
    var signerFingerprint: [UInt8]? {
        guard case .signer(let signer) = signatureConfiguration.signing,
            let certificate = signer.certificates.first
        else { return nil }
        return try? Digest.sha256.hash(certificate.derBytes)
    }

    /// The signer's name for `/Name` and the appearance when the configuration gives none.
    var signerName: String? {
        if case .signer(let signer) = signatureConfiguration.signing { return signer.signerName }
        return nil
    }

    /// Whether signing `plan` changes what a page shows (WYSIWYS shows no preview otherwise): a
    /// refusal's watermark, a new visible field, or an existing field with a widget that has an area
    /// on a page and is not hidden. Read before preparing, from the document as it is.
    func changesWhatIsShown(_ plan: SigningWorkflow.Plan) -> Bool {
        if plan.purpose == .refuse { return true }
        if plan.invisible { return false }
        guard let name = plan.field else { return plan.placement != nil }
        guard let field = form?.field(named: name) else { return true }
        return field.widgets.contains { $0.pageIndex != nil && $0.isVisible && !$0.rect.isEmpty }
    }

    /// The pages the prepared revision changes, from 0: every page for a refusal (each is
    /// watermarked), else the signature's page.
    public var changedPageIndices: [Int] {
        snapshot.workflow.plan?.purpose == .refuse ? Array(0..<pageCount) : [signaturePageIndex]
    }

    /// The page the planned signature goes on (from 0): its new field's, or its existing field's
    /// first widget's; 0 for an invisible signature.
    public var signaturePageIndex: Int {
        let plan = snapshot.workflow.plan
        if let field = plan?.field, let page = form?.field(named: field)?.widgets.first?.pageIndex { return page }
        return plan?.placement?.pageIndex ?? 0
    }

    /// How long the preview may take to draw, and how many display items its page may have.
    static let previewTimeLimit: Duration = .seconds(30)
    static let previewMaxItems = 8_000_000

    /// Renders the page the prepared revision changes, from the prepared bytes themselves, off the
    /// session and Swift's pool, within a budget: a page no budget can draw cannot be previewed, so
    /// it is not signed (-129).
    func preview() async throws(SessionError) -> ConfirmationPreview {
        guard let prepared = snapshot.prepared else {
            throw SessionError(.invalidState, "nothing is prepared")
        }
        let pageIndex = signaturePageIndex
        // What is drawn and returned is taken now: the session may take other calls meanwhile.
        let (document, bytes, changed) = (self.document, self.bytes, changedPageIndices)
        let refusal = snapshot.workflow.plan?.purpose == .refuse
        let png = await BlockingWork.run { () -> [UInt8]? in
            var options = RenderOptions()
            options.dpi = Self.previewDPI
            let budget = RenderBudget(timeLimit: Self.previewTimeLimit, maxItems: Self.previewMaxItems)
            options.budget = budget
            let image = DocumentRenderer(document: document).render(pageAt: pageIndex, options: options).image
            return budget.stop == nil ? image.pngData() : nil
        }
        guard let png else {
            throw SessionError(
                .signing, "page \(pageIndex + 1) is too complex to draw a preview of it: it cannot be signed here",
                signoCode: -129)
        }
        return ConfirmationPreview(
            pageIndex: pageIndex, png: png, digest: prepared.digest, preparedDocument: bytes, changedPages: changed,
            isRefusal: refusal)
    }

    /// Emits the digest and obtains the CMS the way the configuration says. While it waits for the
    /// signer (or the delegate), ``signatureInFlight`` refuses a cancel that would pull the prepared
    /// revision from under it.
    func requestSignature(reason: String) async -> SigningWorkflow.Input? {
        guard let prepared = snapshot.prepared else {
            return .failed(SessionError(.invalidState, "nothing is prepared"))
        }
        // The signer must be the one the prepared signature (its name, its appearance, the preview)
        // was made for: a signer configured since would sign what the person did not see.
        if case .signer = signatureConfiguration.signing, snapshot.preparedSigner != signerFingerprint {
            return .failed(
                SessionError(
                    .invalidState, "the signer changed after the signature was prepared; sign again", signoCode: -129))
        }
        signatureInFlight = true
        defer { signatureInFlight = false }
        emit(.documentPreparedForSignature(digest: prepared.digest, reason: reason))
        let cms: [UInt8]
        switch signatureConfiguration.signing {
        case .deferred:
            // A signo port implements computeDigitalSignature and sets nothing else: it is asked.
            guard let delegate,
                let result = await delegate.computeDigitalSignature(
                    digest: prepared.digest, algorithm: prepared.digestAlgorithm)
            else { return nil }
            cms = result
        case .delegate:
            guard let delegate,
                let result = await delegate.computeDigitalSignature(
                    digest: prepared.digest, algorithm: prepared.digestAlgorithm)
            else {
                return .failed(SessionError(.cancelled, "no signature was computed for the digest", signoCode: -129))
            }
            cms = result
        case .signer(let signer):
            do {
                cms = try await signer.cms(for: prepared.digest, algorithm: prepared.digestAlgorithm)
            } catch {
                return .failed(SessionError(error))
            }
        }
        do {
            try embed(try await timeStamped(cms))
            return .signed
        } catch {
            return .failed(error)
        }
    }

    /// `cms` with a signature time-stamp when the configuration names an authority (and the CMS has
    /// none yet); `cms` itself otherwise.
    /// - Throws: −146 (`timestampFailed`) when the authority gives no valid token; a signing error
    ///   when `cms` is not a SignedData of one signer.
    func timeStamped(_ cms: [UInt8]) async throws(SessionError) -> [UInt8] {
        guard let authority = signatureConfiguration.timeStampAuthority, let prepared = snapshot.prepared else {
            return cms
        }
        do {
            if try CMSSignedData(der: cms).signerInfos.first?.timeStampToken != nil { return cms }
            return try await SignatureTimestamp.adding(to: cms, from: authority, algorithm: prepared.digestAlgorithm)
        } catch {
            throw SessionError(error)
        }
    }

    /// Puts the CMS into the prepared revision (WYSIWYS `embedSignature`): checked against the
    /// digest, -136 when larger than the space reserved.
    public func embedSignature(_ cms: [UInt8]) async throws(SessionError) {
        guard snapshot.workflow.phase == .awaitingSignature else {
            throw SigningWorkflow.unexpected(.signed, snapshot.workflow.phase)
        }
        do {
            try embed(try await timeStamped(cms))
        } catch {
            // The prepared revision stays: a right CMS can still be embedded.
            emit(.processDidFail(error))
            throw error
        }
        try await run(.signed)
    }

    /// Replaces the prepared revision by the signed one.
    private func embed(_ cms: [UInt8]) throws(SessionError) {
        guard let prepared = snapshot.prepared else { throw SessionError(.invalidState, "nothing is prepared") }
        let signed: [UInt8]
        do {
            signed = try SignatureEmbedder.embed(cms: cms, into: document, state: prepared)
        } catch {
            throw SessionError(error)
        }
        let revisionStart = bytes.count - (revisionSizes.last ?? 0)
        // The state stored with the signed revision no longer waits for a CMS; if the store
        // refuses the write, the session still does.
        let before = snapshot
        snapshot.prepared = nil
        snapshot.revisionsBeforeSigning = nil
        snapshot.preparedSigner = nil
        do {
            try replaceLastRevision(with: Array(signed[revisionStart...]))
        } catch {
            snapshot = before
            throw error
        }
    }
}
