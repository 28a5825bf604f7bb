public import PDFAnnotations
public import PDFAuthoring
public import PDFCore

/// The viewer's mode transitions as a pure state machine.
///
/// Every mode starts from ``ViewerMode/browsing`` (signature capture also from form editing, and
/// field selection leads to capture) and ends back in it. A call that does not apply to the current
/// mode, or whose arguments are invalid (an unknown field, an empty list), is a no-op: it returns
/// false (or nil for calls that return a result) and leaves ``mode`` unchanged. Nothing throws.
public struct ViewerModeMachine: Sendable, Hashable {
    /// The current mode.
    public private(set) var mode: ViewerMode

    /// A machine in `mode` (browsing by default).
    public init(mode: ViewerMode = .browsing) {
        self.mode = mode
    }

    /// Whether the viewer is browsing.
    public var isBrowsing: Bool { mode == .browsing }

    /// Leaves any mode for browsing, discarding its work (unsaved notes, an unconfirmed rectangle…).
    /// False when already browsing.
    @discardableResult
    public mutating func cancel() -> Bool {
        guard !isBrowsing else { return false }
        mode = .browsing
        return true
    }

    // MARK: Form editing

    /// Starts form editing over `fields` (tab order), focusing `focus` when given.
    @discardableResult
    public mutating func beginFormEditing(fields: [String], focus: String? = nil) -> Bool {
        guard isBrowsing, !fields.isEmpty else { return false }
        var focusedIndex: Int?
        if let focus {
            guard let index = fields.firstIndex(of: focus) else { return false }
            focusedIndex = index
        }
        mode = .formEditing(FormEditing(fields: fields, focusedIndex: focusedIndex))
        return true
    }

    /// Focuses the field named `name`.
    @discardableResult
    public mutating func focusField(_ name: String) -> Bool {
        guard case .formEditing(var editing) = mode, let index = editing.fields.firstIndex(of: name) else {
            return false
        }
        editing.focusedIndex = index
        mode = .formEditing(editing)
        return true
    }

    /// Focuses the next field in tab order, wrapping from the last to the first (the first when none has focus).
    @discardableResult
    public mutating func focusNextField() -> Bool { moveFocus(by: 1) }

    /// Focuses the previous field, wrapping from the first to the last (the last when none has focus).
    @discardableResult
    public mutating func focusPreviousField() -> Bool { moveFocus(by: -1) }

    private mutating func moveFocus(by step: Int) -> Bool {
        guard case .formEditing(var editing) = mode else { return false }
        let count = editing.fields.count
        if let index = editing.focusedIndex {
            editing.focusedIndex = ((index + step) % count + count) % count
        } else {
            editing.focusedIndex = step > 0 ? 0 : count - 1
        }
        mode = .formEditing(editing)
        return true
    }

    /// Ends form editing.
    @discardableResult
    public mutating func endFormEditing() -> Bool {
        guard case .formEditing = mode else { return false }
        mode = .browsing
        return true
    }

    // MARK: Signing

    /// Asks the user to choose among `candidates` (signature fields).
    @discardableResult
    public mutating func beginFieldSelection(candidates: [String]) -> Bool {
        guard isBrowsing, !candidates.isEmpty else { return false }
        mode = .fieldSelection(candidates: candidates)
        return true
    }

    /// Chooses `name` among the candidates and starts capturing a signature for it.
    @discardableResult
    public mutating func chooseField(_ name: String) -> Bool {
        guard case .fieldSelection(let candidates) = mode, candidates.contains(name) else { return false }
        mode = .signatureCapture(field: name)
        return true
    }

    /// Starts capturing a signature (from browsing or form editing).
    @discardableResult
    public mutating func beginSignatureCapture(field: String? = nil) -> Bool {
        switch mode {
        case .browsing, .formEditing:
            mode = .signatureCapture(field: field)
            return true
        default:
            return false
        }
    }

    /// Ends the capture and starts positioning the signature at `placement`.
    @discardableResult
    public mutating func finishSignatureCapture(placement: SignaturePlacement) -> Bool {
        guard case .signatureCapture = mode else { return false }
        mode = .signaturePositioning(placement)
        return true
    }

    /// Moves the signature being positioned (see ``SignaturePlacement/move(byViewDelta:geometry:zoom:)``).
    @discardableResult
    public mutating func moveSignature(byViewDelta delta: PDFPoint, geometry: PageGeometry, zoom: Double) -> Bool {
        guard case .signaturePositioning(var placement) = mode else { return false }
        placement.move(byViewDelta: delta, geometry: geometry, zoom: zoom)
        mode = .signaturePositioning(placement)
        return true
    }

    /// Resizes the signature being positioned by one of its corner handles.
    @discardableResult
    public mutating func resizeSignature(
        handle: ResizeHandle, byViewDelta delta: PDFPoint, geometry: PageGeometry, zoom: Double
    ) -> Bool {
        guard case .signaturePositioning(var placement) = mode else { return false }
        placement.resize(handle: handle, byViewDelta: delta, geometry: geometry, zoom: zoom)
        mode = .signaturePositioning(placement)
        return true
    }

