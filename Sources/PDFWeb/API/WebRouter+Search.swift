import AutographJSON
import PDFAuthoring
import PDFCore
import PDFGraphics
import PDFRendering
import PDFSession
import PDFViewer

/// Text search: a query (`GET /api/search`), and the search the viewer shows — the session's search
/// mode, whose current result and colour the session keeps (`POST /api/search`, `/step`, `/finish`).
extension WebRouter {
    /// `GET /api/search?q=…` (`caseSensitive`, `wholeWord`, `diacriticSensitive`, `max`): hits in page order with their
    /// text, context and quads (counter-clockwise from the lower left, PDF user space). A query:
    /// the viewer's mode does not change. Pages over budget are named in `X-Autograph-Pages-Skipped`.
    func search(_ request: HTTPRequest) async throws(WebError) -> HTTPResponse {
        guard let query = request.query["q"], !query.isEmpty else { throw WebError.badRequest("q is missing") }
        _ = try CheckedInput.checked(query, "q", maxBytes: Self.maxQueryBytes)
        guard query.count <= 1000 else { throw WebError.badRequest("q has more than 1000 characters", member: "q") }
        var options = SearchOptions()
        options.caseSensitive = request.query["caseSensitive"] == "1" || request.query["caseSensitive"] == "true"
        options.wholeWord = request.query["wholeWord"] == "1" || request.query["wholeWord"] == "true"
        options.diacriticSensitive =
            request.query["diacriticSensitive"] == "1" || request.query["diacriticSensitive"] == "true"
        options.maxResults = try CheckedInput.integer(request.query, "max", in: 1...10_000) ?? 1000
        let (hits, skipped) = try await findText(query, options: options, request: request)
        let list = hits.map { hit -> JSONValue in
            .object([
                ("page", .int(hit.pageIndex)), ("text", .string(hit.text)), ("context", .string(hit.context)),
                ("quads", .array(hit.quads.map(SessionJSON.quad))),
            ])
        }
        return Self.skipping(skipped, .json(.array(list)))
    }

    /// `POST /api/search {"q", "caseSensitive", "wholeWord", "diacriticSensitive", "max"}`: the same search, shown — the
    /// session enters search mode with the results, none current yet (a search shown is replaced).
    /// Answers `{"mode"}`; 409 while signing, taking notes or with a viewer rectangle open.
    func showSearch(_ request: HTTPRequest) async throws(WebError) -> HTTPResponse {
        let body = try request.json()
        guard case .string(let query) = body["q"] ?? .null, !query.isEmpty,
            query.utf8.count <= Self.maxQueryBytes, query.count <= 1000
        else {
            throw WebError.badRequest("\"q\" must be the text to search for (1 to 1000 characters)", member: "q")
        }
        var options = SearchOptions()
        options.caseSensitive = try Self.flag(body, "caseSensitive")
        options.wholeWord = try Self.flag(body, "wholeWord")
        options.diacriticSensitive = try Self.flag(body, "diacriticSensitive")
        options.maxResults = 1000
        if let max = body["max"] {
            guard let value = max.intValue, (1...10_000).contains(value) else {
                throw WebError.badRequest("\"max\" must be a whole number from 1 to 10000", member: "max")
            }
            options.maxResults = value
        }
        let session = try await backend.current()
        let (hits, skipped) = try await findText(query, options: options, request: request)
        let results = hits.map { hit in
            SearchHit(
                page: hit.pageIndex,
                quads: hit.quads.compactMap {
                    ViewerQuad(
                        [$0.lowerLeft, $0.lowerRight, $0.upperRight, $0.upperLeft].flatMap { [$0.x, $0.y] })
                })
        }
        try await Self.call { () async throws(SessionError) in
            try await session.beginSearch(query: query, results: results)
        }
        return Self.skipping(skipped, .json(.object([("mode", ModeJSON.mode(await session.viewerMode))])))
    }

    /// `POST /api/search/step {"direction": 1 | -1}` (the next or previous result, wrapping) or
    /// `{"index", "color"}` (result `index` from 0, in `#rrggbb`: signo `scrollToSearchResult`);
    /// `POST /api/search/finish` clears the highlights. Answers `{"mode"}`.
    func searchStep(_ step: String, _ request: HTTPRequest) async throws(WebError) -> HTTPResponse {
        let session = try await backend.current()
        if step == "finish" {
            await session.finishSearch()
        } else {
            let body = try request.json()
            if let index = body["index"] {
                guard let value = index.intValue, value >= 0 else {
                    throw WebError.badRequest("\"index\" must be a result's number, from 0", member: "index")
                }
                var color: PDFColor?
                if let text = body["color"] {
                    guard let parsed = text.stringValue.flatMap(SessionJSON.color(from:)) else {
                        throw WebError.badRequest("\"color\" must be #rrggbb", member: "color")
                    }
                    color = parsed
                }
                _ = try await Self.call { () async throws(SessionError) in
                    try await session.showSearchResult(at: value, highlightColor: color)
                }
            } else {
                guard let direction = body["direction"]?.intValue, direction == 1 || direction == -1 else {
                    throw WebError.badRequest("\"direction\" must be 1 or -1, or give \"index\"", member: "direction")
                }
                _ = try await Self.call { () async throws(SessionError) in try await session.stepSearch(by: direction) }
            }
        }
        return .json(.object([("mode", ModeJSON.mode(await session.viewerMode))]))
    }

