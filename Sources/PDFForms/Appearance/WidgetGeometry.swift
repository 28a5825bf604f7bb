public import PDFAuthoring
public import PDFCore

/// The frame an appearance stream draws in: the widget's size in its rotated space, the matrix
/// that rotates it (`/MK /R`), and the border and background of `/MK` and `/BS` (ISO 32000-2 §12.5.6.19).
public struct WidgetGeometry: Sendable {
    public var width: Double
    public var height: Double
    public var matrix: [Double]
    public var borderWidth: Double
    public var borderStyle: String
    public var borderColor: PDFColor?
    public var backgroundColor: PDFColor?

    public init(widget: Widget, document: PDFDocument) {
        let rect = widget.rect
        let rotated = widget.rotation == 90 || widget.rotation == 270
        width = max(0, rotated ? rect.height : rect.width)
        height = max(0, rotated ? rect.width : rect.height)
        switch widget.rotation {
        case 90: matrix = [0, 1, -1, 0, 0, 0]
        case 180: matrix = [-1, 0, 0, -1, 0, 0]
        case 270: matrix = [0, -1, 1, 0, 0, 0]
        default: matrix = [1, 0, 0, 1, 0, 0]
        }
        let characteristics = document.resolve(widget.dictionary[.mk] ?? .null).dictionaryValue
        func color(_ key: String) -> PDFColor? {
            let items = document.resolve(characteristics?[PDFName(key)] ?? .null).arrayValue ?? []
            return PDFColor(components: items.compactMap { document.resolve($0).numberValue })
        }
        borderColor = color("BC")
        backgroundColor = color("BG")
        let borderStyleDictionary = document.resolve(widget.dictionary[.bs] ?? .null).dictionaryValue
        borderStyle = borderStyleDictionary?.name(.s)?.string ?? "S"
        if let width = borderStyleDictionary?.number(.w) {
            borderWidth = width
        } else if let border = document.resolve(widget.dictionary[.border] ?? .null).arrayValue,
            border.count >= 3, let width = document.resolve(border[2]).numberValue
        {
            borderWidth = width
        } else {
            borderWidth = 1
        }
        if borderColor == nil { borderWidth = 0 }
        borderWidth = max(0, min(borderWidth, min(width, height) / 2))
    }

    /// The `/BBox` of the appearance.
    public var bbox: PDFObject { PDFRectangle(x0: 0, y0: 0, x1: width, y1: height).object }

    /// Space kept between the border and the text.
    public var padding: Double { borderWidth + 2 }

    /// Draws the background and the border (solid, dashed, beveled and inset drawn solid, underline as a line).
    public func drawFrame(into content: inout ContentStreamBuilder) {
        if let backgroundColor {
            content.saveState()
            content.setFillColor(backgroundColor)
            content.rectangle(0, 0, width, height)
            content.fill()
            content.restoreState()
        }
        guard let borderColor, borderWidth > 0 else { return }
        content.saveState()
        content.setStrokeColor(borderColor)
        content.setLineWidth(borderWidth)
        if borderStyle == "D" { content.setDash([3]) }
        let half = borderWidth / 2
        if borderStyle == "U" {
            content.move(to: 0, half)
            content.line(to: width, half)
        } else {
            content.rectangle(half, half, width - borderWidth, height - borderWidth)
        }
        content.stroke()
        content.restoreState()
    }

    /// A form XObject holding `content` with `resources`, framed by this geometry.
    public func formXObject(content: ContentStreamBuilder, resources: PDFDictionary) -> PDFObject {
        var dictionary: PDFDictionary = [
            .type: .name("XObject"), .subtype: .name("Form"), .bBox: bbox,
            .resources: .dictionary(resources),
        ]
        if matrix != [1, 0, 0, 1, 0, 0] {
            dictionary[.matrix] = .array(matrix.map { .integer(Int($0)) })
        }
        return .stream(PDFStream(dictionary: dictionary, data: content.bytes, compress: true))
    }
}
