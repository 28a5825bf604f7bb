import PDFCore

/// Runs content streams (ISO 32000-2 §8, §9) and appends what they draw to a display list.
///
/// One interpreter builds one list; forms and Type 3 glyphs are run by the same interpreter
/// (their items belong to the page), patterns and soft masks by a child interpreter whose list
/// becomes the pattern cell or mask group. Every problem becomes a warning and the operator is
/// skipped: the rest of the page still draws.
final class ContentInterpreter {
    let graphics: GraphicsDocument
    var document: PDFDocument { graphics.document }
    var items: [DisplayItem] = []
    var warnings: [String] = []
    /// Distinct warnings are kept once.
    private var warned: Set<String> = []

    var state: GraphicsState
    var stateStack: [GraphicsState] = []
    /// The resource dictionary of the stream being run.
    var resources: PDFDictionary?
    /// The matrix of the stream's default space (the page's, or a form's at its `Do`): pattern
    /// matrices are relative to it (§8.7.3.1).
    var baseMatrix: PDFMatrix

    /// The path being built, in user space of the current CTM (paths are kept in the space the CTM
    /// maps to user space; each item records that CTM).
    var path = Path()
    var currentPoint: PDFPoint? = nil
    var subpathStart: PDFPoint? = nil
    var pendingClip: FillRule? = nil

    // Text objects (§9.4).
    var textMatrix = PDFMatrix.identity
    var lineMatrix = PDFMatrix.identity
    var inText = false
    var textClipRuns: [GlyphRun] = []

    /// Nesting of forms, patterns, glyphs and masks.
    var depth: Int
    /// Marked-content levels; hidden levels (optional content turned off) suppress drawing.
    var markedContent: [MarkedContent] = []
    var hiddenLevels = 0
    /// Open levels that carry `/ActualText`, and the spans closed so far (outermost only).
    var actualTextLevels = 0
    var actualTexts: [ActualText] = []
    /// Set while running a Type 3 glyph described with `d1` (its colour operators are ignored).
    var uncoloredGlyph = false
    /// The colour of an uncoloured tiling pattern's cell (PaintType 2): every paint becomes it.
    var forcedColor: RGB? = nil
    /// Shared with the child interpreters of the same page.
    let page: PageRun

    init(
        graphics: GraphicsDocument, resources: PDFDictionary?, ctm: PDFMatrix, depth: Int = 0, page: PageRun = PageRun()
    ) {
        self.graphics = graphics
        self.resources = resources
        self.state = GraphicsState(ctm: ctm)
        self.baseMatrix = ctm
        self.depth = depth
        self.page = page
    }

    func finish() -> DisplayList { DisplayList(items: items, warnings: warnings, actualTexts: actualTexts) }

    func warn(_ message: String) {
        if warnings.count < 200, warned.insert(message).inserted { warnings.append(message) }
    }

    var isHidden: Bool { hiddenLevels > 0 }

    /// Appends a drawing item unless optional content hides it.
    func emit(_ item: DisplayItem) {
        guard !isHidden else { return }
        items.append(item)
    }

    // MARK: Running

    func run(content: (bytes: [UInt8], warnings: [String])) {
        for warning in content.warnings { warn(warning) }
        run(bytes: content.bytes)
    }

    func run(bytes: [UInt8]) {
        let savedDepth = stateStack.count
        items.append(.save)
        // Operators are run as they are parsed: a page of millions of them is never held twice.
        let parseWarnings = ContentParser.forEachOperation(in: bytes) { operation in
            guard page.admit(items: items.count) else { return false }
            guard page.operations <= graphics.options.maxOperations else {
                warn("more than \(graphics.options.maxOperations) operators: the rest is not drawn")
                return false
            }
            execute(operation)
            return true
        }
        for warning in parseWarnings { warn(warning) }
        // Unbalanced q without Q: restore what this stream saved.
        while stateStack.count > savedDepth { popState() }
        if inText { endText() }
        items.append(.restore)
    }

    /// Runs `bytes` as a nested stream (a form, a glyph) with its own resources and CTM, restoring
    /// the state after.
    func runNested(_ bytes: [UInt8], resources nestedResources: PDFDictionary?, ctm: PDFMatrix) {
        guard depth < graphics.options.maxNesting else {
            warn("content nested deeper than \(graphics.options.maxNesting) levels is not drawn")
            return
        }
        let saved = (state, stateStack, resources, baseMatrix, path, currentPoint, subpathStart, pendingClip)
        let savedText = (textMatrix, lineMatrix, inText, textClipRuns)
        depth += 1
        stateStack = []
        resources = nestedResources ?? resources
        state.ctm = ctm
        baseMatrix = ctm
        path = Path()
        currentPoint = nil
        inText = false
        textClipRuns = []
        run(bytes: bytes)
        depth -= 1
        (state, stateStack, resources, baseMatrix, path, currentPoint, subpathStart, pendingClip) = saved
        (textMatrix, lineMatrix, inText, textClipRuns) = savedText
    }

