public import PDFCore

/// What a page draws, in order, as the interpreter understood it: the one description the
/// renderer replays and text extraction and search read (ARCHITECTURE.md invariant 5).
///
/// Geometry is in the page's user space (ISO 32000-2 §8.3.2.3, unrotated, origin bottom-left);
/// each item carries the transformation from the space its path or glyphs are in to user space.
/// Clips nest with ``DisplayItem/save`` and ``DisplayItem/restore`` like `q` and `Q`.
public struct DisplayList: Sendable {
    public var items: [DisplayItem] = []
    /// Problems met while interpreting (a bad operator, a missing resource, a broken image): the
    /// rest of the page was still drawn.
    public var warnings: [String] = []

    /// Spans of items whose shown text is replaced by `/ActualText` (ISO 32000-2 §14.9.4), in
    /// order and apart: where spans nest, the outermost.
    public var actualTexts: [ActualText] = []

    public init(items: [DisplayItem] = [], warnings: [String] = [], actualTexts: [ActualText] = []) {
        self.items = items
        self.warnings = warnings
        self.actualTexts = actualTexts
    }
}

/// Marked content with `/ActualText`: the glyphs drawn by `items` stand for `text` (a ligature
/// for its letters, a word drawn in pieces or in visual order for the word).
public struct ActualText: Sendable {
    public var text: String
    /// Indices into ``DisplayList/items``.
    public var items: Range<Int>

    public init(text: String, items: Range<Int>) {
        self.text = text
        self.items = items
    }
}

/// One drawing operation.
///
/// The items with large payloads (glyph runs, images, shadings, groups) are `indirect`: a page keeps
/// millions of fills and strokes, and every item is as large as the largest case (576 bytes before,
/// 152 now; a glyph run, one allocation more, carries many glyphs).
public enum DisplayItem: Sendable {
    /// Saves the clip (and nothing else: every other item carries its full state).
    case save
    /// Restores the clip saved by the matching ``save``.
    case restore
    /// Intersects the clip with `path` (in the space `ctm` maps to user space).
    case clip(Path, FillRule, ctm: PDFMatrix)
    /// Fills `path`.
    case fill(Path, FillRule, Paint, ctm: PDFMatrix, state: DrawState)
    /// Strokes `path`; line widths and dashes are in the path's space.
    case stroke(Path, StrokeStyle, Paint, ctm: PDFMatrix, state: DrawState)
    /// Shows glyphs. A run of a Type 3 font is followed by the items its glyph procedures draw, so
    /// backends draw nothing for it; text extraction reads every run.
    indirect case glyphs(GlyphRun, state: DrawState)
    /// Ends a text object whose glyphs were shown in a clipping render mode (4 to 7): the clip
    /// becomes its intersection with the union of these runs' glyph outlines (ISO 32000-2 §9.3.6).
    case clipGlyphs([GlyphRun])
    /// Paints an image into the unit square mapped by `ctm`.
    indirect case image(ImageSource, ctm: PDFMatrix, state: DrawState)
    /// Paints `paint` through a 1-bit stencil mask in the unit square mapped by `ctm` (`/ImageMask true`).
    indirect case stencilMask(ImageSource, Paint, ctm: PDFMatrix, state: DrawState)
    /// Paints a shading over the whole clip (`sh`), its geometry in the space `ctm` maps to user space.
    indirect case shading(Shading, ctm: PDFMatrix, state: DrawState)
    /// Starts a transparency group (a form XObject with `/Group /S /Transparency`, or a group made
    /// for a soft mask): items up to the matching ``endGroup`` are drawn into it, then it is
    /// composited with `state`.
    indirect case beginGroup(TransparencyGroup)
    case endGroup
}

public enum FillRule: Sendable, Hashable {
    case nonZero
    case evenOdd
}

/// An sRGB colour, components from 0 to 1.
public struct RGB: Hashable, Sendable {
    public var r, g, b: Double

    public init(_ r: Double, _ g: Double, _ b: Double) {
        (self.r, self.g, self.b) = (r, g, b)
    }

    public static let black = RGB(0, 0, 0)
    public static let white = RGB(1, 1, 1)

    /// Luminosity as soft masks and the non-separable blend modes define it (ISO 32000-2 §11.3.5.3).
    public var luminosity: Double { 0.3 * r + 0.59 * g + 0.11 * b }
}

/// What fills or strokes (patterns `indirect`: most paints are colours, kept small).
public enum Paint: Sendable {
    case color(RGB)
    /// A shading pattern; `matrix` maps pattern space to user space.
    indirect case shading(Shading, matrix: PDFMatrix)
    /// A tiling pattern; its cell is drawn from `cell` (already interpreted, in pattern space).
    indirect case tiling(TilingPattern)
}

/// Line style in the space of the stroked path (ISO 32000-2 §8.4.3).
public struct StrokeStyle: Hashable, Sendable {
    public enum Cap: Int, Sendable { case butt = 0, round = 1, square = 2 }
    public enum Join: Int, Sendable { case miter = 0, round = 1, bevel = 2 }

    public var width: Double = 1
    public var cap: Cap = .butt
    public var join: Join = .miter
    public var miterLimit: Double = 10
    public var dash: [Double] = []
    public var dashPhase: Double = 0

    public init() {}
}

