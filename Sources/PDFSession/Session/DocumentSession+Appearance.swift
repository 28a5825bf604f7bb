import PDFAuthoring
import PDFCore
import PDFForms
import PDFRendering
import PDFSigning

/// The visible signature: built from the configuration and the person's capture, offered to the
/// host's ``SignatureAppearanceProvider``, checked, and drawn the same way for signing and for the
/// positioning box's preview.
extension DocumentSession {
    /// The sides ``appearancePreview(width:height:scale:)`` draws, in points.
    public static let appearancePreviewSides: ClosedRange<Double> = 1...2000
    /// The scales (pixels a point) ``appearancePreview(width:height:scale:)`` draws at.
    public static let appearancePreviewScales: ClosedRange<Double> = 0.1...8
    /// The most pixels an appearance preview has (2000 × 2000).
    public static let appearancePreviewMaxPixels = 4_000_000

    /// The visible signature as the session would place it now, as a PNG of `width` × `height`
    /// points at `scale` pixels a point (transparent where the signature draws nothing): the
    /// appearance signing would build — the configuration, the planned signature's handwriting,
    /// typed name or saved signature (the signer's name when there is none yet), then the
    /// ``SignatureConfiguration/appearanceProvider`` — drawn by the renderer as the widget of the
    /// signed field, in a box of this size. The date line shows the session clock's time now.
    ///
    /// - Parameters:
    ///   - width: the box's width in points, upright (``appearancePreviewSides``).
    ///   - height: the box's height in points (``appearancePreviewSides``).
    ///   - scale: pixels a point (``appearancePreviewScales``); at most
    ///     ``appearancePreviewMaxPixels`` pixels in all.
    /// - Returns: the PNG's bytes, `width × scale` by `height × scale` pixels (rounded up).
    /// - Throws: `SessionError` `.invalidArgument` for a size or scale out of range, or an
    ///   appearance the provider returned that fails its checks (signo -132 for handwriting too
    ///   short) or cannot be drawn (a font or graphic it names); `.invalidState` for a read-only,
    ///   closed or finished document, or an invisible signature (it has no appearance).
    public func appearancePreview(width: Double, height: Double, scale: Double) async throws(SessionError)
        -> [UInt8]
    {
        if let problem = Self.appearancePreviewProblem(width: width, height: height, scale: scale) {
            throw SessionError(.invalidArgument, problem)
        }
        guard !isReadOnly else {
            throw SessionError(.invalidState, "a document shown read-only is not signed: it has no signature to show")
        }
        guard !closed else { throw SessionError(.invalidState, "the session is closed") }
        guard !snapshot.workflow.isFinished else {
            throw SessionError(.invalidState, "the document is finished: no signature is placed any more")
        }
        let plan =
            snapshot.workflow.plan
            ?? SigningWorkflow.Plan(
                purpose: .accept, field: nil, invisible: signatureConfiguration.appearance.invisibleSignature)
        guard !plan.invisible else {
            throw SessionError(.invalidState, "the signature is invisible: it has no appearance to show")
        }
        let size = PDFSize(width: width, height: height)
        let appearance = try await signatureAppearance(for: plan, size: size)
        let name = signerName
        let date = clock()
        return try await BlockingWork.run { () throws(SessionError) -> [UInt8] in
            let pdf: [UInt8]
            let document: PDFDocument
            do {
                pdf = try appearance.previewDocument(width: width, height: height, signerName: name, date: date)
                document = try PDFDocument(bytes: pdf)
            } catch let error as SigningError {
                throw SessionError(error)
            } catch let error as PDFError {
                throw SessionError(error)
            } catch {
                throw SessionError(.invalidArgument, "\(error)")
            }
            var options = RenderOptions()
            options.dpi = 72 * scale
            options.background = nil
            let image = DocumentRenderer(document: document).render(pageAt: 0, options: options).image
            let png = image.pngData()
            guard !png.isEmpty else { throw SessionError(.invalidArgument, "the appearance could not be drawn") }
            return png
        }
    }

