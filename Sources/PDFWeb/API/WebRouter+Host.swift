import AutographJSON
import PDFCore
import PDFSession

/// What the host decides and changes: the configuration at run time, the answers to the session's
/// decisions (from the embedding page), and the viewer's buttons that ask the host.
extension WebRouter {
    /// `GET /api/configuration`: the configuration as it is now.
    func configurationNow() async -> JSONValue {
        if let session = await backend.session {
            return ConfigurationJSON.json(
                viewer: await session.viewerConfiguration, signature: await session.signatureConfiguration)
        }
        return ConfigurationJSON.json(
            viewer: await backend.viewerConfiguration, signature: await backend.signatureConfiguration)
    }

    /// `POST /api/configuration`: changes members of the configuration (``ConfigurationJSON``);
    /// without the API token (a browser), the viewer and the capture only.
    func changeConfiguration(_ request: HTTPRequest) async throws(WebError) -> HTTPResponse {
        try await backend.configure(try request.json(), scope: request.carriesAPIToken ? .all : .viewerAndCapture)
        return .json(await configurationNow())
    }

    /// `POST /api/decisions/ID {"answer", "configuration"}`: the embedding page's answer to a
    /// `decision` event. 404 when no such question waits (answered, timed out, or never asked).
    func answerDecision(_ id: String, _ request: HTTPRequest) throws(WebError) -> HTTPResponse {
        // An answer to computeDigitalSignature carries a CMS in Base64 (at most 4 MiB of it).
        let body = try request.json(maxBytes: 6 << 20, maxStringBytes: 6 << 20)
        guard case .object = body else { throw WebError.badRequest("the answer must be an object") }
        guard let browser = backend.browserDecisions, browser.answer(id: id, with: body) else {
            throw WebError.notFound("no decision \(id.prefix(40)) waits for an answer")
        }
        return .json(.object([("answered", .bool(true))]))
    }

    /// `POST /api/buttons/signature-info` (`{"show"}`: the viewer shows its own list) and
    /// `POST /api/buttons/back`: signo's toolbar buttons that ask the app.
    func pressButton(_ name: String) async throws(WebError) -> HTTPResponse {
        let session = try await backend.current()
        switch name {
        case "signature-info": return .json(.object([("show", .bool(await session.signatureInfoPressed()))]))
        default:
            await session.backButtonPressed()
            return .json(.object([]))
        }
    }

    /// `POST /api/viewer-rects`: opens a viewer rectangle (signo `createViewerRect`); answers its
    /// `{"id"}`. 409 while signing, taking notes, or with another rectangle open.
    func openViewerRect() async throws(WebError) -> HTTPResponse {
        let session = try await backend.current()
        let id = try await Self.call { () async throws(SessionError) in try await session.beginViewerRect() }
        return .json(.object([("id", .int(id)), ("mode", ModeJSON.mode(await session.viewerMode))]), status: 201)
    }

    /// `POST /api/viewer-rects/ID {"confirmed": true, "page", "rect"}` or `{"confirmed": false}`:
    /// a viewer rectangle's Create or Cancel button. `page` counts from 0 like every page number of
    /// the API (null, without `rect`, when the rectangle lies on no page); the answer `{"hide"}` is
    /// the host's.
    func viewerRect(_ text: String, _ request: HTTPRequest) async throws(WebError) -> HTTPResponse {
        guard let id = Int(text), (0...Int(Int32.max)).contains(id) else {
            throw WebError.notFound("no viewer rectangle \(text.prefix(40)): ids are numbers from 0 to \(Int32.max)")
        }
        let session = try await backend.current()
        let body = try request.json()
        guard case .bool(let confirmed) = body["confirmed"] ?? .null else {
            throw WebError.badRequest("\"confirmed\" must be true or false", member: "confirmed")
        }
        guard confirmed else {
            try await Self.call { () async throws(SessionError) in try await session.viewerRectCancelled(id: id) }
            return .json(.object([("hide", .bool(true))]))
        }
        var pageIndex: Int?
        var rect = PDFRectangle.zero
        if body["page"] != nil, body["page"] != .null {
            let document = await session.document
            let page = try CheckedInput.pageIndex(body, pageCount: document.pageCount)
            rect = try CheckedInput.rectangle(body, within: document.pages[page].cropBox)
            pageIndex = page
        }
        let hide = try await Self.call { () async throws(SessionError) in
            try await session.viewerRectConfirmed(rect: rect, pageIndex: pageIndex, id: id)
        }
        return .json(.object([("hide", .bool(hide))]))
    }
}
