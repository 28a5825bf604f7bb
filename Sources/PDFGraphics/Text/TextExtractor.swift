public import PDFCore
import PDFFonts

/// Extracts the text of pages with positions (ISO 32000-2 §9.10), from the same display list the
/// renderer draws (ARCHITECTURE.md invariant 5).
///
/// Glyphs are grouped into words, lines and blocks in reading order close to `pdftotext`'s
/// default mode: glyphs are cut into words at spaces and at gaps wider than 0.1 em, lines follow
/// their baseline (rotated and vertical text included), blocks are ordered top to bottom and
/// column by column. Every step sorts and sweeps, so pages with very many glyphs stay fast.
///
/// A value is safe to use from several tasks at once, one page each.
///
/// ```swift
/// let extractor = TextExtractor(document: document)
/// print(extractor.text(pageAt: 0).plainText)
/// ```
public struct TextExtractor: Sendable {
    /// The prepared document whose pages are interpreted.
    public let graphics: GraphicsDocument
    /// What is extracted and how it is spelled.
    public let options: TextOptions

    /// An extractor for `document`; its fonts are loaded once and shared by every page.
    public init(document: PDFDocument, options: TextOptions = TextOptions()) {
        var graphicsOptions = GraphicsOptions()
        graphicsOptions.annotations = options.annotations
        graphicsOptions.includesPaints = false
        self.graphics = GraphicsDocument(document: document, options: graphicsOptions)
        self.options = options
    }

    /// An extractor sharing an already prepared document (its annotation choice is used).
    public init(graphics: GraphicsDocument, options: TextOptions = TextOptions()) {
        self.graphics = graphics
        self.options = options
    }

    /// The text of page `index` (from 0). A page that does not exist gives no text and a warning.
    /// - Parameters:
    ///   - index: the page, from 0.
    ///   - budget: stops reading the page's content when spent (`budget.stop` says why; the text is
    ///     then incomplete).
    public func text(pageAt index: Int, budget: RenderBudget? = nil) -> PageText {
        text(of: graphics.displayList(pageAt: index, budget: budget), pageAt: index)
    }

    /// The text of page `index` from a display list already made for it — the renderer's, say, so
    /// that what is searched is what is drawn, and the page is interpreted once for both.
    public func text(of list: DisplayList, pageAt index: Int) -> PageText {
        let pages = graphics.document.pages
        let crop =
            pages.indices.contains(index)
            ? (options.limitToCropBox ? pages[index].cropBox : pages[index].mediaBox) : nil
        // The glyphs move into the analysis, which edits them in place (no copy of the array).
        var analysis = TextAnalysis(glyphs: TextExtractor.glyphs(of: list, crop: crop, options: options))
        let blocks = analysis.run()
        return PageText(pageIndex: index, glyphs: analysis.output, blocks: blocks, warnings: list.warnings)
    }

    /// The shown glyphs of a display list in drawing order, with their boxes: glyphs without text,
    /// and those whose advance lies wholly outside `crop` (the page's media or crop box), are left
    /// out (as `pdftotext` does with the media box).
    static func glyphs(of list: DisplayList, crop: PDFRectangle?, options: TextOptions) -> [ShownGlyph] {
        var glyphs: [ShownGlyph] = []
        glyphs.reserveCapacity(
            list.items.reduce(0) { count, item in
                if case .glyphs(let run, _) = item { return count + run.glyphs.count }
                return count
            })
        // Glyph runs drawn by Type 3 glyph procedures follow their run, in the space the font
        // matrix and the glyph's matrix give: they are pictures, not text (pdftotext skips them too).
        var procedureSpaces: Set<PDFMatrix> = []
        // `/ActualText` spans: the glyphs inside give the place, the span's text the text.
        var spans = options.usesActualText ? list.actualTexts[...] : []
        var covered: [ShownGlyph] = []
        func append(_ shown: ShownGlyph) {
            guard crop.map({ shown.touches($0) }) ?? true else { return }
            var shown = shown
            shown.index = glyphs.count
            glyphs.append(shown)
        }
        func closeSpan() {
            if let span = spans.popFirst() {
                ShownGlyph.replacing(covered, by: span.text, options: options).forEach(append)
            }
            covered.removeAll()
        }
        for (position, item) in list.items.enumerated() {
            while let span = spans.first, position >= span.items.upperBound { closeSpan() }
            let inSpan = spans.first?.items.contains(position) ?? false
            guard case .glyphs(let run, _) = item else { continue }
            if procedureSpaces.contains(run.ctm) {
                if run.font.isType3 { procedureSpaces.formUnion(procedureMatrices(run)) }
                continue
            }
            procedureSpaces = run.font.isType3 ? procedureMatrices(run) : []
            let hidden = run.isInvisible
            if hidden && !options.includeHidden { continue }
            let metrics = FontExtent(run.font)
            let simple = run.font.kind != .cidType0 && run.font.kind != .cidType2
            for glyph in run.glyphs {
                let raw = glyph.unicode ?? (simple ? ShownGlyph.fallback(glyph.code) : nil)
                let text = raw.flatMap { ShownGlyph.clean($0, decomposeLigatures: options.decomposeLigatures) }
                // Inside a span every glyph counts for the place, text or not.
                guard inSpan || text != nil else { continue }
                var shown = ShownGlyph(
                    glyph, text: text ?? "", vertical: run.font.isVertical, extent: metrics, hidden: hidden)
                shown.fontSize *= metrics.sizeScale
                if text != nil, shown.isMark, glyph.advance == 0, !shown.isVertical,
                    let middle = run.font.inkMiddle(ofCID: glyph.cid)
                {
                    shown.place(atInk: middle, matrix: glyph.matrix, extent: metrics)
                }
                if inSpan { covered.append(shown) } else { append(shown) }
            }
        }
        while !spans.isEmpty { closeSpan() }
        return glyphs
    }
}

