import AutographJSON
import PDFCore
import PDFForms
import PDFGraphics
import PDFSession
import PDFViewer

/// Matches a request against the API's routes (exact paths; no file system) and answers it.
struct WebRouter: Sendable {
    let backend: WebBackend
    let assets: WebAssets
    let configuration: WebServer.Configuration
    /// The pages interpreted last (their tiles replay them) and the text of the pages searched last.
    let displayLists: PageCache<DisplayList>
    let pageTexts: PageCache<PageText>
    /// The pages of a revision that cannot be drawn within the budget: refused at once.
    let overBudget = OverBudgetPages()
    /// The layouts computed last (`GET /api/layout`).
    let layouts = LayoutCache()

    /// The sign-in links (`POST /api/links` makes one).
    let links: SignInLinks

    init(backend: WebBackend, assets: WebAssets, configuration: WebServer.Configuration, links: SignInLinks) {
        self.links = links
        self.backend = backend
        self.assets = assets
        self.configuration = configuration
        displayLists = PageCache(capacity: configuration.cachedDisplayItems) { $0.items.count }
        pageTexts = PageCache(capacity: configuration.cachedDisplayItems) { $0.glyphs.count + 1 }
    }

    /// Answers `request`; the questions it puts to the host share one budget of waiting for answers
    /// that do not come (a host that does not answer holds a step up once, however many questions
    /// the step asks).
    func route(_ request: HTTPRequest) async throws(WebError) -> HTTPResponse {
        try await backend.decisions.withStepBudget { () async throws(WebError) in try await dispatch(request) }
    }

    private func dispatch(_ request: HTTPRequest) async throws(WebError) -> HTTPResponse {
        let path = request.path
        let allowed = Self.methods(for: path)
        guard !allowed.isEmpty else { throw WebError.notFound("no route \(path)") }
        guard allowed.contains(request.method) else {
            throw WebError.methodNotAllowed(request.method, path, allowed: allowed)
        }
        if path == "/" || path == "/index.html" { return try assets.response(for: "index.html") }
        if path == "/favicon.ico" || path == "/favicon.svg" { return try assets.response(for: "app/favicon.svg") }
        if path.hasPrefix("/app/") { return try assets.response(for: String(path.dropFirst(1))) }
        let parts = path.dropFirst(5).split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        let first = parts[0]
        let second = parts.count > 1 ? parts[1] : ""
        // HEAD is answered as GET (libmicrohttpd sends no body for it).
        switch (request.method == "HEAD" ? "GET" : request.method, parts.count, first) {
        case ("GET", 1, "state"): return .json(await state())
        case ("POST", 1, "documents"): return try await openDocument(request)
        case ("GET", 1, "pages"): return .json(try await pages())
        case ("GET", 1, "layout"): return .json(try await layout(request))
        case ("GET", 3, "pages") where parts[2] == "text": return try await pageText(second, request)
        case ("GET", 3, "pages"): return try await tile(second, request)
        case ("GET", 1, "outline"): return .json(try await outline())
        case ("GET", 1, "fields"): return .json(try await fields())
        case ("PUT", 2, "fields"): return try await setField(second, request)
        case ("POST", 1, "save"): return try await save()
        case ("POST", 1, "page"): return try await setPage(request)
        case ("GET", 1, "download"): return try await download()
        case ("GET", 1, "preview.png"):
            return HTTPResponse(
                contentType: "image/png", bytes: try await backend.previewPNG(),
                headers: [("Cache-Control", "no-store")])
        case ("GET", 1, "appearance.png"): return try await appearancePNG(request)
        case ("POST", 1, _) where Self.workflowSteps.contains(first): return try await workflow(first, request)
        case ("POST", 1, "signature-fields"): return try await createSignatureField(request)
        case ("GET", 1, "search"): return try await search(request)
        case ("POST", 1, "search"): return try await showSearch(request)
        case ("POST", 2, "search"): return try await searchStep(second, request)
        case ("GET", 1, "validation"): return .json(try await validation())
        case ("GET", 2, "validation") where second == "diff": return .json(try await validationDiff(request))
        case ("POST", 2, "notes"): return try await notes(second, request)
        case ("POST", 2, "photo"): return try await placePhoto(second, request)
        case ("POST", 1, "photo-fields"): return try await setPhotoFields(request)
        case ("GET", 1, "signatures"): return .json(try savedSignatures())
        case ("POST", 1, "signatures"): return try addSavedSignature(request)
        case ("DELETE", 2, "signatures"): return try deleteSavedSignature(second)
        case ("GET", 1, "events"): return await events()
        case ("GET", 1, "configuration"): return .json(await configurationNow())
        case ("POST", 1, "configuration"): return try await changeConfiguration(request)
        case ("POST", 2, "decisions"): return try answerDecision(second, request)
        case ("POST", 2, "buttons"): return try await pressButton(second)
        case ("POST", 1, "viewer-rects"): return try await openViewerRect()
        case ("POST", 2, "viewer-rects"): return try await viewerRect(second, request)
        case ("GET", 1, "provider-signing"): return .json(try await providerSigningState())
        case ("POST", 1, "provider-signing"): return try await beginProviderSigning(request)
        case ("POST", 2, "provider-signing") where second == "authorize":
            return try await beginSignatureAuthorization(request)
        case ("POST", 2, "provider-signing") where second == "credential":
            return .json(try await chooseProviderCredential(request))
        case ("POST", 1, "links"):
            // Only a holder of the API token hands out sign-in links (a browser's cookie cannot).
            guard request.carriesAPIToken else {
                throw WebError.forbidden("a sign-in link is made with the API token (Authorization: Bearer)")
            }
            return .json(.object([("url", .string("/?login=" + links.make()))]), status: 201)
        default: throw WebError.notFound("no route \(path)")
        }
    }

