import PDFAuthoring
import PDFCore
import PDFFonts

/// Draws a ``SignatureAppearance`` into a form XObject for a widget of `width` × `height` points,
/// upright on a page rotated by `rotation` (the appearance is counter-rotated like `/MK /R`).
struct SignatureAppearanceRenderer {
    let appearance: SignatureAppearance
    let signerName: String?
    let date: PDFDate

    func make(width: Double, height: Double, rotation: Int, add: (PDFObject) -> PDFReference) throws(SigningError)
        -> PDFObject
    {
        try appearance.validate()
        let rotated = rotation == 90 || rotation == 270
        let boxWidth = rotated ? height : width
        let boxHeight = rotated ? width : height
        // WYSIWYS font sizes are points on a signature 512 points wide.
        let seedScale = boxWidth / 512
        var dictionary: PDFDictionary = [
            .type: .name("XObject"), .subtype: .name("Form"),
            .bBox: PDFRectangle(x0: 0, y0: 0, x1: boxWidth, y1: boxHeight).object,
        ]
        switch rotation {
        case 90: dictionary[.matrix] = [0, 1, -1, 0, 0, 0]
        case 180: dictionary[.matrix] = [-1, 0, 0, -1, 0, 0]
        case 270: dictionary[.matrix] = [0, -1, 1, 0, 0, 0]
        default: break
        }
        var content = ContentStreamBuilder()
        var fonts = PDFDictionary()
        // Font dictionaries are made after all text is drawn: embedded fonts subset the glyphs used.
        var pendingFonts: [(PDFName, any PDFFont)] = []
        var xObjects = PDFDictionary()
        let padding = min(4, min(boxWidth, boxHeight) / 12)
        let area = PDFRectangle(x0: padding, y0: padding, x1: boxWidth - padding, y1: boxHeight - padding)

        if appearance.drawsBorder {
            content.saveState()
            content.setStrokeColor(.gray(0.5))
            content.setLineWidth(0.75)
            content.rectangle(0.375, 0.375, boxWidth - 0.75, boxHeight - 0.75)
            content.stroke()
            content.restoreState()
        }

        // A wide field puts the mark on the left and the text on the right; a narrow one stacks them.
        // Each text is split into its lines here: a font is handed no line break or other control character.
        var lines: [String] = []
        if let displayText = appearance.displayText, appearance.displayTextPosition == .bottom {
            lines += Self.lines(of: displayText)
        }
        if appearance.showsDate { lines += Self.lines(of: appearance.dateLabel + appearance.datePattern.format(date)) }
        if let description = appearance.description { lines += Self.lines(of: description) }
        var topLines: [String] = []
        if let displayText = appearance.displayText, appearance.displayTextPosition == .top {
            topLines += Self.lines(of: displayText)
        }
        let hasMark: Bool
        if case .none = appearance.mark { hasMark = false } else { hasMark = true }
        let hasText = !(lines.isEmpty && topLines.isEmpty)
        let sideBySide = hasMark && hasText && area.width > area.height * 2.4
        var markArea = area
        var textArea = area
        if sideBySide {
            markArea.x1 = area.x0 + area.width * 0.5 - padding / 2
            textArea.x0 = area.x0 + area.width * 0.5 + padding / 2
        } else if hasMark && hasText {
            let split = area.y0 + area.height * 0.42
            markArea.y0 = split
            textArea.y1 = split
        } else if !hasText {
            textArea.y1 = textArea.y0
        }

        // The graphic sits at the bottom of the mark's column (or of the whole field).
        if let graphic = appearance.graphic {
            let image: ImageXObject
            do {
                image = try ImageXObject(data: graphic)
            } catch {
                throw SigningError(.invalidArgument, "the appearance graphic cannot be read: \(error.message)")
            }
            let column = hasMark ? markArea : textArea
            let band = column.height * (hasMark ? 0.3 : 0.4)
            let drawnHeight = min(band, column.width * Double(image.displayHeight) / Double(image.displayWidth))
            let matrix = image.matrix(
                fitting: PDFRectangle(x0: column.x0, y0: column.y0, x1: column.x1, y1: column.y0 + band),
                alignBottom: true)
            let reference = image.add(using: add)
            xObjects[.im1] = .reference(reference)
            content.saveState()
            content.concatenate(matrix[0], matrix[1], matrix[2], matrix[3], matrix[4], matrix[5])
            content.drawXObject(.im1)
            content.restoreState()
            if hasMark { markArea.y0 += drawnHeight + padding / 2 } else { textArea.y0 += drawnHeight + padding / 2 }
        }

        let allText = (topLines + lines).joined(separator: " ")
        if !allText.isEmpty {
            let font = try font(appearance.textFont, for: allText)
            let names = Self.names(.f1, count: font.fonts.count)
            pendingFonts += zip(names, font.fonts).map { ($0, $1) }
            draw(topLines + lines, font: font, names: names, box: textArea, scale: seedScale, into: &content)
        }

        switch appearance.mark {
        case .handwriting(let strokes, let yAxisDown):
            let renderer = InkPathWriter(width: appearance.strokeWidth, color: appearance.markColor)
            if let transform = InkPathWriter.fitting(
                strokes, into: markArea, padding: 1, strokeWidth: appearance.strokeWidth, flipY: yAxisDown)
            {
                renderer.draw(strokes, into: &content, transform: transform)
            }
        case .name(let given):
            // A name is drawn on one line: its line breaks become spaces.
            let text = Self.lines(of: given ?? signerName ?? "").joined(separator: " ")
            if !text.isEmpty {
                let font = try font(appearance.markFont, for: text)
                let names = Self.names(.f2, count: font.fonts.count)
                pendingFonts += zip(names, font.fonts).map { ($0, $1) }
                let size = TextLayout.fittingSize(
                    text, font: font, width: markArea.width, height: markArea.height, multiline: false, minimum: 3,
                    maximum: max(3, appearance.markFontSize * seedScale))
                let layout = TextLayout(font: font, size: size)
                content.beginText()
                content.setFillColor(appearance.markColor)
                for line in layout.place([text], width: markArea.width, height: markArea.height, alignment: .center) {
                    content.setTextMatrix(1, 0, 0, 1, markArea.x0 + line.x, markArea.y0 + line.baseline)
                    font.show(text, names: names, size: size, into: &content)
                }
                content.endText()
            }
        case .none:
            break
        }
        for (name, font) in pendingFonts { fonts[name] = .reference(try fontReference(font, add: add)) }
        var resources = PDFDictionary()
        if !fonts.isEmpty { resources[.font] = .dictionary(fonts) }
        if !xObjects.isEmpty { resources[.xObject] = .dictionary(xObjects) }
        dictionary[.resources] = .dictionary(resources)
        return .stream(PDFStream(dictionary: dictionary, data: content.bytes, compress: true))
    }

