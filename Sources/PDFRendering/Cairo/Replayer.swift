internal import CCairo
import PDFCore
import PDFGraphics

/// Replays display items into a cairo context whose device space `device` maps user space to.
///
/// Paths are transformed to device space here and added with cairo's identity matrix, so singular
/// or huge transformations never put the context in an error state; only strokes, images and
/// masks set a matrix, after checking it is invertible.
final class Replayer {
    let context: OpaquePointer
    /// User space (of the items) → device space of the context's target.
    let device: PDFMatrix
    /// The target's size in pixels (soft masks are rendered at this size).
    let size: (width: Int, height: Int)
    let environment: RenderEnvironment
    /// How deeply replays nest (patterns in patterns, masks in masks): bounded.
    let depth: Int
    private var frames: [Frame] = [Frame(group: nil)]

    static let maximumDepth = 12

    /// A transparency group being drawn, or the page: the clips saved in it.
    private struct Frame {
        var group: TransparencyGroup?
        var saves = 0
        /// Drawn straight onto the backdrop (see ``beginGroup(_:)``).
        var passThrough = false
    }

    init(
        context: OpaquePointer, device: PDFMatrix, size: (width: Int, height: Int), environment: RenderEnvironment,
        depth: Int
    ) {
        self.context = context
        self.device = device
        self.size = size
        self.environment = environment
        self.depth = depth
    }

    /// Whether items are drawn in a knockout group (each replaces what the group drew before it).
    var inKnockoutGroup: Bool { frames.last?.group?.knockout ?? false }

    func replay(_ items: [DisplayItem]) {
        for item in items {
            guard environment.admit() else { return }
            guard cairo_status(context) == CAIRO_STATUS_SUCCESS else {
                environment.warn("cairo: \(String(cString: cairo_status_to_string(cairo_status(context))))")
                return
            }
            cairo_identity_matrix(context)
            switch item {
            case .save:
                cairo_save(context)
                frames[frames.count - 1].saves += 1
            case .restore:
                if frames[frames.count - 1].saves > 0 {
                    cairo_restore(context)
                    frames[frames.count - 1].saves -= 1
                }
            case .clip(let path, let rule, let ctm):
                clip(path, rule, ctm: ctm)
            case .fill(let path, let rule, let paint, let ctm, let state):
                fill(path, rule, paint, ctm: ctm, state: state)
            case .stroke(let path, let style, let paint, let ctm, let state):
                stroke(path, style, paint, ctm: ctm, state: state)
            case .image(let image, let ctm, let state):
                drawImage(image, ctm: ctm, state: state)
            case .stencilMask(let image, let paint, let ctm, let state):
                drawStencil(image, paint, ctm: ctm, state: state)
            case .shading(let shading, let ctm, let state):
                paintShading(shading, ctm: ctm, state: state)
            case .glyphs(let run, let state):
                showGlyphs(run, state: state)
            case .clipGlyphs(let runs):
                clipToGlyphs(runs)
            case .beginGroup(let group):
                beginGroup(group)
            case .endGroup:
                endGroup()
            }
        }
    }

    /// Closes groups and clips left open by the list.
    func finish() {
        while frames.count > 1 { endGroup() }
        while frames[0].saves > 0 {
            cairo_restore(context)
            frames[0].saves -= 1
        }
    }

    // MARK: Transparency groups (ISO 32000-2 §11.4.7)

    private func beginGroup(_ group: TransparencyGroup) {
        cairo_save(context)
        // A non-isolated, non-knockout group composited with alpha 1, Normal and no soft mask
        // gives what its contents give drawn straight onto the backdrop (§11.4.7.2): drawn so, its
        // blend modes see the page (a highlight's Multiply darkens the text instead of hiding it).
        if !group.isolated, !group.knockout, group.state.alpha >= 1, group.state.blendMode == .normal,
            group.state.softMask == nil
        {
            frames.append(Frame(group: group, passThrough: true))
            return
        }
        if let bounds = group.bounds {
            // Only to keep the group's buffer small: whole pixels, so nothing inside is cut.
            let box = device.apply(bounds).pixelAligned
            cairo_rectangle(context, box.x0, box.y0, box.width, box.height)
            cairo_clip(context)
        }
        // Cairo groups start transparent: other groups are drawn as isolated (a non-isolated
        // group's blend modes then see a transparent backdrop instead of the page).
        cairo_push_group(context)
        frames.append(Frame(group: group))
    }