    static let workflowSteps: Set<String> = [
        "accept", "refuse", "select-field", "capture", "choose-signature", "position", "confirm", "cancel",
        "complete", "start-signature",
    ]
    static let noteSteps: Set<String> = ["start", "stroke", "undo", "redo", "style", "cancel", "save"]

    /// The methods `path` answers (`Allow`); empty when it is no route.
    static func methods(for path: String) -> [String] {
        let reading = ["GET", "HEAD"]
        if path == "/" || path == "/index.html" || path == "/favicon.ico" || path == "/favicon.svg" { return reading }
        if path.hasPrefix("/app/") { return reading }
        guard path.hasPrefix("/api/") else { return [] }
        let parts = path.dropFirst(5).split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        let named = parts.count == 2 && !parts[1].isEmpty
        switch (parts.count, parts[0]) {
        case (1, "state"), (1, "pages"), (1, "layout"), (1, "fields"), (1, "download"), (1, "preview.png"),
            (1, "appearance.png"), (1, "events"), (1, "validation"), (1, "outline"):
            return reading
        case (1, "search"): return reading + ["POST"]
        case (2, "search") where ["step", "finish"].contains(parts[1]): return ["POST"]
        case (1, "viewer-rects"): return ["POST"]
        case (3, "pages") where ["tile", "text"].contains(parts[2]) && !parts[1].isEmpty: return reading
        case (2, "validation") where parts[1] == "diff": return reading
        case (2, "fields") where named: return ["PUT"]
        case (1, "documents"), (1, "save"), (1, "page"), (1, "signature-fields"), (1, "photo-fields"), (1, "links"):
            return ["POST"]
        case (1, let step) where workflowSteps.contains(step): return ["POST"]
        case (2, "notes") where noteSteps.contains(parts[1]): return ["POST"]
        case (2, "photo") where named: return ["POST"]
        case (1, "signatures"), (1, "provider-signing"): return ["GET", "HEAD", "POST"]
        case (1, "configuration"): return ["GET", "HEAD", "POST"]
        case (2, "decisions") where named: return ["POST"]
        case (2, "buttons") where ["signature-info", "back"].contains(parts[1]): return ["POST"]
        case (2, "viewer-rects") where named: return ["POST"]
        case (2, "provider-signing") where ["authorize", "credential"].contains(parts[1]): return ["POST"]
        case (2, "signatures") where named: return ["DELETE"]
        default: return []
        }
    }

    /// Runs a session call, turning its error into the API's.
    static func call<T>(_ body: () async throws(SessionError) -> T) async throws(WebError) -> T {
        do {
            return try await body()
        } catch {
            throw WebError(error)
        }
    }

    // MARK: - Session and document

