import PDFCore

/// A bilevel bitmap, one byte per pixel (1 = black, as in JBIG2), rows top to bottom.
struct JBIG2Bitmap {
    var width: Int
    var height: Int
    var pixels: [UInt8]

    /// A bitmap filled with `value`; the caller has accounted for it in the budget.
    init(width: Int, height: Int, value: UInt8 = 0) {
        self.width = width
        self.height = height
        self.pixels = [UInt8](repeating: value, count: width * height)
    }

    /// The pixel at (x, y), 0 outside the bitmap.
    @inline(__always)
    func pixel(_ x: Int, _ y: Int) -> Int {
        guard x >= 0, y >= 0, x < width, y < height else { return 0 }
        return Int(pixels[y * width + x])
    }

    @inline(__always)
    mutating func set(_ x: Int, _ y: Int, _ value: Int) {
        pixels[y * width + x] = UInt8(truncatingIfNeeded: value)
    }

    /// Combination operators (T.88 §6.4.5 SBCOMBOP, §7.4.1.5 external combination operator).
    enum Operator: Int {
        case or = 0, and = 1, xor = 2, xnor = 3, replace = 4

        init(bits: Int) { self = Operator(rawValue: bits) ?? .or }
    }

    /// Draws `source` with its top left corner at (x, y), clipped to this bitmap.
    mutating func draw(_ source: JBIG2Bitmap, x: Int, y: Int, operator op: Operator) {
        let startX = max(x, 0)
        let endX = min(x + source.width, width)
        let startY = max(y, 0)
        let endY = min(y + source.height, height)
        guard startX < endX, startY < endY else { return }
        source.pixels.withUnsafeBufferPointer { from in
            pixels.withUnsafeMutableBufferPointer { to in
                for row in startY..<endY {
                    let sourceRow = (row - y) * source.width - x
                    let targetRow = row * width
                    for column in startX..<endX {
                        let s = from[sourceRow + column]
                        let t = to[targetRow + column]
                        let value: UInt8
                        switch op {
                        case .or: value = s | t
                        case .and: value = s & t
                        case .xor: value = s ^ t
                        case .xnor: value = (s ^ t) ^ 1
                        case .replace: value = s
                        }
                        to[targetRow + column] = value
                    }
                }
            }
        }
    }

    /// The pixels of `width × height` at (x, y); outside this bitmap they are 0.
    func cropped(x: Int, y: Int, width: Int, height: Int) -> JBIG2Bitmap {
        var result = JBIG2Bitmap(width: width, height: height)
        result.draw(self, x: -x, y: -y, operator: .replace)
        return result
    }

    /// Packed rows, most significant bit first, each row padded to a byte; `invert` flips every bit.
    func packed(invert: Bool) -> [UInt8] {
        let bytesPerRow = (width + 7) / 8
        var output = [UInt8](repeating: invert ? 0xFF : 0, count: bytesPerRow * height)
        for row in 0..<height {
            for column in 0..<width where pixels[row * width + column] != 0 {
                output[row * bytesPerRow + column >> 3] ^= UInt8(0x80) >> UInt8(column & 7)
            }
        }
        return output
    }

    /// A bitmap from packed rows (1 = black), as the MMR decoder writes them.
    init(packed: [UInt8], width: Int, height: Int) {
        self.init(width: width, height: height)
        let bytesPerRow = (width + 7) / 8
        for row in 0..<min(height, packed.count / max(bytesPerRow, 1)) {
            for column in 0..<width {
                pixels[row * width + column] = (packed[row * bytesPerRow + column >> 3] >> UInt8(7 - column & 7)) & 1
            }
        }
    }
}
