import AutographJSON
import PDFAnnotations
import PDFAuthoring
import PDFCore
import PDFSession

/// The signing workflow's decisions, signature fields, notes, photos and saved signatures.
extension WebRouter {
    /// `POST /api/STEP` of the signing workflow. The starts (`accept`, `start-signature`) check
    /// nothing here: the session checks the required fields where every start goes through
    /// (`SigningWorkflow.requireFilled`), answered 409 `requiredFieldsEmpty` (signo -129).
    func workflow(_ step: String, _ request: HTTPRequest) async throws(WebError) -> HTTPResponse {
        let session = try await backend.current()
        let body = try request.json(
            maxBytes: step == "capture" ? HTTPRequest.maxStrokesJSONBytes : HTTPRequest.maxJSONBytes)
        switch step {
        case "accept":
            try await Self.call { () async throws(SessionError) in try await session.acceptDocument() }
        case "refuse":
            try await Self.call { () async throws(SessionError) in try await session.refuseDocument() }
        case "select-field":
            let name = try CheckedInput.text(body, "name", maxBytes: CheckedInput.maxNameBytes, required: true) ?? ""
            try await Self.call { () async throws(SessionError) in try await session.selectSignatureField(name) }
        case "capture":
            // A typed name instead of a drawing (the keyboard and screen-reader way to sign).
            if let name = try CheckedInput.text(body, "name", maxBytes: DocumentSession.maxTypedNameBytes) {
                try await Self.call { () async throws(SessionError) in try await session.typeSignature(name) }
            } else {
                let strokes = try CheckedInput.strokes(body, within: [InkStroke].captureArea)
                try await Self.call { () async throws(SessionError) in try await session.captureSignature(strokes) }
            }
        case "choose-signature":
            let id = try CheckedInput.requiredInteger(body, "id", in: 0...Int.max)
            try await Self.call { () async throws(SessionError) in try await session.chooseSavedSignature(id: id) }
        case "position":
            let (page, rect) = try await Self.placement(body, in: session)
            try await Self.call { () async throws(SessionError) in
                try await session.signaturePositioned(pageIndex: page, rect: rect)
            }
        case "confirm":
            try await Self.call { () async throws(SessionError) in try await session.confirmSignature() }
        case "cancel":
            try await Self.call { () async throws(SessionError) in try await session.cancelSigning() }
        case "complete":
            _ = try await Self.call { () async throws(SessionError) in try await session.completeDocument() }
        default:  // start-signature
            if let field = try CheckedInput.text(body, "field", maxBytes: CheckedInput.maxNameBytes) {
                try await Self.call { () async throws(SessionError) in try await session.startSignature(field: field) }
            } else {
                try await Self.call { () async throws(SessionError) in try await session.startSignature() }
            }
        }
        return .json(await SessionJSON.phase(of: session))
    }

    /// `GET /api/appearance.png?width=W&height=H[&scale=S]`: the visible signature the session would
    /// place now in a box of W × H points (the positioning box shows it), S pixels a point (1 by
    /// default). The numbers are checked here (400 naming the parameter); the session refuses a read-only,
    /// finished or invisible signature (409).
    func appearancePNG(_ request: HTTPRequest) async throws(WebError) -> HTTPResponse {
        let session = try await backend.current()
        let sides = DocumentSession.appearancePreviewSides
        var size: [Double] = []
        for name in ["width", "height"] {
            guard let value = try CheckedInput.number(request.query, name, in: sides) else {
                throw WebError.badRequest("\(name) is missing", member: name)
            }
            size.append(value)
        }
        let scale = try CheckedInput.number(request.query, "scale", in: DocumentSession.appearancePreviewScales) ?? 1
        let png = try await Self.call { () async throws(SessionError) in
            try await session.appearancePreview(width: size[0], height: size[1], scale: scale)
        }
        return HTTPResponse(contentType: "image/png", bytes: png, headers: [("Cache-Control", "no-store")])
    }

    func createSignatureField(_ request: HTTPRequest) async throws(WebError) -> HTTPResponse {
        let session = try await backend.current()
        let body = try request.json()
        let name = try CheckedInput.text(body, "name", maxBytes: CheckedInput.maxNameBytes, required: true) ?? ""
        let (page, rect) = try await Self.placement(body, in: session)
        try await Self.call { () async throws(SessionError) in
            _ = try await session.createSignatureField(name: name, pageIndex: page, rect: rect)
        }
        return .json(try await field(name, in: session))
    }

    /// `"page"` (an index of the document's pages) and `"rect"` (inside that page's crop box).
    static func placement(_ body: JSONValue, in session: DocumentSession) async throws(WebError) -> (
        Int, PDFRectangle
    ) {
        let document = await session.document
        let page = try CheckedInput.pageIndex(body, pageCount: document.pageCount)
        return (page, try CheckedInput.rectangle(body, within: document.pages[page].cropBox))
    }

    // MARK: - Notes

