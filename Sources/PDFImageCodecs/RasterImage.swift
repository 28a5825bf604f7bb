import PDFCore

/// Decoded 8-bit pixels: grey or RGB, with an optional alpha channel. What images are scaled in
/// before they become XObjects again.
package struct RasterImage: Sendable {
    package var width: Int
    package var height: Int
    /// 1 (grey) or 3 (RGB).
    package var channels: Int
    /// Rows top to bottom, `channels` bytes a pixel.
    package var pixels: [UInt8]
    /// One byte a pixel, 255 opaque; nil when the image is opaque.
    package var alpha: [UInt8]?

    package init(width: Int, height: Int, channels: Int, pixels: [UInt8], alpha: [UInt8]?) {
        self.width = width
        self.height = height
        self.channels = channels
        self.pixels = pixels
        self.alpha = alpha
    }

    /// This image shrunk to `targetWidth`×`targetHeight` by averaging the source area under each
    /// target pixel (colour weighted by alpha, so transparent pixels leave no dark fringe).
    package func downscaled(toWidth targetWidth: Int, height targetHeight: Int) -> RasterImage {
        guard targetWidth < width || targetHeight < height else { return self }
        let targetWidth = max(1, min(targetWidth, width))
        let targetHeight = max(1, min(targetHeight, height))
        // The source span of each target column and row: start index and fractional weights.
        let columns = RasterImage.spans(source: width, target: targetWidth)
        let rows = RasterImage.spans(source: height, target: targetHeight)
        var output = [UInt8](repeating: 0, count: targetWidth * targetHeight * channels)
        var outputAlpha = alpha.map { _ in [UInt8](repeating: 0, count: targetWidth * targetHeight) }
        var sums = [Double](repeating: 0, count: channels)
        for (targetY, row) in rows.enumerated() {
            for (targetX, column) in columns.enumerated() {
                for index in sums.indices { sums[index] = 0 }
                var weightSum = 0.0
                var alphaSum = 0.0
                for (y, rowWeight) in row {
                    for (x, columnWeight) in column {
                        let pixel = y * width + x
                        let coverage = rowWeight * columnWeight
                        let opacity = alpha.map { Double($0[pixel]) / 255 } ?? 1
                        alphaSum += coverage * opacity
                        weightSum += coverage
                        for channel in 0..<channels {
                            sums[channel] += coverage * opacity * Double(pixels[pixel * channels + channel])
                        }
                    }
                }
                let target = targetY * targetWidth + targetX
                for channel in 0..<channels {
                    let value = alphaSum > 0 ? sums[channel] / alphaSum : 0
                    output[target * channels + channel] = UInt8(max(0, min(255, value.rounded())))
                }
                if outputAlpha != nil {
                    outputAlpha![target] = UInt8(max(0, min(255, (255 * alphaSum / weightSum).rounded())))
                }
            }
        }
        return RasterImage(
            width: targetWidth, height: targetHeight, channels: channels, pixels: output, alpha: outputAlpha)
    }

    /// For each of `target` cells, the source cells it covers with their coverage.
    private static func spans(source: Int, target: Int) -> [[(Int, Double)]] {
        let scale = Double(source) / Double(target)
        return (0..<target).map { index in
            let start = Double(index) * scale
            let end = min(Double(source), start + scale)
            var cells: [(Int, Double)] = []
            var cell = Int(start)
            while Double(cell) < end && cell < source {
                let weight = min(end, Double(cell + 1)) - max(start, Double(cell))
                if weight > 1e-9 { cells.append((cell, weight)) }
                cell += 1
            }
            return cells
        }
    }
}
