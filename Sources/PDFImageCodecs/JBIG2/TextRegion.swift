import PDFCore

/// The text region decoding procedure (T.88 §6.4): symbol instances placed strip by strip,
/// optionally refined, coded with the arithmetic integer decoders or with Huffman tables.
struct TextRegionParameters {
    var huffman = false
    var refine = false
    var width = 0
    var height = 0
    var instances = 0
    /// SBSTRIPS (1, 2, 4 or 8) and its log.
    var strips = 1
    var logStrips = 0
    var symbols: [JBIG2Bitmap] = []
    var symbolCodeLength = 0
    /// SBSYMCODES in Huffman mode; nil: fixed-length codes of `symbolCodeLength` bits (§6.5.8.2.3).
    var symbolCodes: HuffmanTable?
    var defaultPixel: UInt8 = 0
    var combinationOperator = JBIG2Bitmap.Operator.or
    var transposed = false
    /// REFCORNER: 0 bottom left, 1 top left, 2 bottom right, 3 top right.
    var referenceCorner = 1
    var dsOffset = 0
    var refinementTemplate = 0
    var refinementAdaptivePixels: [(x: Int, y: Int)] = [(-1, -1), (-1, -1)]
    /// SBHUFFFS, DS, DT, RDW, RDH, RDX, RDY, RSIZE.
    var tables = TextRegionTables()
}

struct TextRegionTables {
    var fs = HuffmanTable.standard[6]
    var ds = HuffmanTable.standard[8]
    var dt = HuffmanTable.standard[11]
    var rdw = HuffmanTable.standard[15]
    var rdh = HuffmanTable.standard[15]
    var rdx = HuffmanTable.standard[15]
    var rdy = HuffmanTable.standard[15]
    var rsize = HuffmanTable.standard[1]
}

/// Where a text region's numbers come from: the arithmetic decoder with its integer contexts, or
/// Huffman codes read from `reader`. Refinements use `refinementContexts` either way.
struct TextRegionCoder {
    var arithmetic: MQDecoder
    var contexts: IntegerContexts
    var reader: JBIG2Reader
    var refinementContexts: [UInt8]
}

enum TextRegion {
    static func decode(
        _ p: TextRegionParameters, coder: inout TextRegionCoder, budget: JBIG2Budget
    ) throws(PDFError) -> JBIG2Bitmap {
        try budget.allocate(width: p.width, height: p.height)
        var region = JBIG2Bitmap(width: p.width, height: p.height, value: p.defaultPixel)

        func integer(_ table: HuffmanTable, _ keyPath: WritableKeyPath<IntegerContexts, [UInt8]>) throws(PDFError)
            -> Int?
        {
            if p.huffman { return try table.decode(&coder.reader) }
            return coder.arithmetic.decodeInteger(&coder.contexts[keyPath: keyPath])
        }
        func required(_ table: HuffmanTable, _ keyPath: WritableKeyPath<IntegerContexts, [UInt8]>) throws(PDFError)
            -> Int
        {
            guard let value = try integer(table, keyPath) else { throw JBIG2Error.invalid("unexpected OOB") }
            return value
        }

        var stripT = -(try required(p.tables.dt, \.dt)) * p.strips
        var firstS = 0
        var count = 0
        while count < p.instances {
            stripT += try required(p.tables.dt, \.dt) * p.strips
            var currentS = 0
            var first = true
            while true {
                if first {
                    firstS += try required(p.tables.fs, \.fs)
                    currentS = firstS
                    first = false
                } else {
                    guard let ds = try integer(p.tables.ds, \.ds) else { break }
                    currentS += ds + p.dsOffset
                }
                var currentT = 0
                if p.strips > 1 {
                    currentT =
                        p.huffman
                        ? try coder.reader.bits(p.logStrips) : try required(p.tables.dt, \.it)
                }
                let t = stripT + currentT
                let id: Int
                if p.huffman {
                    if let codes = p.symbolCodes {
                        id = try codes.decodeValue(&coder.reader)
                    } else {
                        id = try coder.reader.bits(p.symbolCodeLength)
                    }
                } else {
                    id = coder.arithmetic.decodeSymbolID(&coder.contexts.id, codeLength: p.symbolCodeLength)
                }
                guard id >= 0, id < p.symbols.count else { throw JBIG2Error.invalid("symbol ID \(id) out of range") }
                var refined = 0
                if p.refine {
                    refined =
                        p.huffman ? coder.reader.bit() : (try required(p.tables.dt, \.ri))
                }
                var symbol = p.symbols[id]
                if refined != 0 {
                    symbol = try refine(symbol, p, coder: &coder, budget: budget)
                }
                try budget.spend(symbol.width * symbol.height + 1)
                let (w, h) = (symbol.width, symbol.height)
                if !p.transposed && (p.referenceCorner == 2 || p.referenceCorner == 3) {
                    currentS += w - 1
                } else if p.transposed && (p.referenceCorner == 0 || p.referenceCorner == 2) {
                    currentS += h - 1
                }
                let (x, y) = p.transposed ? (t, currentS) : (currentS, t)
                let right = p.referenceCorner == 2 || p.referenceCorner == 3
                let bottom = p.referenceCorner == 0 || p.referenceCorner == 2
                region.draw(
                    symbol, x: right ? x - w + 1 : x, y: bottom ? y - h + 1 : y, operator: p.combinationOperator)
                if !p.transposed && (p.referenceCorner == 0 || p.referenceCorner == 1) {
                    currentS += w - 1
                } else if p.transposed && (p.referenceCorner == 1 || p.referenceCorner == 3) {
                    currentS += h - 1
                }
                count += 1
                if !p.huffman { try coder.arithmetic.checkNotExhausted() }
            }
        }
        return region
    }