    /// A child interpreter for a pattern cell or a soft-mask group, sharing nothing but the document.
    func child(resources: PDFDictionary?, ctm: PDFMatrix) -> ContentInterpreter? {
        guard depth < graphics.options.maxNesting else {
            warn("content nested deeper than \(graphics.options.maxNesting) levels is not drawn")
            return nil
        }
        return ContentInterpreter(graphics: graphics, resources: resources, ctm: ctm, depth: depth + 1, page: page)
    }

    /// Runs `body` unless `stream` (a form, a pattern cell or a Type 3 font) is already being run
    /// further up: content that draws itself is cut at the first repetition (as MuPDF cuts
    /// "recursive type3 font"), not unrolled to the nesting limit, which with a few glyphs or
    /// tiles per level would take forever.
    func entering<T>(_ stream: PageRun.Stream?, _ what: String, _ body: () -> T?) -> T? {
        guard let stream else { return body() }
        guard page.active.insert(stream).inserted else {
            warn("\(what) draws itself: the cycle is not drawn")
            return nil
        }
        defer { page.active.remove(stream) }
        return body()
    }

    func pushState() {
        guard stateStack.count < 256 else {
            warn("more than 256 nested q operators")
            return
        }
        stateStack.append(state)
        items.append(.save)
    }

    func popState() {
        guard let saved = stateStack.popLast() else {
            warn("Q without q")
            return
        }
        state = saved
        items.append(.restore)
    }

    // MARK: Resources

    func resource(_ category: String, _ name: PDFName) -> PDFObject? {
        guard let resources,
            let dictionary = document.resolve(resources[PDFName(category)] ?? .null).dictionaryValue,
            let value = dictionary[name]
        else { return nil }
        return value
    }

    // MARK: Dispatch

