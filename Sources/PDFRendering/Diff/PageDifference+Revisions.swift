import PDFCore
import PDFGraphics

extension PageDifference {
    /// One page of an earlier revision beside today's.
    public enum Comparison<Changed: Sendable>: Sendable {
        /// The page draws the same (or exists in neither).
        case same
        /// A page that exists could not be drawn (too large at this resolution, or out of budget).
        case unrendered
        /// The page draws differently (or exists in only one of the two); the payload tells how.
        case changed(Changed)
    }

    /// A page that differs: the comparison and the two renders (nil for the version without the page).
    public struct ChangedPage: Sendable {
        /// Where the two renders differ.
        public var difference: PageDifference
        /// The page as the earlier revision draws it; nil when it has no such page.
        public var original: RenderedImage?
        /// The page as the document draws it today; nil when it has no such page.
        public var current: RenderedImage?
    }

    /// Renders page `index` of both documents with `options` and compares them. A page whose
    /// drawing reads no object written since the earlier revision is the same without being drawn
    /// (`PageDependencies`); a page in only one of them is changed all over.
    public static func compare(
        _ original: DocumentRenderer, _ current: DocumentRenderer, pageAt index: Int, options: RenderOptions
    ) -> Comparison<ChangedPage> {
        let (originalPages, currentPages) = (original.document.pages, current.document.pages)
        let inOriginal = originalPages.indices.contains(index)
        let inCurrent = currentPages.indices.contains(index)
        guard inOriginal || inCurrent else { return .same }
        if inOriginal, inCurrent,
            original.graphics.dependencies(ofPageAt: index)?.hold(in: current.document, pageAt: index) == true
        {
            return .same
        }
        let before = inOriginal ? original.render(pageAt: index, options: options).image : .empty
        let after = inCurrent ? current.render(pageAt: index, options: options).image : .empty
        guard options.budget?.stop == nil, before.rgba.count == before.width * before.height * 4,
            after.rgba.count == after.width * after.height * 4
        else { return .unrendered }
        let page = inCurrent ? currentPages[index] : originalPages[index]
        let difference = PageDifference(original: before, current: after, page: page, options: options)
        guard !difference.isEmpty else { return .same }
        return .changed(
            ChangedPage(
                difference: difference, original: inOriginal ? before : nil, current: inCurrent ? after : nil))
    }
}

extension RenderedImage {
    /// An image of no pixels: the version of a page that does not exist.
    public static let empty = RenderedImage(width: 0, height: 0, rgba: [])
}
