public import PDFCore

extension PageGeometry {
    /// The transform from PDF user space to the page's view box: origin at the top-left corner of the
    /// displayed page, y down, in points (1/72 inch) at zoom 1, with the crop box (ISO 32000-2
    /// §14.11.2), `/Rotate` (§7.7.3.3, clockwise) and `/UserUnit` (§14.11.2) applied.
    ///
    /// With `u` the user unit and the crop box `[x0 y0 x1 y1]`:
    /// - 0°: (x, y) → (u·(x − x0), u·(y1 − y))
    /// - 90°: (x, y) → (u·(y − y0), u·(x − x0))
    /// - 180°: (x, y) → (u·(x1 − x), u·(y − y0))
    /// - 270°: (x, y) → (u·(y1 − y), u·(x1 − x))
    public var pdfToPageTransform: PDFMatrix {
        let u = userUnit
        let box = cropBox
        switch rotation {
        case 90: return PDFMatrix(0, u, u, 0, -u * box.y0, -u * box.x0)
        case 180: return PDFMatrix(-u, 0, 0, u, u * box.x1, -u * box.y0)
        case 270: return PDFMatrix(0, -u, -u, 0, u * box.y1, u * box.x1)
        default: return PDFMatrix(u, 0, 0, -u, -u * box.x0, u * box.y1)
        }
    }

    /// The inverse of ``pdfToPageTransform``: page view box (points at zoom 1, y down) → PDF user space.
    public var pageToPDFTransform: PDFMatrix {
        // The determinant is ±u², never zero: `userUnit` is positive.
        pdfToPageTransform.inverted() ?? .identity
    }

    /// The page view box: `(0, 0, displayed width, displayed height)`.
    public var pageBounds: PDFRectangle {
        let size = displaySize
        return PDFRectangle(x: 0, y: 0, width: size.width, height: size.height)
    }

    /// A PDF point in the page view box (points at zoom 1, y down).
    public func pagePoint(fromPDF point: PDFPoint) -> PDFPoint { pdfToPageTransform.apply(point) }

    /// A page view box point in PDF user space.
    public func pdfPoint(fromPage point: PDFPoint) -> PDFPoint { pageToPDFTransform.apply(point) }

    /// A PDF rectangle in the page view box (the bounding box of its image; exact for these transforms,
    /// which map axis-aligned rectangles to axis-aligned rectangles).
    public func pageRect(fromPDF rect: PDFRectangle) -> PDFRectangle {
        PDFRectangle(boundingBoxOf: rect.corners.map(pdfToPageTransform.apply))
    }

    /// A page view box rectangle in PDF user space.
    public func pdfRect(fromPage rect: PDFRectangle) -> PDFRectangle {
        PDFRectangle(boundingBoxOf: rect.corners.map(pageToPDFTransform.apply))
    }
}
