public import PDFCore

/// What a page draws, in order, as the interpreter understood it: the one description the
/// renderer replays and text extraction and search read (ARCHITECTURE.md invariant 5).
///
/// Geometry is in the page's user space (ISO 32000-2 §8.3.2.3, unrotated, origin bottom-left);
/// each item carries the transformation from the space its path or glyphs are in to user space.
/// Clips nest with ``DisplayItem/save`` and ``DisplayItem/restore`` like `q` and `Q`.
public struct DisplayList: Sendable {
    /// The drawing operations in painting order.
    public var items: [DisplayItem] = []
    /// Problems met while interpreting (a bad operator, a missing resource, a broken image): the
    /// rest of the page was still drawn.
    public var warnings: [String] = []

    /// Spans of items whose shown text is replaced by `/ActualText` (ISO 32000-2 §14.9.4), in
    /// order and apart: where spans nest, the outermost.
    public var actualTexts: [ActualText] = []

    /// A display list of the given items, warnings and `/ActualText` spans.
    public init(items: [DisplayItem] = [], warnings: [String] = [], actualTexts: [ActualText] = []) {
        self.items = items
        self.warnings = warnings
        self.actualTexts = actualTexts
    }
}

/// Marked content with `/ActualText`: the glyphs drawn by `items` stand for `text` (a ligature
/// for its letters, a word drawn in pieces or in visual order for the word).
public struct ActualText: Sendable {
    /// The text the glyphs stand for (the `/ActualText` string, decoded).
    public var text: String
    /// Indices into ``DisplayList/items``.
    public var items: Range<Int>

    /// A span of `items` standing for `text`.
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
    /// Ends the transparency group begun by the matching ``beginGroup(_:)``.
    case endGroup
}

/// Which points a path encloses (ISO 32000-2 §8.5.3.3).
public enum FillRule: Sendable, Hashable {
    /// The nonzero winding number rule (`f`, `W`, §8.5.3.3.2).
    case nonZero
    /// The even-odd rule (`f*`, `W*`, §8.5.3.3.3).
    case evenOdd
}

/// An sRGB colour, components from 0 to 1.
public struct RGB: Hashable, Sendable {
    /// Red, green and blue, from 0 to 1.
    public var r, g, b: Double

    /// A colour of red, green and blue components, each from 0 to 1.
    public init(_ r: Double, _ g: Double, _ b: Double) {
        (self.r, self.g, self.b) = (r, g, b)
    }

    /// Black, (0, 0, 0).
    public static let black = RGB(0, 0, 0)
    /// White, (1, 1, 1).
    public static let white = RGB(1, 1, 1)

    /// Luminosity as soft masks and the non-separable blend modes define it (ISO 32000-2 §11.3.5.3).
    public var luminosity: Double { 0.3 * r + 0.59 * g + 0.11 * b }
}

/// What fills or strokes (patterns `indirect`: most paints are colours, kept small).
public enum Paint: Sendable {
    /// A uniform colour.
    case color(RGB)
    /// A shading pattern; `matrix` maps pattern space to user space.
    indirect case shading(Shading, matrix: PDFMatrix)
    /// A tiling pattern; its cell is drawn from `cell` (already interpreted, in pattern space).
    indirect case tiling(TilingPattern)
}

/// Line style in the space of the stroked path (ISO 32000-2 §8.4.3).
public struct StrokeStyle: Hashable, Sendable {
    /// `J`: the shape at the open ends of a stroke (§8.4.3.3).
    public enum Cap: Int, Sendable {
        /// 0: the stroke ends square at the endpoint.
        case butt = 0
        /// 1: a half disc is added at the endpoint.
        case round = 1
        /// 2: the stroke projects half the line width beyond the endpoint.
        case square = 2
    }
    /// `j`: the shape at the corners of a stroke (§8.4.3.4).
    public enum Join: Int, Sendable {
        /// 0: the outer edges extend until they meet (a bevel beyond the miter limit).
        case miter = 0
        /// 1: a disc is added at the corner.
        case round = 1
        /// 2: the corner is cut.
        case bevel = 2
    }

    /// `w`: the line width (§8.4.3.2); 0 is the thinnest line the device can draw.
    public var width: Double = 1
    /// `J`: the line cap style; butt by default.
    public var cap: Cap = .butt
    /// `j`: the line join style; miter by default.
    public var join: Join = .miter
    /// `M`: the miter limit, the longest ratio of a miter's length to the line width before a bevel is drawn instead
    /// (§8.4.3.5); 10 by default.
    public var miterLimit: Double = 10
    /// `d`: the dash array, alternating dash and gap lengths; empty for a solid line (§8.4.3.6).
    public var dash: [Double] = []
    /// `d`: the distance into the dash pattern at which the line starts.
    public var dashPhase: Double = 0

    /// The initial style of the graphics state: 1 unit wide, butt caps, miter joins, limit 10, solid.
    public init() {}
}

