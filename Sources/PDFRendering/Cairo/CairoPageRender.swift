internal import CCairo
import PDFCore
import PDFGraphics

/// One render of a display list into a new image surface.
enum CairoPageRender {
    /// Renders `list` into a `width`×`height` surface; `device` maps user space to its pixels and
    /// `pageBounds` (device space), when given, is the page, outside of which nothing is drawn.
    static func render(
        _ list: DisplayList, width: Int, height: Int, device: PDFMatrix, pageBounds: PDFRectangle?,
        origin: (x: Int, y: Int),
        background: RGB?, antiAlias: Bool, fonts: FontRenderer, budget: RenderBudget? = nil
    ) -> RenderedImage {
        let empty = RenderedImage(width: max(0, width), height: max(0, height), rgba: [])
        guard width > 0, height > 0, width <= ImageSurface.maximumSide, height <= ImageSurface.maximumSide,
            width * height <= 1 << 28,
            Int(cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, Int32(width))) == width * 4
        else { return empty }
        // cairo draws straight into the image's own bytes, which are then reordered in place: no
        // second page-sized buffer.
        var drawn = false
        var warnings: [String] = []
        var maskPixels = 0
        let rgba = [UInt8](unsafeUninitializedCapacity: width * height * 4) { buffer, count in
            count = width * height * 4
            guard let base = buffer.baseAddress,
                let surface = cairo_image_surface_create_for_data(
                    base, CAIRO_FORMAT_ARGB32, Int32(width), Int32(height), Int32(width * 4))
            else { return }
            defer { cairo_surface_destroy(surface) }
            guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let context = cairo_create(surface) else {
                return
            }
            defer { cairo_destroy(context) }
            // The bytes start undefined: the background (or transparency) replaces them all.
            cairo_set_operator(context, CAIRO_OPERATOR_SOURCE)
            if let background {
                cairo_set_source_rgb(context, background.r, background.g, background.b)
            } else {
                cairo_set_source_rgba(context, 0, 0, 0, 0)
            }
            cairo_paint(context)
            cairo_set_operator(context, CAIRO_OPERATOR_OVER)
            if let pageBounds {
                cairo_rectangle(context, pageBounds.x0, pageBounds.y0, pageBounds.width, pageBounds.height)
                cairo_clip(context)
            }
            let environment = RenderEnvironment(antiAlias: antiAlias, fonts: fonts, origin: origin, budget: budget)
            let replayer = Replayer(
                context: context, device: device, size: (width, height), environment: environment, depth: 0)
            replayer.replay(list.items)
            replayer.finish()
            warnings = environment.warnings
            maskPixels = environment.maskPixels
            cairo_surface_flush(surface)
            // ARGB32 is a native-endian 32-bit word per pixel, A R G B from the high byte down; the
            // image wants the bytes R G B A, the little-endian word A B G R.
            let words = UnsafeMutableRawPointer(base).assumingMemoryBound(to: UInt32.self)
            for index in 0..<(width * height) {
                let pixel = words[index]
                let reordered =
                    ((pixel >> 16) & 0xFF) | (pixel & 0xFF00) | ((pixel & 0xFF) << 16) | (pixel & 0xFF00_0000)
                words[index] = reordered.littleEndian
            }
            drawn = true
        }
        guard drawn else { return empty }
        var image = RenderedImage(width: width, height: height, rgba: rgba)
        image.warnings = warnings
        image.maskPixels = maskPixels
        return image
    }
}

/// An image decoded at one reduction (see `ImageSource.decoded(reduction:)`).
struct ImageKey: Hashable {
    var image: ObjectIdentifier
    var reduction: Int
}

/// What every replay of one render shares: options, fonts, caches of decoded images and masks.
final class RenderEnvironment {
    let antiAlias: Bool
    let fonts: FontRenderer
    /// The position of the output's top-left pixel in the full page render (for tiles), so that
    /// sampling grids line up across tiles.
    let origin: (x: Int, y: Int)
    var images: [ImageKey: ImageSurface] = [:]
    var stencils: [ImageKey: ImageSurface] = [:]
    var masks: [MaskKey: ImageSurface] = [:]
    var warnings: [String] = []
    /// Pixels of the soft-mask surfaces made so far.
    var maskPixels = 0
    /// The caller's limits; replaying stops once they are spent.
    let budget: RenderBudget?
    /// Items replayed so far, to read the clock only every so often.
    var replayed = 0
    /// Set once the budget is spent: every replayer of the page stops.
    var stopped = false

    init(antiAlias: Bool, fonts: FontRenderer, origin: (x: Int, y: Int), budget: RenderBudget? = nil) {
        self.antiAlias = antiAlias
        self.fonts = fonts
        self.origin = origin
        self.budget = budget
    }

    /// Counts an item; false once the page's replay must stop (the clock is read every 64 items).
    func admit() -> Bool {
        replayed += 1
        guard !stopped else { return false }
        if let budget, replayed & 63 == 0, budget.stop != nil { stopped = true }
        return !stopped
    }

    /// A soft mask rendered for one device space.
    struct MaskKey: Hashable {
        let mask: ObjectIdentifier
        let device: PDFMatrix
        /// The region rendered, in the target's pixels.
        let x: Int
        let y: Int
        let width: Int
        let height: Int
    }

    func warn(_ message: String) {
        if warnings.count < 100 { warnings.append(message) }
    }
}
