internal import CCairo
import PDFCore
import PDFGraphics

extension Replayer {
    /// Shows a glyph run (ISO 32000-2 §9.3.6): fills (render modes 0, 2, 4, 6) and strokes (1, 2,
    /// 5, 6) the glyphs of the font's face — its embedded program or a substitute — with the
    /// run's paints and the state's alpha, blend mode and soft mask. Type 3 glyphs are drawn by
    /// the items that follow the run; invisible text (3, 7) draws nothing.
    func showGlyphs(_ run: GlyphRun, state: DrawState) {
        guard !run.font.isType3, !run.isInvisible else { return }
        guard let glyphs = environment.fonts.glyphs(for: run.font) else {
            environment.warn("font \(run.font.baseFont): no face to draw it with")
            return
        }
        let placement = GlyphPlacement(run, glyphs: glyphs, device: device)
        if placement.skipped > 0 {
            environment.warn("font \(run.font.baseFont): \(placement.skipped) glyphs with an unusable matrix")
        }
        guard !placement.isEmpty else { return }
        let fonts = scaledFonts(for: placement, face: glyphs.face)
        if let paint = run.fill {
            composite(state, direct: isDirect(paint, state.alpha)) { alpha in
                withPaint(paint, alpha: alpha) { source in
                    if case .color = paint {
                        // Colour: the glyph images cairo caches.
                        guard source() else { return }
                        showGlyphs(placement, fonts)
                    } else {
                        glyphPath(placement, fonts)
                        cairo_set_fill_rule(context, CAIRO_FILL_RULE_WINDING)
                        guard source() else { return }
                        cairo_fill(context)
                    }
                }
            }
        }
        if let paint = run.stroke {
            cairo_identity_matrix(context)
            let toDevice = run.ctm.concatenating(device)
            composite(state, direct: isDirect(paint, state.alpha)) { alpha in
                withPaint(paint, alpha: alpha) { source in
                    glyphPath(placement, fonts)
                    setStrokeStyle(run.strokeStyle, toDevice)
                    guard source() else { return }
                    cairo_stroke(context)
                }
                cairo_identity_matrix(context)
            }
        }
    }

    /// Render modes 4–7 at `ET` (§9.3.6): the clip becomes its intersection with the union of the
    /// glyph outlines of `runs`. Type 3 glyphs and fonts without a face add nothing; when nothing
    /// at all can be added the clip is left as it is.
    func clipToGlyphs(_ runs: [GlyphRun]) {
        var parts: [(GlyphPlacement, [CairoScaledFont?])] = []
        for run in runs where !run.font.isType3 {
            guard let glyphs = environment.fonts.glyphs(for: run.font) else { continue }
            let placement = GlyphPlacement(run, glyphs: glyphs, device: device)
            guard !placement.isEmpty else { continue }
            parts.append((placement, scaledFonts(for: placement, face: glyphs.face)))
        }
        guard !parts.isEmpty else { return }
        cairo_identity_matrix(context)
        cairo_set_antialias(context, environment.antiAlias ? CAIRO_ANTIALIAS_DEFAULT : CAIRO_ANTIALIAS_NONE)
        cairo_new_path(context)
        for (placement, fonts) in parts { appendGlyphPath(placement, fonts) }
        cairo_set_fill_rule(context, CAIRO_FILL_RULE_WINDING)
        cairo_clip(context)
    }

    // MARK: Glyphs in cairo

    /// One scaled font per group (nil where cairo refuses the matrix).
    private func scaledFonts(for placement: GlyphPlacement, face: TextFace) -> [CairoScaledFont?] {
        guard let options = cairo_font_options_create() else { return placement.groups.map { _ in nil } }
        defer { cairo_font_options_destroy(options) }
        // Unhinted outlines at their exact size and position, grey anti-aliasing: as MuPDF draws.
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        cairo_font_options_set_antialias(options, environment.antiAlias ? CAIRO_ANTIALIAS_GRAY : CAIRO_ANTIALIAS_NONE)
        var previous: (PDFMatrix, CairoScaledFont?)? = nil
        return placement.groups.map { group in
            if let previous, previous.0 == group.fontMatrix { return previous.1 }
            let font = CairoScaledFont(face: face.cairoFace, fontMatrix: group.fontMatrix, options: options)
            previous = (group.fontMatrix, font)
            return font
        }
    }

    /// Draws the glyphs with the current source (device space).
    private func showGlyphs(_ placement: GlyphPlacement, _ fonts: [CairoScaledFont?]) {
        withDeviceMatrix {
            for (group, font) in zip(placement.groups, fonts) {
                guard let font else { continue }
                cairo_set_scaled_font(context, font.pointer)
                let glyphs = group.glyphs.map { cairo_glyph_t(index: UInt($0.index), x: $0.x, y: $0.y) }
                cairo_show_glyphs(context, glyphs, Int32(glyphs.count))
            }
        }
    }

    /// Replaces the current path with the glyph outlines (device space).
    private func glyphPath(_ placement: GlyphPlacement, _ fonts: [CairoScaledFont?]) {
        cairo_new_path(context)
        appendGlyphPath(placement, fonts)
    }

    private func appendGlyphPath(_ placement: GlyphPlacement, _ fonts: [CairoScaledFont?]) {
        withDeviceMatrix {
            for (group, font) in zip(placement.groups, fonts) {
                guard let font else { continue }
                cairo_set_scaled_font(context, font.pointer)
                let glyphs = group.glyphs.map { cairo_glyph_t(index: UInt($0.index), x: $0.x, y: $0.y) }
                cairo_glyph_path(context, glyphs, Int32(glyphs.count))
            }
        }
    }
}

/// A cairo scaled font, owned: a face at one font matrix, for device space (identity CTM).
final class CairoScaledFont {
    let pointer: OpaquePointer

    init?(face: OpaquePointer, fontMatrix: PDFMatrix, options: OpaquePointer) {
        var matrix = fontMatrix.cairo
        var identity = cairo_matrix_t()
        cairo_matrix_init_identity(&identity)
        guard let font = cairo_scaled_font_create(face, &matrix, &identity, options) else { return nil }
        guard cairo_scaled_font_status(font) == CAIRO_STATUS_SUCCESS else {
            cairo_scaled_font_destroy(font)
            return nil
        }
        pointer = font
    }

    deinit { cairo_scaled_font_destroy(pointer) }
}
