import PDFCore

/// The default look of a visible signature: a thin frame and text lines fitted to the box,
/// upright on a rotated page (the appearance is counter-rotated like `/MK /R`).
enum SignatureAppearance {
    static func make(width: Double, height: Double, rotation: Int, lines: [String], custom: PDFStreamContent?)
        -> PDFObject
    {
        let rotated = rotation == 90 || rotation == 270
        let boxWidth = rotated ? height : width
        let boxHeight = rotated ? width : height
        var dictionary: PDFDictionary = [
            .type: .name("XObject"), .subtype: .name("Form"),
            PDFName("BBox"): PDFRectangle(x0: 0, y0: 0, x1: boxWidth, y1: boxHeight).object,
        ]
        switch rotation {
        case 90: dictionary[PDFName("Matrix")] = [0, 1, -1, 0, 0, 0]
        case 180: dictionary[PDFName("Matrix")] = [-1, 0, 0, -1, 0, 0]
        case 270: dictionary[PDFName("Matrix")] = [0, -1, 1, 0, 0, 0]
        default: break
        }
        var content = ContentStreamBuilder()
        if let custom {
            // The caller's drawing, scaled into the box.
            content.saveState()
            content.concatenate(boxWidth / max(custom.width, 1e-6), 0, 0, boxHeight / max(custom.height, 1e-6), 0, 0)
            content.append(raw: String(decoding: custom.content, as: UTF8.self))
            content.restoreState()
        } else {
            let font = StandardFont(.helvetica)
            let padding = min(4, min(boxWidth, boxHeight) / 10)
            let innerWidth = max(1, boxWidth - 2 * padding)
            let innerHeight = max(1, boxHeight - 2 * padding)
            var size = 10.0
            while size > 3 {
                let layout = TextLayout(font: font, size: size)
                let wrapped = lines.flatMap { layout.wrap($0, maxWidth: innerWidth) }
                if Double(wrapped.count) * layout.lineHeight <= innerHeight { break }
                size -= 0.5
            }
            let layout = TextLayout(font: font, size: size)
            let wrapped = lines.flatMap { layout.wrap($0, maxWidth: innerWidth) }
            content.saveState()
            content.setStrokeColor(.gray(0.4))
            content.setLineWidth(0.75)
            content.rectangle(0.375, 0.375, boxWidth - 0.75, boxHeight - 0.75)
            content.stroke()
            content.beginText()
            content.setFillColor(.black)
            content.setFont(PDFName("F1"), size: size)
            for line in layout.place(
                wrapped, width: innerWidth, height: innerHeight, alignment: .left, centerSingleLine: false)
            {
                content.setTextMatrix(1, 0, 0, 1, padding + line.x, padding + line.baseline)
                content.showText(font.encode(line.text))
            }
            content.endText()
            content.restoreState()
            let fontDictionary = (try? font.fontDictionary { _ in PDFReference(0) }) ?? PDFDictionary()
            dictionary[.resources] = .dictionary([
                PDFName("Font"): .dictionary([PDFName("F1"): .dictionary(fontDictionary)])
            ])
        }
        return .stream(PDFStream(dictionary: dictionary, data: content.bytes, compress: true))
    }
}
