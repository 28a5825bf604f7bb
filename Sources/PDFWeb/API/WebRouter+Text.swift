import AutographJSON
import PDFCore
import PDFGraphics
import PDFRendering
import PDFSession

/// The text layer: the words of a page with their quads, which the viewer lays over its tiles so
/// that text can be selected, copied, found by the browser and read by a screen reader.
extension WebRouter {
    /// The most words one answer carries; a page with more is cut there (`"truncated": true`).
    static let maxTextLayerWords = 20_000

    /// `GET /api/pages/N/text`: `{"page", "lines": [{"words": [{"text", "quads"}]}], "truncated"}`
    /// in reading order, quads in PDF user space (counter-clockwise from the lower left), invisible
    /// text left out. Read on a rendering thread within the tile budget, from the display list the
    /// page's tiles draw (made once for both); a page over budget is `503 pageTooComplex`, as its tiles.
    func pageText(_ indexText: String, _ request: HTTPRequest) async throws(WebError) -> HTTPResponse {
        let (renderer, revision) = try await backend.currentRenderer()
        let pages = renderer.document.pages
        guard let index = Int(indexText), pages.indices.contains(index) else {
            throw WebError.notFound("no page \(indexText) (the document's pages are 0 to \(pages.count - 1))")
        }
        let text = try await readText(index, revision: revision, renderer: renderer, request: request)
        return .json(Self.textLayer(text))
    }

    /// The text of page `index` of the current revision: cached (or carried over from an earlier
    /// revision that changed nothing it reads), else read on a rendering thread within the budget.
    func readText(
        _ index: Int, revision: Int, renderer: DocumentRenderer, request: HTTPRequest
    ) async throws(WebError) -> PageText {
        let key = PageKey(revision: revision, page: index)
        let texts = pageTexts
        if let known = texts.value(key) ?? texts.carryOver(to: key, in: renderer.document) { return known }
        if let stop = overBudget.verdict(key) { throw Self.budgetError(stop, page: index) }
        let budget = RenderBudget(
            deadline: request.received + configuration.renderTimeLimit, maxItems: configuration.maxDisplayItems)
        request.client?.onGone { budget.cancel() }
        let lists = displayLists
        let extractor = TextExtractor(document: renderer.document)
        let wait = min(configuration.maxTileWait, request.received + configuration.renderTimeLimit - .now)
        let heavy = overBudget.isHeavy(key) || Self.largeContent(renderer.document, renderer.document.pages[index])
        let read = await TileWorkers.shared.run(maxWait: wait, client: request.client, heavy: heavy) {
            [overBudget, limit = configuration.renderTimeLimit] () -> PageText? in
            let started = ThreadCPUTime.now()
            defer {
                let cpu = ThreadCPUTime.now() - started
                overBudget.record(key, stop: budget.stop, cpu: cpu, limit: limit)
                overBudget.noteCost(key, cpu: cpu, finished: budget.stop == nil)
            }
            let made = texts.value(key, stopped: { budget.stop != nil }, carryingOverIn: renderer.document) {
                Self.displayList(key, renderer: renderer, cache: lists, budget: budget).map {
                    (extractor.text(of: $0, pageAt: index), renderer.graphics.dependencies(ofPageAt: index))
                }
            }
            return budget.stop == nil ? made : nil
        }
        switch read {
        case .success(let text?): return text
        case .success(nil): throw Self.budgetError(budget.stop, page: index)
        case .failure(.clientGone): throw WebError.clientGone
        case .failure(.waitedTooLong): throw WebError.busy("every rendering thread is taken", retryAfter: 2)
        }
    }

    /// A quad's corners counter-clockwise from the lower left, to a hundredth of a point.
    static func quad(_ quad: TextQuad) -> JSONValue {
        .array(
            [quad.lowerLeft, quad.lowerRight, quad.upperRight, quad.upperLeft].flatMap {
                [.double(($0.x * 100).rounded() / 100), .double(($0.y * 100).rounded() / 100)]
            })
    }

    /// The JSON of the text layer: lines of visible words, at most ``maxTextLayerWords`` words.
    static func textLayer(_ text: PageText) -> JSONValue {
        var lines: [JSONValue] = []
        var count = 0
        var truncated = false
        lines: for block in text.blocks {
            for line in block.lines {
                var words: [JSONValue] = []
                for word in line.words where !word.isHidden {
                    guard count < maxTextLayerWords else {
                        truncated = true
                        break
                    }
                    count += 1
                    words.append(
                        .object([("text", .string(word.text)), ("quads", .array(word.quads.map(quad)))]))
                }
                if !words.isEmpty { lines.append(.object([("words", .array(words))])) }
                if truncated { break lines }
            }
        }
        return .object([("page", .int(text.pageIndex)), ("lines", .array(lines)), ("truncated", .bool(truncated))])
    }
}
