import PDFCore

/// A decoded symbol dictionary segment: its exported symbols and, for "bitmap coding context
/// retained", its arithmetic contexts (T.88 §7.4.3.2).
struct SymbolDictionary {
    var symbols: [JBIG2Bitmap]
    var genericContexts: [UInt8]?
    var refinementContexts: [UInt8]?
    /// Whether decoding ended as the segment says it should: the export count met, and (arithmetic
    /// coding) the data used up to its last few bytes, no further. Noise decoded from the wrong
    /// contexts rarely does both.
    var endedWithItsData = true
}

/// The symbol dictionary segment (T.88 §7.4.3) and its decoding procedure (§6.5).
enum SymbolDictionaryDecoder {
    static func decode(
        _ data: [UInt8], start: Int, end: Int, inputs: [JBIG2Bitmap], customTables: [HuffmanTable],
        retained: SymbolDictionary?, reusesContexts: Bool = true, budget: JBIG2Budget
    ) throws(PDFError) -> SymbolDictionary {
        var header = JBIG2Reader(data, offset: start, end: end)
        let flags = try header.uint16()
        let huffman = flags & 1 != 0
        let refinementAggregate = flags & 2 != 0
        let template = flags >> 10 & 3
        let refinementTemplate = flags >> 12 & 1
        let contextUsed = flags & 0x100 != 0
        let contextRetained = flags & 0x200 != 0
        var tables = customTables.makeIterator()
        func select(_ choice: Int, _ standard: [Int]) throws(PDFError) -> HuffmanTable {
            if choice < standard.count && standard[choice] > 0 { return HuffmanTable.standard[standard[choice]] }
            guard choice == 3 || standard.count == 1, let table = tables.next() else {
                throw JBIG2Error.invalid("symbol dictionary: missing Huffman table")
            }
            return table
        }
        var heightTable = HuffmanTable.standard[4]
        var widthTable = HuffmanTable.standard[2]
        var sizeTable = HuffmanTable.standard[1]
        var aggregateTable = HuffmanTable.standard[1]
        if huffman {
            heightTable = try select(flags >> 2 & 3, [4, 5, 0])
            widthTable = try select(flags >> 4 & 3, [2, 3, 0])
            sizeTable = try select(flags >> 6 & 1, [1])
            aggregateTable = try select(flags >> 7 & 1, [1])
        }
        var adaptive: [(x: Int, y: Int)] = []
        if !huffman {
            for _ in 0..<(template == 0 ? 4 : 1) { adaptive.append((try header.int8(), try header.int8())) }
        }
        var refinementAdaptive: [(x: Int, y: Int)] = [(-1, -1), (-1, -1)]
        if refinementAggregate && refinementTemplate == 0 {
            refinementAdaptive = [(try header.int8(), try header.int8()), (try header.int8(), try header.int8())]
        }
        let exportedCount = try header.uint32()
        let newCount = try header.uint32()
        let limit = budget.limits.maxSymbols
        guard newCount <= limit, exportedCount <= limit, inputs.count + newCount <= limit else {
            throw JBIG2Error.limit("symbol dictionary with \(newCount) symbols")
        }

        var genericContexts = [UInt8](repeating: 0, count: GenericRegionParameters.contextCount(template: template))
        var refinementContexts = [UInt8](
            repeating: 0, count: RefinementParameters.contextCount(template: refinementTemplate))
        if contextUsed && reusesContexts, let retained {
            if let contexts = retained.genericContexts, contexts.count == genericContexts.count {
                genericContexts = contexts
            }
            if let contexts = retained.refinementContexts, contexts.count == refinementContexts.count {
                refinementContexts = contexts
            }
        }
        let codeLength = ceilLog2(inputs.count + newCount)
        var coder = TextRegionCoder(
            arithmetic: MQDecoder(data, start: header.offset, end: end),
            contexts: IntegerContexts(symbolCodeLength: codeLength),
            reader: JBIG2Reader(data, offset: header.offset, end: end), refinementContexts: refinementContexts)

        var newSymbols: [JBIG2Bitmap] = []
        var newWidths: [Int] = []
        var heightClass = 0
        let generic = GenericRegionParameters(
            mmr: false, template: template, typicalPrediction: false, adaptivePixels: adaptive)
        while newSymbols.count < newCount {
            // A height class may add no symbol (its first width is OOB): each class costs work, and
            // data that has run out ends the dictionary instead of repeating empty classes forever.
            try budget.spend(64)
            if huffman {
                if coder.reader.pastEnd > 0 { throw JBIG2Error.truncated() }
            } else {
                try coder.arithmetic.checkNotExhausted()
            }
            let deltaHeight =
                huffman
                ? try heightTable.decodeValue(&coder.reader) : try integer(&coder, \.dh)
            heightClass += deltaHeight
            guard heightClass >= 0 else { throw JBIG2Error.invalid("negative symbol height") }
            var symbolWidth = 0
            var totalWidth = 0
            let firstInClass = newSymbols.count
            while true {
                let deltaWidth: Int?
                if huffman {
                    deltaWidth = try widthTable.decode(&coder.reader)
                } else {
                    deltaWidth = coder.arithmetic.decodeInteger(&coder.contexts.dw)
                }
                guard let deltaWidth else { break }
                try budget.spend(64)
                guard newSymbols.count < newCount else { throw JBIG2Error.invalid("too many symbols in a class") }
                symbolWidth += deltaWidth
                totalWidth += symbolWidth
                guard symbolWidth >= 0, totalWidth <= budget.limits.maxBitmapPixels else {
                    throw JBIG2Error.invalid("symbol width \(symbolWidth)")
                }
                if huffman && !refinementAggregate {
                    // The class is one collective bitmap, split once all widths are known.
                    newWidths.append(symbolWidth)
                    newSymbols.append(JBIG2Bitmap(width: 0, height: 0))
                    continue
                }
                if !refinementAggregate {
                    let bitmap = try GenericRegion.decode(
                        generic, width: symbolWidth, height: heightClass, decoder: &coder.arithmetic,
                        contexts: &genericContexts, budget: budget)
                    newSymbols.append(bitmap)
                    continue
                }
                let instances = huffman ? try aggregateTable.decodeValue(&coder.reader) : try integer(&coder, \.ai)
                let available = inputs + newSymbols
                if instances == 1 {
                    let id: Int
                    let dx: Int
                    let dy: Int
                    if huffman {
                        id = try coder.reader.bits(codeLength)
                        dx = try HuffmanTable.standard[15].decodeValue(&coder.reader)
                        dy = try HuffmanTable.standard[15].decodeValue(&coder.reader)
                    } else {
                        id = coder.arithmetic.decodeSymbolID(&coder.contexts.id, codeLength: codeLength)
                        dx = try integer(&coder, \.rdx)
                        dy = try integer(&coder, \.rdy)
                    }
                    guard id >= 0, id < available.count else { throw JBIG2Error.invalid("symbol ID \(id)") }
                    let parameters = RefinementParameters(
                        template: refinementTemplate, typicalPrediction: false, adaptivePixels: refinementAdaptive)
                    if huffman {
                        let size = try HuffmanTable.standard[1].decodeValue(&coder.reader)
                        coder.reader.alignToByte()
                        let start = coder.reader.offset
                        guard size >= 0, size <= coder.reader.remaining else { throw JBIG2Error.truncated() }
                        var decoder = MQDecoder(data, start: start, end: start + size)
                        newSymbols.append(
                            try RefinementRegion.decode(
                                parameters, width: symbolWidth, height: heightClass, reference: available[id], dx: dx,
                                dy: dy, decoder: &decoder, contexts: &coder.refinementContexts, budget: budget))
                        try coder.reader.skip(size)
                    } else {
                        newSymbols.append(
                            try RefinementRegion.decode(
                                parameters, width: symbolWidth, height: heightClass, reference: available[id], dx: dx,
                                dy: dy, decoder: &coder.arithmetic, contexts: &coder.refinementContexts,
                                budget: budget))
                    }
                } else {
                    // §6.5.8.2.1: an aggregate is a small text region over the symbols so far.
                    var text = TextRegionParameters()
                    text.huffman = huffman
                    text.refine = true
                    text.width = symbolWidth
                    text.height = heightClass
                    text.instances = instances
                    text.symbols = available
                    text.symbolCodeLength = codeLength
                    text.refinementTemplate = refinementTemplate
                    text.refinementAdaptivePixels = refinementAdaptive
                    newSymbols.append(try TextRegion.decode(text, coder: &coder, budget: budget))
                }
            }
            if huffman && !refinementAggregate {
                try decodeCollectiveBitmap(
                    &newSymbols, widths: newWidths, from: firstInClass, height: heightClass, totalWidth: totalWidth,
                    sizeTable: sizeTable, reader: &coder.reader, budget: budget)
                newWidths.removeAll()
            }
        }

        // §6.5.10: the export flags, as alternating run lengths over inputs then new symbols.
        var exported: [JBIG2Bitmap] = []
        let all = inputs.count + newSymbols.count
        var index = 0
        var exporting = false
        while index < all {
            let run = huffman ? try HuffmanTable.standard[1].decodeValue(&coder.reader) : try integer(&coder, \.ex)
            guard run >= 0, index + run <= all else { throw JBIG2Error.invalid("export run past the symbols") }
            if exporting {
                for symbol in index..<(index + run) {
                    exported.append(symbol < inputs.count ? inputs[symbol] : newSymbols[symbol - inputs.count])
                }
            }
            index += run
            exporting.toggle()
            if run == 0 && !huffman { try coder.arithmetic.checkNotExhausted() }
            if run == 0 && huffman && coder.reader.pastEnd > 0 { throw JBIG2Error.truncated() }
        }
        // The coder reads up to two bytes ahead and the encoder's flush leaves up to four, with
        // the 0xFF 0xAC end marker.
        let endedWithItsData =
            exported.count == exportedCount
            && (huffman || (coder.arithmetic.unread <= 8 && coder.arithmetic.pastEnd <= 8))
        if exported.count != exportedCount {
            // Keep what was found; a count that disagrees is damage, not a reason to lose the page.
            exported = Array(exported.prefix(exportedCount))
        }
        return SymbolDictionary(
            symbols: exported, genericContexts: contextRetained ? genericContexts : nil,
            refinementContexts: contextRetained ? coder.refinementContexts : nil, endedWithItsData: endedWithItsData)
    }

