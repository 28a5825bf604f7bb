/// A page's text as search sees it: the folded scalars of its glyphs in reading order, each
/// pointing back to the glyph it came from, with separators between words and lines.
///
/// Words are separated by one space unit and lines by one line break unit, except after a line
/// that ends with a hyphen inside a block: there the hyphen becomes a soft hyphen unit that a
/// query may skip ("signa-" + "ture" is found by "signature") or match with `-`.
struct SearchText {
    enum Kind: UInt8 {
        case character
        case space
        case lineBreak
        case softHyphen
    }

    struct Unit {
        var scalar: Unicode.Scalar
        /// The glyph in ``PageText/glyphs``; -1 for separators.
        var glyph: Int32
        var kind: Kind

        var isSeparator: Bool { kind == .space || kind == .lineBreak }
    }

    let page: PageText
    private(set) var units: [Unit] = []
    /// The line (counted over the whole page in reading order) of each glyph.
    private(set) var lineOfGlyph: [Int32]
    /// Every line of the page in reading order.
    private(set) var lines: [TextLine] = []

    init(_ page: PageText, folding: SearchFolding) {
        self.page = page
        lineOfGlyph = Array(repeating: -1, count: page.glyphs.count)
        units.reserveCapacity(page.glyphs.count + page.glyphs.count / 4)
        for block in page.blocks {
            for (lineIndex, line) in block.lines.enumerated() {
                let number = Int32(lines.count)
                lines.append(line)
                for word in line.words {
                    separate(.space)
                    for glyph in word.glyphRange where page.glyphs.indices.contains(glyph) {
                        lineOfGlyph[glyph] = number
                        folding.fold(page.glyphs[glyph].text) {
                            units.append(Unit(scalar: $0, glyph: Int32(glyph), kind: .character))
                        }
                    }
                }
                if line.endsWithHyphen, lineIndex < block.lines.count - 1, let last = line.words.last?.glyphRange.last {
                    // The hyphen glyph's units become one soft hyphen, and the next line follows at once.
                    while let unit = units.last, unit.glyph == Int32(last), unit.kind == .character {
                        units.removeLast()
                    }
                    units.append(Unit(scalar: "-", glyph: Int32(last), kind: .softHyphen))
                } else {
                    separate(.lineBreak)
                }
            }
        }
        while units.last?.isSeparator == true { units.removeLast() }
    }

    /// Appends a separator unless the text is empty or already ends with one (a line break wins).
    private mutating func separate(_ kind: Kind) {
        guard let last = units.last, last.kind != .softHyphen else { return }
        if last.isSeparator {
            if kind == .lineBreak { units[units.count - 1].kind = .lineBreak }
            return
        }
        units.append(Unit(scalar: " ", glyph: -1, kind: kind))
    }
}
