public import PDFCore

/// Where a spread lands in the viewport when scrolling to it (PSPDFKit `PSPDFSpreadScrollPosition`).
public enum SpreadScrollPosition: Sendable, Hashable {
    /// The spread's leading edge at the viewport's leading edge.
    case start
    /// The spread's centre at the viewport centre.
    case center
    /// The spread's trailing edge at the viewport's trailing edge.
    case end
}

extension ViewerState {
    /// Scrolls so spread `index` is shown at `position` along the scroll axis (as far as the scrollable
    /// range allows; the cross-axis offset is kept). In paging mode `position` is ignored, as in
    /// PSPDFKit: the viewport goes to the start of the spread's slot. Returns whether the offset
    /// changed; false for an index out of range or when scrolling is disabled.
    @discardableResult
    public mutating func scrollToSpread(_ index: Int, position: SpreadScrollPosition = .start) -> Bool {
        guard spreadFrames.indices.contains(index) else { return false }
        let (start, end) = axisRange(spreadFrames[index])
        let viewport = axisLength(viewportSize)
        let target: Double
        if !layout.configuration.continuous {
            // The slot is centred on the spread and at least a viewport long.
            let slot = max(viewport, end - start + 2 * layout.configuration.padding)
            target = (start + end) / 2 - slot / 2
        } else {
            switch position {
            case .start: target = start
            case .center: target = (start + end) / 2 - viewport / 2
            case .end: target = end - viewport
            }
        }
        return setContentOffset(offset(contentOffset, settingAxis: target))
    }

    /// Centres the spread after ``spreadIndex`` (as far as the range allows). Returns false on the last spread.
    @discardableResult
    public mutating func nextSpread() -> Bool {
        guard spreadIndex + 1 < spreadCount else { return false }
        return scrollToSpread(spreadIndex + 1, position: .center)
    }

    /// Centres the spread before ``spreadIndex``. Returns false on the first spread.
    @discardableResult
    public mutating func previousSpread() -> Bool {
        guard spreadIndex > 0 else { return false }
        return scrollToSpread(spreadIndex - 1, position: .center)
    }

    /// Scrolls one viewport length forward along the scroll axis, keeping the zoom (clamped to the end).
    /// Returns whether the offset changed.
    @discardableResult
    public mutating func nextViewport() -> Bool {
        setContentOffset(offset(contentOffset, settingAxis: axis(contentOffset) + axisLength(viewportSize)))
    }

    /// Scrolls one viewport length back along the scroll axis, keeping the zoom (clamped to the start).
    @discardableResult
    public mutating func previousViewport() -> Bool {
        setContentOffset(offset(contentOffset, settingAxis: axis(contentOffset) - axisLength(viewportSize)))
    }

    /// Zooms to `zoom` (clamped) keeping the content under `viewPoint` (viewport coordinates) still, as
    /// far as the scrollable range allows. The point is tracked relative to the nearest spread, so it
    /// stays on the same spot of the same page. Returns whether the zoom changed; false when zooming is
    /// disabled. When scrolling is disabled the offset is only re-clamped.
    @discardableResult
    public mutating func zoom(to newZoom: Double, around viewPoint: PDFPoint) -> Bool {
        guard isZoomEnabled, !spreadFrames.isEmpty else { return setZoom(newZoom) }
        let clamped = layout.configuration.clampZoom(newZoom)
        guard clamped != zoom else { return false }
        let content = PDFPoint(x: contentOffset.x + viewPoint.x, y: contentOffset.y + viewPoint.y)
        let spread = nearestSpread(to: content)
        let frame = spreadFrames[spread]
        let local = PDFPoint(x: (content.x - frame.x0) / zoom, y: (content.y - frame.y0) / zoom)
        let scrollable = isScrollEnabled
        applyZoom(clamped)
        guard scrollable else { return true }
        let newFrame = spreadFrames[spread]
        contentOffset = clampedOffset(
            PDFPoint(x: newFrame.x0 + local.x * zoom - viewPoint.x, y: newFrame.y0 + local.y * zoom - viewPoint.y))
        return true
    }

    /// Shows spread of `page` and zooms so `pdfRect` (PDF user space of `page`) fills the viewport,
    /// centred, the zoom clamped to `[minZoom, maxZoom]` (PSPDFKit `zoom(toPDFRect:forPageAt:)`). A rect
    /// with no area shows the whole page. Returns false (doing nothing) for a page out of range or
    /// when zooming or scrolling is disabled.
    @discardableResult
    public mutating func zoom(toPDFRect pdfRect: PDFRectangle, onPage page: Int) -> Bool {
        guard isZoomEnabled, isScrollEnabled, layout.pages.indices.contains(page) else { return false }
        let geometry = layout.pages[page]
        var pageRect = geometry.pageRect(fromPDF: pdfRect)
        if pageRect.width <= 0 || pageRect.height <= 0 { pageRect = geometry.pageBounds }
        guard pageRect.width > 0, pageRect.height > 0 else { return false }
        let fitting = min(viewportSize.width / pageRect.width, viewportSize.height / pageRect.height)
        applyZoom(layout.configuration.clampZoom(fitting))
        let frame = pageFrames[page]
        let center = PDFPoint(x: frame.x0 + zoom * pageRect.midX, y: frame.y0 + zoom * pageRect.midY)
        contentOffset = clampedOffset(
            PDFPoint(x: center.x - viewportSize.width / 2, y: center.y - viewportSize.height / 2))
        return true
    }

    /// The spread whose frame is nearest to `contentPoint` (the one containing it when there is one).
    func nearestSpread(to contentPoint: PDFPoint) -> Int {
        var best = 0
        var bestDistance = Double.infinity
        for (index, frame) in spreadFrames.enumerated() {
            let dx = max(frame.x0 - contentPoint.x, 0, contentPoint.x - frame.x1)
            let dy = max(frame.y0 - contentPoint.y, 0, contentPoint.y - frame.y1)
            let distance = dx * dx + dy * dy
            if distance < bestDistance {
                (best, bestDistance) = (index, distance)
            }
        }
        return best
    }
}
