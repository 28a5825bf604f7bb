extension ColorSpace {
    /// Converts image samples to sRGB bytes (ISO 32000-2 §8.9.5).
    ///
    /// - Parameters:
    ///   - samples: `pixelCount × componentCount` unpacked integer samples of `bitsPerComponent` bits.
    ///   - pixelCount: the number of pixels.
    ///   - bitsPerComponent: 1, 2, 4, 8 or 16 (other values are clamped to 16 bits).
    ///   - decode: the image's `/Decode` array (or ``defaultDecode(bitsPerComponent:)``); a missing
    ///     or short array falls back to the default.
    /// - Returns: 3 bytes (R, G, B) per pixel.
    ///
    /// One-component spaces (gray, Indexed, Separation …) and the device spaces go through lookup
    /// tables built once per call; other spaces convert each distinct colour once (8-bit samples
    /// of up to 4 components) or each pixel.
    public func rgbBytes(
        samples: UnsafeBufferPointer<UInt16>, pixelCount: Int, bitsPerComponent: Int, decode: [Double]
    ) -> [UInt8] {
        let n = max(componentCount, 1)
        let pixelCount = max(0, min(pixelCount, samples.count / n))
        let bits = min(max(bitsPerComponent, 1), 16)
        let maximum = (1 << bits) - 1
        let decode = decode.count >= 2 * n ? decode : defaultDecode(bitsPerComponent: bits)
        var output = [UInt8](repeating: 0, count: pixelCount * 3)
        guard pixelCount > 0, componentCount > 0 else { return output }
        // The decoded value of each possible sample, per component.
        let values: [[Double]] = (0..<n).map { i in
            let (low, high) = (decode[2 * i], decode[2 * i + 1])
            return (0...maximum).map { low + Double($0) * (high - low) / Double(maximum) }
        }
        output.withUnsafeMutableBufferPointer { out in
            switch family {
            case .deviceRGB:
                // One table of (maximum + 1) bytes per component, side by side.
                let table = values.flatMap { column in column.map { ColorSpace.byte($0) } }
                table.withUnsafeBufferPointer { table in
                    let stride = maximum + 1
                    let top = UInt16(maximum)
                    for p in 0..<pixelCount {
                        out[3 * p] = table[Int(min(samples[3 * p], top))]
                        out[3 * p + 1] = table[stride + Int(min(samples[3 * p + 1], top))]
                        out[3 * p + 2] = table[2 * stride + Int(min(samples[3 * p + 2], top))]
                    }
                }
            case .deviceCMYK:
                // Ink amounts in 1/255 steps, then r = 255 − min(255, c + k).
                let table = values.flatMap { column in column.map { Int(ColorSpace.byte($0)) } }
                table.withUnsafeBufferPointer { table in
                    let stride = maximum + 1
                    let top = UInt16(maximum)
                    for p in 0..<pixelCount {
                        let k = table[3 * stride + Int(min(samples[4 * p + 3], top))]
                        out[3 * p] = UInt8(255 - min(255, table[Int(min(samples[4 * p], top))] + k))
                        out[3 * p + 1] = UInt8(255 - min(255, table[stride + Int(min(samples[4 * p + 1], top))] + k))
                        out[3 * p + 2] = UInt8(
                            255 - min(255, table[2 * stride + Int(min(samples[4 * p + 2], top))] + k))
                    }
                }
            case .iccBased(let converter) where n > 1:
                var unit = [Float](repeating: 0, count: pixelCount * n)
                let tables = (0..<n).map { i in
                    let (low, high) = (ranges[2 * i], ranges[2 * i + 1])
                    return values[i].map { Float(min(max((($0 - low) / (high - low)), 0), 1)) }
                }
                for index in 0..<(pixelCount * n) {
                    unit[index] = tables[index % n][Int(min(samples[index], UInt16(maximum)))]
                }
                let bytes = converter.rgbBytes(fromUnitComponents: unit, pixelCount: pixelCount)
                for index in 0..<min(bytes.count, out.count) { out[index] = bytes[index] }
            default:
                if n == 1 {
                    let table = values[0].map { rgb([$0]) }.flatMap {
                        [ColorSpace.byte($0.r), ColorSpace.byte($0.g), ColorSpace.byte($0.b)]
                    }
                    table.withUnsafeBufferPointer { table in
                        let top = UInt16(maximum)
                        for p in 0..<pixelCount {
                            let index = 3 * Int(min(samples[p], top))
                            out[3 * p] = table[index]
                            out[3 * p + 1] = table[index + 1]
                            out[3 * p + 2] = table[index + 2]
                        }
                    }
                } else {
                    convertEach(samples, pixelCount: pixelCount, n: n, bits: bits, values: values, into: out)
                }
            }
        }
        return output
    }

    /// Converts multi-component pixels one by one, remembering the colours already seen when the
    /// samples of a pixel fit in 32 bits.
    private func convertEach(
        _ samples: UnsafeBufferPointer<UInt16>, pixelCount: Int, n: Int, bits: Int, values: [[Double]],
        into out: UnsafeMutableBufferPointer<UInt8>
    ) {
        let maximum = UInt16((1 << bits) - 1)
        let packable = n * bits <= 32
        var cache: [UInt32: (UInt8, UInt8, UInt8)] = [:]
        var components = [Double](repeating: 0, count: n)
        var last: (key: UInt32, rgb: (UInt8, UInt8, UInt8))? = nil
        for p in 0..<pixelCount {
            var key: UInt32 = 0
            if packable {
                for c in 0..<n { key = key << UInt32(bits) | UInt32(min(samples[n * p + c], maximum)) }
                if let last, last.key == key {
                    (out[3 * p], out[3 * p + 1], out[3 * p + 2]) = last.rgb
                    continue
                }
                if let known = cache[key] {
                    (out[3 * p], out[3 * p + 1], out[3 * p + 2]) = known
                    last = (key, known)
                    continue
                }
            }
            for c in 0..<n { components[c] = values[c][Int(min(samples[n * p + c], maximum))] }
            let color = rgb(components)
            let bytes = (ColorSpace.byte(color.r), ColorSpace.byte(color.g), ColorSpace.byte(color.b))
            (out[3 * p], out[3 * p + 1], out[3 * p + 2]) = bytes
            if packable {
                last = (key, bytes)
                if cache.count < 1 << 18 { cache[key] = bytes }
            }
        }
    }

    /// A 0…1 value as a byte, rounded.
    @inline(__always)
    static func byte(_ value: Double) -> UInt8 {
        value.isNaN ? 0 : UInt8(min(max(value * 255 + 0.5, 0), 255))
    }
}