    /// Lines wrapped and shrunk until they fit `box`, left-aligned from the top.
    private func draw(
        _ lines: [String], font: FontChain, names: [PDFName], box: PDFRectangle, scale seedScale: Double,
        into content: inout ContentStreamBuilder
    ) {
        // Shrinking keeps lines whole down to a readable 6 pt; below that, lines wrap (and shrink further).
        var size = min(
            max(3, appearance.textFontSize * seedScale), max(3, box.height / Double(max(lines.count, 1)) / 1.3))
        let widest = lines.map { font.width(of: $0) / 1000 }.max() ?? 0
        // A hair under the exact width: a line as wide as the box, to the last bit, would wrap.
        if widest > 0 { size = min(size, max(6, box.width / widest * 0.999)) }
        var wrapped: [String] = []
        while true {
            let layout = TextLayout(font: font, size: size)
            wrapped = lines.flatMap { layout.wrap($0, maxWidth: box.width) }
            if Double(wrapped.count) * layout.lineHeight <= box.height || size <= 3 { break }
            size -= 0.5
        }
        let layout = TextLayout(font: font, size: size)
        content.saveState()
        content.rectangle(box.x0, box.y0, box.width, box.height)
        content.clip()
        content.beginText()
        content.setFillColor(appearance.textColor)
        for line in layout.place(
            wrapped, width: box.width, height: box.height, alignment: .left, centerSingleLine: false)
        {
            content.setTextMatrix(1, 0, 0, 1, box.x0 + line.x, box.y0 + line.baseline)
            font.show(line.text, names: names, size: size, into: &content)
        }
        content.endText()
        content.restoreState()
    }

