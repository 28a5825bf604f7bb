import PDFCore

extension PageText {
    /// The page as plain text that keeps the approximate horizontal positions of words (like
    /// `pdftotext -layout`): lines on the same baseline share a row, and each word starts at the
    /// column its position gives at a fixed character width.
    ///
    /// Positions are taken along the page's main writing direction (that of its longest line).
    ///
    /// - Parameter characterWidth: the width of one column in user space units; by default the
    ///   median glyph advance of the page.
    public func layoutText(characterWidth: Double? = nil) -> String {
        let lines = blocks.flatMap(\.lines)
        guard let longest = lines.max(by: { length($0.quad) < length($1.quad) }) else { return "" }
        let axis = PDFPoint(
            longest.quad.lowerRight.x - longest.quad.lowerLeft.x, longest.quad.lowerRight.y - longest.quad.lowerLeft.y)
        let size = max(length(longest.quad), 1e-9)
        let u = PDFPoint(axis.x / size, axis.y / size)
        let v = PDFPoint(-u.y, u.x)
        let width = characterWidth ?? medianAdvance()
        guard width > 0 else { return plainText }
        struct Placed {
            var base: Double
            var size: Double
            var words: [(x: Double, text: String)]
        }
        var placed = lines.map { line in
            Placed(
                base: projection(line.quad.lowerLeft, v),
                size: max(line.words.first.map { fontSize(of: $0) } ?? 1, 1e-6),
                words: line.words.map { (projection($0.quads.first?.lowerLeft ?? line.quad.lowerLeft, u), $0.text) })
        }
        placed.sort { $0.base > $1.base }
        let left = placed.flatMap { $0.words.map(\.x) }.min() ?? 0
        var rows: [Placed] = []
        for line in placed {
            if var row = rows.last, row.base - line.base < 0.5 * max(row.size, line.size) {
                row.words += line.words
                rows[rows.count - 1] = row
            } else {
                rows.append(line)
            }
        }
        var text = ""
        var previous: Placed?
        for row in rows {
            if let previous {
                let gap = (previous.base - row.base) / (1.2 * max(previous.size, row.size))
                text += String(repeating: "\n", count: 1 + min(2, max(0, Int(gap.rounded()) - 1)))
            }
            var line = ""
            var column = 0
            for word in row.words.sorted(by: { $0.x < $1.x }) {
                let target = Int(((word.x - left) / width).rounded())
                if target > column {
                    line += String(repeating: " ", count: target - column)
                    column = target
                } else if !line.isEmpty {
                    line += " "
                    column += 1
                }
                line += word.text
                column += word.text.count
            }
            text += line
            previous = row
        }
        return text
    }

    private func length(_ quad: TextQuad) -> Double {
        let (dx, dy) = (quad.lowerRight.x - quad.lowerLeft.x, quad.lowerRight.y - quad.lowerLeft.y)
        return (dx * dx + dy * dy).squareRoot()
    }

    private func fontSize(of word: TextWord) -> Double {
        glyphs.indices.contains(word.glyphRange.lowerBound) ? glyphs[word.glyphRange.lowerBound].fontSize : 1
    }

    /// The median advance of the page's glyphs (per character of their text).
    private func medianAdvance() -> Double {
        var advances = glyphs.compactMap { glyph -> Double? in
            let count = glyph.text.count
            let advance = length(glyph.quad) / Double(max(count, 1))
            return advance > 0 ? advance : nil
        }
        guard !advances.isEmpty else { return 0 }
        advances.sort()
        return advances[advances.count / 2]
    }
}
