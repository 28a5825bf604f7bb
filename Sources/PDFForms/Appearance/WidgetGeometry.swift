public import PDFAuthoring
public import PDFCore

/// The frame an appearance stream draws in: the widget's size in its rotated space, the matrix
/// that rotates it (`/MK /R`), and the border and background of `/MK` and `/BS` (ISO 32000-2 §12.5.6.19).
public struct WidgetGeometry: Sendable {
    /// The appearance's width in points, in the widget's rotated space (the rectangle's height when `/MK /R` is 90 or
    /// 270).
    public var width: Double
    /// The appearance's height in points, in the widget's rotated space.
    public var height: Double
    /// The appearance stream's `/Matrix` `[a b c d e f]`: the rotation of `/MK /R` (0, 90, 180 or 270 degrees
    /// counterclockwise).
    public var matrix: [Double]
    /// The border width in points (`/BS /W`, else `/Border`'s third number, else 1); 0 without a border colour, and at
    /// most half the smaller side.
    public var borderWidth: Double
    /// The border style, the `/BS /S` name: `S` solid (the default), `D` dashed, `B` beveled, `I` inset or `U`
    /// underline.
    public var borderStyle: String
    /// `/MK /BC`, the border colour; nil for none (no border is drawn).
    public var borderColor: PDFColor?
    /// `/MK /BG`, the background colour; nil for none (transparent).
    public var backgroundColor: PDFColor?

    /// The geometry of `widget`, with `/MK`, `/BS` and `/Border` resolved through `document`.
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
