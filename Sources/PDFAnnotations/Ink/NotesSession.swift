public import PDFAuthoring
public import PDFCore

/// An ink-notes editing session (signoAPI notes mode): notes are added, undone and redone in
/// memory; a style change applies to the notes that follow; cancelling saves nothing; saving
/// writes every note in one incremental update.
///
/// ```swift
/// var session = try NotesSession(document: document, style: InkStyle(width: 3, color: .rgb(1, 0, 0)))
/// try session.add([stroke], onPage: 0)
/// session.undo()
/// let outcome = try session.save()   // outcome.saved is false when no note is left
/// ```
public struct NotesSession: Sendable {
    /// The document the notes are added to; its bytes are never changed.
    public let document: PDFDocument
    /// The notes, their undo and redo stacks and the current style.
    public private(set) var model: InkNotes
    /// The style of the notes added from now on (signoAPI `changeNotesConfig`).
    public var style: InkStyle {
        get { model.style }
        set { model.style = newValue }
    }
    /// The notes that will be saved, oldest first.
    public var notes: [InkNote] { model.notes }

    /// Starts a session.
    /// - Throws: `.pdfA1` when the document is PDF/A-1 (signoAPI `notesModeDidFailToStart`).
    public init(document: PDFDocument, style: InkStyle = InkStyle()) throws(AnnotationError) {
        try self.init(document: document, notes: InkNotes(style: style))
    }

    /// A session over notes drawn elsewhere (a viewer's notes mode), to check and write them.
    /// - Throws: `.pdfA1` when the document is PDF/A-1; `.invalidArgument` when a note is on a page
    ///   the document does not have or far off its page.
    public init(document: PDFDocument, notes: InkNotes) throws(AnnotationError) {
        try InkAnnotator.checkAllowed(in: document)
        for note in notes.notes + notes.undone {
            if let problem = Self.problem(note.strokes, onPage: note.pageIndex, in: document) {
                throw AnnotationError(.invalidArgument, problem)
            }
        }
        self.document = document
        self.model = notes
    }

    /// Why `strokes` cannot be a note on page `pageIndex` of `document` (a page it does not have,
    /// a point far off the page), or nil. Points a little off the page are kept: a pen overshoots
    /// the edge.
    public static func problem(_ strokes: [InkStroke], onPage pageIndex: Int, in document: PDFDocument) -> String? {
        if let problem = PageIndexCheck.problem(pageIndex, pageCount: document.pageCount) { return problem }
        let box = document.pages[pageIndex].cropBox
        let margin = max(box.width, box.height)
        let area = PDFRectangle(x0: box.x0 - margin, y0: box.y0 - margin, x1: box.x1 + margin, y1: box.y1 + margin)
        return strokes.problem(within: area)
    }

    /// Adds a note of one or more strokes (page user space) in the current style; clears the redo list.
    /// - Throws: `.invalidArgument` for a page out of range or strokes without points.
    public mutating func add(_ strokes: [InkStroke], onPage pageIndex: Int) throws(AnnotationError) {
        if let problem = Self.problem(strokes, onPage: pageIndex, in: document) {
            throw AnnotationError(.invalidArgument, problem)
        }
        guard model.add(strokes, onPage: pageIndex) else {
            throw AnnotationError(.invalidArgument, "a note needs at least one point")
        }
    }

    /// Whether there is a note to undo.
    public var canUndo: Bool { model.canUndo }
    /// Whether there is a note to redo.
    public var canRedo: Bool { model.canRedo }

    /// Removes the last note; does nothing when there is none.
    /// - Returns: true when a note was removed.
    @discardableResult
    public mutating func undo() -> Bool { model.undo() }

    /// Puts back the last undone note (in the style it was drawn in); does nothing when there is none.
    /// - Returns: true when a note came back.
    @discardableResult
    public mutating func redo() -> Bool { model.redo() }

    /// How a session ended (signoAPI `notesModeDidFinishWithSavedStatus`).
    public enum Outcome: Sendable {
        /// The notes, written as one incremental update.
        case saved(IncrementalUpdate, noteCount: Int)
        /// Nothing was written: the session was cancelled, or it had no notes.
        case discarded

        /// The saved status the seeds report.
        public var saved: Bool {
            if case .saved = self { return true }
            return false
        }
    }

    /// Ends the session without saving anything.
    public func cancel() -> Outcome { .discarded }

    /// Ends the session writing its notes; `.discarded` when there are none.
    public func save(date: PDFDate = .now(), writeOptions: WriteOptions = .default) throws(AnnotationError) -> Outcome {
        guard !notes.isEmpty else { return .discarded }
        var annotator = InkAnnotator(document: document, date: date)
        annotator.writeOptions = writeOptions
        return .saved(try annotator.makeUpdate(notes: notes), noteCount: notes.count)
    }
}
