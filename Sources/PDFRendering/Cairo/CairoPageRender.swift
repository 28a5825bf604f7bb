internal import CCairo
import PDFGraphics

/// One render of a display list into a new image surface.
enum CairoPageRender {
    /// Renders `list` into a `width`×`height` surface; `device` maps user space to its pixels and
    /// `pageBounds` (device space), when given, is the page, outside of which nothing is drawn.
    static func render(
        _ list: DisplayList, width: Int, height: Int, device: Matrix, pageBounds: Rect?, origin: (x: Int, y: Int),
        background: RGB?, antiAlias: Bool, fonts: FontRenderer
    ) -> RenderedImage {
        guard let surface = ImageSurface(width: width, height: height), let context = cairo_create(surface.pointer)
        else {
            return RenderedImage(width: max(0, width), height: max(0, height), rgba: [])
        }
        defer { cairo_destroy(context) }
        if let background {
            cairo_set_source_rgb(context, background.r, background.g, background.b)
            cairo_paint(context)
        }
        if let pageBounds {
            cairo_rectangle(context, pageBounds.x0, pageBounds.y0, pageBounds.width, pageBounds.height)
            cairo_clip(context)
        }
        let environment = RenderEnvironment(antiAlias: antiAlias, fonts: fonts, origin: origin)
        let replayer = Replayer(
            context: context, device: device, size: (width, height), environment: environment, depth: 0)
        replayer.replay(list.items)
        replayer.finish()
        cairo_surface_flush(surface.pointer)
        return RenderedImage(width: width, height: height, rgba: surface.rgbaBytes())
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

    init(antiAlias: Bool, fonts: FontRenderer, origin: (x: Int, y: Int)) {
        self.antiAlias = antiAlias
        self.fonts = fonts
        self.origin = origin
    }

    /// A soft mask rendered for one device space.
    struct MaskKey: Hashable {
        let mask: ObjectIdentifier
        let device: Matrix
    }

    func warn(_ message: String) {
        if warnings.count < 100 { warnings.append(message) }
    }
}
