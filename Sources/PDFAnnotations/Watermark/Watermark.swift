public import PDFAuthoring
public import PDFCore
import PDFFonts

/// A watermark drawn across every page (WYSIWYS `WYSWatermarkAppearance`): a title and a date,
/// rotated, in a colour with an opacity. Used alone, or by the refusal flow before its invisible
/// signature.
public struct WatermarkAppearance: Sendable, Codable, Equatable {
    /// The main text, drawn large through the middle of the page.
    public var title: String
    /// A standard 14 font name; text it cannot draw uses installed fonts, run by run (embedded as subsets).
    public var titleFont = "Helvetica-Bold"
    /// Points; nil fits the title to the page.
    public var titleSize: Double?
    /// Draws the date under the title, at 0.3 of its size.
    public var showsDate = true
    /// The pattern of the date line.
    public var datePattern = DatePattern()
    /// The standard 14 font name of the date; text it cannot draw uses installed fonts (embedded as subsets).
    public var dateFont = "Helvetica"
    /// Degrees counter-clockwise as the page is seen (its `/Rotate` taken into account).
    public var rotation: Double = 45
    /// The colour of the title and the date.
    public var color: PDFColor = .rgb(0.8, 0.1, 0.1)
    /// 0 (invisible) to 1 (opaque).
    public var opacity: Double = 0.35

    /// A watermark of `title`, with every other property at its default: the date below it, red, 45°, 35 % opaque.
    public init(title: String) { self.title = title }
}

/// Adds a watermark to every page as page content, in one incremental update.
public struct Watermarker {
    /// The document watermarked; its bytes are never changed.
    public let document: PDFDocument
    /// What the watermark shows and how.
    public var appearance: WatermarkAppearance
    /// The date the watermark shows (now by default).
    public var date: PDFDate
    /// Whether the update's `/ID` is derived from its content, and where its random bytes come from.
    public var writeOptions: WriteOptions = .default

    /// A watermarker of `document` drawing `appearance`, dated `date`.
    public init(document: PDFDocument, appearance: WatermarkAppearance, date: PDFDate = .now()) {
        self.document = document
        self.appearance = appearance
        self.date = date
    }

    /// The update drawing the watermark on every page.
    /// - Throws: `.fontUnavailable` naming a character of the title no installed font has, `.invalidArgument` for a document without pages.
    public func makeUpdate() throws(AnnotationError) -> IncrementalUpdate {
        var update = IncrementalUpdate(base: document, options: writeOptions)
        let pages = document.pages
        guard !pages.isEmpty else { throw AnnotationError(.invalidArgument, "the document has no pages") }
        let dateText = appearance.showsDate ? appearance.datePattern.format(date) : nil
        let titleFont = try font(appearance.titleFont, for: appearance.title)
        let dateFont = try dateText.map { (text) throws(AnnotationError) in try font(appearance.dateFont, for: text) }
        var contents: [PDFReference: [UInt8]] = [:]
        for page in pages {
            guard let reference = page.reference else { continue }
            contents[reference] = drawing(on: page, titleFont: titleFont, dateFont: dateFont, dateText: dateText)
        }
        // Font objects after every glyph is encoded (embedded fonts subset what was used).
        var fontReferences: [(PDFName, PDFReference)] = []
        do {
            var chains = [(PDFName.autographWatermarkTitle, titleFont)]
            if let dateFont { chains.append((.autographWatermarkDate, dateFont)) }
            for (base, chain) in chains {
                for (name, font) in zip(Self.names(base, count: chain.fonts.count), chain.fonts) {
                    fontReferences.append((name, update.add(.dictionary(try font.fontDictionary { update.add($0) }))))
                }
            }
        } catch {
            throw AnnotationError(.fontUnavailable, "a font could not be embedded: \(error.message)")
        }
        let graphicsState = update.add(
            .dictionary([
                .type: .name("ExtGState"), .nonStrokingAlpha: .real(PDFReal(appearance.opacity)),
                .ca: .real(PDFReal(appearance.opacity)),  // /CA: the stroking alpha
            ]))
        for page in pages {
            guard let reference = page.reference, let drawing = contents[reference] else { continue }
            var dictionary = page.dictionary
            var resources = page.resources ?? PDFDictionary()
            var fonts = document.resolve(resources[.font] ?? .null).dictionaryValue ?? PDFDictionary()
            for (name, reference) in fontReferences { fonts[name] = .reference(reference) }
            resources[.font] = .dictionary(fonts)
            var states = document.resolve(resources[.extGState] ?? .null).dictionaryValue ?? PDFDictionary()
            states[.autographWatermarkGS] = .reference(graphicsState)
            resources[.extGState] = .dictionary(states)
            dictionary[.resources] = .dictionary(resources)
            // The page's own content may leave its graphics state changed: enclose it in q … Q.
            let opening = update.add(.stream(PDFStream(data: Array("q\n".utf8), compress: false)))
            let closing = update.add(.stream(PDFStream(data: Array("Q\n".utf8) + drawing, compress: true)))
            var list: [PDFObject] = [.reference(opening)]
            switch document.resolve(dictionary[.contents] ?? .null) {
            case .array(let items): list += items
            case .null: break
            default: if let existing = dictionary[.contents] { list.append(existing) }
            }
            list.append(.reference(closing))
            dictionary[.contents] = .array(list)
            update.replace(reference, with: .dictionary(dictionary))
        }
        return update
    }

