import PDFAuthoring
public import PDFCore

extension SignatureAppearance {
    /// The largest side of a preview document, in points: ISO 32000-2 Annex C's page size limit.
    public static let previewSideLimit = 14_400.0

    /// A one-page PDF whose page is a `width` × `height` point box showing this appearance the way
    /// the widget of a signed field shows it: the same form XObject the signing pipeline draws
    /// (``SignatureRequest/appearance``), as the normal appearance (`/AP /N`, ISO 32000-2 §12.5.5) of
    /// a widget whose `/Rect` is the whole page. Render its page to see the signature before signing.
    ///
    /// - Parameters:
    ///   - width: the box's width in points, upright (as a reader sees the signature).
    ///   - height: the box's height in points.
    ///   - signerName: the name a ``Mark-swift.enum/name(_:)`` mark of nil shows (the certificate's
    ///     common name when signing).
    ///   - date: the date the date line shows.
    /// - Throws: `SigningError` `.captureTooShort` (signo -132) for handwriting too short
    ///   (``validate()``); `.invalidArgument` for a size that is not finite, not positive or over
    ///   ``previewSideLimit``, a font or graphic that cannot be read.
    public func previewDocument(width: Double, height: Double, signerName: String?, date: PDFDate)
        throws(SigningError) -> [UInt8]
    {
        guard width.isFinite, height.isFinite, width > 0, height > 0, width <= Self.previewSideLimit,
            height <= Self.previewSideLimit
        else {
            throw SigningError(
                .invalidArgument,
                "a signature appearance is previewed at 0 to \(Int(Self.previewSideLimit)) points a side, not "
                    + "\(width) × \(height)")
        }
        var builder = PDFBuilder()
        let page = builder.reserve()
        let renderer = SignatureAppearanceRenderer(appearance: self, signerName: signerName, date: date)
        let form = try renderer.make(width: width, height: height, rotation: 0) { builder.add($0) }
        let appearance = builder.add(form)
        let widget = builder.add(
            .dictionary([
                .type: .name("Annot"), .subtype: .name("Widget"), .ft: .name(.sig),
                .rect: PDFRectangle(x0: 0, y0: 0, x1: width, y1: height).object,
                .f: .integer(4), .p: .reference(page), .ap: .dictionary([.n: .reference(appearance)]),
            ]))
        builder.addPage(
            width: width, height: height, content: [], resources: PDFDictionary(),
            extra: [.annots: .array([.reference(widget)])], reserved: page)
        return builder.build()
    }
}
