internal import CCairo
import PDFCore
import PDFGraphics

/// A cairo image surface (ARGB32 premultiplied or A8), owned: destroyed with the object.
final class ImageSurface {
    let pointer: OpaquePointer
    let width: Int
    let height: Int

    /// The largest side cairo's image backend accepts.
    static let maximumSide = 32767

    /// A cleared surface, or nil when it cannot be created (too large, out of memory).
    init?(width: Int, height: Int, alphaOnly: Bool = false) {
        guard width > 0, height > 0, width <= ImageSurface.maximumSide, height <= ImageSurface.maximumSide,
            width.multipliedReportingOverflow(by: height).partialValue <= 1 << 28
        else { return nil }
        let surface = cairo_image_surface_create(
            alphaOnly ? CAIRO_FORMAT_A8 : CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))
        guard let surface, cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            if let surface { cairo_surface_destroy(surface) }
            return nil
        }
        pointer = surface
        self.width = width
        self.height = height
    }

    deinit { cairo_surface_destroy(pointer) }

    var stride: Int { Int(cairo_image_surface_get_stride(pointer)) }

    /// Lets `body` read or write the pixels (rows of ``stride`` bytes), then tells cairo they changed.
    func withPixels<T>(_ body: (UnsafeMutableRawPointer, Int) -> T) -> T {
        cairo_surface_flush(pointer)
        let result = body(UnsafeMutableRawPointer(cairo_image_surface_get_data(pointer)!), stride)
        cairo_surface_mark_dirty(pointer)
        return result
    }

    /// A surface holding `image` premultiplied (cairo's ARGB32: one native-endian word a pixel).
    static func premultiplied(_ image: DecodedImage) -> ImageSurface? {
        guard image.rgba.count >= image.width * image.height * 4,
            let surface = ImageSurface(width: image.width, height: image.height)
        else { return nil }
        surface.withPixels { data, stride in
            image.rgba.withUnsafeBufferPointer { rgba in
                for y in 0..<image.height {
                    let row = (data + y * stride).assumingMemoryBound(to: UInt32.self)
                    var index = y * image.width * 4
                    for x in 0..<image.width {
                        let a = UInt32(rgba[index + 3])
                        let r = (UInt32(rgba[index]) * a + 127) / 255
                        let g = (UInt32(rgba[index + 1]) * a + 127) / 255
                        let b = (UInt32(rgba[index + 2]) * a + 127) / 255
                        row[x] = a << 24 | r << 16 | g << 8 | b
                        index += 4
                    }
                }
            }
        }
        return surface
    }

    /// An A8 surface holding the alpha channel of `image` (a stencil mask).
    static func alphaChannel(_ image: DecodedImage) -> ImageSurface? {
        guard image.rgba.count >= image.width * image.height * 4,
            let surface = ImageSurface(width: image.width, height: image.height, alphaOnly: true)
        else { return nil }
        surface.withPixels { data, stride in
            image.rgba.withUnsafeBufferPointer { rgba in
                for y in 0..<image.height {
                    let row = (data + y * stride).assumingMemoryBound(to: UInt8.self)
                    let start = y * image.width * 4 + 3
                    for x in 0..<image.width { row[x] = rgba[start + x * 4] }
                }
            }
        }
        return surface
    }

    /// The pixels as 8-bit RGBA, premultiplied, rows top to bottom.
    func rgbaBytes() -> [UInt8] {
        cairo_surface_flush(pointer)
        let data = UnsafeMutableRawPointer(cairo_image_surface_get_data(pointer)!)
        let stride = self.stride
        return [UInt8](unsafeUninitializedCapacity: width * height * 4) { buffer, count in
            for y in 0..<height {
                let row = (data + y * stride).assumingMemoryBound(to: UInt32.self)
                var index = y * width * 4
                for x in 0..<width {
                    let pixel = row[x]
                    buffer[index] = UInt8(truncatingIfNeeded: pixel >> 16)
                    buffer[index + 1] = UInt8(truncatingIfNeeded: pixel >> 8)
                    buffer[index + 2] = UInt8(truncatingIfNeeded: pixel)
                    buffer[index + 3] = UInt8(truncatingIfNeeded: pixel >> 24)
                    index += 4
                }
            }
            count = width * height * 4
        }
    }
}

/// A cairo pattern, owned: destroyed with the object.
final class CairoPattern {
    let pointer: OpaquePointer

    init?(_ pointer: OpaquePointer?) {
        guard let pointer else { return nil }
        guard cairo_pattern_status(pointer) == CAIRO_STATUS_SUCCESS else {
            cairo_pattern_destroy(pointer)
            return nil
        }
        self.pointer = pointer
    }

    deinit { cairo_pattern_destroy(pointer) }

    /// Sets the pattern's matrix: `deviceToPattern` maps the space the pattern is used in to pattern space.
    func setMatrix(_ deviceToPattern: PDFMatrix) {
        var matrix = deviceToPattern.cairo
        cairo_pattern_set_matrix(pointer, &matrix)
    }
}

extension PDFMatrix {
    /// The same transformation as cairo spells it (x' = xx·x + xy·y + x0, y' = yx·x + yy·y + y0).
    var cairo: cairo_matrix_t { cairo_matrix_t(xx: a, yx: b, xy: c, yy: d, x0: e, y0: f) }

    /// Whether cairo can use the matrix (finite and invertible with some margin).
    var isUsable: Bool {
        let det = determinant
        return [a, b, c, d, e, f].allSatisfy(\.isFinite) && det.isFinite && abs(det) > 1e-12
    }

    /// The device lengths of the images of the unit vectors (x axis, y axis).
    var axisLengths: (x: Double, y: Double) {
        ((a * a + b * b).squareRoot(), (c * c + d * d).squareRoot())
    }
}

extension BlendMode {
    /// The cairo operator of the blend mode (ISO 32000-2 §11.3.5; cairo implements the same formulas).
    var cairoOperator: cairo_operator_t {
        switch self {
        case .normal: CAIRO_OPERATOR_OVER
        case .multiply: CAIRO_OPERATOR_MULTIPLY
        case .screen: CAIRO_OPERATOR_SCREEN
        case .overlay: CAIRO_OPERATOR_OVERLAY
        case .darken: CAIRO_OPERATOR_DARKEN
        case .lighten: CAIRO_OPERATOR_LIGHTEN
        case .colorDodge: CAIRO_OPERATOR_COLOR_DODGE
        case .colorBurn: CAIRO_OPERATOR_COLOR_BURN
        case .hardLight: CAIRO_OPERATOR_HARD_LIGHT
        case .softLight: CAIRO_OPERATOR_SOFT_LIGHT
        case .difference: CAIRO_OPERATOR_DIFFERENCE
        case .exclusion: CAIRO_OPERATOR_EXCLUSION
        case .hue: CAIRO_OPERATOR_HSL_HUE
        case .saturation: CAIRO_OPERATOR_HSL_SATURATION
        case .color: CAIRO_OPERATOR_HSL_COLOR
        case .luminosity: CAIRO_OPERATOR_HSL_LUMINOSITY
        }
    }
}

extension PDFRectangle {
    /// The smallest rectangle of whole pixels holding this one.
    var pixelAligned: PDFRectangle {
        PDFRectangle(x0: x0.rounded(.down), y0: y0.rounded(.down), x1: x1.rounded(.up), y1: y1.rounded(.up))
    }
}
