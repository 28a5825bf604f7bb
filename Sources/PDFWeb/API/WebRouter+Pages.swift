import AutographJSON
import PDFCore
import PDFGraphics
import PDFRendering
import PDFSession
import Synchronization

/// Tiles and search: rendering and text extraction of the current revision.
extension WebRouter {
    /// `GET /api/pages/N/tile?scale=S[&x&y&w&h]`: a PNG rendered on a rendering thread within the
    /// configured budget, with an ETag of the revision and the parameters; never cached by the browser.
    func tile(_ indexText: String, _ request: HTTPRequest) async throws(WebError) -> HTTPResponse {
        let (current, revision) = try await backend.currentRenderer()
        // `revision=R`: the document as a signature signed it (drawn without the display-list
        // cache, which holds the current revision's pages).
        let earlier = try CheckedInput.integer(request.query, "revision", in: 0...1_000_000)
        let renderer: DocumentRenderer
        if let earlier {
            renderer = try await backend.renderer(revision: earlier)
        } else {
            renderer = current
        }
        let pages = renderer.document.pages
        guard let index = Int(indexText), pages.indices.contains(index) else {
            throw WebError.notFound("no page \(indexText) (the document's pages are 0 to \(pages.count - 1))")
        }
        // Any positive scale is taken, then clamped to what the viewer draws (0.05 … 8).
        let asked = try CheckedInput.number(request.query, "scale", in: 0.000_001...1_000_000) ?? 1
        let scale = min(max(asked, 0.05), 8)
        var options = RenderOptions()
        options.dpi = 72 * scale
        let page = pages[index]
        let full = PageRenderer.pixelSize(cropBox: page.cropBox, pageRotation: page.rotation, options: options)
        let region = try Self.region(request.query, full)
        let pixels = region.map { $0.width * $0.height } ?? full.width * full.height
        guard pixels <= configuration.maxTilePixels else {
            throw WebError.badRequest(
                "the tile would be \(region?.width ?? full.width)×\(region?.height ?? full.height) pixels, more than "
                    + "\(configuration.maxTilePixels): ask a smaller scale or a region", member: "scale")
        }
        options.region = region
        let tag =
            "\"\(backend.runID)-\(revision)\(earlier.map { "r\($0)" } ?? "")-\(index)-\(scale)"
            + (region.map { "-\($0.x),\($0.y),\($0.width),\($0.height)" } ?? "") + "\""
        let caching: [(String, String)] = [("ETag", tag), ("Cache-Control", "no-store")]
        if let match = request.headers["if-none-match"],
            match.split(separator: ",").contains(where: { $0.trimmingSpaces == tag || $0.trimmingSpaces == "*" })
        {
            return HTTPResponse(status: 304, headers: caching)
        }
        let key = PageKey(revision: revision, page: index)
        // A page of this revision that spent its budget before is answered at once, never drawn again.
        if earlier == nil, let stop = overBudget.verdict(key, pixels: pixels) {
            throw Self.budgetError(stop, page: index)
        }
        let budget = RenderBudget(
            deadline: request.received + configuration.renderTimeLimit, maxItems: configuration.maxDisplayItems)
        request.client?.onGone { budget.cancel() }
        options.budget = budget
        let tileOptions = options
        let cache = displayLists
        let verdicts = overBudget
        let limit = configuration.renderTimeLimit
        let wait = min(configuration.maxTileWait, request.received + configuration.renderTimeLimit - .now)
        let heavy = earlier == nil && (overBudget.isHeavy(key) || Self.largeContent(renderer.document, page))
        let notStarted = NotStarted()
        let drawn = await TileWorkers.shared.run(maxWait: wait, client: request.client, heavy: heavy) {
            () -> [UInt8]? in
            // A tile that cannot end before its deadline (it waited, and its page's last tile took
            // longer than what is left) is not started: the thread goes to one that can.
            if earlier == nil, let cost = verdicts.cost(key), let deadline = budget.deadline, deadline - .now < cost {
                notStarted.set()
                return nil
            }
            let started = ThreadCPUTime.now()
            defer {
                if earlier == nil {
                    verdicts.noteCost(key, cpu: ThreadCPUTime.now() - started, finished: budget.stop == nil)
                }
            }
            let made =
                earlier == nil
                ? Self.displayList(key, renderer: renderer, cache: cache, budget: budget)
                : renderer.graphics.displayList(pageAt: index, budget: budget)
            guard let list = made, budget.stop == nil else {
                // Stopped while its content was read: what that cost counts against the page.
                if earlier == nil {
                    verdicts.record(key, stop: budget.stop, cpu: ThreadCPUTime.now() - started, limit: limit)
                }
                return nil
            }
            let image = renderer.render(list, pageAt: index, options: tileOptions)
            guard budget.stop == nil else {
                // Stopped while drawing: tiles at least this large are refused from now on. The
                // whole tile's cost counts (its content is read again when its list is not kept).
                if earlier == nil {
                    verdicts.recordDrawing(
                        key, pixels: pixels, stop: budget.stop, cpu: ThreadCPUTime.now() - started, limit: limit)
                }
                return nil
            }
            return image.pngData(compressionLevel: 1, maxThreads: 1)
        }
        if budget.stop == .cancelled { TileWorkers.cancelledRenders.add(1, ordering: .relaxed) }
        switch drawn {
        case .success(let png?): return HTTPResponse(contentType: "image/png", bytes: png, headers: caching)
        case .success(nil) where notStarted.isSet:
            throw WebError.busy(
                "page index \(index) takes longer to draw than its tile had left after waiting", retryAfter: 2)
        case .success(nil): throw Self.budgetError(budget.stop, page: index)
        case .failure(.clientGone): throw WebError.clientGone
        case .failure(.waitedTooLong): throw WebError.busy("every rendering thread is taken", retryAfter: 2)
        }
    }