    /// Whether the dictionary at `data[start...]` is arithmetic-coded and flagged "bitmap coding
    /// context used" while `retained` holds contexts for it to start from.
    static func wouldReuseContexts(_ data: [UInt8], start: Int, end: Int, retained: SymbolDictionary?) -> Bool {
        guard let retained, retained.genericContexts != nil || retained.refinementContexts != nil,
            start + 1 < min(end, data.count)
        else { return false }
        let flags = Int(data[start]) << 8 | Int(data[start + 1])
        return flags & 0x100 != 0 && flags & 1 == 0
    }

    private static func integer(
        _ coder: inout TextRegionCoder, _ keyPath: WritableKeyPath<IntegerContexts, [UInt8]>
    ) throws(PDFError) -> Int {
        guard let value = coder.arithmetic.decodeInteger(&coder.contexts[keyPath: keyPath]) else {
            throw JBIG2Error.invalid("unexpected OOB")
        }
        return value
    }

    /// §6.5.9: a height class stored as one bitmap, uncompressed (BMSIZE 0) or MMR-coded.
    private static func decodeCollectiveBitmap(
        _ symbols: inout [JBIG2Bitmap], widths: [Int], from first: Int, height: Int, totalWidth: Int,
        sizeTable: HuffmanTable, reader: inout JBIG2Reader, budget: JBIG2Budget
    ) throws(PDFError) {
        let size = try sizeTable.decodeValue(&reader)
        reader.alignToByte()
        let collective: JBIG2Bitmap
        if size == 0 {
            try budget.allocate(width: totalWidth, height: height)
            let bytesPerRow = (totalWidth + 7) / 8
            guard bytesPerRow * height <= reader.remaining else { throw JBIG2Error.truncated() }
            let bytes = Array(reader.data[reader.offset..<(reader.offset + bytesPerRow * height)])
            collective = JBIG2Bitmap(packed: bytes, width: totalWidth, height: height)
            try reader.skip(bytesPerRow * height)
        } else {
            guard size > 0, size <= reader.remaining else { throw JBIG2Error.truncated() }
            collective = try GenericRegion.decodeMMR(
                reader.data, start: reader.offset, end: reader.offset + size, width: totalWidth, height: height,
                budget: budget
            ).bitmap
            try reader.skip(size)
        }
        var x = 0
        for (offset, width) in widths.enumerated() {
            try budget.allocate(width: width, height: height)
            symbols[first + offset] = collective.cropped(x: x, y: 0, width: width, height: height)
            x += width
        }
    }
}
