import PDFGraphics

extension Replayer {
    /// Glyph runs: drawn by the text renderer (FreeType faces through cairo-ft), in progress.
    func showGlyphs(_ run: GlyphRun, state: DrawState) {
        guard !run.font.isType3, !run.isInvisible else { return }
        environment.warn("text is not drawn yet")
    }

    /// Render modes 4–7: the clip becomes the glyph outlines.
    func clipToGlyphs(_ runs: [GlyphRun]) {}
}