    /// The longest query (UTF-8 bytes; at most 1000 characters).
    static let maxQueryBytes = 4000

    static func flag(_ body: JSONValue, _ name: String) throws(WebError) -> Bool {
        guard let value = body[name] else { return false }
        guard case .bool(let flag) = value else {
            throw WebError.badRequest("\"\(name)\" must be true or false", member: name)
        }
        return flag
    }

    static func skipping(_ skipped: SkippedPages, _ response: HTTPResponse) -> HTTPResponse {
        var response = response
        if !skipped.isEmpty { response.headers.append(("X-Autograph-Pages-Skipped", skipped.description)) }
        return response
    }

    /// Searches every page of the current revision for `query`. Each page's text is read on a
    /// rendering thread within the tile budget, never on the pool that answers the other requests;
    /// a page over budget is left out and returned in `skipped`. The search stops when the client leaves.
    func findText(_ query: String, options: SearchOptions, request: HTTPRequest) async throws(WebError) -> (
        hits: [SearchResult], skipped: SkippedPages
    ) {
        let (renderer, revision) = try await backend.currentRenderer()
        let search = TextSearch(document: renderer.document)
        let searchOptions = options
        let texts = pageTexts
        let lists = displayLists
        let limit = options.maxResults ?? Int.max
        var hits: [SearchResult] = []
        var skipped = SkippedPages()
        func append(_ results: [SearchResult]) { hits += results.prefix(limit - hits.count) }
        // One search may take twice a tile's time; pages it cannot reach by then are skipped.
        let deadline = request.received + configuration.renderTimeLimit * 2
        for index in 0..<search.extractor.graphics.document.pageCount where hits.count < limit {
            guard request.client?.isGone != true else {
                throw WebError.clientGone
            }
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero else {
                // Out of time: the rest is skipped at once (one range, whatever the page count).
                skipped.add(index..<search.extractor.graphics.document.pageCount)
                break
            }
            // A page whose text is known (this revision's, or an earlier one's that still holds) is
            // searched here at once: only the pages to read wait for a rendering thread.
            let key = PageKey(revision: revision, page: index)
            if let page = texts.value(key)
                ?? texts.carryOver(to: key, in: renderer.document)
            {
                append(search.results(in: page, for: query, options: searchOptions))
                continue
            }
            // A page that spent its budget in this revision is skipped at once.
            if overBudget.verdict(key) != nil {
                skipped.add(index..<(index + 1))
                continue
            }
            let budget = RenderBudget(
                timeLimit: min(configuration.renderTimeLimit, remaining), maxItems: configuration.maxDisplayItems)
            request.client?.onGone { budget.cancel() }
            let found = await TileWorkers.shared.run(
                maxWait: min(configuration.maxTileWait, remaining), client: request.client, urgent: true,
                heavy: overBudget.isHeavy(key)
                    || Self.largeContent(renderer.document, renderer.document.pages[index])
            ) { [overBudget, limit = configuration.renderTimeLimit] () -> [SearchResult]? in
                let key = PageKey(revision: revision, page: index)
                let started = ThreadCPUTime.now()
                defer {
                    let cpu = ThreadCPUTime.now() - started
                    overBudget.record(key, stop: budget.stop, cpu: cpu, limit: limit)
                    overBudget.noteCost(key, cpu: cpu, finished: budget.stop == nil)
                }
                // The page's text from the display list its tiles draw (made once for both).
                let made = texts.value(
                    key, stopped: { budget.stop != nil },
                    carryingOverIn: renderer.document
                ) {
                    Self.displayList(key, renderer: renderer, cache: lists, budget: budget).map {
                        (search.extractor.text(of: $0, pageAt: index), renderer.graphics.dependencies(ofPageAt: index))
                    }
                }
                guard let page = made, budget.stop == nil else { return nil }
                return search.results(in: page, for: query, options: searchOptions)
            }
            switch found {
            case .success(let results?): append(results)
            case .success(nil): skipped.add(index..<(index + 1))
            case .failure(.clientGone): throw WebError.clientGone
            case .failure(.waitedTooLong): throw WebError.busy("every rendering thread is taken", retryAfter: 2)
            }
        }
        return (hits, skipped)
    }
}

/// The pages a search left out, as ascending ranges (`3,7-9,12-4999`): a header of bounded
/// length however many pages the document has.
struct SkippedPages: CustomStringConvertible {
    private(set) var ranges: [Range<Int>] = []

    var isEmpty: Bool { ranges.isEmpty }

    /// Adds `pages`, which come after every range added so far.
    mutating func add(_ pages: Range<Int>) {
        guard !pages.isEmpty else { return }
        if let last = ranges.last, last.upperBound == pages.lowerBound {
            ranges[ranges.count - 1] = last.lowerBound..<pages.upperBound
        } else {
            ranges.append(pages)
        }
    }

    var description: String {
        ranges.map { $0.count == 1 ? "\($0.lowerBound)" : "\($0.lowerBound)-\($0.upperBound - 1)" }
            .joined(separator: ",")
    }
}