    /// Refines one symbol instance (§6.4.11.3 and the Huffman variant with BMSIZE).
    private static func refine(
        _ symbol: JBIG2Bitmap, _ p: TextRegionParameters, coder: inout TextRegionCoder, budget: JBIG2Budget
    ) throws(PDFError) -> JBIG2Bitmap {
        let rdw: Int
        let rdh: Int
        let rdx: Int
        let rdy: Int
        if p.huffman {
            rdw = try p.tables.rdw.decodeValue(&coder.reader)
            rdh = try p.tables.rdh.decodeValue(&coder.reader)
            rdx = try p.tables.rdx.decodeValue(&coder.reader)
            rdy = try p.tables.rdy.decodeValue(&coder.reader)
        } else {
            func value(_ contexts: inout [UInt8], _ decoder: inout MQDecoder) throws(PDFError) -> Int {
                guard let value = decoder.decodeInteger(&contexts) else { throw JBIG2Error.invalid("unexpected OOB") }
                return value
            }
            rdw = try value(&coder.contexts.rdw, &coder.arithmetic)
            rdh = try value(&coder.contexts.rdh, &coder.arithmetic)
            rdx = try value(&coder.contexts.rdx, &coder.arithmetic)
            rdy = try value(&coder.contexts.rdy, &coder.arithmetic)
        }
        let width = symbol.width + rdw
        let height = symbol.height + rdh
        guard width >= 0, height >= 0 else { throw JBIG2Error.invalid("refined symbol of negative size") }
        let parameters = RefinementParameters(
            template: p.refinementTemplate, typicalPrediction: false, adaptivePixels: p.refinementAdaptivePixels)
        let dx = (rdw >> 1) + rdx
        let dy = (rdh >> 1) + rdy
        if p.huffman {
            let size = try p.tables.rsize.decodeValue(&coder.reader)
            coder.reader.alignToByte()
            let start = coder.reader.offset
            guard size >= 0, size <= coder.reader.remaining else { throw JBIG2Error.truncated() }
            var decoder = MQDecoder(coder.reader.data, start: start, end: start + size)
            let bitmap = try RefinementRegion.decode(
                parameters, width: width, height: height, reference: symbol, dx: dx, dy: dy, decoder: &decoder,
                contexts: &coder.refinementContexts, budget: budget)
            try coder.reader.skip(size)
            return bitmap
        }
        return try RefinementRegion.decode(
            parameters, width: width, height: height, reference: symbol, dx: dx, dy: dy,
            decoder: &coder.arithmetic, contexts: &coder.refinementContexts, budget: budget)
    }

    /// Reads the symbol ID Huffman table of a text region segment (§7.4.3.1.7).
    static func symbolCodeTable(_ reader: inout JBIG2Reader, symbolCount: Int) throws(PDFError) -> HuffmanTable {
        var runLines: [HuffmanTable.Line] = []
        for index in 0..<35 {
            runLines.append(HuffmanTable.Line(prefixLength: try reader.bits(4), rangeLength: 0, rangeLow: index))
        }
        let runCodes = try HuffmanTable(runLines)
        var lengths: [Int] = []
        lengths.reserveCapacity(symbolCount)
        while lengths.count < symbolCount {
            let code = try runCodes.decodeValue(&reader)
            switch code {
            case 0..<32:
                lengths.append(code)
            case 32:
                guard let previous = lengths.last else { throw JBIG2Error.invalid("repeat with no previous length") }
                lengths.append(contentsOf: repeatElement(previous, count: 3 + (try reader.bits(2))))
            case 33:
                lengths.append(contentsOf: repeatElement(0, count: 3 + (try reader.bits(3))))
            default:
                lengths.append(contentsOf: repeatElement(0, count: 11 + (try reader.bits(7))))
            }
        }
        reader.alignToByte()
        let lines = lengths.prefix(symbolCount).enumerated().map {
            HuffmanTable.Line(prefixLength: $0.element, rangeLength: 0, rangeLow: $0.offset)
        }
        return try HuffmanTable(lines)
    }
}

/// ⌈log2(n)⌉, 0 for n ≤ 1 (SBSYMCODELEN, HBPP).
func ceilLog2(_ n: Int) -> Int {
    var bits = 0
    while (1 << bits) < n { bits += 1 }
    return bits
}
