public import PDFAnnotations
public import PDFAuthoring

/// The viewer's mode transitions as a pure state machine.
///
/// Every mode starts from ``ViewerMode/browsing`` and ends back in it; a new search replaces the
/// one shown, and signing or notes end a search (the highlights go, as when the person closes the
/// search bar). A call that does not apply to the current mode, or whose arguments are invalid (an
/// empty note, an index out of range), is a no-op: it returns false (or nil for calls that return
/// a result) and leaves ``mode`` unchanged. Nothing throws: the owner (`DocumentSession`) turns a
/// refusal into its error.
public struct ViewerModeMachine: Sendable, Hashable {
    /// The current mode.
    public private(set) var mode: ViewerMode

    /// A machine in `mode` (browsing by default).
    public init(mode: ViewerMode = .browsing) {
        self.mode = mode
    }

    /// Whether the viewer is browsing.
    public var isBrowsing: Bool { mode == .browsing }

    /// Whether the viewer is browsing or searching: the modes that give way to signing and notes.
    private var isIdle: Bool {
        switch mode {
        case .browsing, .search: true
        default: false
        }
    }

    /// Leaves any mode for browsing, discarding its work (unsaved notes, highlights, an open
    /// rectangle). False when already browsing.
    @discardableResult
    public mutating func cancel() -> Bool {
        guard !isBrowsing else { return false }
        mode = .browsing
        return true
    }

    // MARK: Signing

    /// The signing workflow takes the screen (from browsing or searching; true when it already has it).
    @discardableResult
    public mutating func beginSigning() -> Bool {
        guard mode == .signing || isIdle else { return false }
        mode = .signing
        return true
    }

    /// The signing workflow gives the screen back.
    @discardableResult
    public mutating func endSigning() -> Bool {
        guard mode == .signing else { return false }
        mode = .browsing
        return true
    }

    // MARK: Viewer rectangle (signo)

    /// Shows viewer rectangle `id` (from browsing or searching).
    @discardableResult
    public mutating func beginViewerRect(id: Int) -> Bool {
        guard isIdle else { return false }
        mode = .viewerRect(id: id)
        return true
    }

    /// Hides viewer rectangle `id` (created or cancelled); false when it is not the one shown.
    @discardableResult
    public mutating func endViewerRect(id: Int) -> Bool {
        guard mode == .viewerRect(id: id) else { return false }
        mode = .browsing
        return true
    }

    // MARK: Notes

    /// Starts the notes mode with `style` (from browsing or searching); the notes are
    /// PDFAnnotations' model, the one `NotesSession` writes.
    @discardableResult
    public mutating func beginNotes(style: InkStyle = InkStyle()) -> Bool {
        guard isIdle else { return false }
        mode = .notes(InkNotes(style: style))
        return true
    }

    /// Changes the pen for the next notes (signo `changeNotesConfig`).
    @discardableResult
    public mutating func setNoteStyle(_ style: InkStyle) -> Bool {
        updateNotes { notes in
            notes.style = style
            return true
        }
    }

    /// Adds a note of `strokes` (PDF user space of `page`) in the current pen; clears the redo
    /// stack. Strokes without points, or a negative page, change nothing.
    @discardableResult
    public mutating func addNote(_ strokes: [InkStroke], page: Int) -> Bool {
        guard page >= 0 else { return false }
        return updateNotes { $0.add(strokes, onPage: page) }
    }

    /// Removes the last note (onto the redo stack).
    @discardableResult
    public mutating func undoNote() -> Bool { updateNotes { $0.undo() } }

    /// Restores the last undone note.
    @discardableResult
    public mutating func redoNote() -> Bool { updateNotes { $0.redo() } }

    /// The notes of the notes mode, nil in any other mode.
    public var notes: InkNotes? {
        guard case .notes(let notes) = mode else { return nil }
        return notes
    }

    /// Ends the notes mode keeping its notes (signo `saveAndFinishNotesMode`): returns them, oldest
    /// first, for `NotesSession` to write.
    public mutating func saveNotes() -> [InkNote]? {
        guard let notes else { return nil }
        mode = .browsing
        return notes.notes
    }

    private mutating func updateNotes(_ change: (inout InkNotes) -> Bool) -> Bool {
        guard var notes, change(&notes) else { return false }
        mode = .notes(notes)
        return true
    }

    // MARK: Search

    /// Shows the `results` of `query` highlighted (from browsing, or replacing a search); none is
    /// current until ``nextSearchResult(highlightColor:)`` or ``showSearchResult(at:highlightColor:)``.
    @discardableResult
    public mutating func beginSearch(query: String, results: [SearchHit], highlightColor: PDFColor? = nil) -> Bool {
        guard isIdle else { return false }
        mode = .search(SearchSession(query: query, results: results, currentIndex: nil, highlightColor: highlightColor))
        return true
    }

    /// Makes the next result current, wrapping from the last to the first (the first when none is
    /// current), optionally changing the highlight colour. Nil when not searching or with no results.
    public mutating func nextSearchResult(highlightColor: PDFColor? = nil) -> SearchHit? {
        stepSearch(by: 1, highlightColor: highlightColor)
    }

    /// Makes the previous result current, wrapping from the first to the last (the last when none is current).
    public mutating func previousSearchResult(highlightColor: PDFColor? = nil) -> SearchHit? {
        stepSearch(by: -1, highlightColor: highlightColor)
    }

    /// Makes result `index` (from 0) current (signo `scrollToSearchResult:withHighlightColor:`);
    /// nil when not searching or when there is no such result.
    public mutating func showSearchResult(at index: Int, highlightColor: PDFColor? = nil) -> SearchHit? {
        guard case .search(var session) = mode, session.results.indices.contains(index) else { return nil }
        session.currentIndex = index
        if let highlightColor { session.highlightColor = highlightColor }
        mode = .search(session)
        return session.current
    }

    private mutating func stepSearch(by step: Int, highlightColor: PDFColor?) -> SearchHit? {
        guard case .search(let session) = mode, !session.results.isEmpty else { return nil }
        let count = session.results.count
        let next = session.currentIndex.map { (($0 + step) % count + count) % count } ?? (step > 0 ? 0 : count - 1)
        return showSearchResult(at: next, highlightColor: highlightColor)
    }

    /// Clears the highlights (signo `finishTextSearch`); back to browsing.
    @discardableResult
    public mutating func finishSearch() -> Bool {
        guard case .search = mode else { return false }
        mode = .browsing
        return true
    }
}