/// ISO 32000-2 §11.3.5 blend modes.
public enum BlendMode: String, Sendable, Hashable, CaseIterable {
    /// `Normal`, `Multiply`, `Screen`, `Overlay`, `Darken`: separable blend modes (§11.3.5.2).
    case normal = "Normal", multiply = "Multiply", screen = "Screen", overlay = "Overlay", darken = "Darken"
    /// `Lighten`, `ColorDodge`, `ColorBurn`, `HardLight`: separable blend modes (§11.3.5.2).
    case lighten = "Lighten", colorDodge = "ColorDodge", colorBurn = "ColorBurn", hardLight = "HardLight"
    /// `SoftLight`, `Difference`, `Exclusion`: separable (§11.3.5.2); `Hue`: non-separable (§11.3.5.3).
    case softLight = "SoftLight", difference = "Difference", exclusion = "Exclusion", hue = "Hue"
    /// `Saturation`, `Color`, `Luminosity`: non-separable blend modes (§11.3.5.3).
    case saturation = "Saturation", color = "Color", luminosity = "Luminosity"
}

/// The transparency state an item is drawn with.
public struct DrawState: Sendable {
    /// Constant alpha (`ca` for fills, `CA` for strokes), 0 to 1.
    public var alpha: Double = 1
    /// `/BM`: how the item's colours combine with the backdrop (§11.3.5); normal by default.
    public var blendMode: BlendMode = .normal
    /// The soft mask of the graphics state (`/SMask` of an ExtGState), applied to each item on its own.
    public var softMask: SoftMask? = nil
    /// Whether the backend should anti-alias (false for `/AntiAlias false` shadings, thin hairlines stay on).
    public var antiAlias = true

    /// The initial state: opaque, normal blending, no soft mask, anti-aliased.
    public init() {}
}

/// A soft mask (ISO 32000-2 §11.6.5.2): a group whose alpha or luminosity becomes the mask.
/// A class so that the backend can render each mask once and find it again by identity.
public final class SoftMask: Sendable {
    /// What of the mask group becomes the mask.
    public enum Kind: Sendable {
        /// `/S /Alpha`: the group's alpha.
        case alpha
        /// `/S /Luminosity`: the luminosity of the group's colours over the backdrop.
        case luminosity
    }
    /// `/S`: alpha or luminosity.
    public let kind: Kind
    /// The mask group's items, in user space.
    public let group: DisplayList
    /// The group's bounds in user space (outside, the mask is the backdrop's value).
    public let bounds: PDFRectangle?
    /// `/BC`: the backdrop colour for luminosity masks (black by default).
    public let backdrop: RGB
    /// `/TR`: maps the computed mask value (0 to 1) to the final one.
    public let transfer: (@Sendable (Double) -> Double)?

    /// A soft mask; each argument sets the property of the same name.
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
    /// `/I`: the group is composited onto a fully transparent backdrop, not onto what is beneath it (§11.4.7.2).
    public var isolated = false
    /// `/K`: each item of the group is composited with the group's initial backdrop, not with the items before it
    /// (§11.4.7.3).
    public var knockout = false
    /// The group's `/BBox` in user space, when known (the backend may limit its buffer to it).
    public var bounds: PDFRectangle?
    /// How the finished group is composited.
    public var state = DrawState()

    /// A non-isolated, non-knockout group without bounds, composited in the initial state.
    public init() {}
}

/// A shading (ISO 32000-2 §8.7.4.5): geometry plus colours already converted to sRGB.
public struct Shading: Sendable {
    /// Where the colours of a shading are defined, by shading type (§8.7.4.5.2 to §8.7.4.5.8).
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

    /// The shading's geometry, in shading space.
    public var geometry: Geometry
    /// For axial and radial shadings: the colour at parameter t.
    public var color: @Sendable (Double) -> RGB
    /// `/Background`, drawn where the shading is not defined (only by `scn` fills, not by `sh`).
    public var background: RGB?
    /// `/BBox` in shading space.
    public var bbox: PDFRectangle?

    /// A shading; each argument sets the property of the same name.
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

/// A triangle of a free-form or lattice-form mesh (shading types 4 and 5, §8.7.4.5.5): colours are interpolated between
/// its vertices.
public struct MeshTriangle: Sendable {
    /// The three vertices, in shading space.
    public var points: (PDFPoint, PDFPoint, PDFPoint)
    /// The colours at the three vertices, in the order of `points`.
    public var colors: (RGB, RGB, RGB)

    /// A triangle with a colour at each vertex.
    public init(points: (PDFPoint, PDFPoint, PDFPoint), colors: (RGB, RGB, RGB)) {
        self.points = points
        self.colors = colors
    }
}

/// A tensor-product patch (a Coons patch has its four inner points computed, ISO 32000-2 §8.7.4.5.7):
/// 16 points in row order as Table 86 numbers them p00 … p33, and the colours of the corners
/// p00, p03, p33, p30.
public struct MeshPatch: Sendable {
    /// The 16 control points, in shading space, row by row (p00, p01 … p33).
    public var points: [PDFPoint]
    /// The colours of the corners p00, p03, p33 and p30, in that order.
    public var colors: [RGB]

    /// A patch of 16 points and 4 corner colours.
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
    /// `/XStep`: the horizontal distance between cells, in pattern space.
    public var xStep: Double
    /// `/YStep`: the vertical distance between cells, in pattern space.
    public var yStep: Double
    /// Pattern space to user space.
    public var matrix: PDFMatrix

    /// A tiling pattern; each argument sets the property of the same name.
    public init(cell: DisplayList, bbox: PDFRectangle, xStep: Double, yStep: Double, matrix: PDFMatrix) {
        self.cell = cell
        self.bbox = bbox
        self.xStep = xStep
        self.yStep = yStep
        self.matrix = matrix
    }
}
