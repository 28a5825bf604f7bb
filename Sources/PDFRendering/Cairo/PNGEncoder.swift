internal import CCairo

extension RenderedImage {
    /// The image as a PNG file (cairo's PNG writer: colours un-premultiplied, with an alpha channel
    /// unless every pixel is opaque).
    public func pngData() -> [UInt8] {
        let opaque = stride(from: 3, to: rgba.count, by: 4).allSatisfy { rgba[$0] == 255 }
        guard width > 0, height > 0, rgba.count >= width * height * 4,
            let surface = cairo_image_surface_create(
                opaque ? CAIRO_FORMAT_RGB24 : CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)),
            cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS
        else { return [] }
        defer { cairo_surface_destroy(surface) }
        let data = UnsafeMutableRawPointer(cairo_image_surface_get_data(surface)!)
        let stride = Int(cairo_image_surface_get_stride(surface))
        rgba.withUnsafeBufferPointer { pixels in
            for y in 0..<height {
                let row = (data + y * stride).assumingMemoryBound(to: UInt32.self)
                var index = y * width * 4
                for x in 0..<width {
                    row[x] =
                        UInt32(pixels[index + 3]) << 24 | UInt32(pixels[index]) << 16 | UInt32(pixels[index + 1]) << 8
                        | UInt32(pixels[index + 2])
                    index += 4
                }
            }
        }
        cairo_surface_mark_dirty(surface)
        let sink = ByteSink()
        let context = Unmanaged.passUnretained(sink).toOpaque()
        let status = cairo_surface_write_to_png_stream(
            surface,
            { closure, bytes, length in
                guard let closure, let bytes else { return CAIRO_STATUS_WRITE_ERROR }
                Unmanaged<ByteSink>.fromOpaque(closure).takeUnretainedValue().bytes.append(
                    contentsOf: UnsafeBufferPointer(start: bytes, count: Int(length)))
                return CAIRO_STATUS_SUCCESS
            }, context)
        return withExtendedLifetime(sink) { status == CAIRO_STATUS_SUCCESS ? sink.bytes : [] }
    }
}

/// Collects what cairo writes.
private final class ByteSink {
    var bytes: [UInt8] = []
}
