internal import CCairo
import PDFCore
import PDFGraphics

/// Cairo patterns for shadings (ISO 32000-2 §8.7.4.5), used in device space.
///
/// Axial, radial and function-based shadings are computed here pixel by pixel (from a table of
/// colours for axial and radial ones) rather than by cairo's gradients: pixman evaluates gradients
/// incrementally along each span, so the same pixel could differ by a level between a tile and the
/// full page. Meshes are rasterised by ``MeshRasterizer`` for the same reason.
enum ShadingPatterns {
    /// At most this many colours are computed for a function-based shading; larger ones are
    /// sampled on a coarser grid and smoothed.
    static let maximumSamples = 512 * 512

    /// A pattern painting `shading`, whose space `toDevice` maps to device space; `extents` (device
    /// space) is where it will be seen, `origin` the device position in the full page (grid alignment).
    static func pattern(for shading: Shading, toDevice: PDFMatrix, extents: PDFRectangle, origin: (x: Int, y: Int))
        -> CairoPattern?
    {
        guard toDevice.isUsable, let deviceToShading = toDevice.inverted() else { return nil }
        switch shading.geometry {
        case .axial(let start, let end, let t0, let t1, let extend):
            let axis = PDFPoint(end.x - start.x, end.y - start.y)
            let length = axis.x * axis.x + axis.y * axis.y
            guard length > 0 else { return nil }
            let colors = ColorTable(shading, t0: t0, t1: t1)
            return rasterized(extents: extents, origin: origin, step: 1, deviceToSpace: deviceToShading) { point in
                let s = ((point.x - start.x) * axis.x + (point.y - start.y) * axis.y) / length
                if s < 0 && !extend.0 || s > 1 && !extend.1 { return nil }
                return colors[s]
            }
        case .radial(let c0, let r0, let c1, let r1, let t0, let t1, let extend):
            guard r0 >= 0, r1 >= 0, c0 != c1 || r0 != r1 else { return nil }
            let colors = ColorTable(shading, t0: t0, t1: t1)
            return rasterized(extents: extents, origin: origin, step: 1, deviceToSpace: deviceToShading) { point in
                radialParameter(point, c0, r0, c1, r1, extend).map { colors[$0] }
            }
        case .function(let domain, let matrix, let color):
            guard domain.count == 4, let toDomain = matrix.inverted() else { return nil }
            let (x0, x1) = (min(domain[0], domain[1]), max(domain[0], domain[1]))
            let (y0, y1) = (min(domain[2], domain[3]), max(domain[2], domain[3]))
            // The grid depends on the domain's size on the device, never on what is visible, so that
            // tiles sample the same points as the full page.
            let area = matrix.concatenating(toDevice).apply(PDFRectangle(x0: x0, y0: y0, x1: x1, y1: y1))
            let step = gridStep(samples: area.width * area.height)
            let deviceToDomain = deviceToShading.concatenating(toDomain)
            return rasterized(extents: extents, origin: origin, step: step, deviceToSpace: deviceToDomain) { point in
                guard point.x >= x0, point.x <= x1, point.y >= y0, point.y <= y1 else { return nil }
                return color(point.x, point.y)
            }
        case .triangles(let triangles):
            var mesh = MeshRasterizer()
            mesh.add(triangles, toDevice: toDevice.concatenating(.translation(Double(origin.x), Double(origin.y))))
            return mesh.pattern(extents: extents, origin: origin)
        case .patches(let patches):
            var mesh = MeshRasterizer()
            let toPage = toDevice.concatenating(.translation(Double(origin.x), Double(origin.y)))
            for patch in patches { mesh.add(patch, toDevice: toPage) }
            return mesh.pattern(extents: extents, origin: origin)
        }
    }

    /// The parameter s (0 at the first circle, 1 at the second) of the largest circle through
    /// `point`, or nil when none with a non-negative radius and an allowed s passes there (§8.7.4.5.4).
    static func radialParameter(
        _ point: PDFPoint, _ c0: PDFPoint, _ r0: Double, _ c1: PDFPoint, _ r1: Double, _ extend: (Bool, Bool)
    ) -> Double? {
        let (cdx, cdy, dr) = (c1.x - c0.x, c1.y - c0.y, r1 - r0)
        let (pdx, pdy) = (point.x - c0.x, point.y - c0.y)
        let a = cdx * cdx + cdy * cdy - dr * dr
        let b = pdx * cdx + pdy * cdy + r0 * dr
        let c = pdx * pdx + pdy * pdy - r0 * r0
        var candidates: [Double] = []
        if abs(a) < 1e-12 {
            if b != 0 { candidates = [c / (2 * b)] }
        } else {
            let discriminant = b * b - a * c
            guard discriminant >= 0 else { return nil }
            let root = discriminant.squareRoot()
            candidates = [(b + root) / a, (b - root) / a].sorted(by: >)
        }
        for s in candidates where r0 + s * dr >= 0 {
            if (s >= 0 || extend.0) && (s <= 1 || extend.1) { return s }
        }
        return nil
    }

