public import PDFAnnotations
public import PDFAuthoring
import PDFCore
import PDFViewer

/// signo's notes mode: handwritten ink notes drawn over the pages, with undo and redo, saved as
/// one revision or cancelled. Nothing is stored until saved. The notes live in the viewer's mode
/// (``viewerMode``); `NotesSession` checks and writes them.
extension DocumentSession {
    /// Starts notes mode (signo `startNotesModeWithConfig:`): `notesModeDidStart`, or
    /// `notesModeDidFailToStart(code)` (a PDF/A-1 document, a signed or read-only one, or a
    /// viewer rectangle still open). A search shown ends.
    public func startNotesMode(style: InkStyle = InkStyle()) async {
        do throws(SessionError) {
            try requireEditing("notes mode")
            do {
                try InkAnnotator.checkAllowed(in: document)
            } catch {
                throw SessionError(error)
            }
            let before = modes
            guard modes.beginNotes(style: style) else {
                throw SessionError(.invalidState, "notes mode cannot start while \(viewerMode.name)")
            }
            do {
                try await run(.startNotes)
            } catch {
                modes = before
                throw error
            }
        } catch {
            emit(.notesModeDidFailToStart(code: error.signoCode))
        }
    }

    /// The most notes one notes session holds before they must be saved.
    public static let maxNotes = 2000

    /// Whether notes mode is active.
    public var isInNotesMode: Bool { modes.notes != nil }

    /// Changes the style of the notes drawn from now on (signo `changeNotesConfig:`).
    public func changeNotesStyle(_ style: InkStyle) throws(SessionError) {
        guard modes.setNoteStyle(style) else { throw SessionError(.invalidState, "notes mode is not active") }
    }

    /// Adds a note: strokes in PDF user space of page `pageIndex` (from 0).
    /// - Throws: `.invalidState` outside notes mode; `.invalidArgument` for a page the document
    ///   does not have, a point far off the page, strokes without points, or a note past ``maxNotes``.
    public func addNote(_ strokes: [InkStroke], pageIndex: Int) throws(SessionError) {
        guard isInNotesMode else { throw SessionError(.invalidState, "notes mode is not active") }
        // Every answer of the web API carries the notes: their number is bounded.
        guard currentNotes.count < Self.maxNotes else {
            throw SessionError(
                .invalidArgument, "a notes session holds at most \(Self.maxNotes) notes: save them first")
        }
        if let problem = NotesSession.problem(strokes, onPage: pageIndex, in: document) {
            throw SessionError(.invalidArgument, problem)
        }
        guard modes.addNote(strokes, page: pageIndex) else {
            throw SessionError(.invalidArgument, "a note needs at least one point")
        }
    }

    /// The notes drawn so far in this notes session, oldest first.
    public var currentNotes: [InkNote] { modes.notes?.notes ?? [] }

    /// signo `undoNote`: no effect without notes.
    @discardableResult
    public func undoNote() -> Bool { modes.undoNote() }

    /// signo `redoNote`: no effect without an undone note.
    @discardableResult
    public func redoNote() -> Bool { modes.redoNote() }

    /// signo `cancelNotesMode`: the notes are dropped; no effect when notes mode is not active.
    public func cancelNotesMode() async {
        guard isInNotesMode else { return }
        modes.cancel()
        try? await run(.finishNotes)
    }

    /// signo `saveAndFinishNotesMode`: the notes become one revision; `notesModeDidFinish(saved:)`
    /// (false when there were none) or `notesModeDidFinishWithFailure(code)` (notes mode stays on).
    public func saveAndFinishNotesMode() async {
        guard let notes = modes.notes else {
            emit(.notesModeDidFinishWithFailure(code: -150))
            return
        }
        do throws(SessionError) {
            let outcome: NotesSession.Outcome
            do {
                outcome = try NotesSession(document: document, notes: notes).save(date: clock())
            } catch {
                throw SessionError(error)
            }
            if case .saved(let update, _) = outcome { try appendRevision(update) }
            modes.cancel()
            try? await run(.finishNotes)
            emit(.notesModeDidFinish(saved: outcome.saved))
        } catch {
            emit(.notesModeDidFinishWithFailure(code: error.signoCode))
        }
    }
}
