public import PDFGraphics

/// How a page is rendered: resolution, extra rotation, background, anti-aliasing and an optional tile.
public struct RenderOptions: Sendable {
    /// Output pixels per inch; the scale from user space (points) is `dpi / 72`.
    public var dpi: Double = 72
    /// Extra clockwise rotation in degrees, a multiple of 90, added to the page's `/Rotate`.
    public var rotation: Int = 0
    /// The colour filled under the page; nil leaves the background transparent.
    public var background: RGB? = .white
    /// Whether paths, images and text are anti-aliased.
    public var antiAlias = true
    /// A tile: the region of the full rendered page, in output pixels (x, y from top-left, width, height).
    public var region: (x: Int, y: Int, width: Int, height: Int)? = nil
    /// Limits on the work (time, display list size, cancellation); when it is spent the drawing
    /// stops and `budget.stop` says why — the image is then incomplete and must not be shown as the page.
    public var budget: RenderBudget? = nil

    /// Options for 72 dpi (one pixel per point), the page's own rotation, a white background, anti-aliasing, the whole
    /// page and no budget.
    public init() {}
}
