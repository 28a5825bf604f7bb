extension PageDifference {
    /// A picture of the difference, opaque, ``width`` × ``height``: `current` faded to 30 % over
    /// white, the changed pixels in strong red, and each region outlined in 2 pixels of blue just
    /// outside it (inside where it reaches the image's side). Where only one version has the page (a
    /// page added or removed, or a larger page) that version shows faded over pale red.
    ///
    /// - Parameters:
    ///   - original: the image compared as the original.
    ///   - current: the image compared as the current one.
    public func image(original: RenderedImage, current: RenderedImage) -> RenderedImage {
        let mask = ChangeMask(original: original, current: current, tolerance: tolerance)
        let (width, height) = (mask.width, mask.height)
        guard width > 0, height > 0 else { return RenderedImage(width: 0, height: 0, rgba: []) }
        let (originalWidth, _) = ChangeMask.size(of: original)
        let (currentWidth, currentHeight) = ChangeMask.size(of: current)
        var rgba = [UInt8](repeating: 255, count: width * height * 4)
        original.rgba.withUnsafeBufferPointer { before in
            current.rgba.withUnsafeBufferPointer { after in
                rgba.withUnsafeMutableBufferPointer { output in
                    PageDifference.paint(
                        mask, original: (before, originalWidth), current: (after, currentWidth, currentHeight),
                        into: output)
                    for region in regions {
                        PageDifference.outline(region.pixels, in: output, width: width, height: height)
                    }
                }
            }
        }
        return RenderedImage(width: width, height: height, rgba: rgba)
    }

    static let changedColor: (UInt8, UInt8, UInt8) = (230, 0, 0)
    static let outlineColor: (UInt8, UInt8, UInt8) = (0, 90, 230)
    static let pale: (Int, Int, Int) = (255, 214, 214)
    /// The outline's thickness in pixels.
    static let outlineWidth = 2

    /// Paints each pixel of `output` (RGBA, the mask's size) by its state in `mask`.
    static func paint(
        _ mask: ChangeMask, original: (pixels: UnsafeBufferPointer<UInt8>, width: Int),
        current: (pixels: UnsafeBufferPointer<UInt8>, width: Int, height: Int),
        into output: UnsafeMutableBufferPointer<UInt8>
    ) {
        mask.states.withUnsafeBufferPointer { states in
            for y in 0..<mask.height {
                for x in 0..<mask.width {
                    let color: (UInt8, UInt8, UInt8)
                    switch states[y * mask.width + x] {
                    case ChangeMask.changed:
                        color = changedColor
                    case ChangeMask.onlyOriginal:
                        color = faded(original.pixels, (y * original.width + x) * 4, over: pale)
                    case ChangeMask.onlyCurrent:
                        color = faded(current.pixels, (y * current.width + x) * 4, over: pale)
                    default:
                        // Same in both, or a corner neither image covers (left white).
                        guard x < current.width, y < current.height else { continue }
                        color = faded(current.pixels, (y * current.width + x) * 4, over: (255, 255, 255))
                    }
                    let target = (y * mask.width + x) * 4
                    (output[target], output[target + 1], output[target + 2]) = color
                }
            }
        }
    }

    /// The premultiplied pixel at `offset` over white, then 30 % of it over `background`.
    static func faded(_ pixels: UnsafeBufferPointer<UInt8>, _ offset: Int, over background: (Int, Int, Int)) -> (
        UInt8, UInt8, UInt8
    ) {
        let transparency = 255 - Int(pixels[offset + 3])
        func channel(_ index: Int, _ under: Int) -> UInt8 {
            let opaque = min(255, Int(pixels[offset + index]) + transparency)
            return UInt8((opaque * 30 + under * 70 + 50) / 100)
        }
        return (channel(0, background.0), channel(1, background.1), channel(2, background.2))
    }

    /// Draws a frame ``outlineWidth`` pixels wide around `box`, moved inwards where it would leave
    /// the image.
    static func outline(_ box: PixelRectangle, in output: UnsafeMutableBufferPointer<UInt8>, width: Int, height: Int) {
        let line = outlineWidth
        let x0 = min(max(0, box.x - line), max(0, width - 2 * line))
        let y0 = min(max(0, box.y - line), max(0, height - 2 * line))
        let x1 = max(min(width, box.x + box.width + line), min(width, x0 + 2 * line))
        let y1 = max(min(height, box.y + box.height + line), min(height, y0 + 2 * line))
        func paint(_ x: Int, _ y: Int) {
            let target = (y * width + x) * 4
            (output[target], output[target + 1], output[target + 2]) = outlineColor
        }
        for y in y0..<y1 {
            if y < y0 + line || y >= y1 - line {
                for x in x0..<x1 { paint(x, y) }
            } else {
                for x in x0..<min(x1, x0 + line) { paint(x, y) }
                for x in max(x0, x1 - line)..<x1 { paint(x, y) }
            }
        }
    }
}
