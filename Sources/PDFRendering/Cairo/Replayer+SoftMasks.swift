internal import CCairo
import PDFCore
import PDFGraphics

extension Replayer {
    /// The soft mask rendered for this replay's device space as an A8 surface of the target's
    /// size (ISO 32000-2 §11.6.5.2), made once per mask and device space in a render.
    ///
    /// Luminosity masks: the group is drawn over its backdrop colour `/BC` and each pixel's
    /// luminosity becomes the mask; alpha masks: the group's alpha. `/TR` maps the values. Outside
    /// the group's bounds the mask is the backdrop's value, which is what the filled surface holds.
    func maskSurface(_ mask: SoftMask) -> ImageSurface? {
        let key = RenderEnvironment.MaskKey(mask: ObjectIdentifier(mask), device: device)
        if let surface = environment.masks[key] { return surface }
        guard depth < Replayer.maximumDepth, let group = ImageSurface(width: size.width, height: size.height),
            let result = ImageSurface(width: size.width, height: size.height, alphaOnly: true),
            let maskContext = cairo_create(group.pointer)
        else {
            environment.warn("a soft mask could not be rendered")
            return nil
        }
        if mask.kind == .luminosity {
            cairo_set_source_rgb(maskContext, mask.backdrop.r, mask.backdrop.g, mask.backdrop.b)
            cairo_paint(maskContext)
        }
        if let bounds = mask.bounds {
            let box = device.apply(bounds)
            cairo_rectangle(maskContext, box.x0, box.y0, box.width, box.height)
            cairo_clip(maskContext)
        }
        let replayer = Replayer(
            context: maskContext, device: device, size: size, environment: environment, depth: depth + 1)
        replayer.replay(mask.group.items)
        replayer.finish()
        cairo_destroy(maskContext)
        cairo_surface_flush(group.pointer)

        let transfer: [UInt8]? = mask.transfer.map { function in
            (0..<256).map { ShadingPatterns.channel(function(Double($0) / 255)) }
        }
        let luminosity = mask.kind == .luminosity
        group.withPixels { source, sourceStride in
            result.withPixels { target, targetStride in
                for y in 0..<size.height {
                    let from = (source + y * sourceStride).assumingMemoryBound(to: UInt32.self)
                    let to = (target + y * targetStride).assumingMemoryBound(to: UInt8.self)
                    for x in 0..<size.width {
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
        return result
    }
}
