public import PDFCore
import Synchronization

/// Finds text in a document's pages and gives each hit with its highlight quads (ISO 32000-2
/// §9.10), from the same extraction as ``TextExtractor`` (ARCHITECTURE.md invariant 5).
///
/// Matching, by default, ignores case and diacritics: "resume" finds "Résumé" (see
/// ``SearchOptions``). White space in the query matches any run of spaces and line breaks on the
/// page; a hyphen at the end of a line (``TextLine/endsWithHyphen``) may be skipped, so "signature"
/// finds "signa-" at the end of one line and "ture" at the start of the next; a ligature glyph
/// (`ﬁ`) matches its letters, and a hit that begins or ends inside one highlights the whole glyph.
/// Hidden text (render mode 3 or 7, as in OCR layers) is searched too, unless the extraction
/// options leave it out (``TextOptions/includeHidden``).
///
/// ```swift
/// let search = TextSearch(document: document)
/// for await hit in search.results(for: "signature") {
///     print(hit.pageIndex + 1, hit.context)
/// }
/// ```
public struct TextSearch: Sendable {
    /// The extraction the pages are searched in.
    public let extractor: TextExtractor
    /// Called with the index of each page extracted (for tests).
    var pageExtracted: (@Sendable (Int) -> Void)?

    /// A search over the pages of `document`, whose text is extracted with `options`.
    public init(document: PDFDocument, options: TextOptions = TextOptions()) {
        extractor = TextExtractor(document: document, options: options)
    }

    /// A search over the pages of an existing extractor's document.
    public init(extractor: TextExtractor) {
        self.extractor = extractor
    }

    /// The hits of `query` on every page, in page order and reading order, as a stream.
    ///
    /// Pages are extracted one after another as the consumer asks for further hits, so the first
    /// hits come after the first pages are read, and nothing is read ahead: when the consumer stops
    /// iterating or its task is cancelled, no further page is extracted. An empty query (or one of
    /// white space only) gives no results.
    ///
    /// - Parameters:
    ///   - query: the text to find.
    ///   - options: how characters are compared, whole words, the most results.
    public func results(for query: String, options: SearchOptions = SearchOptions()) -> AsyncStream<SearchResult> {
        let matcher = SearchMatcher(query: query, options: options)
        let cursor = SearchCursor(pageCount: extractor.graphics.document.pageCount, limit: options.maxResults)
        let search = self
        return AsyncStream(
            unfolding: {
                while true {
                    if let result = cursor.next() { return result }
                    guard !Task.isCancelled, !matcher.tokens.isEmpty, let page = cursor.nextPage() else { return nil }
                    cursor.add(search.results(on: page, matcher: matcher))
                }
            },
            onCancel: { cursor.cancel() })
    }

    /// The hits of `query` on page `pageIndex` (from 0), in reading order; none for a page that
    /// does not exist.
    public func results(onPage pageIndex: Int, for query: String, options: SearchOptions = SearchOptions())
        -> [SearchResult]
    {
        let matcher = SearchMatcher(query: query, options: options)
        guard !matcher.tokens.isEmpty else { return [] }
        return Array(results(on: pageIndex, matcher: matcher).prefix(options.maxResults ?? .max))
    }

    /// The hits of `query` in text already extracted (`text(pageAt:)`), in reading
    /// order.
    public func results(in page: PageText, for query: String, options: SearchOptions = SearchOptions())
        -> [SearchResult]
    {
        let matcher = SearchMatcher(query: query, options: options)
        return Array(results(in: page, matcher: matcher).prefix(options.maxResults ?? .max))
    }

    private func results(on pageIndex: Int, matcher: SearchMatcher) -> [SearchResult] {
        guard pageIndex >= 0, pageIndex < extractor.graphics.document.pageCount else { return [] }
        let page = extractor.text(pageAt: pageIndex)
        pageExtracted?(pageIndex)
        return results(in: page, matcher: matcher)
    }

    private func results(in page: PageText, matcher: SearchMatcher) -> [SearchResult] {
        guard !matcher.tokens.isEmpty else { return [] }
        let text = SearchText(page, folding: matcher.folding)
        return matcher.matches(in: text).map { text.result($0) }
    }
}

/// The state of one streamed search: the next page, the hits found and not yet given, the count given.
private final class SearchCursor: Sendable {
    private struct State {
        var nextPage = 0
        var pending: [SearchResult] = []
        var given = 0
        var cancelled = false
    }

    private let state = Mutex(State())
    private let pageCount: Int
    private let limit: Int?

    init(pageCount: Int, limit: Int?) {
        self.pageCount = pageCount
        self.limit = limit
    }

    /// A hit found and not yet given, unless the limit is reached or the search was cancelled.
    func next() -> SearchResult? {
        state.withLock { state in
            guard !state.cancelled, !state.pending.isEmpty, state.given < (limit ?? .max) else { return nil }
            state.given += 1
            return state.pending.removeFirst()
        }
    }

    /// The next page to search, or nil when every page was searched, the limit is reached or the
    /// search was cancelled.
    func nextPage() -> Int? {
        state.withLock { state in
            guard !state.cancelled, state.nextPage < pageCount, state.given < (limit ?? .max) else { return nil }
            state.nextPage += 1
            return state.nextPage - 1
        }
    }

    func add(_ results: [SearchResult]) {
        state.withLock { $0.pending += results }
    }

    func cancel() {
        state.withLock { $0.cancelled = true }
    }
}