    func state() async -> JSONValue {
        let session = await backend.session
        var members: [(String, JSONValue)] = [("documentID", session.map { .string($0.documentID) } ?? .null)]
        members.append(("pageCount", .int(await session?.pageCount ?? 0)))
        members.append(("phase", .string(SessionJSON.phaseName(await session?.phase ?? .editing))))
        if let session, case .object(let details) = await SessionJSON.phase(of: session) {
            members += details.dropFirst()
        }
        var signature = await backend.signatureConfiguration
        if let session { signature = await session.signatureConfiguration }
        members.append(("capture", SessionJSON.capture(signature.capture)))
        members.append(("signer", SessionJSON.signer(signature.signing)))
        var viewer = await backend.viewerConfiguration
        if let session { viewer = await session.viewerConfiguration }
        members.append(("viewer", SessionJSON.viewer(viewer)))
        members.append(("embedOrigin", configuration.embedOrigin.map { .string($0) } ?? .null))
        members.append(("readOnly", .bool(session?.isReadOnly ?? false)))
        members.append(("photoFields", .array((await session?.photoFieldNames ?? []).map { .string($0) })))
        members.append(
            ("handwriting", .bool(signature.appearance.handwrittenSignatureEnabled)))
        members.append(("currentPage", .int(await session?.currentPageIndex ?? 0)))
        members.append(("mode", ModeJSON.mode(await session?.viewerMode ?? .browsing)))
        let recovery = await session?.signingRecovery
        members.append(("recovery", recovery.map(SessionJSON.recovery) ?? .null))
        return .object(members)
    }

    func openDocument(_ request: HTTPRequest) async throws(WebError) -> HTTPResponse {
        guard !request.body.isEmpty else { throw WebError.badRequest("the body must be the PDF's bytes") }
        let id = request.headers["x-document-id"].flatMap { $0.isEmpty ? nil : $0 }
        if let id, let problem = DocumentID.problem(id) {
            throw WebError.badRequest("X-Document-ID: \(problem)", member: "X-Document-ID")
        }
        // The ids `autograph serve` gives the documents it is started with: an upload under one would
        // be shown, and signed, in place of that file after the next start.
        if let id, id == "demo-form" || id.hasPrefix("file-") || id.hasPrefix("show-") {
            throw WebError.badRequest(
                "X-Document-ID: \(id.prefix(40)) is reserved for the documents autograph serve opens itself",
                member: "X-Document-ID")
        }
        // A header, never the query: a password has no place in a URL or an access log.
        let password = request.headers["x-document-password"]
        if let password, password.utf8.count > Self.maxPasswordBytes {
            throw WebError.badRequest(
                "X-Document-Password: at most \(Self.maxPasswordBytes) bytes", member: "X-Document-Password")
        }
        // The same bytes under the same id: the stored document, resumed as it was left.
        let resumed = id.flatMap { try? backend.controller.storedWork(documentID: $0, comparedWith: request.body) }
        let session = try await Self.call { () async throws(SessionError) in
            try await backend.open(pdf: request.body, documentID: id, password: password)
        }
        return .json(
            .object([
                ("documentID", .string(session.documentID)), ("pageCount", .int(await session.pageCount)),
                ("resumed", .bool(resumed?.sameOriginal == true)),
            ]))
    }

    /// The longest document password taken (PDF 2.0 passwords are at most 127 bytes of UTF-8).
    static let maxPasswordBytes = 1024

    func pages() async throws(WebError) -> JSONValue {
        let document = try await backend.current().currentDocument
        return .array(
            document.pages.map { page in
                let size = page.displaySize
                return .object([
                    ("index", .int(page.index)), ("width", .double(size.width)), ("height", .double(size.height)),
                    ("rotation", .int(page.rotation)), ("cropBox", SessionJSON.rect(page.cropBox)),
                    ("userUnit", .double(page.userUnit)),
                ])
            })
    }

    func fields() async throws(WebError) -> JSONValue {
        let session = try await backend.current()
        let infos = await session.formFields()
        let form = AcroForm(document: await session.document)
        return .array(infos.map { SessionJSON.field($0, widgets: form?.field(named: $0.name)?.widgets ?? []) })
    }

    func field(_ name: String, in session: DocumentSession) async throws(WebError) -> JSONValue {
        guard let field = AcroForm(document: await session.document)?.field(named: name) else {
            throw WebError.notFound("no field \"\(name)\"")
        }
        return SessionJSON.field(FieldInfo(field), widgets: field.widgets)
    }

