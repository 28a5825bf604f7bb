/// A rectangle in PDF user space, normalised so that `x0 ≤ x1` and `y0 ≤ y1` (ISO 32000-2 §7.9.5).
public struct PDFRectangle: Hashable, Sendable, CustomStringConvertible {
    public var x0: Double
    public var y0: Double
    public var x1: Double
    public var y1: Double

    public init(x0: Double, y0: Double, x1: Double, y1: Double) {
        self.x0 = min(x0, x1)
        self.y0 = min(y0, y1)
        self.x1 = max(x0, x1)
        self.y1 = max(y0, y1)
    }

    /// Reads `[llx lly urx ury]`; nil unless it holds four numbers.
    public init?(_ object: PDFObject?) {
        guard let items = object?.arrayValue, items.count == 4 else { return nil }
        let numbers = items.compactMap(\.numberValue)
        guard numbers.count == 4, numbers.allSatisfy(\.isFinite) else { return nil }
        self.init(x0: numbers[0], y0: numbers[1], x1: numbers[2], y1: numbers[3])
    }

    public var width: Double { x1 - x0 }
    public var height: Double { y1 - y0 }

    /// The rectangle as a PDF array.
    public var object: PDFObject {
        .array([x0, y0, x1, y1].map { .real(PDFReal($0)) })
    }

    /// The overlap of two rectangles, or nil when they do not overlap.
    public func intersection(_ other: PDFRectangle) -> PDFRectangle? {
        let result = PDFRectangle(
            x0: max(x0, other.x0), y0: max(y0, other.y0), x1: min(x1, other.x1), y1: min(y1, other.y1))
        return max(x0, other.x0) <= min(x1, other.x1) && max(y0, other.y0) <= min(y1, other.y1) ? result : nil
    }

    public var description: String {
        "[\(PDFReal.format(x0)) \(PDFReal.format(y0)) \(PDFReal.format(x1)) \(PDFReal.format(y1))]"
    }

    /// US Letter, the default media box of readers when a page has none.
    public static let letter = PDFRectangle(x0: 0, y0: 0, x1: 612, y1: 792)
}

/// A page: its dictionary and its attributes with inheritance applied (ISO 32000-2 §7.7.3.3, §7.7.3.4).
public struct Page: Sendable {
    /// The page's position, from 0.
    public let index: Int
    /// The page object's reference (nil for a direct page object).
    public let reference: PDFReference?
    /// The page dictionary as stored.
    public let dictionary: PDFDictionary
    /// `/MediaBox`, inherited; US Letter when missing or invalid.
    public let mediaBox: PDFRectangle
    /// `/CropBox`, inherited, clipped to the media box; the media box when missing.
    public let cropBox: PDFRectangle
    /// `/Rotate`, inherited, normalised to 0, 90, 180 or 270.
    public let rotation: Int
    /// `/UserUnit` (§14.11.2): the size of a user space unit in 1/72 inch; 1 by default.
    public let userUnit: Double
    /// `/Resources`, inherited and resolved.
    public let resources: PDFDictionary?

    /// The page size as displayed, in points: the crop box, rotated and scaled by the user unit.
    public var displaySize: (width: Double, height: Double) {
        let width = cropBox.width * userUnit
        let height = cropBox.height * userUnit
        return rotation % 180 == 0 ? (width, height) : (height, width)
    }
}
