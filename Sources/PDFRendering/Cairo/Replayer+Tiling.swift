internal import CCairo
import PDFCore
import PDFGraphics

extension Replayer {
    /// Cell surfaces larger than this many pixels are not made; the tiles are drawn one by one.
    static let maximumCellPixels = 4096 * 4096
    /// At most this many copies of a cell are drawn, into a cell surface or straight onto the page.
    static let maximumTileCopies = 4096

    /// A repeating pattern for a tiling pattern (ISO 32000-2 §8.7.3.3): one period of the tiling
    /// (`xStep` × `yStep`) rendered at the device's scale, wrapped with `CAIRO_EXTEND_REPEAT`. Cells
    /// larger than their step overlap their neighbours, so the copies that reach into the period are
    /// drawn too. Nil when the period would be too large a surface, or for tiny steps that need more
    /// copies than allowed: the caller then draws tiles one by one.
    func tilingPattern(_ tiling: TilingPattern) -> CairoPattern? {
        let patternToDevice = tiling.matrix.concatenating(device)
        let (xStep, yStep) = (abs(tiling.xStep), abs(tiling.yStep))
        guard depth < Replayer.maximumDepth, patternToDevice.isUsable, xStep > 0, yStep > 0, xStep.isFinite,
            yStep.isFinite, !tiling.bbox.isEmpty
        else { return nil }
        let (lengthX, lengthY) = patternToDevice.axisLengths
        // A whole number of pixels a period, so that repeats meet exactly.
        let width = max(1, Int((xStep * lengthX).rounded()))
        let height = max(1, Int((yStep * lengthY).rounded()))
        guard width * height <= Replayer.maximumCellPixels else { return nil }
        let copiesX = Int((tiling.bbox.width / xStep).rounded(.up)) + 1
        let copiesY = Int((tiling.bbox.height / yStep).rounded(.up)) + 1
        guard copiesX * copiesY <= Replayer.maximumTileCopies, let surface = ImageSurface(width: width, height: height),
            let cellContext = cairo_create(surface.pointer)
        else { return nil }
        defer { cairo_destroy(cellContext) }
        let origin = PDFPoint(tiling.bbox.x0, tiling.bbox.y0)
        let patternToCell = PDFMatrix(
            Double(width) / xStep, 0, 0, Double(height) / yStep, -origin.x * Double(width) / xStep,
            -origin.y * Double(height) / yStep)
        // Copies whose cell [x0 + i·step, x1 + i·step] meets the period [x0, x0 + step].
        for j in (1 - copiesY)...0 {
            for i in (1 - copiesX)...0 {
                let copyToCell = PDFMatrix.translation(Double(i) * xStep, Double(j) * yStep).concatenating(
                    patternToCell)
                drawCell(tiling, into: cellContext, device: copyToCell, size: (width, height))
            }
        }
        guard let pattern = CairoPattern(cairo_pattern_create_for_surface(surface.pointer)),
            let deviceToPattern = patternToDevice.inverted()
        else { return nil }
        pattern.setMatrix(deviceToPattern.concatenating(patternToCell))
        cairo_pattern_set_extend(pattern.pointer, CAIRO_EXTEND_REPEAT)
        cairo_pattern_set_filter(pattern.pointer, CAIRO_FILTER_GOOD)
        return pattern
    }

    /// Replays a tiling pattern's cell clipped to its `/BBox`, with `device` mapping pattern space.
    private func drawCell(
        _ tiling: TilingPattern, into context: OpaquePointer, device: PDFMatrix, size: (width: Int, height: Int)
    ) {
        cairo_save(context)
        defer { cairo_restore(context) }
        let cell = Replayer(context: context, device: device, size: size, environment: environment, depth: depth + 1)
        var box = Path()
        box.rectangle(tiling.bbox.x0, tiling.bbox.y0, tiling.bbox.width, tiling.bbox.height)
        cell.clip(box, .nonZero, ctm: .identity)
        cell.replay(tiling.cell.items)
        cell.finish()
    }

    /// Draws a tiling pattern through the shape `body` builds, tile by tile straight in device
    /// space (for periods too large for a surface); gives up beyond ``maximumTileCopies`` tiles.
    func paintTilesThroughShape(_ tiling: TilingPattern, _ body: (_ source: () -> Bool) -> Void) {
        let patternToDevice = tiling.matrix.concatenating(device)
        guard depth < Replayer.maximumDepth, let deviceToPattern = patternToDevice.inverted(),
            abs(tiling.xStep) > 0, abs(tiling.yStep) > 0
        else { return }
        // The shape as a mask.
        cairo_push_group_with_content(context, CAIRO_CONTENT_ALPHA)
        var visible = clipExtents
        body {
            withDeviceMatrix {
                visible = shapeExtents()
                cairo_set_source_rgba(context, 0, 0, 0, 1)
            }
            return true
        }
        let shape = CairoPattern(cairo_pop_group(context))
        guard let shape else { return }
        let area = deviceToPattern.apply(visible)
        let (xStep, yStep) = (abs(tiling.xStep), abs(tiling.yStep))
        let columns =
            ((area.x0 - tiling.bbox.x1) / xStep).rounded(.down)...((area.x1 - tiling.bbox.x0) / xStep).rounded(.up)
        let rows =
            ((area.y0 - tiling.bbox.y1) / yStep).rounded(.down)...((area.y1 - tiling.bbox.y0) / yStep).rounded(.up)
        let count = (columns.upperBound - columns.lowerBound + 1) * (rows.upperBound - rows.lowerBound + 1)
        guard count.isFinite, count <= Double(Replayer.maximumTileCopies) else {
            environment.warn("a tiling pattern needs too many tiles (\(count)); not drawn")
            return
        }
        cairo_push_group(context)
        var row = rows.lowerBound
        while row <= rows.upperBound {
            var column = columns.lowerBound
            while column <= columns.upperBound {
                let tileToDevice = PDFMatrix.translation(column * xStep, row * yStep).concatenating(patternToDevice)
                drawCell(tiling, into: context, device: tileToDevice, size: size)
                column += 1
            }
            row += 1
        }
        cairo_pop_group_to_source(context)
        cairo_identity_matrix(context)
        cairo_mask(context, shape.pointer)
    }
}