    func setField(_ name: String, _ request: HTTPRequest) async throws(WebError) -> HTTPResponse {
        guard name.utf8.count <= CheckedInput.maxNameBytes else {
            throw WebError.notFound(
                "no field of \(name.utf8.count) bytes: names have at most \(CheckedInput.maxNameBytes)")
        }
        let session = try await backend.current()
        let value: FormInput
        // Every length is checked before the value reaches the form (a field's /MaxLen there).
        let body = try request.json(maxBytes: HTTPRequest.maxJSONStringBytes + 1024)
        switch body["value"] {
        case .string:
            let text = try CheckedInput.text(
                body, "value", maxBytes: CheckedInput.maxValueBytes, lines: .allowed, required: true)
            value = .text(text ?? "")
        case .bool(let flag): value = .bool(flag)
        case .array(let items):
            guard items.count <= CheckedInput.maxListItems else {
                throw WebError.badRequest(
                    "\"value\" holds \(items.count) items; at most \(CheckedInput.maxListItems)", member: "value")
            }
            var texts: [String] = []
            for item in items {
                guard case .string(let text) = item else {
                    throw WebError.badRequest("the list must hold strings", member: "value")
                }
                texts.append(try CheckedInput.checked(text, "value", maxBytes: CheckedInput.maxNameBytes))
            }
            value = .list(texts)
        default:
            throw WebError.badRequest("\"value\" must be a string, a boolean or a list of strings", member: "value")
        }
        try await Self.call { () async throws(SessionError) in try await session.setValue(value, forField: name) }
        return .json(try await field(name, in: session))
    }

    func save() async throws(WebError) -> HTTPResponse {
        let session = try await backend.current()
        let saved = try await Self.call { () async throws(SessionError) in try await session.saveDocument() }
        return .json(.object([("saved", .bool(saved))]))
    }

    /// `POST /api/page {"page": N}`: the page the person looks at (WYSIWYS `pageIndex`), so that
    /// `pageChanged` is emitted and a signature to position is proposed there.
    func setPage(_ request: HTTPRequest) async throws(WebError) -> HTTPResponse {
        let session = try await backend.current()
        let page = try CheckedInput.pageIndex(try request.json(), pageCount: await session.pageCount)
        try await Self.call { () async throws(SessionError) in try await session.setCurrentPage(page) }
        return .json(.object([("page", .int(page))]))
    }

    /// `GET /api/download`: the document as it is now, named after its id, `-signed` added once it
    /// holds a signature (so a person's signed copy never takes the unsigned original's name).
    func download() async throws(WebError) -> HTTPResponse {
        let session = try await backend.current()
        let bytes = await session.documentBytes
        let signed =
            AcroForm(document: await session.document)?.signatureFields.contains {
                $0.value == .signature(signed: true)
            } ?? false
        return HTTPResponse(
            contentType: "application/pdf", bytes: bytes,
            headers: [
                ("Content-Disposition", Self.attachment(named: session.documentID, suffix: signed ? "-signed" : "")),
                ("Cache-Control", "no-store"),
            ])
    }

    /// `Content-Disposition` for a download named after `id`: an ASCII `filename` (letters, digits,
    /// `-` and `_`; anything else `_`; at most 100 characters) for every browser, and the whole
    /// id in `filename*` (RFC 6266, RFC 8187: UTF-8, percent-encoded, at most 200 bytes), so no id
    /// can add a header, a parameter or a path to it.
    static func attachment(named id: String, suffix: String = "") -> String {
        var ascii = String(
            id.unicodeScalars.prefix(100).map { scalar -> Character in
                scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar))
                    || scalar == "-" || scalar == "_" ? Character(scalar) : "_"
            })
        if ascii.isEmpty || ascii.allSatisfy({ $0 == "_" }) { ascii = "document" }
        var kept = String.UnicodeScalarView()
        var bytes = 0
        for scalar in id.unicodeScalars {
            bytes += String(scalar).utf8.count
            if bytes > 200 { break }
            kept.append(scalar)
        }
        var encoded = ""
        for byte in String(kept).utf8 {
            let unreserved =
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || [0x2D, 0x2E, 0x5F, 0x7E].contains(byte)
            encoded += unreserved ? String(UnicodeScalar(byte)) : "%" + SessionJSON.hex([byte]).uppercased()
        }
        return "attachment; filename=\"\(ascii)\(suffix).pdf\"; filename*=UTF-8''\(encoded)\(suffix).pdf"
    }

    func events() async -> HTTPResponse {
        let subscription = backend.hub.subscribe(first: await backend.phaseEvent())
        return HTTPResponse(
            headers: [
                ("Content-Type", "text/event-stream"), ("Cache-Control", "no-store"), ("X-Accel-Buffering", "no"),
            ],
            body: .events(subscription))
    }
}
