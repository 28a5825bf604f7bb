import PDFCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Glyphs drawn one after the other that belong to one word: cut at spaces, at gaps wider than
/// 0.1 em, at overlaps beyond 0.2 em, at baseline, size, direction or visibility changes.
struct Fragment {
    var members: [Int]
    var direction: PDFPoint
    var fontSize: Double
    var isHidden: Bool
    var isVertical: Bool
    /// The writing direction in whole degrees, 0 to 359: fragments with the same key share a frame.
    var key = 0
    // In the frame of `key`: the extent along the baseline and the baseline's height.
    var x0 = 0.0
    var x1 = 0.0
    var base = 0.0
}

/// A line being built, in the frame of its direction group.
struct LineBuild {
    var words: [[Int]]
    var x0: Double
    var x1: Double
    var base: Double
    var bottom: Double
    var top: Double
    var fontSize: Double
}

/// The grouping of a page's glyphs into words, lines and blocks in reading order (sort and sweep,
/// O(n log n) in the glyphs; block ordering is quadratic in blocks only, and capped).
struct TextAnalysis {
    var glyphs: [ShownGlyph]
    /// The glyphs of the words in reading order.
    var output: [TextGlyph] = []

    /// Whether the page reads right to left: more of its letters are of bidi class R or AL than L
    /// (poppler's primary direction). Columns are then read from the right.
    var rightToLeft = false

    init(glyphs: [ShownGlyph]) { self.glyphs = glyphs }

    mutating func run() -> [TextBlock] {
        var fragments = removeDuplicates(makeFragments())
        let shown = glyphs
        rightToLeft = Bidi.direction(shown.lazy.map(\.text)) < 0
        var groups: [Int: [Int]] = [:]
        for index in fragments.indices {
            let d = fragments[index].direction
            var degrees = Int((atan2(d.y, d.x) * 180 / Double.pi).rounded())
            degrees = ((degrees % 360) + 360) % 360
            fragments[index].key = degrees
            groups[degrees, default: []].append(index)
        }
        let keys = groups.keys.sorted { a, b in
            let (ca, cb) = (groups[a]!.count, groups[b]!.count)
            return ca != cb ? ca > cb : a < b
        }
        var blocks: [TextBlock] = []
        for key in keys {
            blocks += analyse(group: groups[key]!, key: key, fragments: &fragments)
        }
        return blocks
    }

    // MARK: Fragments

