internal import CCairo
import PDFCore
import PDFGraphics

extension Replayer {
    /// The transformation from image pixels (top-left origin, one unit a sample) to device space:
    /// the image fills the unit square of `ctm` with its first row at the top (ISO 32000-2 §8.9.4).
    /// Nil when the image covers nothing (see ``unitSquare(_:)``).
    func imageToDevice(_ image: ImageSource, ctm: PDFMatrix) -> PDFMatrix? {
        guard let square = unitSquare(ctm) else { return nil }
        return PDFMatrix(1 / Double(image.width), 0, 0, -1 / Double(image.height), 0, 1).concatenating(square)
    }

    /// The image's unit square in device space. An upright or quarter-turned image is widened to
    /// cover every pixel it touches (MuPDF's `fz_gridfit_matrix`): no half-covered row or column
    /// at its edges, no seam between images that meet. An image thinner than a pixel across is
    /// drawn one pixel thick, as poppler draws it (a rule drawn as an image does not vanish);
    /// a slanted sliver thinner than a thousandth of a pixel is not drawn (nil), as neither
    /// poppler nor MuPDF draws it.
    func unitSquare(_ ctm: PDFMatrix) -> PDFMatrix? {
        var m = ctm.concatenating(device)
        let epsilon = 0.001
        func fit(_ origin: inout Double, _ extent: inout Double) {
            guard abs(origin) < 1e9, abs(extent) < 1e9 else { return }
            if extent > 0 {
                let low = (origin + epsilon).rounded(.down)
                let high = max(low + 1, (origin + extent - epsilon).rounded(.up))
                (origin, extent) = (low, high - low)
            } else if extent < 0 {
                let high = (origin - epsilon).rounded(.up)
                let low = min(high - 1, (origin + extent + epsilon).rounded(.down))
                (origin, extent) = (high, low - high)
            }
        }
        if abs(m.b) < 1e-6, abs(m.c) < 1e-6 {
            fit(&m.e, &m.a)
            fit(&m.f, &m.d)
        } else if abs(m.a) < 1e-6, abs(m.d) < 1e-6 {
            fit(&m.e, &m.c)
            fit(&m.f, &m.b)
        } else {
            return Self.thickened(m)
        }
        return m
    }

    /// `m` with its unit square made at least one device pixel thick across its longer side. A
    /// near-degenerate matrix (two sides almost parallel) maps the square to a sliver whose
    /// inverse has entries too large for pixman's 16.16 fixed point: cairo would then fail (an
    /// out-of-memory error that stops every later drawing operation on the page). Thickening
    /// keeps the inverse bounded by the image's size, whatever the matrix's magnitude.
    /// Nil for a sliver less than a thousandth of a pixel thick.
    static func thickened(_ m: PDFMatrix) -> PDFMatrix? {
        let (lengthX, lengthY) = m.axisLengths
        let det = m.determinant
        let long = max(lengthX, lengthY)
        guard long.isFinite, det.isFinite, long > 0, abs(det) < long else { return m }
        guard abs(det) >= 0.001 * long else { return nil }
        let sign: Double = det < 0 ? -1 : 1
        var m = m
        if lengthX >= lengthY {
            // Move the y side across the x side: the determinant becomes ±|x side|, one pixel thick.
            let (nx, ny) = (-m.b / lengthX, m.a / lengthX)
            let delta = (sign * lengthX - det) / lengthX
            m.c += nx * delta
            m.d += ny * delta
        } else {
            let (nx, ny) = (m.d / lengthY, -m.c / lengthY)
            let delta = (sign * lengthY - det) / lengthY
            m.a += nx * delta
            m.b += ny * delta
        }
        return m
    }

    /// The filter for an image drawn by `matrix`: smooth when shrinking or when `/Interpolate`
    /// asks; samples kept square when a small image is blown up (as MuPDF does).
    func filter(for matrix: PDFMatrix, interpolate: Bool) -> cairo_filter_t {
        let (sx, sy) = matrix.axisLengths
        if sx < 1 || sy < 1 { return CAIRO_FILTER_GOOD }
        if interpolate { return CAIRO_FILTER_BILINEAR }
        return sx >= 2 || sy >= 2 ? CAIRO_FILTER_NEAREST : CAIRO_FILTER_GOOD
    }

