internal import CCairo
import PDFCore
import PDFGraphics

extension Replayer {
    /// Replaces cairo's path with `path` mapped by `matrix` to device space (cairo's matrix is the identity).
    func setPath(_ path: Path, _ matrix: PDFMatrix) {
        cairo_new_path(context)
        for element in path.elements {
            switch element {
            case .move(let p):
                let q = matrix.apply(p)
                cairo_move_to(context, q.x, q.y)
            case .line(let p):
                let q = matrix.apply(p)
                cairo_line_to(context, q.x, q.y)
            case .curve(let p1, let p2, let p3):
                let (q1, q2, q3) = (matrix.apply(p1), matrix.apply(p2), matrix.apply(p3))
                cairo_curve_to(context, q1.x, q1.y, q2.x, q2.y, q3.x, q3.y)
            case .close:
                cairo_close_path(context)
            }
        }
    }

    func setFillRule(_ rule: FillRule) {
        cairo_set_fill_rule(context, rule == .evenOdd ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING)
    }

    /// `W` / `W*` (ISO 32000-2 §8.5.4): intersects the clip with the path.
    func clip(_ path: Path, _ rule: FillRule, ctm: PDFMatrix) {
        cairo_set_antialias(context, environment.antiAlias ? CAIRO_ANTIALIAS_DEFAULT : CAIRO_ANTIALIAS_NONE)
        setPath(path, ctm.concatenating(device))
        setFillRule(rule)
        cairo_clip(context)
    }

    /// `f` / `f*` (§8.5.3.3).
    func fill(_ path: Path, _ rule: FillRule, _ paint: Paint, ctm: PDFMatrix, state: DrawState) {
        let toDevice = ctm.concatenating(device)
        composite(state, direct: isDirect(paint, state.alpha)) { alpha in
            withPaint(paint, alpha: alpha) { source in
                setPath(path, toDevice)
                setFillRule(rule)
                guard source() else { return }
                cairo_fill(context)
            }
        }
    }

    /// `S` (§8.5.3.2): strokes in the path's space, so widths and dashes scale with `ctm`.
    func stroke(_ path: Path, _ style: StrokeStyle, _ paint: Paint, ctm: PDFMatrix, state: DrawState) {
        let toDevice = ctm.concatenating(device)
        composite(state, direct: isDirect(paint, state.alpha)) { alpha in
            withPaint(paint, alpha: alpha) { source in
                setPath(path, toDevice)
                setStrokeStyle(style, toDevice)
                guard source() else { return }
                cairo_stroke(context)
            }
        }
    }

    /// Sets line width, caps, joins, miter limit and dashes; sets cairo's matrix to `toDevice` when it
    /// can so they are measured in the path's space (reset it before the next path is built).
    func setStrokeStyle(_ style: StrokeStyle, _ toDevice: PDFMatrix) {
        var width = style.width.isFinite ? abs(style.width) : 0
        var dashScale = 1.0
        let expansion = toDevice.expansion
        if toDevice.isUsable && expansion > 1e-9 {
            var matrix = toDevice.cairo
            cairo_set_matrix(context, &matrix)
            // A zero width is the thinnest line the device can show: one pixel (as poppler draws it).
            // Other lines thinner than a quarter pixel are drawn a quarter pixel wide, faint as
            // MuPDF and poppler show them, never invisible.
            if width == 0 {
                width = 1 / expansion
            } else if width * expansion < 0.25 {
                width = 0.25 / expansion
            }
        } else {
            width = max(width * expansion, 1)
            dashScale = expansion
        }
        cairo_set_line_width(context, width)
        let cap: cairo_line_cap_t =
            switch style.cap {
            case .butt: CAIRO_LINE_CAP_BUTT
            case .round: CAIRO_LINE_CAP_ROUND
            case .square: CAIRO_LINE_CAP_SQUARE
            }
        let join: cairo_line_join_t =
            switch style.join {
            case .miter: CAIRO_LINE_JOIN_MITER
            case .round: CAIRO_LINE_JOIN_ROUND
            case .bevel: CAIRO_LINE_JOIN_BEVEL
            }
        cairo_set_line_cap(context, cap)
        cairo_set_line_join(context, join)
        cairo_set_miter_limit(context, style.miterLimit.isFinite ? max(1, style.miterLimit) : 10)
        let dashes = style.dash.map { $0 * dashScale }
        // Cairo refuses negative lengths and all-zero arrays; PDF draws those solid (§8.4.3.6).
        if !dashes.isEmpty, dashes.allSatisfy({ $0 >= 0 && $0.isFinite }), dashes.contains(where: { $0 > 0 }) {
            cairo_set_dash(
                context, dashes, Int32(dashes.count), style.dashPhase.isFinite ? style.dashPhase * dashScale : 0)
        } else {
            cairo_set_dash(context, nil, 0, 0)
        }
    }
}