/// ISO 32000-2 §11.3.5 blend modes.
public enum BlendMode: String, Sendable, Hashable, CaseIterable {
    case normal = "Normal", multiply = "Multiply", screen = "Screen", overlay = "Overlay", darken = "Darken"
    case lighten = "Lighten", colorDodge = "ColorDodge", colorBurn = "ColorBurn", hardLight = "HardLight"
    case softLight = "SoftLight", difference = "Difference", exclusion = "Exclusion", hue = "Hue"
    case saturation = "Saturation", color = "Color", luminosity = "Luminosity"
}

/// The transparency state an item is drawn with.
public struct DrawState: Sendable {
    /// Constant alpha (`ca` for fills, `CA` for strokes), 0 to 1.
    public var alpha: Double = 1
    public var blendMode: BlendMode = .normal
    /// The soft mask of the graphics state (`/SMask` of an ExtGState), applied to each item on its own.
    public var softMask: SoftMask? = nil
    /// Whether the backend should anti-alias (false for `/AntiAlias false` shadings, thin hairlines stay on).
    public var antiAlias = true

    public init() {}
}

/// A soft mask (ISO 32000-2 §11.6.5.2): a group whose alpha or luminosity becomes the mask.
/// A class so that the backend can render each mask once and find it again by identity.
public final class SoftMask: Sendable {
    public enum Kind: Sendable { case alpha, luminosity }
    public let kind: Kind
    /// The mask group's items, in user space.
    public let group: DisplayList
    /// The group's bounds in user space (outside, the mask is the backdrop's value).
    public let bounds: PDFRectangle?
    /// `/BC`: the backdrop colour for luminosity masks (black by default).
    public let backdrop: RGB
    /// `/TR`: maps the computed mask value (0 to 1) to the final one.
    public let transfer: (@Sendable (Double) -> Double)?

    public init(
        kind: Kind, group: DisplayList, bounds: PDFRectangle?, backdrop: RGB, transfer: (@Sendable (Double) -> Double)?
    ) {
        self.kind = kind
        self.group = group
        self.bounds = bounds
        self.backdrop = backdrop
        self.transfer = transfer
    }
}

/// A transparency group (ISO 32000-2 §11.4.7).
public struct TransparencyGroup: Sendable {
    public var isolated = false
    public var knockout = false
    /// The group's `/BBox` in user space, when known (the backend may limit its buffer to it).
    public var bounds: PDFRectangle?
    /// How the finished group is composited.
    public var state = DrawState()

    public init() {}
}

/// A shading (ISO 32000-2 §8.7.4.5): geometry plus colours already converted to sRGB.
public struct Shading: Sendable {
    public enum Geometry: Sendable {
        /// Type 1: a colour for each point of `domain` ([x0 x1 y0 y1]) mapped by `matrix`.
        case function(domain: [Double], matrix: PDFMatrix, color: @Sendable (Double, Double) -> RGB)
        /// Type 2: along the axis from `start` to `end`, t from `t0` to `t1`.
        case axial(start: PDFPoint, end: PDFPoint, t0: Double, t1: Double, extend: (Bool, Bool))
        /// Type 3: between two circles.
        case radial(
            start: PDFPoint, startRadius: Double, end: PDFPoint, endRadius: Double, t0: Double, t1: Double,
            extend: (Bool, Bool))
        /// Types 4 and 5: triangles with a colour at each vertex.
        case triangles([MeshTriangle])
        /// Types 6 and 7: Coons and tensor-product patches.
        case patches([MeshPatch])
    }

    public var geometry: Geometry
    /// For axial and radial shadings: the colour at parameter t.
    public var color: @Sendable (Double) -> RGB
    /// `/Background`, drawn where the shading is not defined (only by `scn` fills, not by `sh`).
    public var background: RGB?
    /// `/BBox` in shading space.
    public var bbox: PDFRectangle?

    public init(
        geometry: Geometry, color: @escaping @Sendable (Double) -> RGB, background: RGB? = nil,
        bbox: PDFRectangle? = nil
    ) {
        self.geometry = geometry
        self.color = color
        self.background = background
        self.bbox = bbox
    }
}

public struct MeshTriangle: Sendable {
    public var points: (PDFPoint, PDFPoint, PDFPoint)
    public var colors: (RGB, RGB, RGB)

    public init(points: (PDFPoint, PDFPoint, PDFPoint), colors: (RGB, RGB, RGB)) {
        self.points = points
        self.colors = colors
    }
}

/// A tensor-product patch (a Coons patch has its four inner points computed, ISO 32000-2 §8.7.4.5.7):
/// 16 points in row order as Table 86 numbers them p00 … p33, and the colours of the corners
/// p00, p03, p33, p30.
public struct MeshPatch: Sendable {
    public var points: [PDFPoint]
    public var colors: [RGB]

    public init(points: [PDFPoint], colors: [RGB]) {
        self.points = points
        self.colors = colors
    }
}

/// A tiling pattern (ISO 32000-2 §8.7.3): a cell repeated at `xStep`, `yStep`.
public struct TilingPattern: Sendable {
    /// The cell's items, in pattern space.
    public var cell: DisplayList
    /// `/BBox` of the cell in pattern space.
    public var bbox: PDFRectangle
    public var xStep: Double
    public var yStep: Double
    /// Pattern space to user space.
    public var matrix: PDFMatrix

    public init(cell: DisplayList, bbox: PDFRectangle, xStep: Double, yStep: Double, matrix: PDFMatrix) {
        self.cell = cell
        self.bbox = bbox
        self.xStep = xStep
        self.yStep = yStep
        self.matrix = matrix
    }
}
