internal import CCairo
import PDFCore
import PDFGraphics

/// Gouraud-shaded triangles rasterised at device pixel centres (ISO 32000-2 §8.7.4.5.5–8).
///
/// Done here rather than with cairo's mesh patterns so that a pixel's colour depends only on its
/// position on the page: cairo rasterises meshes relative to the drawing's extents, and a tile
/// would then differ from the full page by a level or two. Patches are split into small
/// triangles (at most about three pixels a side on the device).
struct MeshRasterizer {
    /// A triangle in full-page device space with its vertex colours.
    struct Triangle {
        var points: (PDFPoint, PDFPoint, PDFPoint)
        var colors: (RGB, RGB, RGB)
    }

    var triangles: [Triangle] = []

    /// A patch is split into at most this many rows and columns.
    static let maximumSubdivision = 64
    /// At most this many triangles are drawn for one shading.
    static let maximumTriangles = 1 << 20

    /// Adds triangles mapped by `toDevice` (to full-page device space).
    mutating func add(_ meshTriangles: [MeshTriangle], toDevice: PDFMatrix) {
        for triangle in meshTriangles.prefix(MeshRasterizer.maximumTriangles) {
            triangles.append(
                Triangle(
                    points: (
                        toDevice.apply(triangle.points.0), toDevice.apply(triangle.points.1),
                        toDevice.apply(triangle.points.2)
                    ), colors: triangle.colors))
        }
    }

    /// Adds a tensor-product patch (`points[4 × i + j]` = p_ij; colours of p00, p03, p33, p30),
    /// split into a grid fine enough for the device.
    mutating func add(_ patch: MeshPatch, toDevice: PDFMatrix) {
        guard patch.points.count == 16, patch.colors.count == 4 else { return }
        let device = patch.points.map { toDevice.apply($0) }
        let xs = device.map(\.x)
        let ys = device.map(\.y)
        let size = max(xs.max()! - xs.min()!, ys.max()! - ys.min()!)
        guard size.isFinite else { return }
        let n = min(MeshRasterizer.maximumSubdivision, max(2, Int((size / 3).rounded(.up))))
        guard triangles.count + 2 * n * n <= MeshRasterizer.maximumTriangles else { return }
        func bernstein(_ t: Double) -> [Double] {
            let s = 1 - t
            return [s * s * s, 3 * t * s * s, 3 * t * t * s, t * t * t]
        }
        // Grid of surface points S(s, t) = Σ p_ij B_i(s) B_j(t) and bilinear colours.
        var grid: [(PDFPoint, RGB)] = []
        grid.reserveCapacity((n + 1) * (n + 1))
        let (c00, c03, c33, c30) = (patch.colors[0], patch.colors[1], patch.colors[2], patch.colors[3])
        for row in 0...n {
            let t = Double(row) / Double(n)
            let bt = bernstein(t)
            for column in 0...n {
                let s = Double(column) / Double(n)
                let bs = bernstein(s)
                var point = PDFPoint(0, 0)
                for i in 0..<4 {
                    for j in 0..<4 {
                        let weight = bs[i] * bt[j]
                        point.x += device[4 * i + j].x * weight
                        point.y += device[4 * i + j].y * weight
                    }
                }
                let w00 = (1 - s) * (1 - t)
                let w30 = s * (1 - t)
                let w03 = (1 - s) * t
                let w33 = s * t
                let color = RGB(
                    c00.r * w00 + c30.r * w30 + c03.r * w03 + c33.r * w33,
                    c00.g * w00 + c30.g * w30 + c03.g * w03 + c33.g * w33,
                    c00.b * w00 + c30.b * w30 + c03.b * w03 + c33.b * w33)
                grid.append((point, color))
            }
        }
        for row in 0..<n {
            for column in 0..<n {
                let a = grid[row * (n + 1) + column]
                let b = grid[row * (n + 1) + column + 1]
                let c = grid[(row + 1) * (n + 1) + column]
                let d = grid[(row + 1) * (n + 1) + column + 1]
                triangles.append(Triangle(points: (a.0, b.0, d.0), colors: (a.1, b.1, d.1)))
                triangles.append(Triangle(points: (a.0, d.0, c.0), colors: (a.1, d.1, c.1)))
            }
        }
    }

    /// The triangles painted in order over `extents` (device space of a surface whose top-left is
    /// at `origin` in the full page), as an image pattern for that surface.
    func pattern(extents: PDFRectangle, origin: (x: Int, y: Int)) -> CairoPattern? {
        let box = extents.pixelAligned
        guard box.width >= 1, box.height >= 1, !triangles.isEmpty else { return nil }
        let (left, top) = (Int(box.x0) + origin.x, Int(box.y0) + origin.y)
        let (columns, rows) = (Int(box.width), Int(box.height))
        guard let surface = ImageSurface(width: columns, height: rows) else { return nil }
        surface.withPixels { data, stride in
            for triangle in triangles {
                draw(triangle, into: data, stride: stride, left: left, top: top, columns: columns, rows: rows)
            }
        }
        guard let pattern = CairoPattern(cairo_pattern_create_for_surface(surface.pointer)) else { return nil }
        pattern.setMatrix(.translation(-box.x0, -box.y0))
        cairo_pattern_set_filter(pattern.pointer, CAIRO_FILTER_NEAREST)
        cairo_pattern_set_extend(pattern.pointer, CAIRO_EXTEND_NONE)
        return pattern
    }

    /// Paints the pixels whose centres the triangle covers, colours interpolated barycentrically.
    private func draw(
        _ triangle: Triangle, into data: UnsafeMutableRawPointer, stride: Int, left: Int, top: Int, columns: Int,
        rows: Int
    ) {
        let (p0, p1, p2) = triangle.points
        let area = (p1.x - p0.x) * (p2.y - p0.y) - (p2.x - p0.x) * (p1.y - p0.y)
        guard area != 0, area.isFinite else { return }
        let x0 = max(left, Int(min(p0.x, p1.x, p2.x).rounded(.down)))
        let x1 = min(left + columns - 1, Int(max(p0.x, p1.x, p2.x).rounded(.up)))
        let y0 = max(top, Int(min(p0.y, p1.y, p2.y).rounded(.down)))
        let y1 = min(top + rows - 1, Int(max(p0.y, p1.y, p2.y).rounded(.up)))
        guard x0 <= x1, y0 <= y1 else { return }
        let (c0, c1, c2) = triangle.colors
        let tolerance = -1e-9
        for y in y0...y1 {
            let line = (data + (y - top) * stride).assumingMemoryBound(to: UInt32.self)
            let py = Double(y) + 0.5
            for x in x0...x1 {
                let px = Double(x) + 0.5
                let w0 = ((p1.x - px) * (p2.y - py) - (p2.x - px) * (p1.y - py)) / area
                let w1 = ((p2.x - px) * (p0.y - py) - (p0.x - px) * (p2.y - py)) / area
                let w2 = 1 - w0 - w1
                guard w0 >= tolerance, w1 >= tolerance, w2 >= tolerance else { continue }
                line[x - left] =
                    RGB(
                        c0.r * w0 + c1.r * w1 + c2.r * w2, c0.g * w0 + c1.g * w1 + c2.g * w2,
                        c0.b * w0 + c1.b * w1 + c2.b * w2
                    ).argb
            }
        }
    }
}