    mutating func makeFragments() -> [Fragment] {
        var fragments: [Fragment] = []
        var current: Fragment?
        var lastOverlap = false
        var maxAlong = 0.0
        var minAlong = 0.0
        var base = 0.0
        for index in glyphs.indices {
            let glyph = glyphs[index]
            if glyph.isSpace {
                if let done = current { fragments.append(done) }
                current = nil
                lastOverlap = false
                continue
            }
            if var fragment = current {
                let u = fragment.direction
                let v = PDFPoint(-u.y, u.x)
                let size = fragment.fontSize
                let along = projection(glyph.start, u)
                let gap = along - maxAlong
                let baseDelta = abs(projection(glyph.start, v) - base)
                let last = glyphs[fragment.members[fragment.members.count - 1]]
                let lastAdvance = abs(projection(last.end, u) - projection(last.start, u))
                let overlap =
                    lastAdvance > 0.01 * size && abs(along - projection(last.start, u)) < 0.1 * size
                    && baseDelta < 0.2 * size
                let sameWay = projection(u, glyph.direction) > 0.999 && glyph.isVertical == fragment.isVertical
                let breaks =
                    !sameWay || overlap || lastOverlap || gap < -0.2 * size || gap > 0.1 * size
                    || baseDelta > min(0.5, 0.25 * size) || abs(glyph.fontSize - size) > 0.01 * size
                    || glyph.isHidden != fragment.isHidden
                // A combining mark over the fragment's glyphs belongs to them, wherever it is drawn.
                let joinsAsMark =
                    glyph.isMark && sameWay && along >= minAlong - 0.3 * size && along <= maxAlong + 0.1 * size
                    && baseDelta < 0.6 * size && glyph.isHidden == fragment.isHidden
                if joinsAsMark {
                    fragment.members.append(index)
                    current = fragment
                    continue
                }
                // A spacing accent (¨, ´, ˆ …) drawn over a letter, before or after it, becomes a
                // combining mark after the letter (as pdftotext does).
                let lastIndex = fragment.members[fragment.members.count - 1]
                if sameWay, baseDelta < 0.6 * size, glyph.isHidden == fragment.isHidden {
                    if let mark = Accents.combining(last.text), covers(glyph, last, u: u) {
                        glyphs[lastIndex].text = mark
                        glyphs[lastIndex].isMark = true
                        fragment.members[fragment.members.count - 1] = index
                        fragment.members.append(lastIndex)
                        maxAlong = max(maxAlong, projection(glyph.end, u), along)
                        current = fragment
                        lastOverlap = false
                        continue
                    }
                    if let mark = Accents.combining(glyph.text), covers(last, glyph, u: u) {
                        glyphs[index].text = mark
                        glyphs[index].isMark = true
                        fragment.members.append(index)
                        current = fragment
                        continue
                    }
                }
                lastOverlap = overlap
                if !breaks {
                    fragment.members.append(index)
                    maxAlong = max(maxAlong, projection(glyph.end, u), along)
                    minAlong = min(minAlong, projection(glyph.end, u), along)
                    current = fragment
                    continue
                }
                fragments.append(fragment)
            }
            current = Fragment(
                members: [index], direction: glyph.direction, fontSize: glyph.fontSize, isHidden: glyph.isHidden,
                isVertical: glyph.isVertical)
            let u = glyph.direction
            maxAlong = max(projection(glyph.start, u), projection(glyph.end, u))
            minAlong = min(projection(glyph.start, u), projection(glyph.end, u))
            base = projection(glyph.start, PDFPoint(-u.y, u.x))
        }
        if let done = current { fragments.append(done) }
        return fragments
    }

    /// True when the middle of `accent`'s advance lies over `letter`'s.
    func covers(_ letter: ShownGlyph, _ accent: ShownGlyph, u: PDFPoint) -> Bool {
        let middle = (projection(accent.start, u) + projection(accent.end, u)) / 2
        let (a, b) = (projection(letter.start, u), projection(letter.end, u))
        return middle >= min(a, b) - 0.05 * letter.fontSize && middle <= max(a, b) + 0.05 * letter.fontSize
            && abs(b - a) > 0.01 * letter.fontSize
    }

    /// Drops a fragment that repeats the text of an earlier one at nearly the same place (fake
    /// bold, drop shadows): within 0.1 em along the baseline and 0.2 em across.
    func removeDuplicates(_ fragments: [Fragment]) -> [Fragment] {
        // Fragments by the cell (one font size square) their first glyph starts in; the text is
        // compared only for those in the 3 × 3 cells around (hashing two integers, not the text).
        struct Cell: Hashable {
            var x: Int
            var y: Int
        }
        var seen: [Cell: [Int]] = [:]
        var kept: [Fragment] = []
        var keptTexts: [String] = []
        kept.reserveCapacity(fragments.count)
        keptTexts.reserveCapacity(fragments.count)
        for fragment in fragments {
            let text = self.text(of: fragment.members)
            let first = glyphs[fragment.members[0]].start
            let size = max(fragment.fontSize, 1e-6)
            let (cx, cy) = (Int((first.x / size).rounded(.down)), Int((first.y / size).rounded(.down)))
            var duplicate = false
            search: for dx in -1...1 {
                for dy in -1...1 {
                    for other in seen[Cell(x: cx + dx, y: cy + dy)] ?? [] where keptTexts[other] == text {
                        let earlier = kept[other]
                        let start = glyphs[earlier.members[0]].start
                        let delta = PDFPoint(first.x - start.x, first.y - start.y)
                        let u = earlier.direction
                        if projection(u, fragment.direction) > 0.999, abs(projection(delta, u)) < 0.1 * size,
                            abs(projection(delta, PDFPoint(-u.y, u.x))) < 0.2 * size,
                            abs(earlier.fontSize - fragment.fontSize) < 0.05 * size
                        {
                            duplicate = true
                            break search
                        }
                    }
                }
            }
            if duplicate { continue }
            if cx.magnitude < 1 << 40, cy.magnitude < 1 << 40 {
                seen[Cell(x: cx, y: cy), default: []].append(kept.count)
            }
            kept.append(fragment)
            keptTexts.append(text)
        }
        return kept
    }

