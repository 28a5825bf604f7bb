/// The PNG and TIFF predictors of Flate and LZW (ISO 32000-2 §7.4.4.4, Table 10).
package enum Predictor {
    package static func undo(_ data: [UInt8], parameters: PDFDictionary?, maxSize: Int) throws(PDFError) -> [UInt8] {
        guard let parameters, let predictor = parameters.int(.predictor), predictor > 1 else { return data }
        let colors = max(1, min(parameters.int(.colors) ?? 1, 64))
        let bitsPerComponent = parameters.int(.bitsPerComponent) ?? 8
        let columns = max(1, min(parameters.int(.columns) ?? 1, 1 << 24))
        guard [1, 2, 4, 8, 16].contains(bitsPerComponent) else {
            throw PDFError(.decodeFailed, "predictor with \(bitsPerComponent) bits per component")
        }
        let bitsPerPixel = colors * bitsPerComponent
        let rowBytes = (bitsPerPixel * columns + 7) / 8
        let bytesPerPixel = max(1, bitsPerPixel / 8)
        if predictor == 2 {
            return tiff(data, rowBytes: rowBytes, colors: colors, bitsPerComponent: bitsPerComponent)
        }
        guard predictor >= 10 else { throw PDFError(.decodeFailed, "unknown predictor \(predictor)") }
        // The output is never larger than the input (a row is its predictor byte plus its bytes).
        guard data.count <= maxSize else {
            throw PDFError(.limitExceeded, "predicted data is larger than \(maxSize) bytes")
        }
        return png(data, rowBytes: rowBytes, bytesPerPixel: bytesPerPixel)
    }

    /// How many predicted bytes hold the first `decoded` bytes of the output (whole rows, with their PNG
    /// filter bytes); nil when the parameters name no predictor this reads, or for a length that has no bound.
    package static func encodedLength(ofDecoded decoded: Int, parameters: PDFDictionary?) -> Int? {
        guard let parameters, let predictor = parameters.int(.predictor), predictor > 1,
            predictor == 2 || predictor >= 10, decoded >= 0, decoded < Int.max / 4
        else { return nil }
        let colors = max(1, min(parameters.int(.colors) ?? 1, 64))
        let bitsPerComponent = parameters.int(.bitsPerComponent) ?? 8
        let columns = max(1, min(parameters.int(.columns) ?? 1, 1 << 24))
        guard [1, 2, 4, 8, 16].contains(bitsPerComponent) else { return nil }
        let rowBytes = (colors * bitsPerComponent * columns + 7) / 8
        let rows = (decoded + rowBytes - 1) / rowBytes
        return predictor == 2 ? rows * rowBytes : rows * (rowBytes + 1)
    }

    /// Undoes PNG prediction row by row; a final partial row yields only the bytes it has.
    private static func png(_ data: [UInt8], rowBytes: Int, bytesPerPixel: Int) -> [UInt8] {
        let rows = (data.count + rowBytes) / (rowBytes + 1)
        let fullRows = data.count / (rowBytes + 1)
        let partial = max(0, data.count - fullRows * (rowBytes + 1) - 1)
        var output = [UInt8](repeating: 0, count: fullRows * rowBytes + (rows > fullRows ? partial : 0))
        var produced = 0
        data.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                var inputIndex = 0
                for row in 0..<rows {
                    guard inputIndex < input.count else { break }
                    let type = input[inputIndex]
                    inputIndex += 1
                    let available = min(rowBytes, input.count - inputIndex)
                    let base = row * rowBytes
                    let above = base - rowBytes
                    for column in 0..<available {
                        let raw = input[inputIndex + column]
                        let left: UInt8 = column >= bytesPerPixel ? out[base + column - bytesPerPixel] : 0
                        let up: UInt8 = row > 0 ? out[above + column] : 0
                        let upLeft: UInt8 =
                            row > 0 && column >= bytesPerPixel ? out[above + column - bytesPerPixel] : 0
                        let value: UInt8
                        switch type {
                        case 0: value = raw
                        case 1: value = raw &+ left
                        case 2: value = raw &+ up
                        case 3: value = raw &+ UInt8((Int(left) + Int(up)) / 2)
                        case 4:
                            let estimate = Int(left) + Int(up) - Int(upLeft)
                            let distanceLeft = abs(estimate - Int(left))
                            let distanceUp = abs(estimate - Int(up))
                            let distanceUpLeft = abs(estimate - Int(upLeft))
                            let predicted =
                                distanceLeft <= distanceUp && distanceLeft <= distanceUpLeft
                                ? left : (distanceUp <= distanceUpLeft ? up : upLeft)
                            value = raw &+ predicted
                        default: value = raw
                        }
                        out[base + column] = value
                    }
                    inputIndex += available
                    produced = base + available
                }
            }
        }
        output.removeSubrange(produced...)
        return output
    }

    private static func tiff(_ data: [UInt8], rowBytes: Int, colors: Int, bitsPerComponent: Int) -> [UInt8] {
        var output = data
        let rows = data.count / rowBytes
        for row in 0..<rows {
            let base = row * rowBytes
            switch bitsPerComponent {
            case 8:
                for index in colors..<max(colors, rowBytes) { output[base + index] &+= output[base + index - colors] }
            case 16:
                let stride = colors * 2
                var index = stride
                while index + 1 < rowBytes {
                    let previous =
                        UInt16(output[base + index - stride]) << 8 | UInt16(output[base + index - stride + 1])
                    let current = UInt16(output[base + index]) << 8 | UInt16(output[base + index + 1])
                    let sum = previous &+ current
                    output[base + index] = UInt8(sum >> 8)
                    output[base + index + 1] = UInt8(sum & 0xFF)
                    index += 2
                }
            default:
                // 1, 2 or 4 bits: components packed in the row, each added to the one a pixel before.
                let mask = (1 << bitsPerComponent) - 1
                let samples = rowBytes * 8 / bitsPerComponent
                func sample(_ position: Int) -> Int {
                    let bit = position * bitsPerComponent
                    let byte = Int(output[base + bit / 8])
                    return (byte >> (8 - bitsPerComponent - bit % 8)) & mask
                }
                func store(_ position: Int, _ value: Int) {
                    let bit = position * bitsPerComponent
                    let shift = 8 - bitsPerComponent - bit % 8
                    let byte = Int(output[base + bit / 8]) & ~(mask << shift) | (value & mask) << shift
                    output[base + bit / 8] = UInt8(byte)
                }
                if colors < samples {
                    for position in colors..<samples { store(position, sample(position) + sample(position - colors)) }
                }
            }
        }
        return output
    }
}
