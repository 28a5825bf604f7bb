public import PDFCore
import Synchronization

/// How pages are interpreted.
public struct GraphicsOptions: Sendable {
    /// Which annotation appearances are drawn over the page content (ISO 32000-2 §12.5.3 flags).
    public enum Annotations: Sendable, Hashable {
        /// None: the page content only.
        case none
        /// As on screen: every annotation except hidden and NoView ones.
        case display
        /// As printed: annotations with the Print flag, except hidden ones.
        case print
    }

    /// Which annotation appearances are drawn over the page; as on screen by default.
    public var annotations = Annotations.display
    /// Colour management for ICCBased spaces; nil uses their alternate spaces.
    public var icc: (any ICCConverterFactory)? = nil
    /// False for consumers that need geometry and text but no pixels (text extraction): shadings
    /// are not built (`sh` draws nothing, shading and tiling patterns paint black) and soft masks
    /// are not run, which spares evaluating their functions and contents.
    public var includesPaints = true
    /// How deeply forms, patterns, Type 3 glyphs and soft masks may nest.
    public var maxNesting = 16
    /// Operators interpreted per page at most (a hostile page cannot run forever).
    public var maxOperations = 10_000_000

    /// Options that draw as on screen: annotations as displayed, paints built, ICC spaces drawn with their alternates,
    /// nesting 16 deep, 10 million operators a page.
    public init() {}
}

/// A document prepared for drawing: its fonts loaded once and shared by every page, so pages can
/// be interpreted concurrently from one snapshot.
public final class GraphicsDocument: Sendable {
    /// The document drawn.
    public let document: PDFDocument
    /// How its pages are interpreted.
    public let options: GraphicsOptions
    /// The fonts loaded so far, shared by every page.
    public let fonts: FontCache
    let optionalContent: OptionalContent
    /// Colour spaces defined by indirect objects (ICC profiles are decoded once), by reference.
    private let colorSpaces = Mutex<[PDFReference: ColorSpace]>([:])

    /// A document prepared for drawing with `options`.
    public init(document: PDFDocument, options: GraphicsOptions = GraphicsOptions()) {
        self.document = document
        self.options = options
        self.fonts = FontCache(document: document)
        self.optionalContent = OptionalContent(document: document)
    }

    /// Resolves a colour space, reusing the ones already built from the same indirect object.
    func colorSpace(_ object: PDFObject, resources: PDFDictionary?) throws(PDFError) -> ColorSpace {
        guard case .reference(let reference) = object else {
            return try ColorSpace.resolve(object, resources: resources, document: document, icc: options.icc)
        }
        if let cached = colorSpaces.withLock({ $0[reference] }) { return cached }
        let space = try ColorSpace.resolve(object, resources: resources, document: document, icc: options.icc)
        colorSpaces.withLock { cache in
            if cache.count < 4096 { cache[reference] = space }
        }
        return space
    }

    /// The display list of page `index` (from 0): its content, then its annotations' appearances as
    /// `options.annotations` asks. Errors inside the content are warnings of the list.
    /// - Parameters:
    ///   - index: the page, from 0.
    ///   - budget: stops the work when spent (ask `budget.stop` after: the list is then incomplete).
    public func displayList(pageAt index: Int, budget: RenderBudget? = nil) -> DisplayList {
        let pages = document.pages
        guard pages.indices.contains(index) else {
            return DisplayList(warnings: [PageIndexCheck.problem(index, pageCount: pages.count) ?? ""])
        }
        let page = pages[index]
        let interpreter = ContentInterpreter(
            graphics: self, resources: page.resources, ctm: .identity, page: PageRun(budget: budget))
        interpreter.run(content: pageContent(page))
        if options.annotations != .none { interpreter.drawAnnotations(of: page) }
        return interpreter.finish()
    }

    /// The page's content streams, decoded and joined with white space between them (§7.8.2: one
    /// content stream may end mid-token only at such a boundary).
    func pageContent(_ page: Page) -> (bytes: [UInt8], warnings: [String]) {
        var bytes: [UInt8] = []
        var warnings: [String] = []
        let contents = document.resolve(page.dictionary[.contents] ?? .null)
        let streams: [PDFObject]
        switch contents {
        case .array(let items): streams = items
        case .null: streams = []
        default: streams = [contents]
        }
        for item in streams {
            guard let stream = document.resolve(item).streamValue else { continue }
            do {
                bytes += try stream.decodedData(maxSize: 1 << 28)
            } catch {
                warnings.append("a content stream cannot be decoded: \(error.message)")
            }
            bytes.append(0x0A)
        }
        return (bytes, warnings)
    }
}