    func text(of members: [Int]) -> String {
        var text = ""
        for index in members { text += glyphs[index].text }
        return text
    }

    // MARK: Lines, words and blocks of one direction

    mutating func analyse(group: [Int], key: Int, fragments: inout [Fragment]) -> [TextBlock] {
        let angle = Double(key) * Double.pi / 180
        let u = PDFPoint(cos(angle), sin(angle))
        let v = PDFPoint(-u.y, u.x)
        for index in group {
            var fragment = fragments[index]
            var low = Double.infinity
            var high = -Double.infinity
            for member in fragment.members {
                let glyph = glyphs[member]
                let (a, b) = (projection(glyph.start, u), projection(glyph.end, u))
                low = min(low, a, b)
                high = max(high, a, b)
            }
            fragment.x0 = low
            fragment.x1 = high
            fragment.base = projection(glyphs[fragment.members[0]].start, v)
            fragments[index] = fragment
        }
        let frags = fragments
        // Baseline clusters, top to bottom.
        let sorted = group.sorted { a, b in
            frags[a].base != frags[b].base ? frags[a].base > frags[b].base : frags[a].x0 < frags[b].x0
        }
        var lines: [LineBuild] = []
        var cluster: [Int] = []
        var reference = (base: 0.0, size: 0.0)
        var previous = (base: 0.0, size: 0.0)
        for index in sorted {
            let fragment = frags[index]
            // Within half an em of the top of the cluster, or stepping down less than 0.4 em at a
            // time (text on a slope, sub- and superscripts) to at most one em below it.
            let size = max(reference.size, fragment.fontSize)
            let drop = reference.base - fragment.base
            let step = previous.base - fragment.base
            defer { previous = (fragment.base, fragment.fontSize) }
            if !cluster.isEmpty,
                drop <= 0.5 * size || (drop <= size && step <= 0.4 * max(previous.size, fragment.fontSize))
            {
                cluster.append(index)
                continue
            }
            if !cluster.isEmpty { lines += makeLines(cluster, frags, u: u, v: v) }
            cluster = [index]
            reference = (fragment.base, fragment.fontSize)
        }
        if !cluster.isEmpty { lines += makeLines(cluster, frags, u: u, v: v) }
        let blocks = makeBlocks(lines)
        return orderBlocks(blocks, lines).map { emit(block: $0, lines: lines, u: u, v: v) }
    }

