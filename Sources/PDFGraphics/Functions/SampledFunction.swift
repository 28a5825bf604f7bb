import PDFCore

/// A type 0 (sampled) function's table (ISO 32000-2 §7.10.2), samples kept normalised to 0…1.
///
/// Evaluation is multilinear between the 2^m neighbouring samples (`/Order 3` is read but
/// evaluated as linear, which the standard allows a reader to do).
struct SampledFunction: Sendable {
    /// `/Size`: samples along each input.
    let size: [Int]
    /// `/Encode`: 2 × m numbers.
    let encode: [Double]
    /// `/Decode`: 2 × n numbers.
    let decode: [Double]
    let outputCount: Int
    /// The samples, in the stream's order (first input varies fastest), each 0…1.
    let samples: [Float]

    /// The largest table accepted (samples × outputs), so a hostile `/Size` cannot exhaust memory.
    static let maxSamples = 1 << 23

    init(
        stream: PDFStream, inputCount: Int, range: [Double], numbers: (PDFName) -> [Double]?,
        document: PDFDocument
    ) throws(PDFError) {
        let dictionary = stream.dictionary
        guard inputCount <= 16, let sizeNumbers = numbers("Size"), sizeNumbers.count == inputCount else {
            throw PDFError(.syntax, "a sampled function needs one /Size entry per input (at most 16 inputs)")
        }
        var size: [Int] = []
        for value in sizeNumbers {
            guard value >= 1, value <= Double(SampledFunction.maxSamples) else {
                throw PDFError(.syntax, "a sampled function's /Size must be positive")
            }
            size.append(Int(value))
        }
        let outputCount = range.count / 2
        var total = outputCount
        for count in size {
            let (product, overflow) = total.multipliedReportingOverflow(by: count)
            guard !overflow, product <= SampledFunction.maxSamples else {
                throw PDFError(
                    .limitExceeded, "a sampled function's table is larger than \(SampledFunction.maxSamples)")
            }
            total = product
        }
        let bits = document.resolve(dictionary, "BitsPerSample")?.intValue ?? 0
        guard [1, 2, 4, 8, 12, 16, 24, 32].contains(bits) else {
            throw PDFError(.syntax, "a sampled function's /BitsPerSample must be 1, 2, 4, 8, 12, 16, 24 or 32")
        }
        var encode = numbers("Encode") ?? []
        if encode.count != 2 * inputCount { encode = size.flatMap { [0, Double($0 - 1)] } }
        var decode = numbers("Decode") ?? []
        if decode.count != 2 * outputCount { decode = range }
        let data = try stream.decodedData(maxSize: (total * bits + 7) / 8 + 1024)
        // Missing samples (a short stream) read as zero, as readers commonly do.
        var samples = [Float](repeating: 0, count: total)
        let scale = 1 / (bits == 32 ? 4_294_967_295.0 : Double((1 << bits) - 1))
        var reader = PackedBitReader(data)
        for index in 0..<total {
            guard let value = reader.read(bits) else { break }
            samples[index] = Float(Double(value) * scale)
        }
        self.size = size
        self.encode = encode
        self.decode = decode
        self.outputCount = outputCount
        self.samples = samples
    }

    func evaluate(_ x: [Double], domain: [Double]) -> [Double] {
        let m = size.count
        // Position of the input in the table, split into a base index and a fraction per input.
        var base = 0
        var stride = outputCount
        var strides = [Int](repeating: 0, count: m)
        var fractions = [Double](repeating: 0, count: m)
        var steps = [Int](repeating: 0, count: m)
        for i in 0..<m {
            let e = PDFFunction.interpolate(x[i], domain[2 * i], domain[2 * i + 1], encode[2 * i], encode[2 * i + 1])
            let clipped = min(max(e.isNaN ? 0 : e, 0), Double(size[i] - 1))
            let floor = min(Int(clipped), size[i] - 1)
            base += floor * stride
            fractions[i] = clipped - Double(floor)
            steps[i] = floor + 1 < size[i] ? 1 : 0
            strides[i] = stride
            stride *= size[i]
        }
        var output = [Double](repeating: 0, count: outputCount)
        // Sum over the 2^m corners whose weight is not zero.
        let active = (0..<m).filter { fractions[$0] > 0 && steps[$0] != 0 }
        for corner in 0..<(1 << active.count) {
            var offset = base
            var weight = 1.0
            for (bit, i) in active.enumerated() {
                if corner & (1 << bit) != 0 {
                    offset += strides[i]
                    weight *= fractions[i]
                } else {
                    weight *= 1 - fractions[i]
                }
            }
            for j in 0..<outputCount { output[j] += weight * Double(samples[offset + j]) }
        }
        for j in 0..<outputCount {
            output[j] = decode[2 * j] + output[j] * (decode[2 * j + 1] - decode[2 * j])
        }
        return output
    }
}

/// Reads big-endian bit fields of 1 to 32 bits from bytes (sampled functions, mesh shadings).
struct PackedBitReader {
    let bytes: [UInt8]
    private(set) var bitPosition = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var bitsLeft: Int { bytes.count * 8 - bitPosition }

    /// The next `count` bits as an unsigned number, or nil when fewer remain.
    mutating func read(_ count: Int) -> UInt32? {
        guard count > 0, count <= 32, bitsLeft >= count else { return nil }
        var value: UInt64 = 0
        var remaining = count
        while remaining > 0 {
            let byte = UInt64(bytes[bitPosition >> 3])
            let offset = bitPosition & 7
            let available = 8 - offset
            let take = min(available, remaining)
            let bits = (byte >> UInt64(available - take)) & ((1 << UInt64(take)) - 1)
            value = (value << UInt64(take)) | bits
            remaining -= take
            bitPosition += take
        }
        return UInt32(truncatingIfNeeded: value)
    }

    /// Skips to the next byte boundary.
    mutating func align() { bitPosition = (bitPosition + 7) & ~7 }
}
