import PDFCore

/// The generic refinement region decoding procedure (T.88 §6.3): templates 0 and 1, AT pixels and
/// typical prediction (TPGRON), refining `reference` shifted by (dx, dy).
struct RefinementParameters {
    var template = 0
    var typicalPrediction = false
    /// GRAT1 (on the bitmap being decoded) and GRAT2 (on the reference), template 0 only.
    var adaptivePixels: [(x: Int, y: Int)] = [(-1, -1), (-1, -1)]

    static func contextCount(template: Int) -> Int { template == 0 ? 1 << 13 : 1 << 10 }
}

enum RefinementRegion {
    static func decode(
        _ parameters: RefinementParameters, width: Int, height: Int, reference: JBIG2Bitmap, dx: Int, dy: Int,
        decoder: inout MQDecoder, contexts: inout [UInt8], budget: JBIG2Budget
    ) throws(PDFError) -> JBIG2Bitmap {
        try budget.allocate(width: width, height: height)
        try budget.spend(width * height + 64)  // 64: the cost of a call, even for an empty bitmap
        var bitmap = JBIG2Bitmap(width: width, height: height)
        let template = parameters.template & 1
        let count = RefinementParameters.contextCount(template: template)
        if contexts.count < count { contexts = [UInt8](repeating: 0, count: count) }
        var at = parameters.adaptivePixels
        while at.count < 2 { at.append((-1, -1)) }
        // SLTP (§6.3.5.6): the context whose only set pixel is the reference pixel at the centre.
        let sltp = template == 0 ? 0x100 : 0x80
        var ltp = 0
        for y in 0..<height {
            if parameters.typicalPrediction {
                ltp ^= decoder.decode(&contexts[sltp])
            }
            for x in 0..<width {
                let rx = x - dx
                let ry = y - dy
                if ltp == 1 {
                    // TPGRON: where the 3 × 3 reference neighbourhood is uniform, the pixel takes its value.
                    let value = reference.pixel(rx, ry)
                    var uniform = true
                    for j in -1...1 where uniform {
                        for i in -1...1 where reference.pixel(rx + i, ry + j) != value {
                            uniform = false
                            break
                        }
                    }
                    if uniform {
                        bitmap.pixels[y * width + x] = UInt8(value)
                        continue
                    }
                }
                let context: Int
                if template == 0 {
                    var c = bitmap.pixel(x - 1, y) | bitmap.pixel(x + 1, y - 1) << 1 | bitmap.pixel(x, y - 1) << 2
                    c |= bitmap.pixel(x + at[0].x, y + at[0].y) << 3
                    c |= reference.pixel(rx + 1, ry + 1) << 4 | reference.pixel(rx, ry + 1) << 5
                    c |= reference.pixel(rx - 1, ry + 1) << 6 | reference.pixel(rx + 1, ry) << 7
                    c |= reference.pixel(rx, ry) << 8 | reference.pixel(rx - 1, ry) << 9
                    c |= reference.pixel(rx + 1, ry - 1) << 10 | reference.pixel(rx, ry - 1) << 11
                    context = c | reference.pixel(rx + at[1].x, ry + at[1].y) << 12
                } else {
                    var c = bitmap.pixel(x - 1, y) | bitmap.pixel(x + 1, y - 1) << 1 | bitmap.pixel(x, y - 1) << 2
                    c |= bitmap.pixel(x - 1, y - 1) << 3
                    c |= reference.pixel(rx + 1, ry + 1) << 4 | reference.pixel(rx, ry + 1) << 5
                    c |= reference.pixel(rx + 1, ry) << 6 | reference.pixel(rx, ry) << 7
                    c |= reference.pixel(rx - 1, ry) << 8
                    context = c | reference.pixel(rx, ry - 1) << 9
                }
                if decoder.decode(&contexts[context]) != 0 { bitmap.pixels[y * width + x] = 1 }
            }
            try decoder.checkNotExhausted()
        }
        return bitmap
    }
}