    /// Confirms the position: the page (0-based) and rectangle in PDF user space; back to browsing.
    public mutating func confirmSignaturePosition() -> (page: Int, rect: PDFRectangle)? {
        guard case .signaturePositioning(let placement) = mode else { return nil }
        mode = .browsing
        return (placement.page, placement.rect)
    }

    // MARK: Viewer rectangle (signo)

    /// Shows viewer rectangle `id` at `rect` (viewport coordinates).
    @discardableResult
    public mutating func beginViewerRect(id: Int, rect: PDFRectangle, minimumSize: Double = 10) -> Bool {
        guard isBrowsing else { return false }
        mode = .viewerRect(ViewerRectSession(id: id, rect: rect, minimumSize: minimumSize))
        return true
    }

    /// Moves the viewer rectangle by `delta` view pixels.
    @discardableResult
    public mutating func moveViewerRect(by delta: PDFPoint) -> Bool {
        guard case .viewerRect(var session) = mode else { return false }
        session.move(by: delta)
        mode = .viewerRect(session)
        return true
    }

    /// Resizes the viewer rectangle by a corner handle.
    @discardableResult
    public mutating func resizeViewerRect(handle: ResizeHandle, by delta: PDFPoint) -> Bool {
        guard case .viewerRect(var session) = mode else { return false }
        session.resize(handle: handle, by: delta)
        mode = .viewerRect(session)
        return true
    }

    /// Confirms the viewer rectangle against `state` (see ``ViewerRectSession/result(in:)``); back to browsing.
    public mutating func confirmViewerRect(in state: ViewerState) -> ViewerRectResult? {
        guard case .viewerRect(let session) = mode else { return nil }
        mode = .browsing
        return session.result(in: state)
    }

    // MARK: Notes

    /// Starts the notes mode with `style`; the notes are PDFAnnotations' model, the one
    /// `NotesSession` writes.
    @discardableResult
    public mutating func beginNotes(style: InkStyle = InkStyle()) -> Bool {
        guard isBrowsing else { return false }
        mode = .notes(InkNotes(style: style))
        return true
    }

    /// Changes the pen for the next strokes (signo `changeNotesConfig`).
    @discardableResult
    public mutating func setNoteStyle(_ style: InkStyle) -> Bool {
        guard case .notes(var notes) = mode else { return false }
        notes.style = style
        mode = .notes(notes)
        return true
    }

    /// Adds `stroke` (PDF user space of `page`) as a note in the current pen; clears the redo stack.
    /// A stroke without points or a negative page changes nothing.
    @discardableResult
    public mutating func addStroke(_ stroke: InkStroke, page: Int) -> Bool {
        guard case .notes(var notes) = mode, page >= 0, notes.add([stroke], onPage: page) else { return false }
        mode = .notes(notes)
        return true
    }

    /// Removes the last note (onto the redo stack).
    @discardableResult
    public mutating func undoStroke() -> Bool {
        guard case .notes(var notes) = mode, notes.undo() else { return false }
        mode = .notes(notes)
        return true
    }

    /// Restores the last undone note.
    @discardableResult
    public mutating func redoStroke() -> Bool {
        guard case .notes(var notes) = mode, notes.redo() else { return false }
        mode = .notes(notes)
        return true
    }

    /// Ends the notes mode keeping its notes (signo `saveAndFinishNotesMode`): returns them, oldest
    /// first, ready for `NotesSession` or `InkAnnotator` to write.
    public mutating func saveNotes() -> [InkNote]? {
        guard case .notes(let notes) = mode else { return nil }
        mode = .browsing
        return notes.notes
    }

    // MARK: Search

    /// Shows `results` highlighted; none is current until ``nextSearchResult(highlightColor:)``.
    @discardableResult
    public mutating func beginSearch(results: [SearchHit], highlightColor: ViewerColor = .yellow) -> Bool {
        guard isBrowsing else { return false }
        mode = .search(SearchSession(results: results, currentIndex: nil, highlightColor: highlightColor))
        return true
    }

    /// Makes the next result current, wrapping from the last to the first (the first when none is
    /// current), optionally changing the highlight colour. Nil when not searching or with no results.
    public mutating func nextSearchResult(highlightColor: ViewerColor? = nil) -> SearchHit? {
        stepSearch(by: 1, highlightColor: highlightColor)
    }

    /// Makes the previous result current, wrapping from the first to the last (the last when none is current).
    public mutating func previousSearchResult(highlightColor: ViewerColor? = nil) -> SearchHit? {
        stepSearch(by: -1, highlightColor: highlightColor)
    }

    private mutating func stepSearch(by step: Int, highlightColor: ViewerColor?) -> SearchHit? {
        guard case .search(var session) = mode, !session.results.isEmpty else { return nil }
        let count = session.results.count
        if let index = session.currentIndex {
            session.currentIndex = ((index + step) % count + count) % count
        } else {
            session.currentIndex = step > 0 ? 0 : count - 1
        }
        if let highlightColor { session.highlightColor = highlightColor }
        mode = .search(session)
        return session.current
    }

    /// Clears the highlights (signo `finishTextSearch`); back to browsing.
    @discardableResult
    public mutating func finishSearch() -> Bool {
        guard case .search = mode else { return false }
        mode = .browsing
        return true
    }
}
