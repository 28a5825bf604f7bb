internal import CCairo
import PDFCore
import PDFGraphics

extension Replayer {
    /// Whether a fill or stroke with `paint` can apply `alpha` itself (see ``composite(_:direct:_:)``).
    func isDirect(_ paint: Paint, _ alpha: Double) -> Bool {
        switch paint {
        case .color: true
        case .shading(let shading, _): alpha >= 1 && shading.background == nil
        case .tiling: alpha >= 1
        }
    }

    /// Runs `body`, which builds a shape and calls `source()` to make `paint` cairo's source before
    /// painting it (false: nothing to paint). Shading patterns are clipped to their `/BBox` and
    /// drawn over their `/Background`; tiling patterns too large to repeat as a surface are drawn
    /// tile by tile through the shape.
    func withPaint(_ paint: Paint, alpha: Double, _ body: (_ source: () -> Bool) -> Void) {
        switch paint {
        case .color(let color):
            body {
                cairo_set_source_rgba(context, color.r, color.g, color.b, alpha)
                return true
            }
        case .shading(let shading, let matrix):
            let toDevice = matrix.concatenating(device)
            cairo_save(context)
            defer { cairo_restore(context) }
            if let bbox = shading.bbox {
                clip(bbox, toDevice)
            }
            if let background = shading.background {
                body {
                    cairo_set_source_rgba(context, background.r, background.g, background.b, alpha)
                    return true
                }
            }
            body {
                withDeviceMatrix {
                    let extents = shapeExtents()
                    guard
                        let pattern = ShadingPatterns.pattern(
                            for: shading, toDevice: toDevice, extents: extents, origin: environment.origin)
                    else { return false }
                    cairo_set_source(context, pattern.pointer)
                    return true
                }
            }
        case .tiling(let tiling):
            if let pattern = tilingPattern(tiling) {
                body {
                    withDeviceMatrix { cairo_set_source(context, pattern.pointer) }
                    return true
                }
            } else {
                paintTilesThroughShape(tiling, body)
            }
        }
    }

    /// Runs `body` with cairo's matrix set to the identity (device space), then puts it back.
    func withDeviceMatrix<T>(_ body: () -> T) -> T {
        var matrix = cairo_matrix_t()
        cairo_get_matrix(context, &matrix)
        cairo_identity_matrix(context)
        defer { cairo_set_matrix(context, &matrix) }
        return body()
    }

    /// The device-space extents of the current path, widened by the line width, within the clip.
    func shapeExtents() -> PDFRectangle {
        var (x0, y0, x1, y1) = (0.0, 0.0, 0.0, 0.0)
        cairo_path_extents(context, &x0, &y0, &x1, &y1)
        var pad = 2.0
        var matrix = cairo_matrix_t()
        cairo_get_matrix(context, &matrix)
        let userToDevice = PDFMatrix(matrix.xx, matrix.yx, matrix.xy, matrix.yy, 0, 0)
        pad += cairo_get_line_width(context) * userToDevice.expansion * max(1.5, cairo_get_miter_limit(context))
        let path = PDFRectangle(x0: x0 - pad, y0: y0 - pad, x1: x1 + pad, y1: y1 + pad)
        return path.intersection(clipExtents) ?? PDFRectangle(x0: 0, y0: 0, x1: 0, y1: 0)
    }

    /// Intersects the clip with `rect` mapped by `toDevice`.
    func clip(_ rect: PDFRectangle, _ toDevice: PDFMatrix) {
        var path = Path()
        path.rectangle(rect.x0, rect.y0, rect.width, rect.height)
        setPath(path, toDevice)
        cairo_set_fill_rule(context, CAIRO_FILL_RULE_WINDING)
        cairo_clip(context)
    }

    /// `sh` (ISO 32000-2 §8.7.4.2): paints the shading over the clip (its `/Background` ignored).
    func paintShading(_ shading: Shading, ctm: PDFMatrix, state: DrawState) {
        let toDevice = ctm.concatenating(device)
        composite(state, direct: true) { alpha in
            cairo_save(context)
            defer { cairo_restore(context) }
            if let bbox = shading.bbox { clip(bbox, toDevice) }
            guard
                let pattern = ShadingPatterns.pattern(
                    for: shading, toDevice: toDevice, extents: clipExtents, origin: environment.origin)
            else { return }
            cairo_set_source(context, pattern.pointer)
            cairo_paint_with_alpha(context, alpha)
        }
    }
}
