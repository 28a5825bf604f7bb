public import PDFCore
public import PDFGraphics

/// Renders display lists into pixels with cairo, FreeType and OpenJPEG.
///
/// One renderer can render several pages (or tiles of one page) at once from different tasks:
/// each render has its own cairo context and surfaces; fonts are shared through ``FontRenderer``.
public struct PageRenderer: Sendable {
    /// The fonts used for text.
    public let fonts: FontRenderer
    /// Colour management for images whose colours the backend converts itself (JPX with ICC).
    public let icc: (any ICCConverterFactory)?

    /// A renderer drawing text with `fonts`.
    public init(fonts: FontRenderer = .shared, icc: (any ICCConverterFactory)? = nil) {
        self.fonts = fonts
        self.icc = icc
    }

    /// Renders `list`, whose user space is the page's: `cropBox` (user space) is what is shown and
    /// `pageRotation` its `/Rotate` (ISO 32000-2 §7.7.3.3), applied clockwise with `options.rotation`.
    ///
    /// The result is the full page at `options.dpi`, or the window `options.region` of it.
    public func render(_ list: DisplayList, cropBox: PDFRectangle, pageRotation: Int, options: RenderOptions)
        -> RenderedImage
    {
        let geometry = DeviceGeometry(cropBox: cropBox, rotation: pageRotation + options.rotation, dpi: options.dpi)
        guard let tile = options.region else {
            return CairoPageRender.render(
                list, width: geometry.width, height: geometry.height, device: geometry.userToDevice,
                pageBounds: nil,
                origin: (0, 0), background: options.background, antiAlias: options.antiAlias, fonts: fonts,
                budget: options.budget)
        }
        // A tile is rendered as a band of whole rows of the page, with a margin above and below, then
        // cut out. Cairo clips a path at the surface's sides before scan-converting it, and that can
        // change the coverage of some edge pixels by a level or two (vertical cuts do not), so a band
        // gives exactly the pixels of the full page. Beyond `maximumBandWidth` the tile is rendered
        // with a margin on every side instead: equal but for rare off-by-one edge pixels.
        let (width, height) = (max(0, tile.width), max(0, tile.height))
        guard width > 0, height > 0 else { return RenderedImage(width: width, height: height, rgba: []) }
        let margin = PageRenderer.tileMargin
        let band = geometry.width <= PageRenderer.maximumBandWidth
        let x = band ? 0 : tile.x - margin
        let y = tile.y - margin
        let paddedWidth = band ? max(geometry.width, tile.x + width) - min(0, tile.x) : width + 2 * margin
        let originX = band ? min(0, tile.x) : x
        let device = geometry.userToDevice.concatenating(.translation(Double(-originX), Double(-y)))
        // Clip to the page only when the tile reaches beyond it: the full page has no clip, and a clip
        // changes how cairo composites.
        let inside =
            tile.x >= 0 && tile.y >= 0 && tile.x + width <= geometry.width && tile.y + height <= geometry.height
        let page =
            inside
            ? nil
            : PDFRectangle(
                x0: Double(-originX), y0: Double(-y), x1: Double(geometry.width - originX),
                y1: Double(geometry.height - y))
        let padded = CairoPageRender.render(
            list, width: paddedWidth, height: height + 2 * margin, device: device, pageBounds: page,
            origin: (originX, y), background: options.background, antiAlias: options.antiAlias, fonts: fonts,
            budget: options.budget)
        guard padded.rgba.count == padded.width * padded.height * 4 else {
            return RenderedImage(width: width, height: height, rgba: [])
        }
        let left = tile.x - originX
        var rgba = [UInt8]()
        rgba.reserveCapacity(width * height * 4)
        for row in 0..<height {
            let start = ((row + margin) * padded.width + left) * 4
            rgba += padded.rgba[start..<(start + width * 4)]
        }
        var image = RenderedImage(width: width, height: height, rgba: rgba)
        image.warnings = padded.warnings
        image.maskPixels = padded.maskPixels
        return image
    }

    /// Pages at most this many pixels wide render tiles as whole-width bands (exact).
    static let maximumBandWidth = 4096

    /// Pixels rendered around a tile and dropped.
    static let tileMargin = 16

    /// The size in pixels of the full render of a page (before any tile is taken).
    public static func pixelSize(cropBox: PDFRectangle, pageRotation: Int, options: RenderOptions) -> (
        width: Int, height: Int
    ) {
        let geometry = DeviceGeometry(cropBox: cropBox, rotation: pageRotation + options.rotation, dpi: options.dpi)
        return (geometry.width, geometry.height)
    }

    /// The transformation from the page's user space to the pixels of the full render (origin at the
    /// top-left, y down), rotation and scale included.
    public static func deviceMatrix(cropBox: PDFRectangle, pageRotation: Int, options: RenderOptions) -> PDFMatrix {
        DeviceGeometry(cropBox: cropBox, rotation: pageRotation + options.rotation, dpi: options.dpi).userToDevice
    }
}

/// Where a page lands in the output: the crop box flipped (PDF is y-up), rotated clockwise and scaled.
struct DeviceGeometry {
    let width: Int
    let height: Int
    let userToDevice: PDFMatrix

    init(cropBox: PDFRectangle, rotation: Int, dpi: Double) {
        let scale = dpi.isFinite && dpi > 0 ? dpi / 72 : 1
        let quarterTurns = ((rotation / 90) % 4 + 4) % 4
        let (w, h) = (cropBox.width, cropBox.height)
        // Top-left origin, y down, in points.
        let flip = PDFMatrix(1, 0, 0, -1, -cropBox.x0, cropBox.y1)
        let turn: PDFMatrix
        let size: (Double, Double)
        switch quarterTurns {
        case 1:
            turn = PDFMatrix(0, 1, -1, 0, h, 0)
            size = (h, w)
        case 2:
            turn = PDFMatrix(-1, 0, 0, -1, w, h)
            size = (w, h)
        case 3:
            turn = PDFMatrix(0, -1, 1, 0, 0, w)
            size = (h, w)
        default:
            turn = .identity
            size = (w, h)
        }
        userToDevice = flip.concatenating(turn).concatenating(.scale(scale, scale))
        // As MuPDF rounds a page's pixel bounds (fz_round_rect): out, with a small tolerance.
        width = DeviceGeometry.pixels(size.0 * scale)
        height = DeviceGeometry.pixels(size.1 * scale)
    }

    private static func pixels(_ length: Double) -> Int {
        guard length.isFinite, length > 0 else { return 0 }
        return Int(min((length - 0.001).rounded(.up), Double(1 << 20)))
    }
}
