internal import CCairo

extension RenderedImage {
    /// Reads a PNG file (any kind cairo reads: grey, RGB, with or without alpha) into premultiplied
    /// RGBA, as renders are; nil when the bytes are not a PNG.
    public init?(pngData bytes: [UInt8]) {
        let source = PNGReader(bytes)
        let context = Unmanaged.passUnretained(source).toOpaque()
        guard
            let surface = cairo_image_surface_create_from_png_stream(
                { closure, data, length in
                    guard let closure, let data else { return CAIRO_STATUS_READ_ERROR }
                    let source = Unmanaged<PNGReader>.fromOpaque(closure).takeUnretainedValue()
                    guard source.read(into: data, count: Int(length)) else { return CAIRO_STATUS_READ_ERROR }
                    return CAIRO_STATUS_SUCCESS
                }, context)
        else { return nil }
        defer { cairo_surface_destroy(surface) }
        guard withExtendedLifetime(source, { cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS }),
            let converted = cairo_image_surface_create(
                CAIRO_FORMAT_ARGB32, cairo_image_surface_get_width(surface), cairo_image_surface_get_height(surface))
        else { return nil }
        defer { cairo_surface_destroy(converted) }
        // Drawn onto an ARGB32 surface whatever the PNG's format was.
        let cairo = cairo_create(converted)
        cairo_set_source_surface(cairo, surface, 0, 0)
        cairo_set_operator(cairo, CAIRO_OPERATOR_SOURCE)
        cairo_paint(cairo)
        cairo_destroy(cairo)
        cairo_surface_flush(converted)
        let width = Int(cairo_image_surface_get_width(converted))
        let height = Int(cairo_image_surface_get_height(converted))
        let stride = Int(cairo_image_surface_get_stride(converted))
        guard let data = cairo_image_surface_get_data(converted) else { return nil }
        var rgba = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            let row = UnsafeRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<width {
                let pixel = row[x]
                let index = (y * width + x) * 4
                rgba[index] = UInt8(truncatingIfNeeded: pixel >> 16)
                rgba[index + 1] = UInt8(truncatingIfNeeded: pixel >> 8)
                rgba[index + 2] = UInt8(truncatingIfNeeded: pixel)
                rgba[index + 3] = UInt8(truncatingIfNeeded: pixel >> 24)
            }
        }
        self.init(width: width, height: height, rgba: rgba)
    }
}

/// Hands PNG bytes to cairo's reader.
private final class PNGReader {
    let bytes: [UInt8]
    var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func read(into buffer: UnsafeMutablePointer<UInt8>, count: Int) -> Bool {
        guard count <= bytes.count - position else { return false }
        bytes.withUnsafeBufferPointer { source in
            buffer.update(from: source.baseAddress! + position, count: count)
        }
        position += count
        return true
    }
}
