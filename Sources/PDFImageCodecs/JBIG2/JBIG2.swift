public import PDFCore

/// The JBIG2Decode filter (ISO 32000-2 §7.4.7): ITU-T T.88 bilevel images in the embedded
/// organisation (Annex D.3), with the shared segments of `/JBIG2Globals`.
///
/// Output convention: JBIG2 codes black as 1, while a 1-bit DeviceGray image in PDF takes 0 as
/// black; ISO 32000-2 §7.4.7 therefore has the filter output black as 0 — the page bitmap
/// inverted — which is what poppler's `pdfimages` and MuPDF produce for the same streams (checked
/// by `JBIG2CorpusTests`). Damage: a segment that cannot be decoded is skipped with a warning and
/// the page keeps what the other segments drew; an error is thrown only when there is no page
/// information segment or every region segment failed.
public enum JBIG2 {
    /// Decodes a PDF JBIG2Decode stream (embedded organisation: segments without file header, ITU T.88
    /// Annex D.3) with optional /JBIG2Globals, to the page's packed 1-bit rows exactly as the PDF filter
    /// outputs them: black pixels are 0 bits, each row padded to a byte.
    /// - Parameters:
    ///   - data: the stream data (after any filter before JBIG2Decode).
    ///   - globals: the decoded data of the `/JBIG2Globals` stream, if any.
    /// - Returns: the page's size and `height` rows of `(width + 7) / 8` bytes.
    /// - Throws: `.decodeFailed` for data that yields no page, `.limitExceeded` when the page, the
    ///   symbols or the work needed exceed the decoder's bounds.
    public static func decode(_ data: [UInt8], globals: [UInt8]?) throws(PDFError) -> (
        width: Int, height: Int, rows: [UInt8]
    ) {
        let result = try decodeReportingWarnings(data, globals: globals)
        return (result.width, result.height, result.rows)
    }

    /// ``decode(_:globals:)`` that also returns the warnings (segments skipped or damaged).
    public static func decodeReportingWarnings(_ data: [UInt8], globals: [UInt8]?) throws(PDFError) -> (
        width: Int, height: Int, rows: [UInt8], warnings: [String]
    ) {
        try decode(data, globals: globals, limits: JBIG2Limits())
    }

    /// ``decode(_:globals:)`` with other bounds (the fuzzer uses smaller ones).
    package static func decode(_ data: [UInt8], globals: [UInt8]?, limits: JBIG2Limits) throws(PDFError) -> (
        width: Int, height: Int, rows: [UInt8], warnings: [String]
    ) {
        var decoder = JBIG2Decoder(budget: JBIG2Budget(limits))
        if let globals {
            do {
                try decoder.run(globals)
            } catch  where error.code == .decodeFailed {
                decoder.warnings.append("JBIG2Globals: \(error.message)")
            }
        }
        try decoder.run(data)
        guard let page = decoder.page else {
            throw decoder.firstError ?? JBIG2Error.invalid("no page information segment")
        }
        if decoder.regionsDecoded == 0, let error = decoder.firstError { throw error }
        return (page.width, page.height, page.packed(invert: true), decoder.warnings)
    }
}

/// The state of one decode: results of the segments so far and the page.
struct JBIG2Decoder {
    enum Result {
        case symbols(SymbolDictionary)
        case patterns([JBIG2Bitmap])
        case table(HuffmanTable)
        case region(JBIG2Bitmap)
    }

    let budget: JBIG2Budget
    var results: [Int: Result] = [:]
    var page: JBIG2Bitmap?
    var pageHeightUnknown = false
    var pageDefaultPixel: UInt8 = 0
    var warnings: [String] = []
    var firstError: PDFError?
    var regionsDecoded = 0
    var pageEnded = false

    init(budget: JBIG2Budget) { self.budget = budget }

    mutating func run(_ data: [UInt8]) throws(PDFError) {
        let (segments, parseError) = JBIG2Segment.parseAll(data, maxSegments: budget.limits.maxSymbols)
        if let parseError {
            guard parseError.code == .decodeFailed else { throw parseError }
            // Keep the segments before the damage.
            warnings.append(parseError.message)
            firstError = firstError ?? parseError
        }
        for segment in segments where !pageEnded {
            do {
                try process(segment, data)
            } catch  where error.code == .decodeFailed {
                warnings.append("segment \(segment.number) (type \(segment.type)): \(error.message)")
                firstError = firstError ?? error
            }
        }
    }

