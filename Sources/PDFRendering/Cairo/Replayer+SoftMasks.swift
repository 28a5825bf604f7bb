internal import CCairo
import PDFCore
import PDFGraphics

extension Replayer {
    /// The soft mask rendered for this replay's device space as an A8 surface (ISO 32000-2
    /// §11.6.5.2), with the device pixel its top-left corner stands at, made once per mask, device
    /// space and region in a render.
    ///
    /// Luminosity masks: the group is drawn over its backdrop colour `/BC` and each pixel's
    /// luminosity becomes the mask; alpha masks: the group's alpha. `/TR` maps the values. Only the
    /// region where it can matter is rendered: the current clip within the target, and within the
    /// group's bounds when the mask is 0 outside them (past the region nothing shows), so a mask
    /// costs what its group covers, not a page.
    func maskSurface(_ mask: SoftMask) -> (surface: ImageSurface, x: Int, y: Int)? {
        let transfer: [UInt8]? = mask.transfer.map { function in
            (0..<256).map { ShadingPatterns.channel(function(Double($0) / 255)) }
        }
        let luminosity = mask.kind == .luminosity
        // The mask's value where the group draws nothing.
        var outside = 0
        if luminosity {
            func level(_ value: Double) -> Int { Int((max(0, min(1, value)) * 255).rounded()) }
            let (r, g, b) = (level(mask.backdrop.r), level(mask.backdrop.g), level(mask.backdrop.b))
            outside = (r * 77 + g * 151 + b * 28 + 128) >> 8
        }
        if let transfer { outside = Int(transfer[max(0, min(255, outside))]) }
        var region = clipExtents.intersection(
            PDFRectangle(x0: 0, y0: 0, x1: Double(size.width), y1: Double(size.height)))
        if outside == 0, let bounds = mask.bounds, let inside = region?.intersection(device.apply(bounds)) {
            region = inside
        } else if outside == 0, mask.bounds != nil {
            region = nil
        }
        guard let region else { return nil }
        let x0 = max(0, Int(region.x0.rounded(.down)))
        let y0 = max(0, Int(region.y0.rounded(.down)))
        let x1 = min(size.width, Int(region.x1.rounded(.up)))
        let y1 = min(size.height, Int(region.y1.rounded(.up)))
        guard x1 > x0, y1 > y0 else { return nil }
        let (width, height) = (x1 - x0, y1 - y0)

        let key = RenderEnvironment.MaskKey(
            mask: ObjectIdentifier(mask), device: device, x: x0, y: y0, width: width,
            height: height)
        if let surface = environment.masks[key] { return (surface, x0, y0) }
        guard depth < Replayer.maximumDepth, let group = ImageSurface(width: width, height: height),
            let result = ImageSurface(width: width, height: height, alphaOnly: true),
            let maskContext = cairo_create(group.pointer)
        else {
            environment.warn("a soft mask could not be rendered")
            return nil
        }
        environment.maskPixels += width * height
        if luminosity {
            cairo_set_source_rgb(maskContext, mask.backdrop.r, mask.backdrop.g, mask.backdrop.b)
            cairo_paint(maskContext)
        }
        // The region's device space: the target's, moved so that (x0, y0) is the surface's corner.
        let regionDevice = device.concatenating(.translation(Double(-x0), Double(-y0)))
        if let bounds = mask.bounds {
            let box = regionDevice.apply(bounds)
            cairo_rectangle(maskContext, box.x0, box.y0, box.width, box.height)
            cairo_clip(maskContext)
        }
        let replayer = Replayer(
            context: maskContext, device: regionDevice, size: (width, height), environment: environment,
            depth: depth + 1)
        replayer.replay(mask.group.items)
        replayer.finish()
        cairo_destroy(maskContext)
        cairo_surface_flush(group.pointer)

        group.withPixels { source, sourceStride in
            result.withPixels { target, targetStride in
                for y in 0..<height {
                    let from = (source + y * sourceStride).assumingMemoryBound(to: UInt32.self)
                    let to = (target + y * targetStride).assumingMemoryBound(to: UInt8.self)
                    for x in 0..<width {
                        let pixel = from[x]
                        var value: Int
                        if luminosity {
                            // Premultiplied over an opaque backdrop, so these are the colours.
                            let (r, g, b) = (Int(pixel >> 16 & 0xFF), Int(pixel >> 8 & 0xFF), Int(pixel & 0xFF))
                            value = (r * 77 + g * 151 + b * 28 + 128) >> 8
                        } else {
                            value = Int(pixel >> 24)
                        }
                        if let transfer { value = Int(transfer[value]) }
                        to[x] = UInt8(value)
                    }
                }
            }
        }
        environment.masks[key] = result
        return (result, x0, y0)
    }
}
