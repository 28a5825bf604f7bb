import PDFCore

/// An appearance made from an annotation's dictionary, for an annotation that has no normal
/// appearance stream (ISO 32000-2 §12.5.5: a reader may then draw one of its own), as poppler,
/// MuPDF and pdf.js do for the markup annotations of §12.5.6.
///
/// The content is in default user space: its `/BBox` holds what it draws and the form is drawn
/// with the identity matrix, not mapped onto `/Rect`. Every number of the dictionary is checked
/// (``AnnotationReader``) and every count is bounded, so a hostile dictionary draws nothing or
/// something of bounded size.
struct AnnotationAppearance {
    /// The content stream's bytes.
    var content: [UInt8]
    /// Its resources: the opacity's graphics state, the fonts of its text.
    var resources: PDFDictionary
    /// Where it draws, in default user space.
    var bbox: PDFRectangle

    /// The appearance as a form XObject, for the interpreter's `drawForm`.
    var stream: PDFStream {
        let dictionary: PDFDictionary = [
            .type: .name("XObject"), .subtype: .name("Form"), .bBox: bbox.object, .resources: .dictionary(resources),
        ]
        return PDFStream(dictionary: dictionary, encodedBytes: content)
    }

    /// The subtypes an appearance is made for.
    static let subtypes: Set<String> = [
        "Square", "Circle", "Line", "Polygon", "PolyLine", "Ink", "Highlight", "Underline", "StrikeOut", "Squiggly",
        "FreeText", "Text", "Stamp",
    ]

    /// The appearance of `annotation`, or nil when its subtype is not one of ``subtypes`` or it
    /// draws nothing (no usable `/Rect`, no points, a transparent colour and no border).
    init?(annotation: PDFDictionary, document: PDFDocument) {
        let reader = AnnotationReader(dictionary: annotation, document: document)
        guard let subtype = reader.name(.subtype), Self.subtypes.contains(subtype) else { return nil }
        var context = Context(reader: reader)
        context.builder.save()
        let opacity = reader.opacity
        let multiply = subtype == "Highlight"
        if opacity < 1 || multiply {
            var state: PDFDictionary = [.type: .name("ExtGState")]
            if opacity < 1 {
                state[.ca] = .real(PDFReal(opacity))
                state[.nonStrokingAlpha] = .real(PDFReal(opacity))
            }
            if multiply { state[.bm] = .name("Multiply") }
            context.resources[.extGState] = .dictionary([PDFName.autographAnnotationGS: .dictionary(state)])
            context.builder.graphicsState(PDFName.autographAnnotationGS.string)
        }
        let drawn: Bool
        switch subtype {
        case "Square", "Circle": drawn = context.drawSquareOrCircle(circle: subtype == "Circle")
        case "Line": drawn = context.drawLine()
        case "Polygon", "PolyLine": drawn = context.drawPolygon(closed: subtype == "Polygon")
        case "Ink": drawn = context.drawInk()
        case "Highlight", "Underline", "StrikeOut", "Squiggly": drawn = context.drawTextMarkup(subtype)
        case "FreeText": drawn = context.drawFreeText()
        case "Text": drawn = context.drawTextIcon()
        default: drawn = context.drawStamp()
        }
        context.builder.restore()
        guard drawn, let bounds = context.builder.bounds, bounds.width > 0, bounds.height > 0 else { return nil }
        content = context.builder.bytes
        resources = context.resources
        bbox = bounds
    }

    /// What one appearance is built with: the dictionary read, the content written, the resources.
    struct Context {
        let reader: AnnotationReader
        var builder = AppearanceBuilder()
        var resources = PDFDictionary()

        init(reader: AnnotationReader) { self.reader = reader }

        /// `/C` as a stroking colour, black when absent; false when transparent (an empty array).
        mutating func strokeColor(default fallback: [Double] = [0]) -> Bool {
            builder.color(reader.color(.c) ?? fallback, stroking: true)
        }

        /// `/IC` as the fill colour; false when absent or transparent.
        mutating func interiorColor() -> Bool {
            guard let color = reader.color(.ic) else { return false }
            return builder.color(color, stroking: false)
        }

        /// Sets the border's width and dash; its width.
        mutating func applyBorder() -> Double {
            let border = reader.border
            builder.lineWidth(border.width)
            if !border.dash.isEmpty { builder.dash(border.dash) }
            return border.width
        }
    }
}
