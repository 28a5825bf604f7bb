import PDFCore

/// The graphics state of ISO 32000-2 §8.4 that `q` saves and `Q` restores (the clip lives in the
/// display list, nested by its save and restore items).
struct GraphicsState {
    var ctm: PDFMatrix
    var strokeStyle = StrokeStyle()
    var fill = ColorState()
    var stroke = ColorState()
    var fillAlpha = 1.0
    var strokeAlpha = 1.0
    var blendMode = BlendMode.normal
    var softMask: SoftMask? = nil
    /// `/AIS`: alpha values are shape values (read, treated as opacity).
    var alphaIsShape = false
    var text = TextState()

    init(ctm: PDFMatrix) { self.ctm = ctm }

    func drawState(stroking: Bool) -> DrawState {
        var state = DrawState()
        state.alpha = stroking ? strokeAlpha : fillAlpha
        state.blendMode = blendMode
        state.softMask = softMask
        return state
    }
}

/// The current colour for filling or stroking: a space, its components, and for pattern spaces
/// the pattern's name.
struct ColorState {
    var space: ColorSpace = .deviceGray
    var components: [Double] = [0]
    var pattern: PDFName? = nil
}

/// Text state parameters (§9.3), saved with the graphics state.
struct TextState {
    var characterSpacing = 0.0
    var wordSpacing = 0.0
    /// `Tz` ÷ 100.
    var horizontalScaling = 1.0
    var leading = 0.0
    var font: LoadedFont? = nil
    var fontSize = 0.0
    var renderMode = 0
    var rise = 0.0
}