    func notes(_ step: String, _ request: HTTPRequest) async throws(WebError) -> HTTPResponse {
        let session = try await backend.current()
        let body = try request.json(maxBytes: HTTPRequest.maxStrokesJSONBytes)
        var answer: [(String, JSONValue)] = []
        switch step {
        case "start":
            await session.startNotesMode(style: try Self.style(body, InkStyle()))
        case "stroke":
            let document = await session.document
            let page = try CheckedInput.pageIndex(body, pageCount: document.pageCount)
            // A pen may overshoot the page's edge a little; far away, a point is no note.
            let box = document.pages[page].cropBox
            let margin = max(box.width, box.height)
            let area = PDFRectangle(
                x0: box.x0 - margin, y0: box.y0 - margin, x1: box.x1 + margin, y1: box.y1 + margin)
            let strokes = try CheckedInput.strokes(body, within: area)
            try await Self.call { () async throws(SessionError) in try await session.addNote(strokes, pageIndex: page) }
        case "undo": answer.append(("changed", .bool(await session.undoNote())))
        case "redo": answer.append(("changed", .bool(await session.redoNote())))
        case "style":
            let style = try Self.style(body, InkStyle())
            try await Self.call { () async throws(SessionError) in try await session.changeNotesStyle(style) }
        case "cancel": await session.cancelNotesMode()
        default: await session.saveAndFinishNotesMode()  // save
        }
        guard case .object(let phase) = await SessionJSON.phase(of: session) else { return .json(.null) }
        return .json(.object(phase + answer + [("mode", ModeJSON.mode(await session.viewerMode))]))
    }

    static func style(_ body: JSONValue, _ base: InkStyle) throws(WebError) -> InkStyle {
        var style = base
        if let width = body["width"] {
            guard let value = width.doubleValue, value > 0, value <= 100 else {
                throw WebError.badRequest("\"width\" must be a number of points between 0 and 100")
            }
            style.width = value
        }
        if let color = body["color"] {
            guard let text = color.stringValue, let parsed = SessionJSON.color(from: text) else {
                throw WebError.badRequest("\"color\" must be #rrggbb")
            }
            style.color = parsed
        }
        return style
    }

    // MARK: - Photos

    func placePhoto(_ name: String, _ request: HTTPRequest) async throws(WebError) -> HTTPResponse {
        guard name.utf8.count <= CheckedInput.maxNameBytes else {
            throw WebError.notFound(
                "no field of \(name.utf8.count) bytes: names have at most \(CheckedInput.maxNameBytes)")
        }
        let session = try await backend.current()
        guard !request.body.isEmpty else { throw WebError.badRequest("the body must be a JPEG or PNG image") }
        // Checked from the headers alone (every one: the size checked is the size decoded): a small file
        // may declare an image of gigabytes. Headers out of order are a bad image (400 `decodeFailed`).
        do {
            try ImageXObject.checkDeclaredSize(of: request.body, maxPixels: configuration.maxImagePixels)
        } catch {
            guard error.code == .invalidArgument else { throw WebError(error) }
            throw WebError(.tooLarge, code: "imageTooLarge", message: error.message)
        }
        try await Self.call { () async throws(SessionError) in try await session.placePhoto(request.body, inField: name)
        }
        return .json(try await field(name, in: session))
    }

    func setPhotoFields(_ request: HTTPRequest) async throws(WebError) -> HTTPResponse {
        let session = try await backend.current()
        let body = try request.json()
        guard let items = body["names"]?.arrayValue, items.count <= CheckedInput.maxListItems else {
            throw WebError.badRequest(
                "\"names\" must be a list of at most \(CheckedInput.maxListItems) field names", member: "names")
        }
        var names: [String] = []
        for item in items {
            guard case .string(let name) = item else {
                throw WebError.badRequest("\"names\" must be a list of field names", member: "names")
            }
            names.append(try CheckedInput.checked(name, "names", maxBytes: CheckedInput.maxNameBytes))
        }
        let width = try CheckedInput.integer(body, "maxWidth", in: 1...20_000) ?? 1000
        let height = try CheckedInput.integer(body, "maxHeight", in: 1...20_000) ?? 1000
        try await Self.call { () async throws(SessionError) in
            try await session.setPhotoFieldNames(names, maxWidth: width, maxHeight: height)
        }
        return .json(.object([("photoFields", .array(names.map { .string($0) }))]))
    }

    // MARK: - Saved signatures

    func savedSignatures() throws(WebError) -> JSONValue {
        let saved = try Self.sync { () throws(SessionError) in try backend.controller.savedSignatures() }
        return .array(saved.map(SessionJSON.savedSignature))
    }

    func addSavedSignature(_ request: HTTPRequest) throws(WebError) -> HTTPResponse {
        let strokes = try CheckedInput.strokes(
            try request.json(maxBytes: HTTPRequest.maxStrokesJSONBytes), within: [InkStroke].captureArea)
        let saved = try Self.sync { () throws(SessionError) in try backend.controller.addSavedSignature(strokes) }
        return .json(SessionJSON.savedSignature(saved), status: 201)
    }

    func deleteSavedSignature(_ text: String) throws(WebError) -> HTTPResponse {
        guard let id = Int(text) else { throw WebError.notFound("no saved signature \(text)") }
        guard (try savedSignatures().arrayValue ?? []).contains(where: { $0["id"]?.intValue == id }) else {
            throw WebError.notFound("no saved signature \(id)")
        }
        try Self.sync { () throws(SessionError) in try backend.controller.deleteSavedSignature(id: id) }
        return .json(.object([("deleted", .int(id))]))
    }

    static func sync<T>(_ body: () throws(SessionError) -> T) throws(WebError) -> T {
        do {
            return try body()
        } catch {
            throw WebError(error)
        }
    }
}