    /// Splits a baseline cluster at gaps wider than 1.5 em (columns), then joins its fragments into
    /// words: fragments closer than 0.03 em (or, when every fragment is one glyph and the smallest
    /// gap is under half an em, closer than 1.3 times the smallest gap: letter-spaced text, not
    /// leaders of dots far apart) make one word, as in `pdftotext`.
    func makeLines(_ cluster: [Int], _ frags: [Fragment], u: PDFPoint, v: PDFPoint) -> [LineBuild] {
        let ordered = cluster.sorted { frags[$0].x0 < frags[$1].x0 }
        // Text overprinted on another baseline of the cluster (overlapping titles, shadows at an
        // offset) makes a line of its own: a fragment goes to the line with the nearest baseline
        // that it does not overlap by more than 0.3 em, or that has its baseline, or — marks only —
        // whose baseline is within 0.6 em.
        var rows: [(base: Double, end: Double, size: Double, members: [Int])] = []
        for index in ordered {
            let fragment = frags[index]
            let size = fragment.fontSize
            // Combining marks drawn on their own sit over a letter of a line, above or below it.
            let isMarks = fragment.members.allSatisfy { glyphs[$0].isMark }
            var best: Int?
            for (position, row) in rows.enumerated() {
                let delta = abs(row.base - fragment.base)
                guard
                    row.end <= fragment.x0 + 0.3 * size || (delta <= 0.1 * size && abs(row.size - size) <= 0.05 * size)
                        || (isMarks && delta <= 0.6 * size)
                else { continue }
                if best.map({ delta < abs(rows[$0].base - fragment.base) }) ?? true { best = position }
            }
            if best == nil, rows.count >= 64 {
                best = rows.indices.min { abs(rows[$0].base - fragment.base) < abs(rows[$1].base - fragment.base) }
            }
            if let best {
                rows[best].end = max(rows[best].end, fragment.x1)
                rows[best].members.append(index)
            } else {
                rows.append((fragment.base, fragment.x1, size, [index]))
            }
        }
        var pieces: [[Int]] = []
        for row in rows {
            var end = -Double.infinity
            for (position, index) in row.members.enumerated() {
                let fragment = frags[index]
                if position == 0 || fragment.x0 - end > 1.5 * fragment.fontSize {
                    pieces.append([index])
                } else {
                    pieces[pieces.count - 1].append(index)
                }
                end = max(end, fragment.x1)
            }
        }
        return pieces.map { piece in
            let size = frags[piece[0]].fontSize
            var space = 0.03 * size
            if piece.count > 1, piece.allSatisfy({ frags[$0].members.count == 1 }) {
                var smallest = Double.infinity
                for (a, b) in zip(piece, piece.dropFirst()) { smallest = min(smallest, frags[b].x0 - frags[a].x1) }
                if smallest > 0, smallest < 0.5 * size { space = 1.3 * smallest }
            }
            var words: [[Int]] = []
            var wordEnd = -Double.infinity
            var line = LineBuild(
                words: [], x0: .infinity, x1: -.infinity, base: frags[piece[0]].base, bottom: .infinity,
                top: -.infinity, fontSize: 0)
            for index in piece {
                let fragment = frags[index]
                if words.isEmpty || fragment.x0 - wordEnd >= space {
                    words.append(fragment.members)
                } else {
                    words[words.count - 1] += fragment.members
                }
                wordEnd = max(wordEnd, fragment.x1)
                line.x0 = min(line.x0, fragment.x0)
                line.x1 = max(line.x1, fragment.x1)
                line.fontSize = max(line.fontSize, fragment.fontSize)
                for member in fragment.members {
                    for point in glyphs[member].quad.points {
                        let height = projection(point, v)
                        line.bottom = min(line.bottom, height)
                        line.top = max(line.top, height)
                    }
                }
            }
            line.words = words
            return line
        }
    }

    /// Lines into blocks: a line joins the block above it when their extents overlap along the
    /// baseline, their font sizes agree within 10 % and the baselines are at most 2.2 em apart
    /// (double-spaced paragraphs stay one block, as in `pdftotext`).
    func makeBlocks(_ lines: [LineBuild]) -> [[Int]] {
        struct Open {
            var block: Int
            var x0: Double
            var x1: Double
            var base: Double
            var size: Double
        }
        let order = lines.indices.sorted { lines[$0].base > lines[$1].base }
        var blocks: [[Int]] = []
        var open: [Open] = []
        for index in order {
            let line = lines[index]
            open.removeAll { $0.base - line.base > 2.4 * $0.size }
            var best: Int?
            var bestGap = Double.infinity
            for (position, candidate) in open.enumerated() {
                let gap = candidate.base - line.base
                let size = max(candidate.size, line.fontSize)
                guard gap > 0.3 * size, gap <= 2.2 * size,
                    abs(candidate.size - line.fontSize) <= 0.1 * size,
                    min(candidate.x1, line.x1) > max(candidate.x0, line.x0)
                else { continue }
                if gap < bestGap {
                    best = position
                    bestGap = gap
                }
            }
            if let best {
                blocks[open[best].block].append(index)
                open[best].x0 = min(open[best].x0, line.x0)
                open[best].x1 = max(open[best].x1, line.x1)
                open[best].base = line.base
            } else {
                open.append(Open(block: blocks.count, x0: line.x0, x1: line.x1, base: line.base, size: line.fontSize))
                blocks.append([index])
            }
        }
        return blocks
    }