    private mutating func process(_ segment: JBIG2Segment, _ data: [UInt8]) throws(PDFError) {
        var reader = JBIG2Reader(data, offset: segment.dataStart, end: segment.dataEnd)
        switch segment.type {
        case 0:
            var inputs: [JBIG2Bitmap] = []
            var retained: SymbolDictionary?
            for number in segment.referredTo {
                if case .symbols(let dictionary) = results[number] {
                    inputs += dictionary.symbols
                    retained = dictionary
                }
            }
            results[segment.number] = .symbols(
                try decodeSymbolDictionary(segment, data, inputs: inputs, retained: retained))
        case 4, 6, 7:
            let info = try RegionInfo(&reader)
            let bitmap = try decodeText(segment, info: info, reader: &reader)
            try finish(segment, info: info, bitmap: bitmap, intermediate: segment.type == 4)
        case 16:
            results[segment.number] = .patterns(
                try Halftone.decodePatterns(data, start: segment.dataStart, end: segment.dataEnd, budget: budget))
        case 20, 22, 23:
            let info = try RegionInfo(&reader)
            var patterns: [JBIG2Bitmap] = []
            for number in segment.referredTo {
                if case .patterns(let found) = results[number] { patterns += found }
            }
            let bitmap = try Halftone.decodeRegion(
                data, start: reader.offset, end: segment.dataEnd, width: info.width, height: info.height,
                patterns: patterns, budget: budget)
            try finish(segment, info: info, bitmap: bitmap, intermediate: segment.type == 20)
        case 36, 38, 39:
            var info = try RegionInfo(&reader)
            let bitmap = try decodeGeneric(segment, info: &info, reader: &reader)
            try finish(segment, info: info, bitmap: bitmap, intermediate: segment.type == 36)
        case 40, 42, 43:
            let info = try RegionInfo(&reader)
            let bitmap = try decodeRefinement(segment, info: info, reader: &reader)
            try finish(segment, info: info, bitmap: bitmap, intermediate: segment.type == 40)
        case 48:
            try startPage(&reader)
        case 49:
            pageEnded = page != nil
        case 50:
            let row = try reader.uint32()
            if pageHeightUnknown { try growPage(to: row + 1) }
        case 51:
            pageEnded = true
        case 53:
            results[segment.number] = .table(
                try HuffmanTable(
                    segment: Array(data[segment.dataStart..<segment.dataEnd]), maxLines: budget.limits.maxTableLines))
        case 52, 62:
            break  // profiles and extensions carry nothing the bitmap needs
        default:
            warnings.append("segment \(segment.number): unknown type \(segment.type) skipped")
        }
    }

    /// A symbol dictionary segment. One flagged "bitmap coding context used" starts from the
    /// contexts the last referred-to dictionary retained (T.88 §7.4.3.2). When that decode fails or
    /// does not end with its data, the dictionary is decoded again from fresh contexts and kept if
    /// that one does: poppler and pdf.js never carry contexts over (and MuPDF refuses such
    /// dictionaries), so a file whose encoder set the flag without coding that way shows right in
    /// them, and must here too.
    private mutating func decodeSymbolDictionary(
        _ segment: JBIG2Segment, _ data: [UInt8], inputs: [JBIG2Bitmap], retained: SymbolDictionary?
    ) throws(PDFError) -> SymbolDictionary {
        func decode(reusingContexts: Bool) throws(PDFError) -> SymbolDictionary {
            try SymbolDictionaryDecoder.decode(
                data, start: segment.dataStart, end: segment.dataEnd, inputs: inputs, customTables: tables(segment),
                retained: retained, reusesContexts: reusingContexts, budget: budget)
        }
        guard
            SymbolDictionaryDecoder.wouldReuseContexts(
                data, start: segment.dataStart, end: segment.dataEnd, retained: retained)
        else { return try decode(reusingContexts: true) }
        var asFlagged: SymbolDictionary?
        var flaggedError = PDFError(.decodeFailed, "")
        do throws(PDFError) {
            let dictionary = try decode(reusingContexts: true)
            if dictionary.endedWithItsData { return dictionary }
            asFlagged = dictionary
        } catch {
            guard error.code == .decodeFailed else { throw error }
            flaggedError = error
        }
        do throws(PDFError) {
            let fresh = try decode(reusingContexts: false)
            if fresh.endedWithItsData {
                warnings.append(
                    "segment \(segment.number): symbol dictionary decoded from fresh contexts, not the retained ones it names"
                )
                return fresh
            }
        } catch {
            // A limit reached is the stream's answer; a second decode that fails too is not.
            guard error.code == .decodeFailed else { throw error }
        }
        guard let asFlagged else { throw flaggedError }
        return asFlagged
    }

