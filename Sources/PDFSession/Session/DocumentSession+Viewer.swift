public import PDFAuthoring
public import PDFViewer

/// The viewer's mode, owned here so that every viewer draws one truth: PDFViewer's
/// `ViewerModeMachine` decides the transitions (browsing, signing, notes, search, a viewer
/// rectangle), this extension turns its refusals into errors. What must answer at once under the
/// finger — scrolling, zooming, drawing a stroke, dragging a rectangle — stays in the viewer; what it
/// ends in (a note, a result made current, a rectangle created) comes here.
extension DocumentSession {
    /// What the viewer shows now. `.signing` while the workflow waits for a dialog (its ``phase``
    /// says which); the notes of a notes mode; the results of a search with the current one.
    public var viewerMode: ViewerMode { modes.mode }

    // MARK: Search (signo scrollToSearchResult, finishTextSearch)

    /// Shows the results of searching `query` (found with PDFGraphics' `TextSearch`, or any search),
    /// none current yet; a viewer highlights them in the configuration's `searchHighlightColor`. A
    /// search shown is replaced.
    /// - Throws: `.invalidState` while signing, taking notes, or with a viewer rectangle open;
    ///   `.invalidArgument` for a result on a page the document does not have.
    public func beginSearch(query: String, results: [SearchHit]) throws(SessionError) {
        if let wrong = results.first(where: { !(0..<pageCount).contains($0.page) }) {
            throw SessionError(.invalidArgument, "a search result is on page \(wrong.page) of \(pageCount)")
        }
        guard modes.beginSearch(query: query, results: results) else {
            throw SessionError(.invalidState, "a search cannot be shown while \(viewerMode.name)")
        }
    }

    /// Makes the next result (`step` 1) or the previous one (−1) current, wrapping at the ends.
    /// - Returns: the current result; nil when the search found nothing.
    /// - Throws: `.invalidState` when no search is shown.
    @discardableResult
    public func stepSearch(by step: Int) throws(SessionError) -> SearchHit? {
        guard case .search = modes.mode else { throw SessionError(.invalidState, "no search is shown") }
        return step < 0 ? modes.previousSearchResult() : modes.nextSearchResult()
    }

    /// Makes result `index` (from 0) current, in `highlightColor` when given (signo
    /// `scrollToSearchResult:withHighlightColor:`).
    /// - Throws: `.invalidState` when no search is shown; `.invalidArgument` for an index it has not.
    @discardableResult
    public func showSearchResult(at index: Int, highlightColor: PDFColor? = nil) throws(SessionError) -> SearchHit {
        guard case .search(let search) = modes.mode else { throw SessionError(.invalidState, "no search is shown") }
        guard let hit = modes.showSearchResult(at: index, highlightColor: highlightColor) else {
            throw SessionError(.invalidArgument, "the search has \(search.results.count) results; there is no \(index)")
        }
        return hit
    }

    /// Clears the highlights (signo `finishTextSearch`); nothing happens when no search is shown.
    public func finishSearch() { modes.finishSearch() }

    // MARK: Viewer rectangles (signo createViewerRect)

    /// Opens a viewer rectangle (signo `createViewerRect`); returns its id, which
    /// ``viewerRectConfirmed(rect:pageIndex:id:)`` or ``viewerRectCancelled(id:)`` then names. A
    /// search shown ends.
    /// - Throws: `.invalidState` while signing, taking notes or with another rectangle open.
    public func beginViewerRect() throws(SessionError) -> Int {
        let id = nextViewerRectID
        guard modes.beginViewerRect(id: id) else {
            throw SessionError(.invalidState, "a viewer rectangle cannot open while \(viewerMode.name)")
        }
        nextViewerRectID = id == Int(Int32.max) ? 1 : id + 1
        return id
    }

    /// Throws unless viewer rectangle `id` is the one open.
    func requireViewerRect(_ id: Int) throws(SessionError) {
        guard modes.mode == .viewerRect(id: id) else {
            throw SessionError(.invalidState, "viewer rectangle \(id) is not open")
        }
    }
}
