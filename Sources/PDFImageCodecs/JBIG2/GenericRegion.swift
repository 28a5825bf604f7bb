import PDFCore

/// The generic region decoding procedure (T.88 §6.2): MMR (T.6) or arithmetic coding with
/// templates 0–3, adaptive template (AT) pixels and typical prediction (TPGDON).
struct GenericRegionParameters {
    var mmr = false
    var template = 0
    var typicalPrediction = false
    /// AT pixels A1…A4 (template 0) or A1 (templates 1–3), as (x, y) offsets.
    var adaptivePixels: [(x: Int, y: Int)] = []
    /// When set, pixels whose SKIP bit is 1 are 0 and not decoded (halftone gray-scale planes).
    var skip: JBIG2Bitmap?

    /// The nominal AT pixels of §6.2.5.4 (used by pattern dictionaries and halftone regions).
    static func defaultAdaptivePixels(template: Int) -> [(x: Int, y: Int)] {
        template == 0 ? [(3, -1), (-3, -1), (2, -2), (-2, -2)] : [(template == 1 ? 3 : 2, -1)]
    }

    /// The number of GB_STATS contexts a template uses.
    static func contextCount(template: Int) -> Int {
        [1 << 16, 1 << 13, 1 << 10, 1 << 10][template & 3]
    }
}

enum GenericRegion {
    /// Decodes a `width × height` region with MMR from `data[start..<end]`; also returns the bytes used.
    static func decodeMMR(
        _ data: [UInt8], start: Int, end: Int, width: Int, height: Int, budget: JBIG2Budget
    ) throws(PDFError) -> (bitmap: JBIG2Bitmap, consumed: Int) {
        try budget.allocate(width: width, height: height)
        try budget.spend(width * height + 64)  // 64: the cost of a call, even for an empty bitmap
        guard width > 0, height > 0 else { return (JBIG2Bitmap(width: width, height: height), 0) }
        var decoder = FaxDecoder(data: Array(data[start..<max(start, end)]), columns: width, k: -1)
        let result = decoder.decode(rows: height, maxRows: height)
        // Rows after the end of the data or after damage stay white (T.88 leaves them undefined).
        return (JBIG2Bitmap(packed: result.rows, width: width, height: height), result.consumedBytes)
    }

    /// Decodes a `width × height` region with the arithmetic decoder and the GB_STATS `contexts`.
    static func decode(
        _ parameters: GenericRegionParameters, width: Int, height: Int, decoder: inout MQDecoder,
        contexts: inout [UInt8], budget: JBIG2Budget
    ) throws(PDFError) -> JBIG2Bitmap {
        try budget.allocate(width: width, height: height)
        try budget.spend(width * height + 64)  // 64: the cost of a call, even for an empty bitmap
        var bitmap = JBIG2Bitmap(width: width, height: height)
        let template = parameters.template & 3
        let count = GenericRegionParameters.contextCount(template: template)
        if contexts.count < count { contexts = [UInt8](repeating: 0, count: count) }
        var at = parameters.adaptivePixels
        let defaults = GenericRegionParameters.defaultAdaptivePixels(template: template)
        while at.count < defaults.count { at.append(defaults[at.count]) }
        // SLTP contexts of §6.2.5.7 step 3 b).
        let sltp = [0x9B25, 0x0795, 0x00E5, 0x0195][template]
        var ltp = 0
        for y in 0..<height {
            if parameters.typicalPrediction {
                ltp ^= decoder.decode(&contexts[sltp])
                if ltp == 1 {
                    if y > 0 {
                        for x in 0..<width { bitmap.pixels[y * width + x] = bitmap.pixels[(y - 1) * width + x] }
                    }
                    continue
                }
            }
            bitmap.pixels.withUnsafeMutableBufferPointer { pixels in
                decodeRow(
                    y, template: template, width: width, height: height, pixels: pixels, at: at,
                    skip: parameters.skip, decoder: &decoder, contexts: &contexts)
            }
            try decoder.checkNotExhausted()
        }
        return bitmap
    }

    /// Decodes row `y`: each pixel with the context of its template's pixels, in the bit order of
    /// T.88 Figures 3–6 (pixels outside the bitmap are 0).
    private static func decodeRow(
        _ y: Int, template: Int, width: Int, height: Int, pixels: UnsafeMutableBufferPointer<UInt8>,
        at: [(x: Int, y: Int)], skip: JBIG2Bitmap?, decoder: inout MQDecoder, contexts: inout [UInt8]
    ) {
        @inline(__always) func p(_ x: Int, _ dy: Int) -> Int {
            let row = y + dy
            guard x >= 0, x < width, row >= 0, row < height else { return 0 }
            return Int(pixels[row * width + x])
        }
        let a0 = at[0]
        let none: (x: Int, y: Int) = (0, 0)
        let a1 = at.count >= 4 ? at[1] : none
        let a2 = at.count >= 4 ? at[2] : none
        let a3 = at.count >= 4 ? at[3] : none
        for x in 0..<width {
            if let skip, skip.pixel(x, y) != 0 { continue }
            var c: Int
            switch template {
            case 0:
                c = p(x - 1, 0) | p(x - 2, 0) << 1 | p(x - 3, 0) << 2 | p(x - 4, 0) << 3
                c |= p(x + a0.x, a0.y) << 4
                c |= p(x + 2, -1) << 5 | p(x + 1, -1) << 6 | p(x, -1) << 7 | p(x - 1, -1) << 8 | p(x - 2, -1) << 9
                c |= p(x + a1.x, a1.y) << 10 | p(x + a2.x, a2.y) << 11
                c |= p(x + 1, -2) << 12 | p(x, -2) << 13 | p(x - 1, -2) << 14
                c |= p(x + a3.x, a3.y) << 15
            case 1:
                c = p(x - 1, 0) | p(x - 2, 0) << 1 | p(x - 3, 0) << 2 | p(x + a0.x, a0.y) << 3
                c |= p(x + 2, -1) << 4 | p(x + 1, -1) << 5 | p(x, -1) << 6 | p(x - 1, -1) << 7 | p(x - 2, -1) << 8
                c |= p(x + 2, -2) << 9 | p(x + 1, -2) << 10 | p(x, -2) << 11 | p(x - 1, -2) << 12
            case 2:
                c = p(x - 1, 0) | p(x - 2, 0) << 1 | p(x + a0.x, a0.y) << 2
                c |= p(x + 1, -1) << 3 | p(x, -1) << 4 | p(x - 1, -1) << 5 | p(x - 2, -1) << 6
                c |= p(x + 1, -2) << 7 | p(x, -2) << 8 | p(x - 1, -2) << 9
            default:
                c = p(x - 1, 0) | p(x - 2, 0) << 1 | p(x - 3, 0) << 2 | p(x - 4, 0) << 3 | p(x + a0.x, a0.y) << 4
                c |= p(x + 1, -1) << 5 | p(x, -1) << 6 | p(x - 1, -1) << 7 | p(x - 2, -1) << 8 | p(x - 3, -1) << 9
            }
            if decoder.decode(&contexts[c]) != 0 { pixels[y * width + x] = 1 }
        }
    }
}
