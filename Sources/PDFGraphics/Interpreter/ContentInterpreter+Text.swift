import PDFCore

extension ContentInterpreter {
    func setFont(_ name: PDFName, size: Double) {
        state.text.fontSize = size
        guard let object = resource("Font", name) else {
            warn("font /\(name.string) is not in the resources")
            state.text.font = nil
            return
        }
        let font = graphics.fonts.font(object)
        for warning in font.warnings { warn("font /\(name.string): \(warning)") }
        state.text.font = font
    }

    func beginText() {
        if inText { endText() }
        inText = true
        textMatrix = .identity
        lineMatrix = .identity
        textClipRuns = []
    }

    /// `ET`: glyphs shown in clipping modes (4–7) become the clip (§9.3.6).
    func endText() {
        inText = false
        if !textClipRuns.isEmpty, !isHidden {
            items.append(.clipGlyphs(textClipRuns))
        }
        textClipRuns = []
    }

    /// `Td`, `TD`, `T*`: a new line offset from the start of the current one.
    func moveText(_ x: Double, _ y: Double) {
        lineMatrix = PDFMatrix.translation(x, y).concatenating(lineMatrix)
        textMatrix = lineMatrix
    }

    /// `Tj`, `TJ`, `'` and `"`: strings and, for `TJ`, position adjustments in thousandths of an em (§9.4.3).
    func showText(_ elements: [PDFObject]) {
        guard let font = state.text.font else {
            warn("text shown without a font")
            return
        }
        let text = state.text
        let size = text.fontSize
        let scaling = text.horizontalScaling
        let vertical = font.isVertical
        let renderMode = text.renderMode
        var glyphs: [PositionedGlyph] = []
        for element in elements {
            switch element {
            case .integer, .real:
                let adjustment = -(element.numberValue ?? 0) / 1000 * size
                textMatrix =
                    (vertical
                    ? PDFMatrix.translation(0, adjustment) : PDFMatrix.translation(adjustment * scaling, 0))
                    .concatenating(textMatrix)
            case .string(let string):
                for code in font.glyphs(in: string.bytes) {
                    var origin = PDFMatrix(size * scaling, 0, 0, size, 0, text.rise)
                    if vertical {
                        // The glyph's vertical origin sits on the current point (§9.7.4.3).
                        let offset = code.verticalOrigin ?? PDFPoint(code.width / 2, 0.88)
                        origin = PDFMatrix.translation(-offset.x, -offset.y).concatenating(origin)
                    }
                    let matrix = origin.concatenating(textMatrix).concatenating(state.ctm)
                    glyphs.append(
                        PositionedGlyph(
                            code: code.code, cid: code.cid, unicode: code.unicode, matrix: matrix, advance: code.width))
                    let spacing = text.characterSpacing + (code.isWordSpace ? text.wordSpacing : 0)
                    if vertical {
                        let advance = (code.verticalAdvance ?? -1) * size + spacing
                        textMatrix = PDFMatrix.translation(0, advance).concatenating(textMatrix)
                    } else {
                        let advance = (code.width * size + spacing) * scaling
                        textMatrix = PDFMatrix.translation(advance, 0).concatenating(textMatrix)
                    }
                }
            default:
                break
            }
        }
        guard !glyphs.isEmpty else { return }
        let fills = [0, 2, 4, 6].contains(renderMode)
        let strokes = [1, 2, 5, 6].contains(renderMode)
        let run = GlyphRun(
            font: font, glyphs: glyphs, renderMode: renderMode,
            fill: fills ? currentPaint(stroking: false) : nil, stroke: strokes ? currentPaint(stroking: true) : nil,
            strokeStyle: state.strokeStyle, ctm: state.ctm)
        emit(.glyphs(run, state: state.drawState(stroking: !fills && strokes)))
        if run.addsToClip { textClipRuns.append(run) }
        if font.isType3, renderMode != 3, renderMode != 7 {
            _ = entering(.font(ObjectIdentifier(font)), "Type 3 font \(font.baseFont)") { drawType3(run) }
        }
    }

    /// Runs each glyph's procedure with the glyph space mapped by the font matrix (§9.6.4).
    private func drawType3(_ run: GlyphRun) {
        guard let type3 = run.font.type3 else { return }
        for glyph in run.glyphs {
            guard let name = run.font.glyphName(for: glyph.code), let procedure = type3.charProcs[name],
                let stream = document.resolve(procedure).streamValue
            else { continue }
            let bytes: [UInt8]
            do {
                bytes = try stream.decodedData(maxSize: 1 << 24)
            } catch {
                warn("Type 3 glyph /\(name): \(error.message)")
                continue
            }
            let saved = (uncoloredGlyph, forcedColor)
            runNested(
                bytes, resources: type3.resources ?? resources, ctm: run.font.fontMatrix.concatenating(glyph.matrix))
            (uncoloredGlyph, forcedColor) = saved
        }
    }
}
