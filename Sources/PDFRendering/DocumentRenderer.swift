public import PDFCore
public import PDFGraphics

/// Renders pages of a document: the interpreter's display list of each page, replayed by a
/// ``PageRenderer``, with ICC profiles applied by lcms2.
///
/// Thread-safe: pages (and tiles of one page) can be rendered concurrently from one renderer.
///
/// ```swift
/// let renderer = DocumentRenderer(document: try PDFDocument(contentsOfFile: "in.pdf"))
/// var options = RenderOptions()
/// options.dpi = 150
/// let png = renderer.render(pageAt: 0, options: options).image.pngData()
/// ```
public final class DocumentRenderer: Sendable {
    /// The document prepared for drawing: its fonts and colour spaces loaded once for every page.
    public let graphics: GraphicsDocument
    /// What replays display lists into pixels.
    public let pageRenderer: PageRenderer

    /// - Parameters:
    ///   - document: the document to render.
    ///   - annotations: which annotation appearances are drawn (screen by default, or as printed).
    ///   - colorManagement: apply embedded ICC profiles (lcms2); off, their alternate spaces are used
    ///     as MuPDF does without colour management.
    ///   - fonts: the FreeType fonts, shared by every renderer by default.
    public init(
        document: PDFDocument, annotations: GraphicsOptions.Annotations = .display, colorManagement: Bool = false,
        fonts: FontRenderer = .shared
    ) {
        var options = GraphicsOptions()
        options.annotations = annotations
        let icc: (any ICCConverterFactory)? = colorManagement ? LCMSConverterFactory() : nil
        options.icc = icc
        graphics = GraphicsDocument(document: document, options: options)
        pageRenderer = PageRenderer(fonts: fonts, icc: icc)
    }

    /// The document rendered.
    public var document: PDFDocument { graphics.document }

    /// The display list of a page (for text extraction, hit testing, or rendering many tiles).
    public func displayList(pageAt index: Int) -> DisplayList { graphics.displayList(pageAt: index) }

    /// Renders page `index` (from 0): the image and the problems met while interpreting it.
    public func render(pageAt index: Int, options: RenderOptions = RenderOptions()) -> (
        image: RenderedImage, warnings: [String]
    ) {
        let list = graphics.displayList(pageAt: index, budget: options.budget)
        if options.budget?.stop != nil { return (RenderedImage(width: 0, height: 0, rgba: []), list.warnings) }
        let image = render(list, pageAt: index, options: options)
        return (image, list.warnings + image.warnings)
    }

    /// Renders an already interpreted page (a tile of it when `options.region` is set).
    public func render(_ list: DisplayList, pageAt index: Int, options: RenderOptions) -> RenderedImage {
        let pages = document.pages
        guard pages.indices.contains(index) else { return RenderedImage(width: 0, height: 0, rgba: []) }
        let page = pages[index]
        return pageRenderer.render(
            list, cropBox: page.cropBox, pageRotation: page.rotation, options: options)
    }
}
