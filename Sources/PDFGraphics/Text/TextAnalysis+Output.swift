import PDFCore

extension TextAnalysis {
    // MARK: Output

    mutating func emit(block: [Int], lines: [LineBuild], u: PDFPoint, v: PDFPoint) -> TextBlock {
        TextBlock(lines: block.map { emit(line: lines[$0], u: u, v: v) })
    }

    mutating func emit(line: LineBuild, u: PDFPoint, v: PDFPoint) -> TextLine {
        var words: [TextWord] = []
        var rightToLeft = 0
        for var members in line.words {
            let direction = Bidi.direction(members.map { glyphs[$0].text })
            if direction < 0 {
                members = reversedClusters(members, u: u)
                rightToLeft += 1
            } else if direction > 0 {
                rightToLeft -= 1
            }
            let start = output.count
            var text = ""
            for member in members {
                output.append(glyphs[member].textGlyph)
                text += glyphs[member].text
            }
            words.append(
                TextWord(
                    text: text, quads: quads(members, u: u, v: v), glyphRange: start..<output.count,
                    isHidden: members.allSatisfy { glyphs[$0].isHidden }))
        }
        if rightToLeft > 0 { words.reverse() }
        let quad = frameQuad(x0: line.x0, x1: line.x1, bottom: line.bottom, top: line.top, u: u, v: v)
        let last = words.last?.text.unicodeScalars.last
        let hyphen = last == "-" || last == "\u{AD}" || last == "\u{2010}"
        return TextLine(words: words, quad: quad, endsWithHyphen: hyphen)
    }

    /// Glyphs in the opposite order, each base glyph followed by its combining marks. A mark
    /// belongs to the base glyph it is drawn over: producers write it after its base (HarfBuzz's
    /// order) or before it (the whole run reversed), so the neighbour whose extent along `u` holds
    /// the mark's centre takes it; the one before when both or neither do.
    func reversedClusters(_ members: [Int], u: PDFPoint) -> [Int] {
        func extent(_ glyph: ShownGlyph) -> (Double, Double) {
            let (a, b) = (projection(glyph.start, u), projection(glyph.end, u))
            return (min(a, b), max(a, b))
        }
        func distance(_ point: Double, _ range: (Double, Double)) -> Double {
            point < range.0 ? range.0 - point : (point > range.1 ? point - range.1 : 0)
        }
        let bases = members.indices.filter { !glyphs[members[$0]].isMark }
        // For each base (by its position in `members`), its marks in drawing order.
        var marks: [Int: [Int]] = [:]
        var loose: [Int] = []
        var nextBase = 0
        for (position, member) in members.enumerated() {
            guard glyphs[member].isMark else { continue }
            while nextBase < bases.count && bases[nextBase] < position { nextBase += 1 }
            let before = nextBase > 0 ? bases[nextBase - 1] : nil
            let after = nextBase < bases.count ? bases[nextBase] : nil
            let centre = (projection(glyphs[member].start, u) + projection(glyphs[member].end, u)) / 2
            var owner = before ?? after
            if let before, let after,
                distance(centre, extent(glyphs[members[after]])) < distance(centre, extent(glyphs[members[before]]))
            {
                owner = after
            }
            if let owner { marks[owner, default: []].append(member) } else { loose.append(member) }
        }
        return bases.reversed().flatMap { [members[$0]] + (marks[$0] ?? []) } + loose
    }

    /// A word's boxes: one per run of glyphs on the same baseline and font size.
    func quads(_ members: [Int], u: PDFPoint, v: PDFPoint) -> [TextQuad] {
        var quads: [TextQuad] = []
        var box: (x0: Double, x1: Double, bottom: Double, top: Double)?
        var reference = (base: 0.0, size: 0.0)
        for member in members {
            let glyph = glyphs[member]
            let base = projection(glyph.start, v)
            if let current = box,
                abs(base - reference.base) > 0.1 * reference.size
                    || abs(glyph.fontSize - reference.size) > 0.05 * reference.size
            {
                quads.append(
                    frameQuad(x0: current.x0, x1: current.x1, bottom: current.bottom, top: current.top, u: u, v: v))
                box = nil
            }
            if box == nil {
                box = (.infinity, -.infinity, .infinity, -.infinity)
                reference = (base, glyph.fontSize)
            }
            for point in glyph.quad.points {
                let (x, y) = (projection(point, u), projection(point, v))
                box = (min(box!.x0, x), max(box!.x1, x), min(box!.bottom, y), max(box!.top, y))
            }
        }
        if let box { quads.append(frameQuad(x0: box.x0, x1: box.x1, bottom: box.bottom, top: box.top, u: u, v: v)) }
        return quads
    }

    func frameQuad(x0: Double, x1: Double, bottom: Double, top: Double, u: PDFPoint, v: PDFPoint) -> TextQuad {
        func point(_ x: Double, _ y: Double) -> PDFPoint { PDFPoint(u.x * x + v.x * y, u.y * x + v.y * y) }
        return TextQuad(
            lowerLeft: point(x0, bottom), lowerRight: point(x1, bottom), upperRight: point(x1, top),
            upperLeft: point(x0, top))
    }
}
