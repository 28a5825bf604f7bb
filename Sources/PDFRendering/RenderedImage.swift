/// A rendered page or tile: 8-bit RGBA, premultiplied by alpha, rows top to bottom.
public struct RenderedImage: Sendable {
    public var width: Int
    public var height: Int
    /// `width × height × 4` bytes, R G B A.
    public var rgba: [UInt8]

    public init(width: Int, height: Int, rgba: [UInt8]) {
        self.width = width
        self.height = height
        self.rgba = rgba
    }
}
