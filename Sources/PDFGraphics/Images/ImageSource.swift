import Synchronization

/// Decoded pixels: 8-bit RGBA, straight (not premultiplied) alpha, rows top to bottom.
public struct DecodedImage: Sendable {
    public var width: Int
    public var height: Int
    /// `width × height × 4` bytes.
    public var rgba: [UInt8]

    public init(width: Int, height: Int, rgba: [UInt8]) {
        self.width = width
        self.height = height
        self.rgba = rgba
    }
}

/// An image of the display list, decoded when a consumer first asks (text extraction never does)
/// and then kept. For a stencil mask only the alpha channel matters.
public final class ImageSource: Sendable {
    public let width: Int
    public let height: Int
    /// `/Interpolate`: smooth when scaling up.
    public let interpolate: Bool
    private let decoder: @Sendable () -> (DecodedImage?, [String])
    private let cache = Mutex<(DecodedImage?, [String])?>(nil)

    /// - Parameter decoder: produces the pixels, or nil with warnings when the image cannot be read.
    public init(
        width: Int, height: Int, interpolate: Bool = false,
        decoder: @escaping @Sendable () -> (DecodedImage?, [String])
    ) {
        self.width = width
        self.height = height
        self.interpolate = interpolate
        self.decoder = decoder
    }

    /// An image whose pixels are already known.
    public convenience init(decoded: DecodedImage, interpolate: Bool = false) {
        self.init(width: decoded.width, height: decoded.height, interpolate: interpolate) { (decoded, []) }
    }

    /// The pixels (decoded once), or nil when the image cannot be read; `warnings` say why.
    public func decoded() -> (image: DecodedImage?, warnings: [String]) {
        if let cached = cache.withLock({ $0 }) { return cached }
        let result = decoder()
        cache.withLock { $0 = result }
        return result
    }
}
