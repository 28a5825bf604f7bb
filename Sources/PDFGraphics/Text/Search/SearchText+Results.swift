import PDFCore

extension SearchText {
    /// The characters of context kept on each side of a hit.
    static let contextLength = 40

    /// The result for the units in `range`.
    func result(_ range: Range<Int>) -> SearchResult {
        SearchResult(pageIndex: page.pageIndex, quads: quads(range), text: text(range), context: context(range))
    }

    /// The glyphs of `range` in reading order, each once.
    func glyphs(_ range: Range<Int>) -> [Int] {
        var glyphs: [Int] = []
        for unit in units[range] where unit.glyph >= 0 && glyphs.last != Int(unit.glyph) {
            glyphs.append(Int(unit.glyph))
        }
        return glyphs
    }

    /// One quad per line the glyphs of `range` lie on: along the line's baseline from the first
    /// matched glyph's start to the last one's end, across it from their lowest to highest edge.
    func quads(_ range: Range<Int>) -> [TextQuad] {
        var groups: [(line: Int32, glyphs: [Int])] = []
        for glyph in glyphs(range) {
            let line = lineOfGlyph[glyph]
            if let index = groups.lastIndex(where: { $0.line == line }) {
                groups[index].glyphs.append(glyph)
            } else {
                groups.append((line, [glyph]))
            }
        }
        return groups.map { group in
            let quads = group.glyphs.map { page.glyphs[$0].quad }
            let u = direction(line: group.line, first: quads[0])
            let v = PDFPoint(-u.y, u.x)
            var (x0, x1, bottom, top) = (Double.infinity, -Double.infinity, Double.infinity, -Double.infinity)
            for point in quads.flatMap(\.points) {
                let x = point.x * u.x + point.y * u.y
                let y = point.x * v.x + point.y * v.y
                (x0, x1, bottom, top) = (min(x0, x), max(x1, x), min(bottom, y), max(top, y))
            }
            func point(_ x: Double, _ y: Double) -> PDFPoint { PDFPoint(u.x * x + v.x * y, u.y * x + v.y * y) }
            return TextQuad(
                lowerLeft: point(x0, bottom), lowerRight: point(x1, bottom), upperRight: point(x1, top),
                upperLeft: point(x0, top))
        }
    }

    /// The unit vector along a line's baseline (from its quad, else from a glyph's, else x).
    private func direction(line: Int32, first: TextQuad) -> PDFPoint {
        for quad in [lines.indices.contains(Int(line)) ? lines[Int(line)].quad : first, first] {
            let dx = quad.lowerRight.x - quad.lowerLeft.x
            let dy = quad.lowerRight.y - quad.lowerLeft.y
            let length = (dx * dx + dy * dy).squareRoot()
            if length > 1e-9, length.isFinite { return PDFPoint(dx / length, dy / length) }
        }
        return PDFPoint(1, 0)
    }

    /// The page's text for `range`: each glyph's text once, a space between words, a line feed
    /// between lines (also after a hyphen at a line end); on one line, a space between lines and
    /// nothing after a hyphen at a line end.
    func text(_ range: Range<Int>, oneLine: Bool = false) -> String {
        let lineBreak = oneLine ? " " : "\n"
        var text = ""
        var last: Int32 = -1
        for index in range {
            let unit = units[index]
            switch unit.kind {
            case .space:
                text += " "
                last = -1
            case .lineBreak:
                text += lineBreak
                last = -1
            case .character, .softHyphen:
                if unit.glyph != last {
                    if !oneLine, index > range.lowerBound, units[index - 1].kind == .softHyphen { text += "\n" }
                    text += page.glyphs[Int(unit.glyph)].text
                    last = unit.glyph
                }
            }
        }
        return text
    }

    /// About ``contextLength`` characters each side of `range`, cut at word boundaries where one is
    /// near, on one line.
    func context(_ range: Range<Int>) -> String {
        var start = max(0, range.lowerBound - SearchText.contextLength)
        if start > 0 {
            var index = start
            while index < range.lowerBound, !units[index - 1].isSeparator { index += 1 }
            if index < range.lowerBound { start = index }
        }
        // Whole glyphs only: a hit that begins inside a ligature shows all of it.
        while start > 0, units[start].glyph >= 0, units[start - 1].glyph == units[start].glyph { start -= 1 }
        var end = min(units.count, range.upperBound + SearchText.contextLength)
        if end < units.count {
            var index = end
            while index > range.upperBound, !units[index].isSeparator { index -= 1 }
            if index > range.upperBound { end = index }
        }
        while end < units.count, units[end].glyph >= 0, units[end - 1].glyph == units[end].glyph { end += 1 }
        let text = self.text(start..<end, oneLine: true)
        guard let first = text.firstIndex(where: { $0 != " " }), let last = text.lastIndex(where: { $0 != " " }) else {
            return ""
        }
        return String(text[first...last])
    }
}
