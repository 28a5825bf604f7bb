public import PDFCore

/// A widget annotation of a field (ISO 32000-2 §12.5.6.19): where the field appears.
public struct Widget: Sendable {
    /// The widget annotation's reference (nil for a direct annotation).
    public let reference: PDFReference?
    /// The widget dictionary (for a field with one widget, the field dictionary itself).
    public let dictionary: PDFDictionary
    /// The page the widget is on, from 0 (nil when no page lists it).
    public let pageIndex: Int?
    /// `/Rect` in the page's user space.
    public let rect: PDFRectangle
    /// `/MK /R`: the rotation of the appearance, 0, 90, 180 or 270.
    public let rotation: Int
    /// `/F`.
    public let flags: AnnotationFlags
    /// The names of the "on" appearance states of a checkbox or radio button (`/AP /N` keys other than `Off`).
    public let onStates: [String]
    /// `/AS`: the current appearance state.
    public let appearanceState: String?

    /// True when the widget shows on screen (not hidden, invisible or no-view).
    public var isVisible: Bool { flags.isDisjoint(with: [.hidden, .invisible, .noView]) }
}
