import Synchronization

/// Decoded pixels: 8-bit RGBA, straight (not premultiplied) alpha, rows top to bottom.
public struct DecodedImage: Sendable {
    /// The width in pixels.
    public var width: Int
    /// The height in pixels.
    public var height: Int
    /// `width × height × 4` bytes.
    public var rgba: [UInt8]

    /// An image of `width` × `height` pixels; `rgba` holds `width × height × 4` bytes.
    public init(width: Int, height: Int, rgba: [UInt8]) {
        self.width = width
        self.height = height
        self.rgba = rgba
    }
}

/// An image of the display list, decoded when a consumer first asks (text extraction never does)
/// and then kept. For a stencil mask only the alpha channel matters.
public final class ImageSource: Sendable {
    /// The image's width in samples (`/Width`); a decoded image may be smaller when a reduction was asked for.
    public let width: Int
    /// The image's height in samples (`/Height`).
    public let height: Int
    /// `/Interpolate`: smooth when scaling up.
    public let interpolate: Bool
    private let decoder: @Sendable (Int) -> (DecodedImage?, [String])
    private let cache = Mutex<[Int: (DecodedImage?, [String])]>([:])

    /// - Parameters:
    ///   - width: the image's width in samples.
    ///   - height: the image's height in samples.
    ///   - interpolate: `/Interpolate`: smooth when scaling up.
    ///   - decoder: produces the pixels, or nil with warnings when the image cannot be read; its
    ///     argument is the reduction asked for (see ``decoded(reduction:)``), which it may ignore.
    public init(
        width: Int, height: Int, interpolate: Bool = false,
        decoder: @escaping @Sendable (_ reduction: Int) -> (DecodedImage?, [String])
    ) {
        self.width = width
        self.height = height
        self.interpolate = interpolate
        self.decoder = decoder
    }

    /// An image whose pixels are already known.
    public convenience init(decoded: DecodedImage, interpolate: Bool = false) {
        self.init(width: decoded.width, height: decoded.height, interpolate: interpolate) { _ in (decoded, []) }
    }

    /// The pixels (decoded once per reduction), or nil when the image cannot be read; `warnings`
    /// say why.
    ///
    /// - Parameter reduction: the image may be averaged down by `2^reduction` in each direction
    ///   while it is decoded (a consumer drawing it much smaller than its size asks so: a 600 dpi
    ///   scan drawn at 150 dpi then costs a sixteenth of the memory and time). The result's size
    ///   says what was done; sources that cannot reduce return the full image.
    public func decoded(reduction: Int = 0) -> (image: DecodedImage?, warnings: [String]) {
        let reduction = max(0, min(reduction, 8))
        if let cached = cache.withLock({ $0[reduction] }) { return cached }
        let result = decoder(reduction)
        cache.withLock { $0[reduction] = result }
        return result
    }
}