/// The spaces the glyph procedures of a Type 3 run are drawn in (§9.6.4).
private func procedureMatrices(_ run: GlyphRun) -> Set<PDFMatrix> {
    Set(run.glyphs.prefix(4096).map { run.font.fontMatrix.concatenating($0.matrix) })
}

/// The ascent and descent of a font in em, as used to size glyph boxes: the descriptor's values
/// when sensible (0 < ascent < 3 em, -3 em < descent < 0), else 0.8 and -0.2 em.
///
/// A Type 3 font's em says nothing of its glyphs' size (§9.6.4): its box comes from `/FontBBox`,
/// and its size for word spacing is guessed from the width of `m` (or of a letter), as
/// `pdftotext` does.
struct FontExtent {
    var ascent: Double
    var descent: Double
    /// What the em size is multiplied by to give the size used for spacing decisions.
    var sizeScale = 1.0

    init(_ font: LoadedFont) {
        if font.isVertical {
            (ascent, descent) = (0.88, -0.12)
            return
        }
        if font.isType3 {
            (ascent, descent) = (0.8, -0.2)
            if let box = font.type3?.fontBBox {
                let m = font.fontMatrix
                let ys = [
                    PDFPoint(box.x0, box.y0), PDFPoint(box.x1, box.y0), PDFPoint(box.x0, box.y1),
                    PDFPoint(box.x1, box.y1),
                ]
                .map { m.apply($0).y }
                if let low = ys.min(), let high = ys.max(), high > 0, high > low, high.isFinite, low.isFinite {
                    (ascent, descent) = (high, min(low, 0))
                }
            }
            sizeScale = FontExtent.type3Scale(font)
            return
        }
        let ascent = abs(font.descriptor.ascent) / 1000
        let descent = -abs(font.descriptor.descent) / 1000
        self.ascent = ascent > 0 && ascent < 3 ? ascent : 0.8
        self.descent = descent < 0 && descent > -3 ? descent : -0.2
    }
}

extension FontExtent {
    /// The width of `m` over 0.6 em (else of a letter, else of any glyph, over 0.5 em), times the
    /// font matrix's aspect ratio. Codes `/Differences` leaves unnamed keep their StandardEncoding
    /// names here, the base poppler gives a Type 3 encoding without `/BaseEncoding`.
    static func type3Scale(_ font: LoadedFont) -> Double {
        var letter: Double?
        var any: Double?
        for code in 0..<256 {
            let name = font.glyphName(for: UInt32(code)) ?? BaseEncoding.standard.glyphName(at: UInt8(code))
            let width = font.glyphs(in: [UInt8(code)]).first?.width ?? 0
            guard width > 0 else { continue }
            if name == "m" {
                return width / 0.6 * aspect(font.fontMatrix)
            }
            if letter == nil, let name, name.count == 1, name.first!.isLetter, name.first!.isASCII {
                letter = width
            }
            if any == nil, name != nil { any = width }
        }
        guard let width = letter ?? any else { return 1 }
        return width / 0.5 * aspect(font.fontMatrix)
    }

    private static func aspect(_ m: PDFMatrix) -> Double { m.a != 0 ? abs(m.d / m.a) : 1 }
}