    /// Paints an image (`Do` of an image XObject, an inline image).
    func drawImage(_ image: ImageSource, ctm: PDFMatrix, state: DrawState) {
        guard image.width > 0, image.height > 0, let matrix = imageToDevice(image, ctm: ctm), matrix.isUsable,
            let surface = imageSurface(image, matrix)
        else {
            return
        }
        composite(state, direct: true) { alpha in
            cairo_save(context)
            defer { cairo_restore(context) }
            var cairoMatrix = matrix.cairo
            cairo_set_matrix(context, &cairoMatrix)
            cairo_rectangle(context, 0, 0, Double(image.width), Double(image.height))
            cairo_clip(context)
            guard let pattern = CairoPattern(cairo_pattern_create_for_surface(surface.pointer)) else { return }
            // The surface may be smaller than the image's declared size (a decoder shrank it).
            pattern.setMatrix(
                .scale(Double(surface.width) / Double(image.width), Double(surface.height) / Double(image.height)))
            cairo_pattern_set_extend(pattern.pointer, CAIRO_EXTEND_PAD)
            cairo_pattern_set_filter(pattern.pointer, filter(for: matrix, interpolate: image.interpolate))
            cairo_set_source(context, pattern.pointer)
            if alpha >= 1 { cairo_paint(context) } else { cairo_paint_with_alpha(context, alpha) }
        }
    }

    /// Paints `paint` through a stencil mask (`/ImageMask true`, ISO 32000-2 §8.9.6.2).
    func drawStencil(_ image: ImageSource, _ paint: Paint, ctm: PDFMatrix, state: DrawState) {
        guard image.width > 0, image.height > 0, let square = unitSquare(ctm),
            let matrix = imageToDevice(image, ctm: ctm),
            matrix.isUsable, let mask = stencilSurface(image, matrix)
        else {
            return
        }
        composite(state, direct: isDirect(paint, state.alpha)) { alpha in
            withPaint(paint, alpha: alpha) { source in
                cairo_save(context)
                defer { cairo_restore(context) }
                // The unit square as the shape, so pattern sources know where they are seen.
                var unit = Path()
                unit.rectangle(0, 0, 1, 1)
                setPath(unit, square)
                cairo_clip_preserve(context)
                guard source() else { return }
                cairo_new_path(context)
                var cairoMatrix = matrix.cairo
                cairo_set_matrix(context, &cairoMatrix)
                guard let pattern = CairoPattern(cairo_pattern_create_for_surface(mask.pointer)) else { return }
                pattern.setMatrix(
                    .scale(Double(mask.width) / Double(image.width), Double(mask.height) / Double(image.height)))
                cairo_pattern_set_extend(pattern.pointer, CAIRO_EXTEND_PAD)
                cairo_pattern_set_filter(pattern.pointer, filter(for: matrix, interpolate: image.interpolate))
                cairo_mask(context, pattern.pointer)
            }
        }
    }

    /// How many times an image drawn by `matrix` (image samples to device pixels) can be halved
    /// while it is decoded and keep at least one sample per device pixel in both directions.
    func reduction(_ matrix: PDFMatrix) -> Int {
        let (sx, sy) = matrix.axisLengths
        let density = max(sx, sy)
        guard density > 0, density < 0.5, density.isFinite else { return 0 }
        // The binary exponent of 1/density is ⌊log2(1/density)⌋.
        return min(8, Int((1 / density).exponent))
    }

    /// The image's premultiplied surface, made once per render and reduction.
    private func imageSurface(_ image: ImageSource, _ matrix: PDFMatrix) -> ImageSurface? {
        let key = ImageKey(image: ObjectIdentifier(image), reduction: reduction(matrix))
        if let surface = environment.images[key] { return surface }
        let (decoded, warnings) = image.decoded(reduction: key.reduction)
        warnings.forEach(environment.warn)
        guard let decoded, let surface = ImageSurface.premultiplied(decoded) else {
            // The decoder said why already; otherwise the surface could not be made.
            if decoded != nil || warnings.isEmpty {
                environment.warn("an image (\(image.width)×\(image.height)) could not be drawn")
            }
            return nil
        }
        environment.images[key] = surface
        return surface
    }

    /// The mask's alpha as an A8 surface, made once per render and reduction.
    private func stencilSurface(_ image: ImageSource, _ matrix: PDFMatrix) -> ImageSurface? {
        let key = ImageKey(image: ObjectIdentifier(image), reduction: reduction(matrix))
        if let surface = environment.stencils[key] { return surface }
        let (decoded, warnings) = image.decoded(reduction: key.reduction)
        warnings.forEach(environment.warn)
        guard let decoded, let surface = ImageSurface.alphaChannel(decoded) else {
            if decoded != nil || warnings.isEmpty {
                environment.warn("a stencil mask (\(image.width)×\(image.height)) could not be drawn")
            }
            return nil
        }
        environment.stencils[key] = surface
        return surface
    }
}