    /// The most bytes of content streams (as stored) a page may have before its first tile is
    /// taken for heavy, before any was drawn.
    static let heavyContentBytes = 1 << 20

    /// Whether `page`'s content streams take at least ``heavyContentBytes`` as stored: a first
    /// guess, from the stream dictionaries alone, of a page that will cost long to draw.
    static func largeContent(_ document: PDFDocument, _ page: Page) -> Bool {
        let contents = document.resolve(page.dictionary[.contents] ?? .null)
        let streams = contents.arrayValue?.prefix(10_000).map { document.resolve($0) } ?? [contents]
        var total = 0
        for case .stream(let stream) in streams {
            total += stream.rangeInFile?.count ?? 0
            if total >= heavyContentBytes { return true }
        }
        return false
    }

    /// The display list of the page `key` names: cached, carried over from an earlier revision that
    /// changed nothing it reads, or made (once, however many ask) within `budget`.
    static func displayList(
        _ key: PageKey, renderer: DocumentRenderer, cache: PageCache<DisplayList>, budget: RenderBudget
    ) -> DisplayList? {
        cache.value(
            key, stopped: { budget.stop != nil },
            carryingOverIn: renderer.document
        ) {
            let list = renderer.graphics.displayList(pageAt: key.page, budget: budget)
            guard budget.stop == nil else { return nil }
            return (list, renderer.graphics.dependencies(ofPageAt: key.page))
        }
    }

    /// The answer to a tile whose drawing was stopped: never an image of part of the page.
    static func budgetError(_ stop: RenderBudget.Stop?, page: Int) -> WebError {
        switch stop {
        case .sizeLimit:
            WebError(
                .unavailable, code: "pageTooComplex",
                message: "page index \(page) holds more drawing operations than this server draws for one page")
        case .cancelled:
            WebError.clientGone
        default:
            WebError(
                .unavailable, code: "pageTooComplex",
                message: "page index \(page) takes longer to draw than this server allows for one tile")
        }
    }

    /// The pixel region asked for (`x`, `y` inside the page rendered at the scale; `w`, `h` from 1,
    /// cut at the page's edge); nil for the whole page.
    static func region(_ query: [String: String], _ full: (width: Int, height: Int)) throws(WebError) -> (
        x: Int, y: Int, width: Int, height: Int
    )? {
        guard ["x", "y", "w", "h"].contains(where: { query[$0] != nil }) else { return nil }
        guard full.width > 0, full.height > 0 else { throw WebError.badRequest("the page has no pixels at this scale") }
        let x = try CheckedInput.integer(query, "x", in: 0...(full.width - 1)) ?? 0
        let y = try CheckedInput.integer(query, "y", in: 0...(full.height - 1)) ?? 0
        let width = try CheckedInput.integer(query, "w", in: 1...(1 << 20)) ?? full.width
        let height = try CheckedInput.integer(query, "h", in: 1...(1 << 20)) ?? full.height
        return (x, y, min(width, full.width - x), min(height, full.height - y))
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

/// Set when a tile's job gives up before it starts (its page costs more than the time left).
final class NotStarted: Sendable {
    private let value = Atomic<Bool>(false)
    /// Marks the tile as not started.
    func set() { value.store(true, ordering: .relaxed) }
    /// Whether it was not started.
    var isSet: Bool { value.load(ordering: .relaxed) }
}