/// A glyph as extraction sees it: text, box, and its advance as a segment in user space.
struct ShownGlyph {
    var text: String
    var quad: TextQuad
    /// The pen position before and after the glyph (for vertical text, on the glyph's centre line).
    var start: PDFPoint
    var end: PDFPoint
    /// The unit vector of the writing direction.
    var direction: PDFPoint
    var fontSize: Double
    var isHidden: Bool
    var isSpace: Bool
    /// Combining marks only (Arabic and Hebrew vowels, accents drawn on their own).
    var isMark: Bool
    var isVertical: Bool
    /// The position in drawing order.
    var index = 0

    init(_ glyph: PositionedGlyph, text: String, vertical: Bool, extent: FontExtent, hidden: Bool) {
        let m = glyph.matrix
        self.text = text
        isHidden = hidden
        isVertical = vertical
        (isSpace, isMark) = ShownGlyph.kind(of: text)
        if vertical {
            // The em square is placed with its vertical origin (width/2, 0.88) on the pen (§9.7.4.3).
            let width = glyph.advance > 0 ? glyph.advance : 1
            start = m.apply(PDFPoint(width / 2, extent.ascent))
            end = m.apply(PDFPoint(width / 2, extent.descent))
            quad = TextQuad(
                lowerLeft: m.apply(PDFPoint(0, extent.ascent)), lowerRight: m.apply(PDFPoint(0, extent.descent)),
                upperRight: m.apply(PDFPoint(width, extent.descent)), upperLeft: m.apply(PDFPoint(width, extent.ascent))
            )
            let axis = m.applyLinear(PDFPoint(0, -1))
            direction = ShownGlyph.unit(axis) ?? PDFPoint(0, -1)
            let length = (m.c * m.c + m.d * m.d).squareRoot()
            fontSize = length > 0 ? abs(m.determinant) / length : (m.a * m.a + m.b * m.b).squareRoot()
        } else {
            start = m.apply(PDFPoint(0, 0))
            end = m.apply(PDFPoint(glyph.advance, 0))
            quad = TextQuad(
                lowerLeft: m.apply(PDFPoint(0, extent.descent)),
                lowerRight: m.apply(PDFPoint(glyph.advance, extent.descent)),
                upperRight: m.apply(PDFPoint(glyph.advance, extent.ascent)),
                upperLeft: m.apply(PDFPoint(0, extent.ascent)))
            let axis = m.applyLinear(PDFPoint(1, 0))
            direction = ShownGlyph.unit(axis) ?? PDFPoint(1, 0)
            let length = (axis.x * axis.x + axis.y * axis.y).squareRoot()
            fontSize = length > 0 ? abs(m.determinant) / length : (m.c * m.c + m.d * m.d).squareRoot()
        }
    }

    /// The glyphs that stand for `text` where the `covered` glyphs were drawn (§14.9.4): its
    /// characters spread evenly over their extent along the writing direction of the first one, as
    /// poppler places them, right to left for right-to-left text (so that reading order gives the
    /// text back in its logical order). Nothing when no glyph was drawn or the text is empty.
    static func replacing(_ covered: [ShownGlyph], by text: String, options: TextOptions) -> [ShownGlyph] {
        guard let first = covered.first,
            let text = clean(text, decomposeLigatures: options.decomposeLigatures)
        else { return [] }
        let characters = Array(text)
        let axis = first.direction
        func along(_ point: PDFPoint) -> Double { point.x * axis.x + point.y * axis.y }
        let positions = covered.flatMap { [along($0.start), along($0.end)] }
        guard let low = positions.min(), let high = positions.max() else { return [] }
        // The line the first glyph stands on, and its box around its segment.
        let origin = PDFPoint(first.start.x - axis.x * along(first.start), first.start.y - axis.y * along(first.start))
        func point(_ t: Double) -> PDFPoint { PDFPoint(origin.x + axis.x * t, origin.y + axis.y * t) }
        func offset(_ corner: PDFPoint, _ from: PDFPoint) -> PDFPoint { PDFPoint(corner.x - from.x, corner.y - from.y) }
        let (startLow, startHigh) = (
            offset(first.quad.lowerLeft, first.start), offset(first.quad.upperLeft, first.start)
        )
        let (endLow, endHigh) = (offset(first.quad.lowerRight, first.end), offset(first.quad.upperRight, first.end))
        let step = (high - low) / Double(characters.count)
        let rightToLeft = !first.isVertical && Bidi.direction([text]) < 0
        return characters.enumerated().map { index, character in
            let slot = rightToLeft ? characters.count - 1 - index : index
            let start = point(low + step * Double(slot))
            let end = point(low + step * Double(slot + 1))
            var glyph = first
            glyph.text = String(character)
            (glyph.isSpace, glyph.isMark) = ShownGlyph.kind(of: glyph.text)
            glyph.start = start
            glyph.end = end
            glyph.quad = TextQuad(
                lowerLeft: PDFPoint(start.x + startLow.x, start.y + startLow.y),
                lowerRight: PDFPoint(end.x + endLow.x, end.y + endLow.y),
                upperRight: PDFPoint(end.x + endHigh.x, end.y + endHigh.y),
                upperLeft: PDFPoint(start.x + startHigh.x, start.y + startHigh.y))
            return glyph
        }
    }

