import PDFCore
import PDFGraphics

/// The glyphs of a run in device space, grouped so that each group can be drawn with one scaled
/// font: consecutive glyphs whose em square maps to the device by the same linear transformation.
struct GlyphPlacement {
    struct Group {
        /// Font space (em units, y down as cairo's glyph space is) to device space, without translation.
        var fontMatrix: PDFMatrix
        var glyphs: [(index: UInt32, x: Double, y: Double)] = []
    }

    var groups: [Group] = []
    /// Glyphs left out: a singular or absurdly large glyph matrix.
    var skipped = 0

    /// Glyphs larger than this many device pixels to the em are not drawn (FreeType's sizes stop
    /// at 65535 pixels and cairo would rasterize them whole).
    static let maximumEm = 16384.0

    /// Places the glyphs of `run` drawn with `glyphs`, `device` mapping user space to the device.
    init(_ run: GlyphRun, glyphs: FontGlyphs, device: PDFMatrix) {
        // cairo's glyph space has y down; PDF's glyph space has y up.
        let flip = PDFMatrix(1, 0, 0, -1, 0, 0)
        for glyph in run.glyphs {
            let index = glyphs.glyphIndex(glyph, font: run.font)
            var matrix = glyph.matrix
            let scale = glyphs.horizontalScale(index, advance: glyph.advance)
            if scale != 1 { matrix = PDFMatrix.scale(scale, 1).concatenating(matrix) }
            let toDevice = matrix.concatenating(device)
            let linear = flip.concatenating(PDFMatrix(toDevice.a, toDevice.b, toDevice.c, toDevice.d, 0, 0))
            guard linear.isUsable, toDevice.e.isFinite, toDevice.f.isFinite, linear.expansion <= Self.maximumEm,
                abs(toDevice.e) < 1e9, abs(toDevice.f) < 1e9
            else {
                skipped += 1
                continue
            }
            if let last = groups.last?.fontMatrix, last == linear {
                groups[groups.count - 1].glyphs.append((index, toDevice.e, toDevice.f))
            } else {
                groups.append(Group(fontMatrix: linear, glyphs: [(index, toDevice.e, toDevice.f)]))
            }
        }
    }

    var isEmpty: Bool { groups.isEmpty }
}