    /// The operators drawing the watermark centred on the page's crop box.
    private func drawing(on page: Page, titleFont: FontChain, dateFont: FontChain?, dateText: String?) -> [UInt8] {
        let box = page.cropBox
        // As seen, the page is turned clockwise by /Rotate: add it so the text keeps its angle on screen.
        let angle = (appearance.rotation + Double(page.rotation)) * Double.pi / 180
        let cosine = cos(angle)
        let sine = sin(angle)
        let titleWidth = titleFont.width(of: appearance.title) / 1000
        let titleHeight = max(titleFont.ascent - titleFont.descent, 1) / 1000
        // The largest size whose rotated box fits 85 % of the crop box, unless a size is given.
        let fit = { (width: Double, height: Double) -> Double in
            let rotatedWidth = abs(width * cosine) + abs(height * sine)
            let rotatedHeight = abs(width * sine) + abs(height * cosine)
            return min(box.width * 0.85 / max(rotatedWidth, 1e-6), box.height * 0.85 / max(rotatedHeight, 1e-6))
        }
        let titleSize = appearance.titleSize ?? min(fit(titleWidth, titleHeight * 1.6), 160)
        let dateSize = titleSize * 0.3
        var content = ContentStreamBuilder()
        content.saveState()
        content.setGraphicsState(.autographWatermarkGS)
        content.concatenate(cosine, sine, -sine, cosine, box.x0 + box.width / 2, box.y0 + box.height / 2)
        content.beginText()
        content.setFillColor(appearance.color)
        content.setTextMatrix(1, 0, 0, 1, -titleWidth * titleSize / 2, dateText == nil ? -titleSize * 0.35 : 0)
        titleFont.show(
            appearance.title, names: Self.names(.autographWatermarkTitle, count: titleFont.fonts.count),
            size: titleSize, into: &content)
        if let dateText, let dateFont {
            let width = dateFont.width(of: dateText) / 1000 * dateSize
            content.setTextMatrix(1, 0, 0, 1, -width / 2, -dateSize * 1.4)
            dateFont.show(
                dateText, names: Self.names(.autographWatermarkDate, count: dateFont.fonts.count), size: dateSize,
                into: &content)
        }
        content.endText()
        content.restoreState()
        return content.bytes
    }

    /// The standard font named, followed by installed fonts for what it cannot draw (or one
    /// installed font drawing all of `text`).
    private func font(_ name: String, for text: String) throws(AnnotationError) -> FontChain {
        let standard = StandardFont(baseFont: name) ?? StandardFont(.helvetica)
        do {
            return try FontChain.covering(text, primary: standard) { (file) throws(PDFError) -> any PDFFont in
                try EmbeddedFont(fontFile: file)
            }
        } catch {
            throw AnnotationError(.fontUnavailable, error.message(in: text))
        }
    }

    /// `base`, then `base_2`, `base_3` …: the resource names of a chain's fonts.
    private static func names(_ base: PDFName, count: Int) -> [PDFName] {
        (0..<count).map { $0 == 0 ? base : PDFName("\(base.string)_\($0 + 1)") }
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