    /// The custom Huffman tables a segment refers to, in order.
    private func tables(_ segment: JBIG2Segment) -> [HuffmanTable] {
        segment.referredTo.compactMap { number in
            if case .table(let table) = results[number] { return table }
            return nil
        }
    }

    // MARK: Page

    private mutating func startPage(_ reader: inout JBIG2Reader) throws(PDFError) {
        let width = try reader.uint32()
        var height = try reader.uint32()
        try reader.skip(8)  // resolution
        let flags = Int(try reader.byte())
        pageDefaultPixel = UInt8(flags >> 2 & 1)
        if height == 0xFFFF_FFFF {
            pageHeightUnknown = true
            height = 0
        }
        try budget.allocate(width: width, height: height)
        page = JBIG2Bitmap(width: width, height: height, value: pageDefaultPixel)
    }

    private mutating func growPage(to height: Int) throws(PDFError) {
        guard var grown = page, height > grown.height else { return }
        try budget.allocate(width: grown.width, height: height)
        grown.pixels.append(
            contentsOf: repeatElement(pageDefaultPixel, count: (height - grown.height) * grown.width))
        grown.height = height
        page = grown
    }

    /// Stores an intermediate region or draws an immediate one on the page (§7.4.1.5, §8.2).
    private mutating func finish(
        _ segment: JBIG2Segment, info: RegionInfo, bitmap: JBIG2Bitmap, intermediate: Bool
    ) throws(PDFError) {
        regionsDecoded += 1
        if intermediate {
            results[segment.number] = .region(bitmap)
            return
        }
        guard page != nil else { throw JBIG2Error.invalid("region before the page information") }
        if pageHeightUnknown { try growPage(to: info.y + bitmap.height) }
        page!.draw(bitmap, x: info.x, y: info.y, operator: info.combinationOperator)
    }

    // MARK: Regions

    private mutating func decodeGeneric(
        _ segment: JBIG2Segment, info: inout RegionInfo, reader: inout JBIG2Reader
    ) throws(PDFError) -> JBIG2Bitmap {
        let flags = Int(try reader.byte())
        var parameters = GenericRegionParameters()
        parameters.mmr = flags & 1 != 0
        parameters.template = flags >> 1 & 3
        parameters.typicalPrediction = flags & 8 != 0
        if !parameters.mmr {
            for _ in 0..<(parameters.template == 0 ? 4 : 1) {
                parameters.adaptivePixels.append((try reader.int8(), try reader.int8()))
            }
        }
        var end = segment.dataEnd
        if segment.unknownLength {
            var rows = JBIG2Reader(reader.data, offset: end - 4, end: end)
            info.height = try rows.uint32()
            end -= 4
        }
        if parameters.mmr {
            return try GenericRegion.decodeMMR(
                reader.data, start: reader.offset, end: end, width: info.width, height: info.height, budget: budget
            ).bitmap
        }
        var decoder = MQDecoder(reader.data, start: reader.offset, end: end)
        var contexts = [UInt8](
            repeating: 0, count: GenericRegionParameters.contextCount(template: parameters.template))
        return try GenericRegion.decode(
            parameters, width: info.width, height: info.height, decoder: &decoder, contexts: &contexts, budget: budget)
    }