    /// The smallest power of two such that `samples` device pixels need at most
    /// ``maximumSamples`` computed colours on a grid of that step.
    static func gridStep(samples: Double) -> Int {
        var step = 1
        while step < 64, samples / Double(step * step) > Double(maximumSamples) { step *= 2 }
        return step
    }

    /// Computes `color` (nil: nothing painted) at the centres of a grid of `step` pixels (a power
    /// of two) over `extents`, as an image pattern smoothed between samples. The grid is aligned
    /// to the full page through `origin` and every position is a binary fraction, so a tile gets
    /// exactly the pixels of the same window of the full page.
    static func rasterized(
        extents: PDFRectangle, origin: (x: Int, y: Int), step: Int, deviceToSpace: PDFMatrix, color: (PDFPoint) -> RGB?
    ) -> CairoPattern? {
        let box = extents.pixelAligned
        guard box.width >= 1, box.height >= 1 else { return nil }
        let stepValue = Double(step)
        // The grid starts on a multiple of `step` in full-page pixels.
        let startX = ((box.x0 + Double(origin.x)) / stepValue).rounded(.down) * stepValue - Double(origin.x)
        let startY = ((box.y0 + Double(origin.y)) / stepValue).rounded(.down) * stepValue - Double(origin.y)
        // One more sample each way, so that smoothing near the edges has neighbours.
        let margin = step > 1 ? 1 : 0
        let columns = Int(((box.x1 - startX) / stepValue).rounded(.up)) + 2 * margin
        let rows = Int(((box.y1 - startY) / stepValue).rounded(.up)) + 2 * margin
        guard let surface = ImageSurface(width: columns, height: rows) else { return nil }
        let first = (x: startX - Double(margin) * stepValue, y: startY - Double(margin) * stepValue)
        surface.withPixels { data, stride in
            for row in 0..<rows {
                let line = (data + row * stride).assumingMemoryBound(to: UInt32.self)
                let y = first.y + (Double(row) + 0.5) * stepValue
                for column in 0..<columns {
                    let x = first.x + (Double(column) + 0.5) * stepValue
                    line[column] = color(deviceToSpace.apply(PDFPoint(x, y)))?.argb ?? 0
                }
            }
        }
        guard let pattern = CairoPattern(cairo_pattern_create_for_surface(surface.pointer)) else { return nil }
        pattern.setMatrix(PDFMatrix(1 / stepValue, 0, 0, 1 / stepValue, -first.x / stepValue, -first.y / stepValue))
        cairo_pattern_set_filter(pattern.pointer, step == 1 ? CAIRO_FILTER_NEAREST : CAIRO_FILTER_BILINEAR)
        cairo_pattern_set_extend(pattern.pointer, CAIRO_EXTEND_NONE)
        return pattern
    }

    static func channel(_ value: Double) -> UInt8 {
        value.isNaN ? 0 : UInt8(min(max(value, 0), 1) * 255 + 0.5)
    }
}

/// An axial or radial shading's colours at 1024 evenly spaced parameters s from 0 to 1.
struct ColorTable {
    static let size = 1024
    let colors: [RGB]

    init(_ shading: Shading, t0: Double, t1: Double) {
        colors = (0..<ColorTable.size).map { index in
            shading.color(t0 + Double(index) / Double(ColorTable.size - 1) * (t1 - t0))
        }
    }

    /// The colour at s, clamped to [0, 1].
    subscript(s: Double) -> RGB {
        let index = s.isNaN ? 0 : Int((min(max(s, 0), 1) * Double(ColorTable.size - 1)).rounded())
        return colors[index]
    }
}

extension RGB {
    /// The colour as an opaque cairo ARGB32 pixel.
    var argb: UInt32 {
        0xFF00_0000 | UInt32(ShadingPatterns.channel(r)) << 16 | UInt32(ShadingPatterns.channel(g)) << 8
            | UInt32(ShadingPatterns.channel(b))
    }
}
