public import PDFCore

/// What the viewer needs of a page: its crop box, rotation and `UserUnit` (ISO 32000-2 §14.11.2,
/// §7.7.3.3). Everything the viewer computes for a page starts here.
public struct PageGeometry: Sendable, Hashable {
    /// The crop box in user space: the region of the page shown.
    public var cropBox: PDFRectangle
    /// 0, 90, 180 or 270 (clockwise, as `/Rotate`).
    public var rotation: Int
    /// The size of one user-space unit in 1/72 inch (`/UserUnit`, default 1).
    public var userUnit: Double

    /// A page's geometry; the rotation is brought into 0…359 and down to a multiple of 90, and a user unit that is
    /// not positive reads as 1.
    public init(cropBox: PDFRectangle, rotation: Int = 0, userUnit: Double = 1) {
        self.cropBox = cropBox
        let normalized = ((rotation % 360) + 360) % 360
        self.rotation = normalized - normalized % 90
        self.userUnit = userUnit > 0 ? userUnit : 1
    }

    /// The page as displayed, in points (1/72 inch): rotated, scaled by `UserUnit`.
    public var displaySize: (width: Double, height: Double) {
        let width = cropBox.width * userUnit
        let height = cropBox.height * userUnit
        return rotation % 180 == 0 ? (width, height) : (height, width)
    }
}