    private mutating func decodeRefinement(
        _ segment: JBIG2Segment, info: RegionInfo, reader: inout JBIG2Reader
    ) throws(PDFError) -> JBIG2Bitmap {
        let flags = Int(try reader.byte())
        var parameters = RefinementParameters()
        parameters.template = flags & 1
        parameters.typicalPrediction = flags & 2 != 0
        if parameters.template == 0 {
            parameters.adaptivePixels = [
                (try reader.int8(), try reader.int8()), (try reader.int8(), try reader.int8()),
            ]
        }
        var reference: JBIG2Bitmap?
        for number in segment.referredTo {
            if case .region(let bitmap) = results[number] {
                reference = bitmap
                results[number] = nil
            }
        }
        if reference == nil {
            guard let page else { throw JBIG2Error.invalid("refinement without a reference") }
            try budget.allocate(width: info.width, height: info.height)
            reference = page.cropped(x: info.x, y: info.y, width: info.width, height: info.height)
        }
        var decoder = MQDecoder(reader.data, start: reader.offset, end: segment.dataEnd)
        var contexts = [UInt8](repeating: 0, count: RefinementParameters.contextCount(template: parameters.template))
        return try RefinementRegion.decode(
            parameters, width: info.width, height: info.height, reference: reference!, dx: 0, dy: 0,
            decoder: &decoder, contexts: &contexts, budget: budget)
    }

    private mutating func decodeText(
        _ segment: JBIG2Segment, info: RegionInfo, reader: inout JBIG2Reader
    ) throws(PDFError) -> JBIG2Bitmap {
        let flags = try reader.uint16()
        var p = TextRegionParameters()
        p.huffman = flags & 1 != 0
        p.refine = flags & 2 != 0
        p.logStrips = flags >> 2 & 3
        p.strips = 1 << p.logStrips
        p.referenceCorner = flags >> 4 & 3
        p.transposed = flags & 0x40 != 0
        p.combinationOperator = JBIG2Bitmap.Operator(bits: flags >> 7 & 3)
        p.defaultPixel = UInt8(flags >> 9 & 1)
        let offset = flags >> 10 & 0x1F
        p.dsOffset = offset >= 16 ? offset - 32 : offset
        p.refinementTemplate = flags >> 15 & 1
        p.width = info.width
        p.height = info.height
        var custom = tables(segment).makeIterator()
        func select(_ choice: Int, _ standard: [Int]) throws(PDFError) -> HuffmanTable {
            if choice < standard.count && standard[choice] > 0 { return HuffmanTable.standard[standard[choice]] }
            guard choice == 3 || standard.count == 1, let table = custom.next() else {
                throw JBIG2Error.invalid("text region: missing Huffman table")
            }
            return table
        }
        if p.huffman {
            let huffmanFlags = try reader.uint16()
            p.tables.fs = try select(huffmanFlags & 3, [6, 7, 0])
            p.tables.ds = try select(huffmanFlags >> 2 & 3, [8, 9, 10])
            p.tables.dt = try select(huffmanFlags >> 4 & 3, [11, 12, 13])
            p.tables.rdw = try select(huffmanFlags >> 6 & 3, [14, 15, 0])
            p.tables.rdh = try select(huffmanFlags >> 8 & 3, [14, 15, 0])
            p.tables.rdx = try select(huffmanFlags >> 10 & 3, [14, 15, 0])
            p.tables.rdy = try select(huffmanFlags >> 12 & 3, [14, 15, 0])
            p.tables.rsize = try select(huffmanFlags >> 14 & 1, [1])
        }
        if p.refine && p.refinementTemplate == 0 {
            p.refinementAdaptivePixels = [
                (try reader.int8(), try reader.int8()), (try reader.int8(), try reader.int8()),
            ]
        }
        p.instances = try reader.uint32()
        for number in segment.referredTo {
            if case .symbols(let dictionary) = results[number] { p.symbols += dictionary.symbols }
        }
        guard p.symbols.count <= budget.limits.maxSymbols else { throw JBIG2Error.limit("too many symbols") }
        p.symbolCodeLength = ceilLog2(p.symbols.count)
        if p.huffman {
            p.symbolCodes = try TextRegion.symbolCodeTable(&reader, symbolCount: p.symbols.count)
        }
        var coder = TextRegionCoder(
            arithmetic: MQDecoder(reader.data, start: reader.offset, end: segment.dataEnd),
            contexts: IntegerContexts(symbolCodeLength: p.symbolCodeLength), reader: reader,
            refinementContexts: [UInt8](
                repeating: 0, count: RefinementParameters.contextCount(template: p.refinementTemplate)))
        return try TextRegion.decode(p, coder: &coder, budget: budget)
    }
}