    /// The font chosen, followed by installed fonts for what it cannot draw (or one installed font
    /// drawing all of `text` in place of a standard font that cannot).
    private func font(_ choice: SignatureAppearance.FontChoice, for text: String) throws(SigningError) -> FontChain {
        let primary: any PDFFont
        switch choice {
        case .file(let path):
            do {
                primary = try EmbeddedFont(path: path)
            } catch {
                throw SigningError(.invalidArgument, "the font \(path) cannot be used: \(error.message)")
            }
        case .standard(let name):
            primary = SignatureAppearance.FontChoice.standardFont(name)
        }
        do {
            return try FontChain.covering(text, primary: primary) { (file) throws(PDFError) -> any PDFFont in
                try EmbeddedFont(fontFile: file)
            }
        } catch {
            throw SigningError(.invalidArgument, error.message(in: text))
        }
    }

    /// The lines `text` is drawn as: split at every line break (LF, CR, CR LF, VT, FF, NEL, U+2028,
    /// U+2029), a tab drawn as a space and any other control character (Unicode category Cc) left
    /// out, since no font draws them; lines left empty are dropped. "Reason: R\nLocation: L" is two
    /// lines.
    static func lines(of text: String) -> [String] {
        text.split(whereSeparator: \.isNewline).compactMap { line -> String? in
            var scalars = String.UnicodeScalarView()
            for scalar in line.unicodeScalars {
                if scalar == "\t" {
                    scalars.append(" ")
                } else if scalar.properties.generalCategory != .control {
                    scalars.append(scalar)
                }
            }
            let kept = String(scalars)
            return kept.allSatisfy(\.isWhitespace) ? nil : kept
        }
    }

    /// `base`, then `base_2`, `base_3` …: the resource names of a chain's fonts.
    private static func names(_ base: PDFName, count: Int) -> [PDFName] {
        (0..<count).map { $0 == 0 ? base : PDFName("\(base.string)_\($0 + 1)") }
    }

    // (FontChoice.canDraw below asks the same questions before anything is prepared.)

    private func fontReference(_ font: any PDFFont, add: (PDFObject) -> PDFReference) throws(SigningError)
        -> PDFReference
    {
        do {
            return add(.dictionary(try font.fontDictionary(adding: add)))
        } catch {
            throw SigningError(.invalidArgument, "a font could not be embedded: \(error.message)")
        }
    }
}

extension SignatureAppearance.FontChoice {
    /// The standard font a `.standard` choice names; Helvetica for an unknown name.
    static func standardFont(_ name: String) -> StandardFont {
        StandardFont(baseFont: name) ?? StandardFont(.helvetica)
    }

    /// Whether the renderer can draw `text` with this choice: a standard font that encodes it, an
    /// installed font that covers all of it, or the font followed by installed fonts, run by run
    /// (the renderer's fallbacks). A font file is checked when it is embedded, so it answers true.
    public func canDraw(_ text: String) -> Bool { undrawableCharacter(in: text) == nil }

    /// The first character of `text` that neither this choice nor any installed font has (nil for a
    /// font file, which is checked when it is embedded).
    public func undrawableCharacter(in text: String) -> Character? {
        guard case .standard(let name) = self else { return nil }
        // Line breaks and other control characters are not drawn (the renderer splits lines there).
        let text = SignatureAppearanceRenderer.lines(of: text).joined(separator: " ")
        let standard = Self.standardFont(name)
        if standard.canEncode(text) { return nil }
        do {
            _ = try FontChain.covering(text, primary: standard) { (file) throws(PDFError) -> any PDFFont in
                try EmbeddedFont(fontFile: file)
            }
            return nil
        } catch {
            if case .missing(let character) = error { return character }
            return text.first
        }
    }
}
