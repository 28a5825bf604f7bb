/// Which pixels of two images laid over each other at their top-left corners differ: one state a
/// pixel over the union of their sizes.
struct ChangeMask {
    /// Both images have the pixel and it is the same within the tolerance (or neither has it).
    static let same: UInt8 = 0
    /// Both images have the pixel and a channel differs by more than the tolerance.
    static let changed: UInt8 = 1
    /// Only the original image has the pixel.
    static let onlyOriginal: UInt8 = 2
    /// Only the current image has the pixel.
    static let onlyCurrent: UInt8 = 3

    let width: Int
    let height: Int
    /// `width × height` states, rows top to bottom.
    let states: [UInt8]

    /// An image whose bytes do not fill its size (a render that failed) has no pixels.
    static func size(of image: RenderedImage) -> (width: Int, height: Int) {
        guard image.width > 0, image.height > 0, image.rgba.count / 4 / image.width >= image.height else {
            return (0, 0)
        }
        return (image.width, image.height)
    }

    init(original: RenderedImage, current: RenderedImage, tolerance: Int) {
        let (originalWidth, originalHeight) = ChangeMask.size(of: original)
        let (currentWidth, currentHeight) = ChangeMask.size(of: current)
        let width = max(originalWidth, currentWidth)
        let height = max(originalHeight, currentHeight)
        var states = [UInt8](repeating: ChangeMask.same, count: width * height)
        original.rgba.withUnsafeBytes { a in
            current.rgba.withUnsafeBytes { b in
                states.withUnsafeMutableBufferPointer { mask in
                    for y in 0..<height {
                        let inOriginal = y < originalHeight ? originalWidth : 0
                        let inCurrent = y < currentHeight ? currentWidth : 0
                        let both = min(inOriginal, inCurrent)
                        let row = y * width
                        for x in 0..<both {
                            let offsetA = (y * originalWidth + x) * 4
                            let offsetB = (y * currentWidth + x) * 4
                            if a.loadUnaligned(fromByteOffset: offsetA, as: UInt32.self)
                                == b.loadUnaligned(fromByteOffset: offsetB, as: UInt32.self)
                            {
                                continue
                            }
                            for channel in 0..<4
                            where abs(Int(a[offsetA + channel]) - Int(b[offsetB + channel])) > tolerance {
                                mask[row + x] = ChangeMask.changed
                                break
                            }
                        }
                        for x in both..<max(both, inOriginal) { mask[row + x] = ChangeMask.onlyOriginal }
                        for x in both..<max(both, inCurrent) { mask[row + x] = ChangeMask.onlyCurrent }
                    }
                }
            }
        }
        self.width = width
        self.height = height
        self.states = states
    }
}
