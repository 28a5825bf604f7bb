/// A rendered page or tile: 8-bit RGBA, premultiplied by alpha, rows top to bottom.
public struct RenderedImage: Sendable {
    /// The width in pixels.
    public var width: Int
    /// The height in pixels.
    public var height: Int
    /// `width × height × 4` bytes, R G B A.
    public var rgba: [UInt8]
    /// What could not be drawn while replaying the page (an image that does not decode, say):
    /// problems of drawing, where ``DocumentRenderer/render(pageAt:options:)`` adds those of reading.
    public var warnings: [String] = []
    /// Pixels of the soft-mask surfaces made while drawing (work that must follow what the masks
    /// cover, never the page's size times their number).
    package var maskPixels = 0

    /// An image of `width` × `height` pixels; `rgba` holds `width × height × 4` premultiplied bytes.
    public init(width: Int, height: Int, rgba: [UInt8]) {
        self.width = width
        self.height = height
        self.rgba = rgba
    }

    /// The pixel at (`x`, `y`) from the top-left, premultiplied R G B A.
    public func pixel(_ x: Int, _ y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        let index = (y * width + x) * 4
        return (rgba[index], rgba[index + 1], rgba[index + 2], rgba[index + 3])
    }
}
