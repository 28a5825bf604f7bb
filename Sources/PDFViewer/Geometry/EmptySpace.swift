public import PDFCore

/// Where a new box goes on a page without covering what the page shows: the place proposed for a
/// new signature field, away from the page's text and fields, in the page's user space.
public enum EmptySpace {
    /// The most obstacles a search looks at; with more, no place is proposed (the caller keeps its
    /// own), so the work stays bounded: at most `(steps + 1)²` positions, each against every obstacle.
    public static let maxObstacles = 20_000
    /// The most positions a side of the grid a search tries.
    public static let maxSteps = 100

    /// A rectangle of `size` inside `area` that meets none of `obstacles` (each grown by `gap`
    /// points on every side), the nearest such to `preferred` (the centre wanted), among the
    /// positions of a grid of `steps` + 1 positions a side spanning `area`.
    ///
    /// - Returns: nil when no position is free, when `size` does not fit in `area`, when a number
    ///   is not finite, or when there are more than ``maxObstacles`` obstacles.
    public static func rectangle(
        of size: PDFSize, in area: PDFRectangle, avoiding obstacles: [PDFRectangle], near preferred: PDFPoint,
        gap: Double = 4, steps: Int = 48
    ) -> PDFRectangle? {
        let numbers = [size.width, size.height, area.x0, area.y0, area.x1, area.y1, preferred.x, preferred.y, gap]
        guard numbers.allSatisfy(\.isFinite), size.width > 0, size.height > 0, gap >= 0,
            size.width <= area.width, size.height <= area.height, obstacles.count <= maxObstacles
        else { return nil }
        let steps = min(max(steps, 1), maxSteps)
        // Obstacles that cannot meet any position are left out once, not at each position.
        let grown = obstacles.compactMap { obstacle -> PDFRectangle? in
            guard [obstacle.x0, obstacle.y0, obstacle.x1, obstacle.y1].allSatisfy(\.isFinite) else { return nil }
            let box = PDFRectangle(
                x0: obstacle.x0 - gap, y0: obstacle.y0 - gap, x1: obstacle.x1 + gap, y1: obstacle.y1 + gap)
            return box.x1 > area.x0 && box.x0 < area.x1 && box.y1 > area.y0 && box.y0 < area.y1 ? box : nil
        }
        let free = { (candidate: PDFRectangle) -> Bool in
            !grown.contains {
                $0.x0 < candidate.x1 && candidate.x0 < $0.x1 && $0.y0 < candidate.y1 && candidate.y0 < $0.y1
            }
        }
        let spanX = area.width - size.width
        let spanY = area.height - size.height
        var positions: [(distance: Double, rect: PDFRectangle)] = []
        positions.reserveCapacity((steps + 1) * (steps + 1))
        for i in 0...steps {
            let x0 = area.x0 + spanX * Double(i) / Double(steps)
            for j in 0...steps {
                let y0 = area.y0 + spanY * Double(j) / Double(steps)
                let dx = x0 + size.width / 2 - preferred.x
                let dy = y0 + size.height / 2 - preferred.y
                positions.append(
                    (dx * dx + dy * dy, PDFRectangle(x0: x0, y0: y0, x1: x0 + size.width, y1: y0 + size.height)))
            }
        }
        positions.sort { $0.distance < $1.distance }
        return positions.first { free($0.rect) }?.rect
    }
}
