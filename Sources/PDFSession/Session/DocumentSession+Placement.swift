import PDFCore
import PDFForms
import PDFGraphics
import PDFViewer

/// Where a new signature field is proposed: on the current page, on empty space when the page has
/// some (away from its text and its fields), else centred low on the page.
extension DocumentSession {
    /// How long reading a page's text for a proposal may take, and how many display items it may
    /// make: past either, the signature is proposed centred low on the page.
    static let placementTextTimeLimit: Duration = .seconds(2)
    static let placementTextMaxItems = 2_000_000
    /// The margin kept between a proposed signature and the page's edges, in points.
    static let placementMargin = 18.0

    /// The place of a new signature field: on the current page, of the configured size, centred
    /// low on it; with `onEmptySpace`, the empty space nearest that place, found from the page's
    /// text lines (read off the session and Swift's pool, within a budget) and its fields' widgets.
    func proposedPlacement(onEmptySpace: Bool) async -> SigningWorkflow.Plan.Placement {
        let index = min(snapshot.currentPageIndex, pageCount - 1)
        let box = document.pages[index].cropBox
        let appearance = signatureConfiguration.appearance
        let width = min(appearance.proposedWidth, box.width * 0.8)
        let height = min(appearance.proposedHeight, box.height * 0.3)
        let x0 = box.x0 + (box.width - width) / 2
        let y0 = box.y0 + box.height * 0.1
        let centred = PDFRectangle(x0: x0, y0: y0, x1: x0 + width, y1: y0 + height)
        guard onEmptySpace else { return .init(pageIndex: index, rect: centred) }
        let widgets =
            (form?.fields ?? []).flatMap(\.widgets).filter { $0.pageIndex == index && !$0.rect.isEmpty }.map(\.rect)
        let document = self.document
        let margin = Self.placementMargin
        let free = await BlockingWork.run { () -> PDFRectangle? in
            let budget = RenderBudget(timeLimit: Self.placementTextTimeLimit, maxItems: Self.placementTextMaxItems)
            let text = TextExtractor(document: document).text(pageAt: index, budget: budget)
            // A page read in part may have text where none was found: no proposal from it.
            guard budget.stop == nil else { return nil }
            let lines = text.blocks.flatMap { $0.lines.map(\.quad.bounds) }
            let inner = PDFRectangle(x0: box.x0 + margin, y0: box.y0 + margin, x1: box.x1 - margin, y1: box.y1 - margin)
            let area = inner.width >= width && inner.height >= height ? inner : box
            return EmptySpace.rectangle(
                of: PDFSize(width: width, height: height), in: area, avoiding: lines + widgets, near: centred.center)
        }
        return .init(pageIndex: index, rect: free ?? centred)
    }
}
