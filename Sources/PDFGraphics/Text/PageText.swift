public import PDFCore

/// Four corners of a glyph, word or line in the user space of its page (ISO 32000-2 §8.3.2.3,
/// unrotated, origin bottom-left), named as seen along the text's baseline direction: "lower" is
/// the descent side, "left" the start of the text. For rotated or skewed text the quad is a
/// parallelogram, not an upright rectangle.
public struct TextQuad: Hashable, Sendable {
    /// The start of the text on its descent line.
    public var lowerLeft: PDFPoint
    /// The end of the text on its descent line.
    public var lowerRight: PDFPoint
    /// The end of the text on its ascent line.
    public var upperRight: PDFPoint
    /// The start of the text on its ascent line.
    public var upperLeft: PDFPoint

    /// A quad with the given corners.
    public init(lowerLeft: PDFPoint, lowerRight: PDFPoint, upperRight: PDFPoint, upperLeft: PDFPoint) {
        self.lowerLeft = lowerLeft
        self.lowerRight = lowerRight
        self.upperRight = upperRight
        self.upperLeft = upperLeft
    }

    /// The corners in the order lowerLeft, lowerRight, upperRight, upperLeft.
    public var points: [PDFPoint] { [lowerLeft, lowerRight, upperRight, upperLeft] }

    /// The smallest upright rectangle holding the quad.
    public var bounds: PDFRectangle {
        let xs = [lowerLeft.x, lowerRight.x, upperRight.x, upperLeft.x]
        let ys = [lowerLeft.y, lowerRight.y, upperRight.y, upperLeft.y]
        return PDFRectangle(x0: xs.min()!, y0: ys.min()!, x1: xs.max()!, y1: ys.max()!)
    }
}

/// One shown glyph with its text, as extraction found it (ISO 32000-2 §9.10).
public struct TextGlyph: Hashable, Sendable {
    /// The text the glyph stands for (one or more characters; a ligature may be decomposed).
    public var text: String
    /// The glyph's box: its advance along the baseline by the font's ascent and descent.
    public var quad: TextQuad
    /// The font size in user space: the height of one em across the baseline.
    public var fontSize: Double
    /// True for invisible text: render mode 3 or 7 (§9.3.6), such as an OCR layer.
    public var isHidden: Bool

    /// A glyph with the given values.
    public init(text: String, quad: TextQuad, fontSize: Double, isHidden: Bool) {
        self.text = text
        self.quad = quad
        self.fontSize = fontSize
        self.isHidden = isHidden
    }
}

/// A word: glyphs between spaces or wide gaps, in logical (reading) order.
public struct TextWord: Hashable, Sendable {
    /// The word's text (no spaces).
    public var text: String
    /// Its boxes in user space: one, or one per part where the baseline or font size changes.
    public var quads: [TextQuad]
    /// The word's glyphs in ``PageText/glyphs``.
    public var glyphRange: Range<Int>
    /// True when every glyph of the word is invisible text.
    public var isHidden: Bool

    /// A word with the given values.
    public init(text: String, quads: [TextQuad], glyphRange: Range<Int>, isHidden: Bool) {
        self.text = text
        self.quads = quads
        self.glyphRange = glyphRange
        self.isHidden = isHidden
    }
}

/// A line: words along one baseline, in reading order.
public struct TextLine: Hashable, Sendable {
    /// The words in reading order (right to left lines are given in logical order).
    public var words: [TextWord]
    /// The line's box in user space, along its baseline.
    public var quad: TextQuad
    /// True when the line's last word ends with a hyphen (U+002D, U+00AD or U+2010): the word may
    /// continue on the next line.
    public var endsWithHyphen: Bool

    /// A line with the given values.
    public init(words: [TextWord], quad: TextQuad, endsWithHyphen: Bool) {
        self.words = words
        self.quad = quad
        self.endsWithHyphen = endsWithHyphen
    }

    /// The words separated by single spaces.
    public var text: String { words.map(\.text).joined(separator: " ") }
}

/// A block: consecutive lines of one paragraph or column piece.
public struct TextBlock: Hashable, Sendable {
    /// The lines, top to bottom (for vertical text, right to left).
    public var lines: [TextLine]

    /// A block of `lines`.
    public init(lines: [TextLine]) { self.lines = lines }

    /// The upright rectangle holding the block's lines, in user space.
    public var bounds: PDFRectangle {
        lines.map(\.quad.bounds).reduce(lines.first?.quad.bounds ?? PDFRectangle(x0: 0, y0: 0, x1: 0, y1: 0)) {
            $0.union($1)
        }
    }
}

/// The text of one page: its glyphs and their grouping into words, lines and blocks in reading
/// order (like `pdftotext`'s default mode).
public struct PageText: Sendable {
    /// The page, from 0.
    public var pageIndex: Int
    /// The glyphs of the page's words in reading order; each word's ``TextWord/glyphRange``
    /// points into it. Spaces are not glyphs here: they separate words.
    public var glyphs: [TextGlyph]
    /// The blocks in reading order.
    public var blocks: [TextBlock]
    /// Problems met while interpreting the page (the rest of the text was still extracted).
    public var warnings: [String]

    /// Text of the given parts.
    public init(pageIndex: Int, glyphs: [TextGlyph], blocks: [TextBlock], warnings: [String] = []) {
        self.pageIndex = pageIndex
        self.glyphs = glyphs
        self.blocks = blocks
        self.warnings = warnings
    }

    /// Every word of the page in reading order.
    public var words: [TextWord] { blocks.flatMap { $0.lines.flatMap(\.words) } }

    /// The page as plain text: blocks separated by a blank line, lines by a line feed, words by a space.
    public var plainText: String { plainText(joiningHyphenatedLines: false) }

    /// The page as plain text, blocks separated by a blank line, lines by a line feed, words by a space.
    ///
    /// - Parameter joiningHyphenatedLines: when true, a line ending with a hyphen is joined to the
    ///   next line of its block without the hyphen (as `pdftotext` does).
    public func plainText(joiningHyphenatedLines: Bool) -> String {
        var text = ""
        for (blockIndex, block) in blocks.enumerated() {
            if blockIndex > 0 { text += "\n\n" }
            for (lineIndex, line) in block.lines.enumerated() {
                var lineText = line.text
                let isLast = lineIndex == block.lines.count - 1
                if joiningHyphenatedLines, line.endsWithHyphen, !isLast {
                    lineText.removeLast()
                    text += lineText
                    continue
                }
                text += lineText
                if !isLast { text += "\n" }
            }
        }
        return text
    }
}

/// What text extraction keeps and how it spells it.
public struct TextOptions: Sendable {
    /// Splits typographic ligatures into their letters (U+FB00 to U+FB06 and U+0132, U+0133, U+01C4
    /// to U+01CC, U+01F1 to U+01F3): `ﬁ` becomes `fi`.
    public var decomposeLigatures = false
    /// Keeps invisible text (render mode 3 or 7), marked ``TextGlyph/isHidden``; false drops it.
    public var includeHidden = true
    /// Which annotation appearances add their text: by default those shown on screen (form field
    /// values, free text), as `pdftotext` does; `.none` keeps the page content only.
    public var annotations = GraphicsOptions.Annotations.display

    /// Keeps only glyphs inside the crop box (what a viewer shows); by default, glyphs anywhere on
    /// the media box are kept, as `pdftotext` does (printer's marks included).
    public var limitToCropBox = false

    /// Reads marked content with `/ActualText` as that text (§14.9.4); false reads its glyphs.
    public var usesActualText = true

    /// The defaults: ligatures kept, hidden text included, annotations as displayed, `/ActualText` used.
    public init() {}
}