    /// Why an appearance preview of this size and scale is refused; nil when it is drawn.
    static func appearancePreviewProblem(width: Double, height: Double, scale: Double) -> String? {
        let sides = appearancePreviewSides
        let scales = appearancePreviewScales
        guard sides.contains(width), sides.contains(height) else {
            return "an appearance preview is \(Int(sides.lowerBound)) to \(Int(sides.upperBound)) points a side"
        }
        guard scales.contains(scale) else {
            return "an appearance preview's scale is \(scales.lowerBound) to \(Int(scales.upperBound)) pixels a point"
        }
        // Sides and scale are finite and bounded here: the product cannot overflow.
        guard (width * scale).rounded(.up) * (height * scale).rounded(.up) <= Double(appearancePreviewMaxPixels)
        else {
            return "an appearance preview is at most \(appearancePreviewMaxPixels) pixels: ask a smaller scale"
        }
        return nil
    }

    /// The appearance placed for `plan` in a box of `size` points: the one built from the
    /// configuration, or the provider's once checked.
    func signatureAppearance(for plan: SigningWorkflow.Plan, size: PDFSize) async throws(SessionError)
        -> SignatureAppearance
    {
        let proposed = proposedAppearance(for: plan)
        guard let provider = signatureConfiguration.appearanceProvider else { return proposed }
        let request = SignatureAppearanceRequest(
            fieldName: plan.field, purpose: plan.purpose, size: size, proposed: proposed)
        guard let provided = await provider.signatureAppearance(for: request) else { return proposed }
        try Self.check(provided)
        return provided
    }

    /// Refuses an appearance from the host that could not be drawn as a signature: handwriting too
    /// short (signo -132), unbounded handwriting points, a stroke width that is no width.
    static func check(_ appearance: SignatureAppearance) throws(SessionError) {
        do {
            try appearance.validate()
        } catch {
            var failure = SessionError(error)
            failure.message = "the appearance provider's signature: " + failure.message
            throw failure
        }
        if case .handwriting(let strokes, _) = appearance.mark,
            let problem = strokes.problem(within: [InkStroke].captureArea)
        {
            throw SessionError(.invalidArgument, "the appearance provider's handwriting: " + problem)
        }
        guard appearance.strokeWidth.isFinite, (0...100).contains(appearance.strokeWidth) else {
            throw SessionError(.invalidArgument, "the appearance provider's stroke width must be 0 to 100 points")
        }
    }

    /// The box the signature of `plan` fills, upright, in points: the placed rectangle, or the
    /// first visible widget of the existing field (the size the signing pipeline draws at).
    func appearanceBox(for plan: SigningWorkflow.Plan) -> PDFSize {
        let pages = document.pages
        var rect: PDFRectangle?
        var pageIndex: Int?
        if let placement = plan.placement {
            (rect, pageIndex) = (placement.rect, placement.pageIndex)
        } else if let name = plan.field,
            let widget = form?.field(named: name)?.widgets.first(where: { $0.rect.width > 0 && $0.rect.height > 0 })
        {
            (rect, pageIndex) = (widget.rect, widget.pageIndex)
        }
        guard let rect else { return PDFSize(width: 0, height: 0) }
        let rotation = pageIndex.flatMap { pages.indices.contains($0) ? pages[$0].rotation : nil } ?? 0
        let turned = rotation == 90 || rotation == 270
        return PDFSize(width: turned ? rect.height : rect.width, height: turned ? rect.width : rect.height)
    }

    /// The appearance built from ``SignatureConfiguration/appearance`` and
    /// ``SignatureConfiguration/capture`` with the person's handwriting or typed name.
    func proposedAppearance(for plan: SigningWorkflow.Plan) -> SignatureAppearance {
        let visual = signatureConfiguration.appearance
        let capture = signatureConfiguration.capture
        var appearance: SignatureAppearance
        if let strokes = plan.handwriting {
            appearance = SignatureAppearance(mark: .handwriting(strokes, yAxisDown: true))
            appearance.markColor = capture.signatureColor
        } else if let typed = plan.typedName {
            appearance = SignatureAppearance(mark: .name(typed))
            appearance.markFont = visual.signerNameFont
            appearance.markColor = capture.signatureColor
        } else {
            appearance = SignatureAppearance(mark: .name(visual.signerName ?? signerName ?? username))
            appearance.markFont = visual.signerNameFont
        }
        appearance.datePattern = visual.dateTimePattern
        appearance.description = visual.signatureDescription
        appearance.graphic = visual.signatureGraphic
        appearance.textFont = visual.dateFont
        appearance.markFontSize = visual.signerNameFontSize
        appearance.textFontSize = visual.dateFontSize
        appearance.displayText = capture.displayText
        appearance.textColor = capture.textColor
        return appearance
    }
}
