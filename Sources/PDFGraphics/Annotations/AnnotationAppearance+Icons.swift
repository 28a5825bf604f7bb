import PDFCore
import PDFFonts

extension AnnotationAppearance.Context {
    /// The side of a sticky note's icon, in points, poppler's: fixed, whatever the size of `/Rect`
    /// (§12.5.6.4, the NoZoom behaviour viewers give text annotations).
    static let iconSize = 24.0

    /// Text (§12.5.6.4): a small icon at the top left of `/Rect` for `/Name` (Note, Comment, Key, Help,
    /// NewParagraph, Paragraph, Insert; Note otherwise): a rounded square in `/C` (none without it)
    /// and a light grey symbol on it, as poppler draws its own.
    mutating func drawTextIcon() -> Bool {
        guard let rect = reader.rect else { return false }
        let size = Self.iconSize
        let unit = size / 20
        let origin = PDFPoint(rect.x0, rect.y1 - size)
        // The symbols are drawn on a grid of 20 by 20.
        func p(_ x: Double, _ y: Double) -> PDFPoint { PDFPoint(origin.x + x * unit, origin.y + y * unit) }
        func box(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> PDFRectangle {
            PDFRectangle(
                x0: origin.x + x0 * unit, y0: origin.y + y0 * unit, x1: origin.x + x1 * unit, y1: origin.y + y1 * unit)
        }
        if let color = reader.color(.c), builder.color(color, stroking: false) {
            builder.roundedRectangle(box(0, 0, 20, 20), radius: 3 * unit)
            builder.paint(fill: true, stroke: false)
        }
        builder.include(box(0, 0, 20, 20))
        builder.color([0.75], stroking: true)
        builder.color([0.75], stroking: false)
        builder.lineWidth(2 * unit)
        builder.lineCap(1)
        builder.lineJoin(1)
        func stroke(_ width: Double, _ segments: [(Double, Double, Double, Double)]) {
            builder.lineWidth(width * unit)
            for (x0, y0, x1, y1) in segments {
                builder.move(p(x0, y0))
                builder.line(p(x1, y1))
            }
            builder.paint(fill: false, stroke: true)
        }
        switch reader.name(.name) ?? "Note" {
        case "Comment":
            builder.roundedRectangle(box(2.5, 6, 17.5, 17), radius: 5 * unit)
            builder.paint(fill: false, stroke: true)
            builder.move(p(5.5, 6))
            builder.line(p(4, 2.5))
            builder.line(p(9, 6))
            builder.paint(fill: false, stroke: true)
        case "Key":
            builder.lineWidth(2.5 * unit)
            builder.ellipse(in: box(10, 10, 17, 17))
            builder.paint(fill: false, stroke: true)
            stroke(3, [(11, 11, 3.5, 3.5), (5.5, 5.5, 7, 4)])
        case "Help":
            builder.lineWidth(3 * unit)
            builder.move(p(6, 13))
            builder.curve(p(6, 18), p(14, 18), p(14, 13))
            builder.curve(p(14, 10.5), p(10, 10.5), p(10, 7.5))
            builder.paint(fill: false, stroke: true)
            builder.ellipse(in: box(8.3, 2.5, 11.7, 5.9))
            builder.paint(fill: true, stroke: false)
        case "NewParagraph":
            builder.ellipse(in: box(3.5, 9.5, 10, 17))
            builder.paint(fill: true, stroke: false)
            stroke(2, [(7.5, 16.5, 12, 16.5), (9.5, 16.5, 9.5, 3), (12.5, 16.5, 12.5, 3)])
            builder.ellipse(in: box(12, 13, 17, 18))
            builder.paint(fill: false, stroke: true)
        case "Paragraph":
            builder.ellipse(in: box(5, 10, 12, 17))
            builder.paint(fill: true, stroke: false)
            stroke(2, [(8, 16.5, 15, 16.5), (11, 16.5, 11, 2.5), (14, 16.5, 14, 2.5)])
        case "Insert":
            stroke(2.5, [(9, 15.5, 17, 15.5), (9, 10, 17, 10), (9, 4.5, 17, 4.5)])
            stroke(1.5, [(5, 10, 9, 10)])
            builder.polygon([p(3, 12.5), p(3, 7.5), p(6, 10)])
            builder.paint(fill: true, stroke: false)
        default:
            builder.lineWidth(1.8 * unit)
            builder.rectangle(box(4.5, 2.5, 15.5, 15.5))
            builder.paint(fill: false, stroke: true)
            stroke(1.8, [(7, 6, 13, 6), (7, 9, 13, 9), (7, 12, 13, 12)])
            builder.ellipse(in: box(11.5, 15, 14.5, 18))
            builder.paint(fill: true, stroke: false)
        }
        return true
    }

    /// The words and colour of each standard stamp (§12.5.6.12, Table 184), as poppler writes them:
    /// blue for the approving ones, red for the restricting ones, grey for a draft.
    static let stamps: [String: (words: String, color: [Double])] = {
        let blue = [0, 0.298, 0.431]
        let red = [0.749, 0, 0]
        return [
            "Approved": ("Approved", blue), "Experimental": ("Experimental", blue),
            "NotApproved": ("Not Approved", red),
            "AsIs": ("As Is", blue), "Expired": ("Expired", red),
            "NotForPublicRelease": ("Not For Public Release", red), "Confidential": ("Confidential", red),
            "Final": ("Final", blue), "Sold": ("Sold", red), "Departmental": ("Departmental", blue),
            "ForComment": ("For Comment", blue), "TopSecret": ("Top Secret", red), "Draft": ("Draft", [0.212]),
            "ForPublicRelease": ("For Public Release", blue),
        ]
    }()

    /// Stamp (§12.5.6.12): a rounded border inside `/Rect` and the words of the standard `/Name`
    /// (Draft for any other) in its colour, stretched to the box's width, as poppler draws them.
    mutating func drawStamp() -> Bool {
        guard let rect = reader.rect, rect.width > 0, rect.height > 0 else { return false }
        let stamp = Self.stamps[reader.name(.name) ?? "Draft"] ?? Self.stamps["Draft"] ?? ("Draft", [0])
        // Proportions measured on poppler's stamps: a border 0.0875 of the shorter side wide, 0.03 of it in
        // from /Rect, the words 0.8 of the height tall on a baseline at 0.22, across 0.82 of the width.
        let side = min(rect.width, rect.height)
        let width = side * 0.0875
        guard width > 0 else { return false }
        builder.color(stamp.color, stroking: true)
        builder.color(stamp.color, stroking: false)
        builder.lineWidth(width)
        let inset = width / 2 + side * 0.03
        let inner = PDFRectangle(x0: rect.x0 + inset, y0: rect.y0 + inset, x1: rect.x1 - inset, y1: rect.y1 - inset)
        guard inner.width > 0, inner.height > 0 else { return false }
        builder.roundedRectangle(inner, radius: side * 0.06)
        builder.paint(fill: false, stroke: true)
        builder.include(rect)
        let font = StandardFont(.helvetica)
        let natural = font.width(of: stamp.words) / 1000
        let size = rect.height * 0.8
        let available = rect.width * 0.82
        guard natural > 0, size > 0, available > 0 else { return true }
        let scaling = available / (natural * size) * 100
        resources[.font] = .dictionary([.autographAnnotationFont: Self.fontDictionary(font)])
        // The words are a picture of the stamp, not text of the page: an empty /ActualText keeps them out
        // of extraction, as pdftotext has none for the paths poppler draws.
        builder.append("/Artifact << /ActualText () >> BDC")
        builder.text(
            font.encode(stamp.words), font: PDFName.autographAnnotationFont.string, size: size,
            matrix: .translation(rect.x0 + (rect.width - available) / 2, rect.y0 + rect.height * 0.22),
            horizontalScaling: scaling)
        builder.append("EMC")
        return true
    }
}
