public import PDFAuthoring
import PDFCore

/// How a visible signature looks (WYSIWYS `WYSSignatureAppearance`, signo `signatureCaptureConfig`):
/// handwriting or the signer's name, the date by a pattern, a description, signo's display text,
/// and a graphic at the bottom — laid out so that nothing overflows the field.
///
/// A value: built once, it is drawn by the signing pipeline into the widget of the field signed.
public struct SignatureAppearance: Sendable, Codable, Equatable {
    /// The main mark.
    public enum Mark: Sendable, Codable, Equatable {
        /// Handwriting captured as strokes; `yAxisDown` for screen coordinates.
        case handwriting([InkStroke], yAxisDown: Bool)
        /// The signer's name as text (nil: the certificate's common name).
        case name(String?)
        /// No mark: only the text lines and the graphic.
        case none
    }

    /// A font for text: one of the standard 14 by name, or a TrueType file (embedded as a subset).
    public enum FontChoice: Sendable, Codable, Equatable {
        /// One of the standard 14 fonts by its PostScript name (`Helvetica`, `Times-Roman` …, §9.6.2.2); an unknown
        /// name draws Helvetica, and text it cannot encode is drawn with a system font that covers it.
        case standard(String)
        /// A TrueType font file at this path, embedded as a subset of the glyphs drawn.
        case file(String)
    }

    /// Where signo's display text is asked to go among the text lines.
    public enum TextPosition: String, Sendable, Codable {
        /// Above (`top`) or below (`bottom`) the date and description. This version draws the display text first among
        /// the text lines either way.
        case top, bottom
    }

    /// The main mark: by default the signer's name.
    public var mark: Mark = .name(nil)
    /// The font of a name mark.
    public var markFont: FontChoice = .standard("Helvetica-Oblique")
    /// The largest size of a name mark (WYSIWYS `signerNameFont`, 48 by default), in the seed's
    /// units: points on a signature 512 points wide, scaled to the field's width (18.75 pt on a
    /// 200 pt field); a name that does not fit is drawn smaller.
    public var markFontSize: Double = 48
    /// The largest size of the text lines (WYSIWYS `dateFont` and `signatureDescriptionFont`, 28
    /// by default), in the same units as ``markFontSize`` (10.9 pt on a 200 pt field).
    public var textFontSize: Double = 28
    /// The signature colour (handwriting and name).
    public var markColor: PDFColor = .rgb(0.05, 0.1, 0.45)
    /// The handwriting's stroke width in points at full pressure.
    public var strokeWidth: Double = 2
    /// Shows "Date: …" with ``datePattern``.
    public var showsDate = true
    /// The pattern of the date line.
    public var datePattern = DatePattern()
    /// The text before the date.
    public var dateLabel = "Date: "
    /// Text drawn after the date, each of its lines (split at line breaks) wrapped to the field; nil for none.
    public var description: String?
    /// signo's display text, above or below the mark.
    public var displayText: String?
    /// Where the display text is asked to go; see ``TextPosition``.
    public var displayTextPosition: TextPosition = .top
    /// The font of the text lines (display text, date, description).
    public var textFont: FontChoice = .standard("Helvetica")
    /// The colour of the text lines.
    public var textColor: PDFColor = .black
    /// A PNG or JPEG drawn at the bottom of the field.
    public var graphic: [UInt8]?
    /// Draws a thin gray frame (0.75 pt) around the field.
    public var drawsBorder = true
    /// The shortest handwriting accepted, in capture units (signo -132 below it).
    public var minimumStrokeLength: Double = 30
    /// The fewest points handwriting must have (signo -132 below it).
    public var minimumPointCount = 8

    /// An appearance with the given mark and every other property at its default.
    public init(mark: Mark = .name(nil)) { self.mark = mark }

    /// Refuses handwriting too short to be a signature (signo -132).
    public func validate() throws(SigningError) {
        for (size, name) in [(markFontSize, "markFontSize"), (textFontSize, "textFontSize")]
        where !(size.isFinite && (1...500).contains(size)) {
            throw SigningError(.invalidArgument, "\(name) must be from 1 to 500 points (it is \(size))")
        }
        guard case .handwriting(let strokes, _) = mark else { return }
        guard strokes.pointCount >= minimumPointCount, strokes.totalLength >= minimumStrokeLength else {
            throw SigningError(
                .captureTooShort,
                "the captured signature is too short (\(strokes.pointCount) points, length \(Int(strokes.totalLength)); "
                    + "at least \(minimumPointCount) points and \(Int(minimumStrokeLength)) long)")
        }
    }
}