    private func endGroup() {
        guard frames.count > 1, let group = frames.last?.group else { return }
        while frames[frames.count - 1].saves > 0 {
            cairo_restore(context)
            frames[frames.count - 1].saves -= 1
        }
        let frame = frames.removeLast()
        if frame.passThrough {
            cairo_restore(context)
            return
        }
        cairo_pop_group_to_source(context)
        cairo_identity_matrix(context)
        applyState(group.state, knockout: false)
        paintSource(alpha: group.state.alpha, mask: group.state.softMask)
        cairo_restore(context)
    }

    // MARK: Compositing

    /// Sets the operator and anti-aliasing of `state`.
    func applyState(_ state: DrawState, knockout: Bool) {
        let op =
            knockout && state.blendMode == .normal && state.softMask == nil
            ? CAIRO_OPERATOR_SOURCE : state.blendMode.cairoOperator
        cairo_set_operator(context, op)
        cairo_set_antialias(
            context, environment.antiAlias && state.antiAlias ? CAIRO_ANTIALIAS_DEFAULT : CAIRO_ANTIALIAS_NONE)
    }

    /// Draws with `state`: `draw` paints with the alpha it is given. When it can apply the
    /// constant alpha itself (`direct`) and there is no soft mask, it draws straight into the
    /// target; otherwise into a group that is then composited with the alpha and the mask.
    func composite(_ state: DrawState, direct: Bool, _ draw: (_ alpha: Double) -> Void) {
        guard state.alpha > 0 || state.softMask != nil else { return }
        if direct && state.softMask == nil {
            applyState(state, knockout: inKnockoutGroup)
            draw(state.alpha)
            return
        }
        cairo_save(context)
        cairo_push_group(context)
        cairo_set_operator(context, CAIRO_OPERATOR_OVER)
        cairo_set_antialias(
            context, environment.antiAlias && state.antiAlias ? CAIRO_ANTIALIAS_DEFAULT : CAIRO_ANTIALIAS_NONE)
        draw(1)
        cairo_pop_group_to_source(context)
        cairo_identity_matrix(context)
        applyState(state, knockout: false)
        paintSource(alpha: state.alpha, mask: state.softMask)
        cairo_restore(context)
    }

    /// Paints the current source over the clip with constant `alpha`, through `mask` when given.
    func paintSource(alpha: Double, mask: SoftMask?) {
        guard let mask else {
            if alpha >= 1 { cairo_paint(context) } else { cairo_paint_with_alpha(context, alpha) }
            return
        }
        // No surface: the mask's region is empty (nothing shows through it) or it failed (warned).
        guard let (surface, x, y) = maskSurface(mask) else { return }
        cairo_identity_matrix(context)
        if alpha >= 1 {
            cairo_mask_surface(context, surface.pointer, Double(x), Double(y))
            return
        }
        let source = cairo_pattern_reference(cairo_get_source(context))
        defer { cairo_pattern_destroy(source) }
        let op = cairo_get_operator(context)
        cairo_push_group(context)
        cairo_set_operator(context, CAIRO_OPERATOR_OVER)
        cairo_set_source(context, source)
        cairo_mask_surface(context, surface.pointer, Double(x), Double(y))
        cairo_pop_group_to_source(context)
        cairo_set_operator(context, op)
        cairo_paint_with_alpha(context, alpha)
    }

    /// The clip's extents in device space.
    var clipExtents: PDFRectangle {
        var (x0, y0, x1, y1) = (0.0, 0.0, 0.0, 0.0)
        cairo_clip_extents(context, &x0, &y0, &x1, &y1)
        return PDFRectangle(x0: x0, y0: y0, x1: x1, y1: y1)
    }
}