    /// Orders blocks for reading (after Breuel's rules): a block comes before one below it that it
    /// overlaps along the baseline, and before one to its right (to its left on a page that reads
    /// right to left) unless a block between them spans both; otherwise the higher block first.
    func orderBlocks(_ blocks: [[Int]], _ lines: [LineBuild]) -> [[Int]] {
        struct Box {
            var x0, x1, top, bottom: Double
            var middle: Double { (top + bottom) / 2 }
        }
        let boxes = blocks.map { block in
            block.reduce(Box(x0: .infinity, x1: -.infinity, top: -.infinity, bottom: .infinity)) { box, index in
                let line = lines[index]
                return Box(
                    x0: min(box.x0, line.x0), x1: max(box.x1, line.x1), top: max(box.top, line.top),
                    bottom: min(box.bottom, line.bottom))
            }
        }
        let count = blocks.count
        let rightToLeft = rightToLeft
        let byPosition = (0..<count).sorted { a, b in
            if boxes[a].top != boxes[b].top { return boxes[a].top > boxes[b].top }
            return rightToLeft ? boxes[a].x1 > boxes[b].x1 : boxes[a].x0 < boxes[b].x0
        }
        guard count > 1, count <= 1500 else { return byPosition.map { blocks[$0] } }
        func overlapsAlong(_ a: Int, _ b: Int) -> Bool { min(boxes[a].x1, boxes[b].x1) > max(boxes[a].x0, boxes[b].x0) }
        var successors = Array(repeating: [Int](), count: count)
        var incoming = Array(repeating: 0, count: count)
        for a in 0..<count {
            for b in 0..<count where a != b {
                var before = false
                if overlapsAlong(a, b) {
                    before = boxes[a].middle > boxes[b].middle
                } else if rightToLeft ? boxes[b].x1 <= boxes[a].x0 : boxes[a].x1 <= boxes[b].x0 {
                    before = true
                    if count <= 200 {
                        let (high, low) = (max(boxes[a].middle, boxes[b].middle), min(boxes[a].middle, boxes[b].middle))
                        for c in 0..<count where c != a && c != b {
                            if boxes[c].middle < high, boxes[c].middle > low, overlapsAlong(c, a), overlapsAlong(c, b) {
                                before = false
                                break
                            }
                        }
                    } else {
                        before = min(boxes[a].top, boxes[b].top) > max(boxes[a].bottom, boxes[b].bottom)
                    }
                }
                if before {
                    successors[a].append(b)
                    incoming[b] += 1
                }
            }
        }
        // Kahn's algorithm, taking the highest ready block; a cycle is broken at its highest block.
        var rank = Array(repeating: 0, count: count)
        for (position, index) in byPosition.enumerated() { rank[index] = position }
        var done = Array(repeating: false, count: count)
        var result: [[Int]] = []
        var ready = Set((0..<count).filter { incoming[$0] == 0 })
        while result.count < count {
            let next =
                ready.min { rank[$0] < rank[$1] } ?? byPosition.first { !done[$0] }!
            ready.remove(next)
            done[next] = true
            result.append(blocks[next])
            for successor in successors[next] where !done[successor] {
                incoming[successor] -= 1
                if incoming[successor] == 0 { ready.insert(successor) }
            }
        }
        return result
    }
}

@inline(__always) func projection(_ a: PDFPoint, _ b: PDFPoint) -> Double { a.x * b.x + a.y * b.y }
