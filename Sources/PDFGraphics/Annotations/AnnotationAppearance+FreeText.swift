import PDFCore
import PDFFonts

extension AnnotationAppearance.Context {
    /// At most this many characters of `/Contents` are laid out.
    static let maxTextLength = 20_000
    /// At most this many lines are drawn (the rest is below the box anyway).
    static let maxLines = 500

    /// What `/DA` says (§12.7.4.3): the font resource name, the size and the text colour.
    struct DefaultAppearance {
        var fontName: String?
        var size = 0.0
        var color: [Double] = [0]

        init(_ bytes: [UInt8]) {
            _ = ContentParser.forEachOperation(in: Array(bytes.prefix(4096))) { operation in
                let numbers = operation.operands.compactMap(\.numberValue).filter(\.isFinite)
                switch operation.name {
                case "Tf":
                    if operation.operands.count >= 2,
                        let name = operation.operands[operation.operands.count - 2].nameValue
                    {
                        fontName = name.string
                        size = operation.operands.last?.numberValue ?? 0
                    }
                case "g" where numbers.count >= 1: color = Array(numbers.suffix(1))
                case "rg" where numbers.count >= 3: color = Array(numbers.suffix(3))
                case "k" where numbers.count >= 4: color = Array(numbers.suffix(4))
                default: break
                }
                return true
            }
            color = color.map { max(0, min(1, $0)) }
            if !size.isFinite { size = 0 }
        }
    }

    /// FreeText (§12.5.6.6): the box (`/Rect` less `/RD`) filled with `/C` (never `/IC`, the colour
    /// of a callout line's ending: poppler and MuPDF fill with `/C` alone), its border as `/BS` asks
    /// in the text colour, and
    /// `/Contents` in the `/DA` font, size and colour, wrapped at the box's width and aligned as `/Q`
    /// says. The font is one of the standard 14: the one `/DA` names when it or its `/DR` entry is
    /// one, else Helvetica.
    mutating func drawFreeText() -> Bool {
        guard let rect = reader.rect else { return false }
        let box = reader.insetRect(rect)
        guard box.width > 0, box.height > 0 else { return false }
        let appearance = DefaultAppearance(reader.resolved(.da).stringValue?.bytes ?? [])
        let font = standardFont(named: appearance.fontName)
        var size = appearance.size
        if size <= 0 { size = 12 }
        size = min(size, 1000)
        let border = reader.border
        var drawn = false
        if let background = reader.color(.c), builder.color(background, stroking: false) {
            builder.rectangle(box)
            builder.paint(fill: true, stroke: false)
            drawn = true
        }
        if border.width > 0 {
            builder.lineWidth(border.width)
            if !border.dash.isEmpty { builder.dash(border.dash) }
            builder.color(appearance.color, stroking: true)
            let half = border.width / 2
            let inner = PDFRectangle(x0: box.x0 + half, y0: box.y0 + half, x1: box.x1 - half, y1: box.y1 - half)
            if inner.width > 0, inner.height > 0 {
                builder.rectangle(inner)
                builder.paint(fill: false, stroke: true)
                drawn = true
            }
        }
        builder.include(rect)
        guard let text = reader.text(.contents, max: Self.maxTextLength), !text.isEmpty else { return drawn }
        // The text starts twice the border width in from the box, as poppler lays it out.
        let margin = border.width * 2
        let width = box.width - 2 * margin
        guard width > 0 else { return drawn }
        let lines = Self.wrap(text, font: font, size: size, width: width, maxLines: Self.maxLines)
        resources[.font] = .dictionary([.autographAnnotationFont: Self.fontDictionary(font)])
        builder.color(appearance.color, stroking: false)
        let alignment = max(0, min(2, reader.resolved(.q).intValue ?? 0))
        let lineHeight = size * (font.bbox.y1 - font.bbox.y0) / 1000
        var baseline = box.y1 - margin - size * font.bbox.y1 / 1000
        for line in lines {
            guard baseline + size * font.bbox.y1 / 1000 > box.y0 else { break }
            let lineWidth = font.width(of: line) * size / 1000
            let x: Double
            switch alignment {
            case 1: x = box.x0 + margin + (width - lineWidth) / 2
            case 2: x = box.x0 + margin + width - lineWidth
            default: x = box.x0 + margin
            }
            builder.text(
                font.encode(line), font: PDFName.autographAnnotationFont.string, size: size,
                matrix: .translation(x, baseline))
            baseline -= lineHeight
        }
        return true
    }

