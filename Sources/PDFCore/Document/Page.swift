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
