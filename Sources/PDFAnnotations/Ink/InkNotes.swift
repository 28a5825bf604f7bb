public import PDFAuthoring

/// The notes drawn so far in a notes mode, in memory: the one model behind ``NotesSession`` (which
/// checks them against a document and writes them) and the viewer's notes mode.
///
/// `notes` is the undo stack (undo takes the last) and `undone` the redo stack, emptied by a new
/// note. The style applies to the notes added after it changes; each note keeps its own.
public struct InkNotes: Hashable, Sendable {
    /// The style of the notes added from now on (signoAPI `changeNotesConfig`).
    public var style: InkStyle
    /// The notes, oldest first.
    public private(set) var notes: [InkNote] = []
    /// The undone notes, the next to redo last.
    public private(set) var undone: [InkNote] = []

    /// No notes yet, drawn in `style`.
    public init(style: InkStyle = InkStyle()) {
        self.style = style
    }

    /// Adds a note of `strokes` on `pageIndex` in the current style and empties the redo stack;
    /// strokes without points are dropped.
    /// - Returns: false, changing nothing, when no stroke has a point.
    @discardableResult
    public mutating func add(_ strokes: [InkStroke], onPage pageIndex: Int) -> Bool {
        let strokes = strokes.filter { !$0.points.isEmpty }
        guard !strokes.isEmpty else { return false }
        notes.append(InkNote(pageIndex: pageIndex, strokes: strokes, style: style))
        undone.removeAll()
        return true
    }

    /// The notes on `pageIndex`, oldest first.
    public func notes(onPage pageIndex: Int) -> [InkNote] { notes.filter { $0.pageIndex == pageIndex } }

    /// Whether there is a note to undo.
    public var canUndo: Bool { !notes.isEmpty }
    /// Whether there is a note to redo.
    public var canRedo: Bool { !undone.isEmpty }

    /// Moves the last note to the redo stack.
    /// - Returns: false when there was none.
    @discardableResult
    public mutating func undo() -> Bool {
        guard let note = notes.popLast() else { return false }
        undone.append(note)
        return true
    }

    /// Puts back the last undone note, in the style it was drawn in.
    /// - Returns: false when there was none.
    @discardableResult
    public mutating func redo() -> Bool {
        guard let note = undone.popLast() else { return false }
        notes.append(note)
        return true
    }
}
