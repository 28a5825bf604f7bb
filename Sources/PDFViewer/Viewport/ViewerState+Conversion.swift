public import PDFCore

/// Conversions between the three coordinate spaces of the viewer:
/// - view: the viewport, origin at its top-left corner, y down, in view pixels;
/// - page: a page's view box, origin at the displayed page's top-left corner, y down, points at zoom 1;
/// - PDF: the page's user space (ISO 32000-2 §8.3.2.3), y up.
///
/// Rect conversions return the bounding box of the converted corners. Page indices must be valid.
extension ViewerState {
    /// The transform from `page`'s PDF user space to view coordinates.
    public func pdfToViewTransform(page: Int) -> PDFMatrix {
        layout.pdfToContentTransform(page: page, pageFrame: pageFrames[page], zoom: zoom)
            .concatenating(.translation(-contentOffset.x, -contentOffset.y))
    }

    /// The transform from view coordinates to `page`'s PDF user space.
    public func viewToPDFTransform(page: Int) -> PDFMatrix {
        pdfToViewTransform(page: page).inverted() ?? .identity
    }

    /// A view point in `page`'s view box.
    public func pagePoint(fromView point: PDFPoint, page: Int) -> PDFPoint {
        let frame = pageFrames[page]
        return PDFPoint(
            x: (point.x + contentOffset.x - frame.x0) / zoom, y: (point.y + contentOffset.y - frame.y0) / zoom)
    }

    /// A point of `page`'s view box in view coordinates.
    public func viewPoint(fromPage point: PDFPoint, page: Int) -> PDFPoint {
        let frame = pageFrames[page]
        return PDFPoint(
            x: frame.x0 + zoom * point.x - contentOffset.x, y: frame.y0 + zoom * point.y - contentOffset.y)
    }

    /// A view point in `page`'s PDF user space.
    public func pdfPoint(fromView point: PDFPoint, page: Int) -> PDFPoint {
        layout.pages[page].pdfPoint(fromPage: pagePoint(fromView: point, page: page))
    }

    /// A PDF point of `page` in view coordinates.
    public func viewPoint(fromPDF point: PDFPoint, page: Int) -> PDFPoint {
        viewPoint(fromPage: layout.pages[page].pagePoint(fromPDF: point), page: page)
    }

    /// A view rectangle in `page`'s view box.
    public func pageRect(fromView rect: PDFRectangle, page: Int) -> PDFRectangle {
        PDFRectangle(boundingBoxOf: rect.corners.map { pagePoint(fromView: $0, page: page) })
    }

    /// A rectangle of `page`'s view box in view coordinates.
    public func viewRect(fromPage rect: PDFRectangle, page: Int) -> PDFRectangle {
        PDFRectangle(boundingBoxOf: rect.corners.map { viewPoint(fromPage: $0, page: page) })
    }

    /// A view rectangle in `page`'s PDF user space.
    public func pdfRect(fromView rect: PDFRectangle, page: Int) -> PDFRectangle {
        layout.pages[page].pdfRect(fromPage: pageRect(fromView: rect, page: page))
    }

    /// A PDF rectangle of `page` in view coordinates.
    public func viewRect(fromPDF rect: PDFRectangle, page: Int) -> PDFRectangle {
        viewRect(fromPage: layout.pages[page].pageRect(fromPDF: rect), page: page)
    }

    /// The page under `viewPoint` (viewport coordinates) and the point in its PDF user space, or nil when
    /// the point lies on no page (in a gap, the padding, or outside the content).
    public func page(atViewPoint viewPoint: PDFPoint) -> (page: Int, pdfPoint: PDFPoint)? {
        let content = PDFPoint(x: viewPoint.x + contentOffset.x, y: viewPoint.y + contentOffset.y)
        guard !spreadFrames.isEmpty else { return nil }
        for page in layout.spreads[nearestSpread(to: content)] where pageFrames[page].contains(content) {
            return (page, pdfPoint(fromView: viewPoint, page: page))
        }
        return nil
    }

    /// The spreads intersecting the viewport, in order.
    public var visibleSpreads: [Int] {
        let visible = visibleRect
        return spreadFrames.indices.filter { spreadFrames[$0].intersects(visible) }
    }

    /// The pages intersecting the viewport, in order.
    public var visiblePages: [Int] {
        let visible = visibleRect
        return visibleSpreads.flatMap { layout.spreads[$0] }.filter { pageFrames[$0].intersects(visible) }
    }
}
