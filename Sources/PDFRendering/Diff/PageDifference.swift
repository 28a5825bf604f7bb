public import PDFCore
import PDFGraphics

/// Where two renders of the same page differ: the changed pixels grouped into a few rectangles, in
/// pixels and in the page's user space (ISO 32000-2 §8.3.2.3), and the share of pixels changed.
/// What `autograph verify --diff` shows of the changes made to a page after it was signed.
///
/// The two images are laid over each other at their top-left corners and compared over the union
/// of their sizes. A pixel is changed when one of its channels (premultiplied R G B A) differs by
/// more than `tolerance`, so anti-aliasing a level or two apart does not count; where only one image
/// has pixels (a page added or removed, or pages of different sizes) every pixel of it is changed.
///
/// Changed pixels are gathered in square cells of `cellSize` pixels; touching cells (diagonals
/// included) make a region, the bounding box of the changed pixels in them. Regions that overlap or
/// touch are merged, and while more than `maximumRegions` remain, the two whose union adds the least
/// area are merged. So that this stays cheap however scattered the changes, the cells double in size
/// while there are more than four times `maximumRegions` regions: the work is linear in the pixels.
///
/// ```swift
/// let matrix = PageRenderer.deviceMatrix(cropBox: Rect(page.cropBox), pageRotation: page.rotation, options: options)
/// let difference = PageDifference(original: signed, current: today, userToPixels: matrix)
/// for region in difference.regions { print(region.userSpace) }
/// let picture = difference.image(original: signed, current: today).pngData()
/// ```
public struct PageDifference: Sendable {
    /// A rectangle of pixels: `x` right and `y` down from the image's top-left pixel.
    public struct PixelRectangle: Hashable, Sendable {
        /// The left column, from 0.
        public var x: Int
        /// The top row, from 0.
        public var y: Int
        /// The width in pixels.
        public var width: Int
        /// The height in pixels.
        public var height: Int

        /// The rectangle of `width` × `height` pixels whose top-left pixel is (`x`, `y`).
        public init(x: Int, y: Int, width: Int, height: Int) {
            (self.x, self.y, self.width, self.height) = (x, y, width, height)
        }
    }

    /// One changed region.
    public struct Region: Hashable, Sendable {
        /// The bounding box of the region's changed pixels.
        public var pixels: PixelRectangle
        /// ``pixels`` in the user space of the page (points, y up): the bounding box of its corners
        /// mapped back through the render's transformation (rotation and crop box included).
        public var userSpace: PDFRectangle
    }

    /// The width of the comparison, the wider of the two images.
    public let width: Int
    /// The height of the comparison, the taller of the two images.
    public let height: Int
    /// How many pixels changed.
    public let changedPixels: Int
    /// The changed regions, at most the `maximumRegions` asked for, top to bottom then left to right.
    public let regions: [Region]
    /// The largest difference of a channel still counted as equal.
    public let tolerance: Int

    /// The changed pixels' share of the `width × height` compared, from 0 to 1.
    public var changedShare: Double {
        width > 0 && height > 0 ? Double(changedPixels) / (Double(width) * Double(height)) : 0
    }

    /// Whether the two images show the same page (within the tolerance).
    public var isEmpty: Bool { changedPixels == 0 }

    /// Compares `original` with `current`, two full-page renders at the same resolution.
    ///
    /// - Parameters:
    ///   - original: the page as it was (an image with no pixels when the page did not exist).
    ///   - current: the page as it is (an image with no pixels when the page no longer exists).
    ///   - userToPixels: the transformation from the page's user space to the pixels of the renders
    ///     (``PageRenderer/deviceMatrix(cropBox:pageRotation:options:)``), used for
    ///     ``Region/userSpace``; give the current page's, or the original's when the page was removed.
    ///   - tolerance: the largest difference of a channel still counted as equal (0 … 255).
    ///   - cellSize: the side of the cells changed pixels are gathered in (1 … 256 pixels).
    ///   - maximumRegions: the most regions returned (at least 1).
    public init(
        original: RenderedImage, current: RenderedImage, userToPixels: PDFMatrix, tolerance: Int = 16,
        cellSize: Int = 12, maximumRegions: Int = 64
    ) {
        self.tolerance = min(max(tolerance, 0), 255)
        let mask = ChangeMask(original: original, current: current, tolerance: self.tolerance)
        width = mask.width
        height = mask.height
        var grid = CellGrid(mask: mask, cellSize: min(max(cellSize, 1), 256))
        changedPixels = grid.changedPixels
        let boxes = grid.regions(maximum: max(1, maximumRegions))
        let pixelsToUser = userToPixels.inverted() ?? .identity
        regions = boxes.map { box in
            Region(
                pixels: PixelRectangle(x: box.x0, y: box.y0, width: box.x1 - box.x0, height: box.y1 - box.y0),
                userSpace: pixelsToUser.apply(
                    PDFRectangle(x0: Double(box.x0), y0: Double(box.y0), x1: Double(box.x1), y1: Double(box.y1))))
        }
    }

    /// Compares two full-page renders of `page` made with `options`: the regions are mapped to its
    /// user space through its crop box, its `/Rotate` (§7.7.3.3) and the resolution.
    public init(
        original: RenderedImage, current: RenderedImage, page: Page, options: RenderOptions = RenderOptions(),
        tolerance: Int = 16, cellSize: Int = 12, maximumRegions: Int = 64
    ) {
        self.init(
            original: original, current: current,
            userToPixels: PageRenderer.deviceMatrix(
                cropBox: page.cropBox, pageRotation: page.rotation, options: options),
            tolerance: tolerance, cellSize: cellSize, maximumRegions: maximumRegions)
    }
}

/// A rectangle of pixels with exclusive ends, while regions are being made.
struct PixelBox: Hashable {
    var x0: Int
    var y0: Int
    var x1: Int
    var y1: Int

    var area: Int { (x1 - x0) * (y1 - y0) }

    func union(_ other: PixelBox) -> PixelBox {
        PixelBox(x0: min(x0, other.x0), y0: min(y0, other.y0), x1: max(x1, other.x1), y1: max(y1, other.y1))
    }

    /// Whether the two overlap or share an edge or a corner.
    func touches(_ other: PixelBox) -> Bool {
        x0 <= other.x1 && other.x0 <= x1 && y0 <= other.y1 && other.y0 <= y1
    }
}
