/// Changed pixels gathered in square cells: for each cell the bounding box of its changed pixels.
/// Touching cells make regions (see ``PageDifference``).
struct CellGrid {
    var columns: Int
    var rows: Int
    /// `columns × rows` boxes, nil for a cell without changes.
    var cells: [PixelBox?]
    /// How many pixels changed.
    let changedPixels: Int

    init(mask: ChangeMask, cellSize: Int) {
        columns = (mask.width + cellSize - 1) / cellSize
        rows = (mask.height + cellSize - 1) / cellSize
        var cells = [PixelBox?](repeating: nil, count: columns * rows)
        var changed = 0
        let columns = columns
        mask.states.withUnsafeBufferPointer { states in
            for y in 0..<mask.height {
                let row = y * mask.width
                let cellRow = (y / cellSize) * columns
                // Each cell's span of the row: its first and last changed pixel, one update of its box.
                for column in 0..<columns {
                    let start = column * cellSize
                    let end = min(start + cellSize, mask.width)
                    var first = -1
                    var last = -1
                    for x in start..<end where states[row + x] != ChangeMask.same {
                        if first < 0 { first = x }
                        last = x
                        changed += 1
                    }
                    guard first >= 0 else { continue }
                    let span = PixelBox(x0: first, y0: y, x1: last + 1, y1: y + 1)
                    cells[cellRow + column] = cells[cellRow + column].map { $0.union(span) } ?? span
                }
            }
        }
        self.cells = cells
        changedPixels = changed
    }

    /// At most `maximum` boxes covering every changed pixel, none touching another, sorted top to
    /// bottom then left to right.
    mutating func regions(maximum: Int) -> [PixelBox] {
        var boxes: [PixelBox]
        while true {
            if let found = components(limit: 4 * maximum) {
                boxes = found
                break
            }
            coarsen()
        }
        CellGrid.mergeTouching(&boxes)
        while boxes.count > maximum {
            CellGrid.mergeCheapestPair(&boxes)
            CellGrid.mergeTouching(&boxes)
        }
        return boxes.sorted { ($0.y0, $0.x0, $0.y1, $0.x1) < ($1.y0, $1.x0, $1.y1, $1.x1) }
    }

    /// The bounding boxes of the groups of touching changed cells (diagonals included), or nil as
    /// soon as there are more than `limit`.
    func components(limit: Int) -> [PixelBox]? {
        var seen = [Bool](repeating: false, count: cells.count)
        var boxes: [PixelBox] = []
        var stack: [Int] = []
        for start in cells.indices where cells[start] != nil && !seen[start] {
            guard boxes.count < limit else { return nil }
            seen[start] = true
            stack.append(start)
            var box = cells[start]!
            while let index = stack.popLast() {
                box = box.union(cells[index]!)
                let (column, row) = (index % columns, index / columns)
                for neighbourRow in max(0, row - 1)...min(rows - 1, row + 1) {
                    for neighbourColumn in max(0, column - 1)...min(columns - 1, column + 1) {
                        let neighbour = neighbourRow * columns + neighbourColumn
                        if cells[neighbour] != nil && !seen[neighbour] {
                            seen[neighbour] = true
                            stack.append(neighbour)
                        }
                    }
                }
            }
            boxes.append(box)
        }
        return boxes
    }

    /// Cells twice as large: each the union of up to four. A grid of one cell has one component, so
    /// coarsening ends.
    mutating func coarsen() {
        let newColumns = (columns + 1) / 2
        let newRows = (rows + 1) / 2
        var merged = [PixelBox?](repeating: nil, count: newColumns * newRows)
        for row in 0..<rows {
            for column in 0..<columns {
                guard let box = cells[row * columns + column] else { continue }
                let index = (row / 2) * newColumns + column / 2
                merged[index] = merged[index].map { $0.union(box) } ?? box
            }
        }
        (columns, rows, cells) = (newColumns, newRows, merged)
    }

    /// Merges boxes that overlap or touch until none do.
    static func mergeTouching(_ boxes: inout [PixelBox]) {
        var mergedAny = true
        while mergedAny {
            mergedAny = false
            var index = 0
            while index < boxes.count {
                var other = index + 1
                while other < boxes.count {
                    if boxes[index].touches(boxes[other]) {
                        boxes[index] = boxes[index].union(boxes.remove(at: other))
                        mergedAny = true
                    } else {
                        other += 1
                    }
                }
                index += 1
            }
        }
    }

    /// Merges the two boxes whose union adds the least area to theirs.
    static func mergeCheapestPair(_ boxes: inout [PixelBox]) {
        guard boxes.count > 1 else { return }
        var best = (first: 0, second: 1, cost: Int.max)
        for first in boxes.indices {
            for second in (first + 1)..<boxes.count {
                let cost = boxes[first].union(boxes[second]).area - boxes[first].area - boxes[second].area
                if cost < best.cost { best = (first, second, cost) }
            }
        }
        boxes[best.first] = boxes[best.first].union(boxes.remove(at: best.second))
    }
}
