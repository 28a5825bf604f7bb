public import PDFCore

/// Something that can be tapped on a page: an annotation or a form field widget, with its `/Rect`
/// (ISO 32000-2 §12.5.2) in the page's PDF user space.
public struct HitTarget<ID: Hashable & Sendable>: Hashable, Sendable {
    /// The caller's identifier (an annotation reference, a field name…).
    public var id: ID
    /// The page index (0-based).
    public var page: Int
    /// The rectangle in the page's PDF user space.
    public var rect: PDFRectangle

    /// A target from its identifier, page and rectangle.
    public init(id: ID, page: Int, rect: PDFRectangle) {
        self.id = id
        self.page = page
        self.rect = rect
    }
}

extension ViewerState {
    /// The topmost target under `viewPoint` (viewport coordinates): among the targets on the page under
    /// the point whose rectangle contains it (edges included), the last in `targets` order (annotations
    /// paint in `/Annots` order, so the last is on top). Nil when the point is on no page or no target.
    public func hitTest<ID>(_ targets: [HitTarget<ID>], atViewPoint viewPoint: PDFPoint) -> HitTarget<ID>? {
        guard let (page, pdfPoint) = page(atViewPoint: viewPoint) else { return nil }
        return targets.last { $0.page == page && $0.rect.contains(pdfPoint) }
    }
}