    /// The standard font for the `/DA` resource name: the font `/DR` (the annotation's, else the
    /// form's) gives it when that is one of the standard 14 or their aliases, else the name itself
    /// read as a standard name (`Helv`, `Helvetica`, `TiRo` …), else Helvetica.
    func standardFont(named name: String?) -> StandardFont {
        guard let name else { return StandardFont(.helvetica) }
        let document = reader.document
        let formResources = document.resolve(document.catalog?[.acroForm] ?? .null).dictionaryValue?[.dr]
        for resources in [reader.dictionary[.dr], formResources] {
            guard
                let fonts = document.resolve(document.resolve(resources ?? .null).dictionaryValue?[.font] ?? .null)
                    .dictionaryValue,
                let font = document.resolve(fonts[PDFName(name)] ?? .null).dictionaryValue
            else { continue }
            if let baseFont = document.resolve(font[.baseFont] ?? .null).nameValue?.string,
                let standard = StandardFont(baseFont: baseFont)
            {
                return standard
            }
        }
        return StandardFont(resourceName: name) ?? StandardFont(baseFont: name) ?? StandardFont(.helvetica)
    }

    /// A font dictionary for a standard font, WinAnsiEncoding for the text fonts (§9.6.2.2).
    static func fontDictionary(_ font: StandardFont) -> PDFObject {
        var dictionary: PDFDictionary = [
            .type: .name("Font"), .subtype: .name("Type1"), .baseFont: .name(PDFName(font.postScriptName)),
        ]
        if !font.isSymbolic { dictionary[.encoding] = .name("WinAnsiEncoding") }
        return .dictionary(dictionary)
    }

    /// `text` broken into lines at its line breaks and, within `width`, between words (a word wider than
    /// the line between characters); at most `maxLines`.
    static func wrap(_ text: String, font: StandardFont, size: Double, width: Double, maxLines: Int) -> [String] {
        // Widths in 1/1000 em, summed as the text is read (never measured again).
        let limit = width * 1000 / size
        let space = font.width(of: " ")
        var lines: [String] = []
        let paragraphs = text.replacingCRLF().split(separator: "\n", omittingEmptySubsequences: false)
        for paragraph in paragraphs {
            var line = ""
            var lineWidth = 0.0
            for word in paragraph.split(separator: " ", omittingEmptySubsequences: false) {
                guard lines.count < maxLines else { return lines }
                let wordWidth = font.width(of: String(word))
                let candidateWidth = line.isEmpty ? wordWidth : lineWidth + space + wordWidth
                if candidateWidth <= limit {
                    line = line.isEmpty ? String(word) : line + " " + word
                    lineWidth = candidateWidth
                    continue
                }
                if !line.isEmpty { lines.append(line) }
                // A word wider than the line is broken between characters.
                line = ""
                lineWidth = 0
                for character in word {
                    let characterWidth = font.width(of: String(character))
                    if !line.isEmpty, lineWidth + characterWidth > limit {
                        lines.append(line)
                        guard lines.count < maxLines else { return lines }
                        line = ""
                        lineWidth = 0
                    }
                    line.append(character)
                    lineWidth += characterWidth
                }
            }
            lines.append(line)
            guard lines.count < maxLines else { return lines }
        }
        return lines
    }
}

extension String {
    /// The text with `\r\n` and lone `\r` made `\n`.
    fileprivate func replacingCRLF() -> String {
        var result = ""
        result.reserveCapacity(utf8.count)
        var previousCR = false
        for scalar in unicodeScalars {
            if scalar == "\r" {
                result.append("\n")
                previousCR = true
                continue
            }
            if scalar == "\n", previousCR {
                previousCR = false
                continue
            }
            previousCR = false
            result.unicodeScalars.append(scalar)
        }
        return result
    }
}
