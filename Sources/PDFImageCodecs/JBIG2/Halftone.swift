import PDFCore

/// Pattern dictionaries (T.88 §6.7, §7.4.4) and halftone regions (§6.6, §7.4.5).
enum Halftone {
    /// Decodes a pattern dictionary segment's data into its GRAYMAX + 1 patterns.
    static func decodePatterns(_ data: [UInt8], start: Int, end: Int, budget: JBIG2Budget) throws(PDFError)
        -> [JBIG2Bitmap]
    {
        var reader = JBIG2Reader(data, offset: start, end: end)
        let flags = Int(try reader.byte())
        let mmr = flags & 1 != 0
        let template = flags >> 1 & 3
        let width = Int(try reader.byte())
        let height = Int(try reader.byte())
        let grayMax = try reader.uint32()
        guard width > 0, height > 0, grayMax < budget.limits.maxSymbols else {
            throw JBIG2Error.invalid("pattern dictionary \(width) × \(height), \(grayMax + 1) patterns")
        }
        let totalWidth = (grayMax + 1) * width
        let collective: JBIG2Bitmap
        if mmr {
            collective = try GenericRegion.decodeMMR(
                data, start: reader.offset, end: end, width: totalWidth, height: height, budget: budget
            ).bitmap
        } else {
            var at = GenericRegionParameters.defaultAdaptivePixels(template: template)
            at[0] = (-width, 0)
            let parameters = GenericRegionParameters(mmr: false, template: template, adaptivePixels: at)
            var decoder = MQDecoder(data, start: reader.offset, end: end)
            var contexts = [UInt8](repeating: 0, count: GenericRegionParameters.contextCount(template: template))
            collective = try GenericRegion.decode(
                parameters, width: totalWidth, height: height, decoder: &decoder, contexts: &contexts, budget: budget)
        }
        var patterns: [JBIG2Bitmap] = []
        for index in 0...grayMax {
            try budget.allocate(width: width, height: height)
            patterns.append(collective.cropped(x: index * width, y: 0, width: width, height: height))
        }
        return patterns
    }

    /// Decodes a halftone region segment's data (after the region segment information) into a
    /// `width × height` region bitmap.
    static func decodeRegion(
        _ data: [UInt8], start: Int, end: Int, width: Int, height: Int, patterns: [JBIG2Bitmap], budget: JBIG2Budget
    ) throws(PDFError) -> JBIG2Bitmap {
        var reader = JBIG2Reader(data, offset: start, end: end)
        let flags = Int(try reader.byte())
        let mmr = flags & 1 != 0
        let template = flags >> 1 & 3
        let enableSkip = flags & 8 != 0
        let op = JBIG2Bitmap.Operator(bits: flags >> 4 & 7)
        let defaultPixel = UInt8(flags >> 7 & 1)
        let gridWidth = try reader.uint32()
        let gridHeight = try reader.uint32()
        let gridX = try reader.int32()
        let gridY = try reader.int32()
        let vectorX = try reader.uint16()
        let vectorY = try reader.uint16()
        guard let first = patterns.first else { throw JBIG2Error.invalid("halftone region without patterns") }
        try budget.allocate(width: width, height: height)
        var region = JBIG2Bitmap(width: width, height: height, value: defaultPixel)
        try budget.allocate(width: gridWidth, height: gridHeight)
        let (patternWidth, patternHeight) = (first.width, first.height)
        func position(_ m: Int, _ n: Int) -> (x: Int, y: Int) {
            ((gridX + m * vectorY + n * vectorX) >> 8, (gridY + m * vectorX - n * vectorY) >> 8)
        }
        var skip: JBIG2Bitmap?
        if enableSkip {
            var bitmap = JBIG2Bitmap(width: gridWidth, height: gridHeight)
            for m in 0..<gridHeight {
                for n in 0..<gridWidth {
                    let (x, y) = position(m, n)
                    if x + patternWidth <= 0 || x >= width || y + patternHeight <= 0 || y >= height {
                        bitmap.set(n, m, 1)
                    }
                }
            }
            skip = bitmap
        }
        // C.5: the gray-scale image, most significant bitplane first, Gray-coded.
        let planeCount = ceilLog2(patterns.count)
        var values = [Int](repeating: 0, count: gridWidth * gridHeight)
        var previous: JBIG2Bitmap?
        var offset = reader.offset
        var decoder = MQDecoder(data, start: reader.offset, end: end)
        var contexts = [UInt8](repeating: 0, count: GenericRegionParameters.contextCount(template: template))
        var at = GenericRegionParameters.defaultAdaptivePixels(template: template)
        at[0] = (template <= 1 ? 3 : 2, -1)
        let parameters = GenericRegionParameters(
            mmr: mmr, template: template, typicalPrediction: false, adaptivePixels: at, skip: skip)
        for plane in stride(from: planeCount - 1, through: 0, by: -1) {
            var bitmap: JBIG2Bitmap
            if mmr {
                let result = try GenericRegion.decodeMMR(
                    data, start: offset, end: end, width: gridWidth, height: gridHeight, budget: budget)
                bitmap = result.bitmap
                offset += result.consumed
            } else {
                bitmap = try GenericRegion.decode(
                    parameters, width: gridWidth, height: gridHeight, decoder: &decoder, contexts: &contexts,
                    budget: budget)
            }
            if let previous {
                for index in bitmap.pixels.indices { bitmap.pixels[index] ^= previous.pixels[index] }
            }
            for index in values.indices { values[index] |= Int(bitmap.pixels[index]) << plane }
            previous = bitmap
        }
        // §6.6.5.2: draw the pattern of each grid cell.
        try budget.spend(gridWidth * gridHeight * (patternWidth * patternHeight + 1))
        for m in 0..<gridHeight {
            for n in 0..<gridWidth {
                let (x, y) = position(m, n)
                let pattern = patterns[min(values[m * gridWidth + n], patterns.count - 1)]
                region.draw(pattern, x: x, y: y, operator: op)
            }
        }
        return region
    }
}