    func execute(_ operation: ContentOperation) {
        let operands = operation.operands
        func number(_ index: Int) -> Double? {
            guard index < operands.count else { return nil }
            return operands[index].numberValue
        }
        func numbers(_ count: Int) -> [Double]? {
            guard operands.count >= count else {
                warn("'\(operation.name)' needs \(count) operands")
                return nil
            }
            let values = operands.suffix(count).compactMap(\.numberValue)
            guard values.count == count, values.allSatisfy(\.isFinite) else {
                warn("'\(operation.name)' has operands that are not numbers")
                return nil
            }
            return values
        }
        switch operation.name {
        // Graphics state (§8.4.4).
        case "q": pushState()
        case "Q": popState()
        case "cm":
            if let n = numbers(6) { state.ctm = PDFMatrix(n[0], n[1], n[2], n[3], n[4], n[5]).concatenating(state.ctm) }
        case "w": if let n = numbers(1) { state.strokeStyle.width = abs(n[0]) }
        // Whole numbers from outside: an operand beyond Int's range names no style (never a trap).
        case "J":
            if let n = numbers(1), let code = Int(exactly: n[0].rounded(.towardZero)),
                let cap = StrokeStyle.Cap(rawValue: code)
            {
                state.strokeStyle.cap = cap
            }
        case "j":
            if let n = numbers(1), let code = Int(exactly: n[0].rounded(.towardZero)),
                let join = StrokeStyle.Join(rawValue: code)
            {
                state.strokeStyle.join = join
            }
        case "M": if let n = numbers(1) { state.strokeStyle.miterLimit = max(1, n[0]) }
        case "d": setDash(operands)
        case "ri", "i": break
        case "gs":
            if let name = operands.last?.nameValue { applyExtGState(name) }
        // Paths (§8.5.2).
        case "m":
            if let n = numbers(2) { moveTo(PDFPoint(n[0], n[1])) }
        case "l":
            if let n = numbers(2) { lineTo(PDFPoint(n[0], n[1])) }
        case "c":
            if let n = numbers(6) { curveTo(PDFPoint(n[0], n[1]), PDFPoint(n[2], n[3]), PDFPoint(n[4], n[5])) }
        case "v":
            if let n = numbers(4), let current = currentPoint {
                curveTo(current, PDFPoint(n[0], n[1]), PDFPoint(n[2], n[3]))
            }
        case "y":
            if let n = numbers(4) { curveTo(PDFPoint(n[0], n[1]), PDFPoint(n[2], n[3]), PDFPoint(n[2], n[3])) }
        case "h": closePath()
        case "re":
            if let n = numbers(4) { rectangle(n[0], n[1], n[2], n[3]) }
        // Painting (§8.5.3).
        case "S": paint(fill: nil, stroke: true)
        case "s":
            closePath()
            paint(fill: nil, stroke: true)
        case "f", "F": paint(fill: .nonZero, stroke: false)
        case "f*": paint(fill: .evenOdd, stroke: false)
        case "B": paint(fill: .nonZero, stroke: true)
        case "B*": paint(fill: .evenOdd, stroke: true)
        case "b":
            closePath()
            paint(fill: .nonZero, stroke: true)
        case "b*":
            closePath()
            paint(fill: .evenOdd, stroke: true)
        case "n": paint(fill: nil, stroke: false)
        case "W": pendingClip = .nonZero
        case "W*": pendingClip = .evenOdd
        // Colour (§8.6.8).
        case "CS", "cs":
            if let name = operands.last?.nameValue { setColorSpace(name, stroking: operation.name == "CS") }
        case "SC", "SCN", "sc", "scn": setColor(operands, stroking: operation.name.first == "S")
        case "G", "g":
            if let n = numbers(1) { setDeviceColor(.deviceGray, n, stroking: operation.name == "G") }
        case "RG", "rg":
            if let n = numbers(3) { setDeviceColor(.deviceRGB, n, stroking: operation.name == "RG") }
        case "K", "k":
            if let n = numbers(4) { setDeviceColor(.deviceCMYK, n, stroking: operation.name == "K") }
        case "sh":
            if let name = operands.last?.nameValue { paintShading(name) }
        // Text (§9).
        case "BT": beginText()
        case "ET": endText()
        case "Tc": if let n = numbers(1) { state.text.characterSpacing = n[0] }
        case "Tw": if let n = numbers(1) { state.text.wordSpacing = n[0] }
        case "Tz": if let n = numbers(1) { state.text.horizontalScaling = n[0] / 100 }
        case "TL": if let n = numbers(1) { state.text.leading = n[0] }
        case "Tf":
            if operands.count >= 2, let name = operands[operands.count - 2].nameValue,
                let size = number(operands.count - 1)
            {
                setFont(name, size: size)
            } else {
                warn("'Tf' needs a font name and a size")
            }
        case "Tr": if let n = numbers(1), !n[0].isNaN { state.text.renderMode = Int(max(0, min(7, n[0]))) }
        case "Ts": if let n = numbers(1) { state.text.rise = n[0] }
        case "Td": if let n = numbers(2) { moveText(n[0], n[1]) }
        case "TD":
            if let n = numbers(2) {
                state.text.leading = -n[1]
                moveText(n[0], n[1])
            }
        case "Tm":
            if let n = numbers(6) {
                textMatrix = PDFMatrix(n[0], n[1], n[2], n[3], n[4], n[5])
                lineMatrix = textMatrix
            }
        case "T*": moveText(0, -state.text.leading)
        case "Tj":
            if let string = operands.last?.stringValue { showText([.string(string)]) }
        case "TJ":
            if let array = operands.last?.arrayValue { showText(array) }
        case "'":
            moveText(0, -state.text.leading)
            if let string = operands.last?.stringValue { showText([.string(string)]) }
        case "\"":
            if operands.count >= 3, let wordSpacing = number(0), let characterSpacing = number(1),
                let string = operands[2].stringValue
            {
                state.text.wordSpacing = wordSpacing
                state.text.characterSpacing = characterSpacing
                moveText(0, -state.text.leading)
                showText([.string(string)])
            }
        case "d0": break
        case "d1": uncoloredGlyph = depth > 0
        // XObjects, images, shadings.
        case "Do":
            if let name = operands.last?.nameValue { drawXObject(name) }
        case "BI":
            if let image = operation.inlineImage { drawInlineImage(image.dictionary, data: image.data) }
        // Marked content and optional content (§14.6, §8.11).
        case "BMC": markedContent.append(MarkedContent())
        case "BDC": beginMarkedContent(operands)
        case "EMC": endMarkedContent()
        case "MP", "DP", "BX", "EX": break
        default:
            warn("unknown operator '\(operation.name)'")
        }
    }

    func setDash(_ operands: [PDFObject]) {
        guard operands.count >= 2, let array = operands[operands.count - 2].arrayValue,
            let phase = operands.last?.numberValue
        else {
            warn("'d' needs an array and a phase")
            return
        }
        let dash = array.compactMap(\.numberValue).map(abs)
        // All zero (or nothing) means solid.
        state.strokeStyle.dash = dash.allSatisfy { $0 == 0 } ? [] : dash
        state.strokeStyle.dashPhase = phase
    }
}

extension PDFObject {
    var nameValue: PDFName? {
        if case .name(let name) = self { return name }
        return nil
    }
}

/// What every interpreter of one page shares: the operator budget (patterns and soft masks are run
/// by child interpreters, which spend from it too) and the streams being run.
final class PageRun {
    enum Stream: Hashable {
        case object(PDFReference)
        case font(ObjectIdentifier)
    }

    var operations = 0
    var active: Set<Stream> = []
    /// The budget of this page's drawing, when the caller set one.
    let budget: RenderBudget?
    /// Set once the budget is spent: every interpreter of the page stops.
    var stopped = false

    init(budget: RenderBudget? = nil) { self.budget = budget }

    /// Counts an operator; false once the page's work must stop. The clock is read every 256 operators.
    func admit(items: Int) -> Bool {
        operations += 1
        guard !stopped else { return false }
        if let budget, operations & 255 == 0 {
            budget.checkItems(items)
            if budget.stop != nil { stopped = true }
        }
        return !stopped
    }
}
