import PDFCore

extension ContentInterpreter {
    func moveTo(_ point: PDFPoint) {
        path.elements.append(.move(point))
        currentPoint = point
        subpathStart = point
    }

    func lineTo(_ point: PDFPoint) {
        guard currentPoint != nil else {
            warn("a line without a current point")
            moveTo(point)
            return
        }
        path.elements.append(.line(point))
        currentPoint = point
    }

    func curveTo(_ control1: PDFPoint, _ control2: PDFPoint, _ end: PDFPoint) {
        guard currentPoint != nil else {
            warn("a curve without a current point")
            moveTo(end)
            return
        }
        path.elements.append(.curve(control1, control2, end))
        currentPoint = end
    }

    func closePath() {
        guard currentPoint != nil else { return }
        path.elements.append(.close)
        currentPoint = subpathStart
    }

    func rectangle(_ x: Double, _ y: Double, _ width: Double, _ height: Double) {
        path.rectangle(x, y, width, height)
        currentPoint = PDFPoint(x, y)
        subpathStart = PDFPoint(x, y)
    }

    /// Ends the path: fills with `fill`, strokes when `stroke`, then clips when `W`/`W*` came first.
    func paint(fill rule: FillRule?, stroke: Bool) {
        defer {
            path = Path()
            currentPoint = nil
            subpathStart = nil
            pendingClip = nil
        }
        guard !path.isEmpty else { return }
        if let rule, let paint = currentPaint(stroking: false) {
            emit(.fill(path, rule, paint, ctm: state.ctm, state: state.drawState(stroking: false)))
        }
        if stroke, let paint = currentPaint(stroking: true) {
            emit(.stroke(path, state.strokeStyle, paint, ctm: state.ctm, state: state.drawState(stroking: true)))
        }
        if let clip = pendingClip, !isHidden {
            items.append(.clip(path, clip, ctm: state.ctm))
        }
    }
}
