public import AutographJSON
import PDFCore
import PDFRendering
public import PDFSession
import PDFSigning

/// The session behind the API: one `SessionController`, the current document's `DocumentSession`,
/// its events fanned out to every event stream, and one renderer per revision of the document.
public actor WebBackend {
    /// The session controller: the store, the signing identity, the documents' sessions.
    public nonisolated let controller: SessionController
    /// How documents opened here are signed (appearance, handwriting, signer); `GET /api/state` tells the viewer
    /// whether handwriting is on. ``configure(_:scope:)`` changes it for the open document and the next.
    public private(set) var signatureConfiguration: SignatureConfiguration
    /// How documents opened here are shown, sent to the browser in `GET /api/state`.
    public private(set) var viewerConfiguration: ViewerConfiguration
    /// Who answers the session's decisions (see ``HostLink``).
    public nonisolated let decisions: HostDecisions
    /// The embedding page's channel, when the host is the page that embeds the viewer.
    nonisolated let browserDecisions: BrowserDecisions?
    /// The trust service provider whose certificates people may sign with, when there is one.
    public nonisolated let providerSigning: ProviderSigning?
    nonisolated let hub: EventHub
    /// Distinguishes this run's ETags from those of an earlier run with the same revision numbers.
    nonisolated let runID: String

    /// The document open now.
    public private(set) var session: DocumentSession?
    private var pump: Task<Void, Never>?
    /// Whether a ``configure(_:scope:)`` holds the turn, and the ones waiting for it.
    private var configuring = false
    private var configurationWaiters: [CheckedContinuation<Void, Never>] = []
    private var renderer: DocumentRenderer?
    /// Counts the documents rendered (a new one for every revision), for ETags.
    private var revision = 0
    // The caches below hold the document they were made for, compared by identity: an
    // ObjectIdentifier alone would match a new document allocated where a freed one was.
    /// The signatures of the current document, validated once per document.
    private var validation: (document: PDFDocument, statuses: [SignatureStatus])?
    /// Renderers of earlier revisions of the current document (the signed versions), a few kept.
    private var revisionRenderers: [(document: PDFDocument, revision: Int, renderer: DocumentRenderer)] = []
    /// The last confirmation preview (PNG) and the document it was made for.
    private var preview: (png: [UInt8], document: PDFDocument)?
    /// The preview being drawn again (after a restart), for the document it is drawn for.
    private var redrawing: (document: PDFDocument, task: Task<[UInt8]?, Never>)?

    /// Who the host is that answers the session's decisions (signo's delegate methods).
    public enum HostLink: Sendable {
        /// Nobody: every decision takes the seeds' default.
        case none
        /// The page that embeds the viewer (`autograph-embed.js`), through the viewer's event
        /// stream; an unanswered question takes the default after `timeout`.
        case embeddingPage(timeout: Duration)
        /// Another channel: the host's backend (``HTTPDecisions``) or an app's own.
        case channel(any DecisionChannel)
    }

    /// A backend over `controller`, with no document open yet; `host` answers its decisions;
    /// `providerSigning` lets the person sign with their own certificate at that provider. Without a
    /// `SignatureConfiguration.revocationFetchPolicy`, completing a document fetches nothing but
    /// for the seal's own chain, and only from public addresses (`RevocationFetchPolicy`).
    public init(
        controller: SessionController, signatureConfiguration: SignatureConfiguration = SignatureConfiguration(),
        viewerConfiguration: ViewerConfiguration = ViewerConfiguration(), host: HostLink = .none,
        providerSigning: ProviderSigning? = nil
    ) {
        self.controller = controller
        self.providerSigning = providerSigning
        // The web viewer shows every signature before it is made, signo's flow included.
        var signatureConfiguration = signatureConfiguration
        signatureConfiguration.previewsSignoSignatures = true
        // Its documents come from anyone: completing one fetches only for paths that lead to the
        // configured anchors or the seal's chain, and only from public addresses unless allowed.
        if signatureConfiguration.revocationFetchPolicy == nil {
            signatureConfiguration.revocationFetchPolicy = RevocationFetchPolicy()
        }
        self.signatureConfiguration = signatureConfiguration
        self.viewerConfiguration = viewerConfiguration
        let hub = EventHub()
        self.hub = hub
        switch host {
        case .none:
            browserDecisions = nil
            decisions = HostDecisions(channel: NoDecisions())
        case .embeddingPage(let timeout):
            let browser = BrowserDecisions(hub: hub, timeout: timeout)
            browserDecisions = browser
            decisions = HostDecisions(channel: browser)
        case .channel(let channel):
            browserDecisions = nil
            decisions = HostDecisions(channel: channel)
        }
        var generator = SystemRandomNumberGenerator()
        runID = String(generator.next() as UInt64, radix: 36)
    }

    /// Opens `pdf` (replacing the current document). Without an id, a random one; `password`
    /// opens an encrypted document. A document in progress with the same id is never thrown away
    /// unless `replace` says so: when its original is `pdf` itself (and `password` opens it), it is
    /// resumed as it was left — the current session itself when it is that document; otherwise
    /// `.documentExists` (409) and nothing changes.
    /// - Throws: `SessionError` `.invalidArgument` for an id `DocumentID` refuses,
    ///   `.passwordRequired` (-122), `.documentExists`, and what `SessionController.open` throws.
    @discardableResult
    public func open(pdf: [UInt8], documentID: String? = nil, password: String? = nil, replace: Bool = false)
        async throws(SessionError) -> DocumentSession
    {
        if let documentID, !replace {
            if let problem = DocumentID.problem(documentID) { throw SessionError(.invalidArgument, problem) }
            if let work = try controller.storedWork(documentID: documentID, comparedWith: pdf) {
                guard work.sameOriginal else {
                    throw SessionError(
                        .documentExists,
                        "a stored document is named \"\(documentID)\" (\(work.signatureCount) signature"
                            + (work.signatureCount == 1 ? "" : "s") + ", \(work.revisionCount) revision"
                            + (work.revisionCount == 1 ? "" : "s")
                            + "): an upload never replaces it; open the file under another X-Document-ID (or none, "
                            + "for a new id), or discard it first (autograph serve --replace, autograph session dispose)"
                    )
                }
                // The same bytes: the person must still be able to open them (an encrypted
                // document's password is asked again, not taken from the store).
                try SessionController.checkOpens(pdf: pdf, password: password)
                if let session, session.documentID == documentID { return session }
                return try await resume(documentID: documentID)
            }
        }
        var generator = SystemRandomNumberGenerator()
        let id = documentID ?? "web-" + String(generator.next() as UInt64, radix: 36)
        let opened = try await controller.open(
            pdf: pdf, documentID: id, password: password, viewerConfiguration: viewerConfiguration,
            signatureConfiguration: signatureConfiguration, delegate: decisions)
        await adopt(opened)
        return opened
    }

    /// Makes the stored document `documentID` the current one (replacing the current document),
    /// as it was left: its edits and its workflow phase, signed ones included
    /// (`SessionController.reopen`).
    /// - Throws: `SessionError` `.documentNotFound` when the store has no such document,
    ///   `.tamperedRecord`, `.storeUnavailable`.
    @discardableResult
    public func resume(documentID: String) async throws(SessionError) -> DocumentSession {
        let reopened = try await controller.reopen(
            documentID: documentID, viewerConfiguration: viewerConfiguration,
            signatureConfiguration: signatureConfiguration, delegate: decisions)
        await adopt(reopened)
        return reopened
    }

    /// Closes the previous document and relays the new one's events.
    private func adopt(_ opened: DocumentSession) async {
        if let old = session, old !== opened { await old.close() }
        pump?.cancel()
        session = opened
        preview = nil
        let scope = decisions.channel.configurationScope
        decisions.attach(documentID: opened.documentID) { [weak self] changes in
            try? await self?.configure(changes, scope: scope)
        }
        // The pump outlives the request that opened the document: none of its step's budget.
        pump = HostDecisions.$stepBudget.withValue(nil) {
            Task { [weak self] in
                for await event in opened.events {
                    await self?.received(event, from: opened)
                }
            }
        }
    }

    /// Closes the current document (it stays in the store, in progress).
    public func close() async {
        pump?.cancel()
        pump = nil
        await session?.close()
        session = nil
        renderer = nil
        hub.finishAll()
    }

    private func received(_ event: SessionEvent, from source: DocumentSession) async {
        guard source === session else { return }
        if case .onConfirmationRequired(let confirmation) = event {
            let document = await source.document
            preview = (confirmation.png, document)
        }
        if case .processDidFinish = event, let providerSigning {
            // The person's provider credential made their signature: the next signer on this
            // document signs in at the provider again (or with the server's seal), never with the
            // previous person's account, token or PIN.
            providerSigning.forgetAccount()
            if case .signer(is CSCSigner) = await source.signatureConfiguration.signing {
                await source.configure(signing: signatureConfiguration.signing)
            }
        }
        let (name, data) = SessionJSON.event(event)
        hub.publish(event: name, data: data)
    }

    /// The current session, or 404.
    func current() throws(WebError) -> DocumentSession {
        guard let session else { throw WebError.notFound("no document is open") }
        return session
    }

    /// The renderer of the current revision and its number (a new renderer when the document changed).
    func currentRenderer() async throws(WebError) -> (DocumentRenderer, Int) {
        let document = try current().currentDocument
        if let renderer, renderer.document === document { return (renderer, revision) }
        let made = DocumentRenderer(document: document)
        renderer = made
        revision += 1
        return (made, revision)
    }

    /// The current document's signatures, validated against `trustRoots` (once per revision).
    func validate(trustRoots: [Certificate]) throws(WebError) -> (document: PDFDocument, statuses: [SignatureStatus]) {
        let document = try current().currentDocument
        if let validation, validation.document === document {
            return (document, validation.statuses)
        }
        let statuses = SignatureValidator(document: document, trustRoots: trustRoots).validate()
        validation = (document, statuses)
        return (document, statuses)
    }

    /// A renderer of the current document as it was at `revision` (0 = the original): the version
    /// a signature signed. 404 for a revision the document does not have.
    func renderer(revision: Int) throws(WebError) -> DocumentRenderer {
        let document = try current().currentDocument
        if revision == document.revisions.count - 1 { return DocumentRenderer(document: document) }
        if let kept = revisionRenderers.first(where: { $0.document === document && $0.revision == revision }) {
            return kept.renderer
        }
        guard revision >= 0, revision < document.revisions.count,
            let earlier = try? document.document(asOfRevision: revision)
        else {
            throw WebError.notFound(
                "no revision \(revision) (the document's revisions are 0 to \(document.revisions.count - 1))")
        }
        let made = DocumentRenderer(document: earlier)
        revisionRenderers.removeAll { $0.document !== document }
        revisionRenderers.append((document, revision, made))
        if revisionRenderers.count > 4 { revisionRenderers.removeFirst() }
        return made
    }

    /// The preview of the document prepared now, waiting a little for the event carrying it.
    func previewPNG() async throws(WebError) -> [UInt8] {
        let session = try current()
        for _ in 0..<100 {
            let document = await session.document
            if let preview, preview.document === document { return preview.png }
            let phase = await session.phase
            if phase == .confirming || phase == .awaitingSignature {
                // No event made it in this run (a reload after a restart): drawn again from the
                // prepared bytes, which are the same — once, however many ask at once.
                if let drawn = await redrawnPreview(of: session, document), await session.document === document {
                    preview = (drawn, document)
                    return drawn
                }
            }
            guard phase == .confirming || phase == .awaitingSignature || phase == .preparing else { break }
            try? await Task.sleep(for: .milliseconds(20))
        }
        throw WebError.notFound("no confirmation preview is waiting")
    }

    /// The preview of `document` drawn again, one drawing at a time for it.
    private func redrawnPreview(of session: DocumentSession, _ document: PDFDocument) async -> [UInt8]? {
        if let redrawing, redrawing.document === document { return await redrawing.task.value }
        let task = Task { try? await session.confirmationPreview().png }
        redrawing = (document, task)
        let png = await task.value
        if redrawing?.document === document { redrawing = nil }
        return png
    }

    /// The first chunk of a new event stream: the current phase, then the host's decisions waiting.
    func phaseEvent() async -> [UInt8] {
        var phase = SessionJSON.phase(.editing)
        if let session { phase = await SessionJSON.phase(of: session) }
        return Array("event: phase\ndata: \(phase.serialized())\n\n".utf8) + (browserDecisions?.waitingEvents ?? [])
    }

    /// Applies configuration changes (``ConfigurationJSON``) to the open document and to those
    /// opened after it, as far as `scope` allows; the session emits `configurationChanged`.
    /// - Throws: `WebError` 400 for an unknown member or a value out of range; nothing changes then.
    public func configure(_ changes: JSONValue, scope: ConfigurationJSON.Scope = .all) async throws(WebError) {
        // One change at a time: each reads the session's configuration across awaits, and two
        // interleaved would each write back what it read, losing the other's change.
        await configurationTurn()
        defer { endConfigurationTurn() }
        var viewer = viewerConfiguration
        var signature = signatureConfiguration
        if let session {
            viewer = await session.viewerConfiguration
            signature = await session.signatureConfiguration
        }
        try ConfigurationJSON.apply(changes, viewer: &viewer, signature: &signature, scope: scope)
        viewerConfiguration = viewer
        signatureConfiguration.capture = signature.capture
        signatureConfiguration.appearance = signature.appearance
        signatureConfiguration.attributes = signature.attributes
        signatureConfiguration.watermark = signature.watermark
        guard let session else { return }
        await session.configure(attributes: signature.attributes)
        await session.configure(watermark: signature.watermark)
        await session.configure(viewer: viewer)
        await session.configure(capture: signature.capture)
        await session.configure(appearance: signature.appearance)
    }

    /// Waits until no other ``configure(_:scope:)`` runs, then holds the turn.
    private func configurationTurn() async {
        guard configuring else {
            configuring = true
            return
        }
        await withCheckedContinuation { configurationWaiters.append($0) }
    }

    /// Hands the turn to the next waiting change, in arrival order, or frees it.
    private func endConfigurationTurn() {
        if configurationWaiters.isEmpty {
            configuring = false
        } else {
            configurationWaiters.removeFirst().resume()
        }
    }
}
