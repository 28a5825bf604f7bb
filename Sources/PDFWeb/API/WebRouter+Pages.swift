import PDFCore
import PDFGraphics
import PDFRendering
import PDFSession

/// Tiles and search: rendering and text extraction of the current revision.
extension WebRouter {
    /// `GET /api/pages/N/tile?scale=S[&x&y&w&h]`: a PNG rendered off the request's thread, with an
    /// ETag of the revision and the parameters.
    func tile(_ indexText: String, _ request: HTTPRequest) async throws(WebError) -> HTTPResponse {
        let (renderer, revision) = try await backend.currentRenderer()
        let pages = renderer.document.pages
        guard let index = Int(indexText), pages.indices.contains(index) else {
            throw WebError.notFound("no page \(indexText) (the document has \(pages.count))")
        }
        let scale = min(max(try Self.number(request.query["scale"], "scale") ?? 1, 0.05), 8)
        var options = RenderOptions()
        options.dpi = 72 * scale
        let page = pages[index]
        let full = PageRenderer.pixelSize(cropBox: Rect(page.cropBox), pageRotation: page.rotation, options: options)
        let region = try Self.region(request, full)
        options.region = region
        let tag =
            "\"\(backend.runID)-\(revision)-\(index)-\(scale)"
            + (region.map { "-\($0.x),\($0.y),\($0.width),\($0.height)" } ?? "") + "\""
        let caching: [(String, String)] = [("ETag", tag), ("Cache-Control", "private, max-age=3600")]
        if let match = request.headers["if-none-match"],
            match.split(separator: ",").contains(where: { $0.trimmingSpaces == tag || $0.trimmingSpaces == "*" })
        {
            return HTTPResponse(status: 304, headers: caching)
        }
        let tileOptions = options
        let png = await TileWorkers.shared.run {
            renderer.render(pageAt: index, options: tileOptions).image.pngData(compressionLevel: 1, maxThreads: 1)
        }
        return HTTPResponse(contentType: "image/png", bytes: png, headers: caching)
    }

    static func number(_ text: String?, _ name: String) throws(WebError) -> Double? {
        guard let text else { return nil }
        guard let value = Double(text), value.isFinite else { throw WebError.badRequest("\(name) must be a number") }
        return value
    }

    /// The pixel region asked for, clamped to the page; nil for the whole page.
    static func region(_ request: HTTPRequest, _ full: (width: Int, height: Int)) throws(WebError) -> (
        x: Int, y: Int, width: Int, height: Int
    )? {
        let keys = ["x", "y", "w", "h"]
        let given = keys.filter { request.query[$0] != nil }
        guard !given.isEmpty else { return nil }
        var values: [Int] = []
        for key in keys {
            values.append(Int(try number(request.query[key], key) ?? (key == "w" ? 1e9 : key == "h" ? 1e9 : 0)))
        }
        let x = min(max(values[0], 0), max(full.width - 1, 0))
        let y = min(max(values[1], 0), max(full.height - 1, 0))
        let width = min(max(values[2], 1), full.width - x)
        let height = min(max(values[3], 1), full.height - y)
        return (x, y, width, height)
    }

    /// `GET /api/search?q=…`: hits in page order with their quads (counter-clockwise from the
    /// lower left, PDF user space).
    func search(_ request: HTTPRequest) async throws(WebError) -> JSONValue {
        let session = try await backend.current()
        guard let query = request.query["q"], !query.isEmpty else { throw WebError.badRequest("q is missing") }
        var options = SearchOptions()
        options.caseSensitive = request.query["caseSensitive"] == "1" || request.query["caseSensitive"] == "true"
        options.wholeWord = request.query["wholeWord"] == "1" || request.query["wholeWord"] == "true"
        options.maxResults = min(max(Int(request.query["max"] ?? "") ?? 1000, 1), 10000)
        let search = TextSearch(document: await session.document)
        var hits: [JSONValue] = []
        for await hit in search.results(for: query, options: options) {
            hits.append(
                .object([
                    ("page", .int(hit.pageIndex)), ("text", .string(hit.text)), ("context", .string(hit.context)),
                    ("quads", .array(hit.quads.map(SessionJSON.quad))),
                ]))
        }
        return .array(hits)
    }
}

extension Substring {
    var trimmingSpaces: String {
        var text = self
        while text.first == " " { text.removeFirst() }
        while text.last == " " { text.removeLast() }
        return String(text)
    }
}
