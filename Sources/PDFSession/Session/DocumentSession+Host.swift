public import PDFAnnotations
public import PDFCore
public import PDFSigning
import PDFViewer

/// What the host changes and is told while the session runs: the configuration (signo's
/// `enableTouchEvents:`, `enableAutoRotation`, a `signatureCaptureConfig` set inside
/// `willStartSigning`) and the viewer's buttons that ask the app (signature fields, back, viewer
/// rectangles).
extension DocumentSession {
    /// Changes how the document is shown (touch input, rotation, toolbar, page number, colours);
    /// emits `configurationChanged` so the viewer redraws.
    public func configure(viewer: ViewerConfiguration) {
        guard viewer != viewerConfiguration else { return }
        viewerConfiguration = viewer
        emit(.configurationChanged(viewer: viewer, capture: signatureConfiguration.capture))
    }

    /// Changes the capture dialog's configuration (display text, colours). Called inside
    /// `willStartSigning`, it applies to the capture that decision starts, as in signo; the
    /// signature being confirmed or signed keeps the appearance it was prepared with.
    public func configure(capture: SignatureCaptureConfiguration) {
        guard capture != signatureConfiguration.capture else { return }
        signatureConfiguration.capture = capture
        emit(.configurationChanged(viewer: viewerConfiguration, capture: capture))
    }

    /// Changes the visible signature (handwriting, the signer's name, fonts, the date pattern, the
    /// description) for the signatures prepared from now on.
    public func configure(appearance: VisualSignatureConfiguration) {
        guard appearance != signatureConfiguration.appearance else { return }
        signatureConfiguration.appearance = appearance
        emit(.configurationChanged(viewer: viewerConfiguration, capture: signatureConfiguration.capture))
    }

    /// Changes the signature dictionary's attributes (name, location, reason, reserved size, digest)
    /// for the signatures prepared from now on.
    public func configure(attributes: SignatureAttributes) {
        signatureConfiguration.attributes = attributes
        snapshot.workflow.acceptedReason = attributes.acceptedReason
        snapshot.workflow.refusedReason = attributes.refusedReason
    }

    /// Changes who makes the CMS of the signatures prepared from now on: a signer chosen while the
    /// session runs (the person's own certificate at their trust service provider, once they
    /// authorized it), whose certificate then names the signature the preview shows.
    public func configure(signing: SigningMode) {
        signatureConfiguration.signing = signing
    }

    /// Changes how the next signature is made only while none is under way (editing, or
    /// finished): a signer changed after the preview would make the signature with another
    /// certificate than the preview named. Returns whether it changed.
    @discardableResult
    public func configureWhileIdle(signing: SigningMode) -> Bool {
        switch phase {
        case .editing, .finished:
            signatureConfiguration.signing = signing
            return true
        default:
            return false
        }
    }

    /// The signature prepared and waiting for its confirmation or its CMS (its digest, the digest
    /// algorithm, the field), or nil.
    public var preparedSignature: PreparedSignature? { snapshot.prepared }

    /// Changes the refusal watermark for a refusal prepared from now on.
    public func configure(watermark: WatermarkAppearance) {
        signatureConfiguration.watermark = watermark
    }

    /// The "signature fields" button (signo `signatureInfoPressed`): true when the viewer shows
    /// its own list, false when the app handles it (the delegate's answer; true without one).
    public func signatureInfoPressed() async -> Bool {
        await delegate?.signatureInfoPressed() ?? true
    }

    /// The back button (signo `backButtonPressed`): tells the delegate, which usually closes the viewer.
    public func backButtonPressed() async {
        await delegate?.backButtonPressed()
    }

    /// Viewer rectangle `id` (from ``beginViewerRect()``) confirmed on page `pageIndex` (from 0; nil
    /// with a zero `rect` when it lies on no page), `rect` in that page's PDF user space. Returns the
    /// delegate's answer: true hides the rectangle and the viewer browses again (true without a
    /// delegate); false keeps it open.
    /// - Throws: `.invalidState` when rectangle `id` is not open; `.invalidArgument` for a page the
    ///   document does not have or a rectangle that is not finite.
    public func viewerRectConfirmed(rect: PDFRectangle, pageIndex: Int?, id: Int) async throws(SessionError) -> Bool {
        try requireViewerRect(id)
        if let pageIndex, let problem = PageIndexCheck.problem(pageIndex, pageCount: pageCount) {
            throw SessionError(.invalidArgument, problem)
        }
        guard [rect.x0, rect.y0, rect.x1, rect.y1].allSatisfy(\.isFinite), pageIndex != nil || rect == .zero else {
            throw SessionError(.invalidArgument, "the rectangle must be finite, and zero when it lies on no page")
        }
        let hide = await delegate?.viewerRectConfirmed(rect: rect, pageIndex: pageIndex, id: id) ?? true
        if hide { modes.endViewerRect(id: id) }
        return hide
    }

    /// Viewer rectangle `id` cancelled (signo `viewerRectCancelled:`): closes it and tells the delegate.
    /// - Throws: `.invalidState` when rectangle `id` is not open.
    public func viewerRectCancelled(id: Int) async throws(SessionError) {
        try requireViewerRect(id)
        modes.endViewerRect(id: id)
        await delegate?.viewerRectCancelled(id: id)
    }
}