    /// Moves a zero-width mark to the middle of its ink (`middle` em along the baseline from its
    /// origin), so that it sorts with the letter it stands over.
    mutating func place(atInk middle: Double, matrix m: PDFMatrix, extent: FontExtent) {
        start = m.apply(PDFPoint(middle, 0))
        end = start
        quad = TextQuad(
            lowerLeft: m.apply(PDFPoint(middle, extent.descent)), lowerRight: m.apply(PDFPoint(middle, extent.descent)),
            upperRight: m.apply(PDFPoint(middle, extent.ascent)), upperLeft: m.apply(PDFPoint(middle, extent.ascent)))
    }

    /// Whether `text` is white space, and whether it is combining marks only (Arabic and Hebrew
    /// vowels, accents drawn on their own).
    static func kind(of text: String) -> (isSpace: Bool, isMark: Bool) {
        // Unicode property lookups cost more than the rest of a glyph: ASCII and Latin-1 answer
        // without them (no mark precedes U+0300).
        let isSpace = text.unicodeScalars.allSatisfy {
            $0.value < 0x80 ? $0.value == 0x20 || (0x09...0x0D).contains($0.value) : $0.properties.isWhitespace
        }
        let isMark = text.unicodeScalars.allSatisfy {
            guard $0.value >= 0x300 else { return false }
            switch $0.properties.generalCategory {
            case .nonspacingMark, .enclosingMark, .spacingMark: return true
            default: return false
            }
        }
        return (isSpace, isMark)
    }

    static func unit(_ vector: PDFPoint) -> PDFPoint? {
        let length = (vector.x * vector.x + vector.y * vector.y).squareRoot()
        guard length > 1e-9, length.isFinite else { return nil }
        return PDFPoint(vector.x / length, vector.y / length)
    }

    /// False when the advance segment lies wholly outside `rect` (or is not finite).
    func touches(_ rect: PDFRectangle) -> Bool {
        guard start.x.isFinite, start.y.isFinite, end.x.isFinite, end.y.isFinite, fontSize.isFinite else {
            return false
        }
        return max(start.x, end.x) >= rect.x0 && min(start.x, end.x) <= rect.x1 && max(start.y, end.y) >= rect.y0
            && min(start.y, end.y) <= rect.y1
    }

    /// The text of a simple font's code that no mapping names: the code read as Latin-1, when it
    /// is a printable character (as `pdftotext` does).
    static func fallback(_ code: UInt32) -> String? {
        guard (0x21...0x7E).contains(code) || (0xA1...0xFF).contains(code), let scalar = Unicode.Scalar(code)
        else { return nil }
        return String(Character(scalar))
    }

    /// The text to keep: control characters dropped (tab, line feed and carriage return become a
    /// space), ligatures split when asked; nil when nothing is left.
    static func clean(_ text: String, decomposeLigatures: Bool) -> String? {
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x09, 0x0A, 0x0D: scalars.append(" ")
            case 0..<0x20, 0x7F, 0xFFFD, 0xFEFF: continue
            default:
                if decomposeLigatures, let letters = Ligatures.letters[scalar.value] {
                    scalars.append(contentsOf: letters.unicodeScalars)
                } else {
                    scalars.append(scalar)
                }
            }
        }
        return scalars.isEmpty ? nil : String(scalars)
    }

    var textGlyph: TextGlyph { TextGlyph(text: text, quad: quad, fontSize: fontSize, isHidden: isHidden) }
}

/// Ligatures and digraphs that stand for several letters.
enum Ligatures {
    static let letters: [UInt32: String] = [
        0xFB00: "ff", 0xFB01: "fi", 0xFB02: "fl", 0xFB03: "ffi", 0xFB04: "ffl", 0xFB05: "st", 0xFB06: "st",
        0x0132: "IJ", 0x0133: "ij", 0x01C4: "DŽ", 0x01C5: "Dž", 0x01C6: "dž", 0x01C7: "LJ", 0x01C8: "Lj",
        0x01C9: "lj", 0x01CA: "NJ", 0x01CB: "Nj", 0x01CC: "nj", 0x01F1: "DZ", 0x01F2: "Dz", 0x01F3: "dz",
    ]
}
