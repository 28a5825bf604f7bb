import CLCMS2
import PDFGraphics

/// One lcms2 transform from an ICC profile to sRGB, with float input and output.
///
/// lcms2 (since 2.3) lets several threads call `cmsDoTransform` on one transform at once; the
/// transform is also made without the one-pixel cache, so nothing in it changes after creation.
final class LCMSTransform: ICCConverter, @unchecked Sendable {
    private let handle: cmsHTRANSFORM
    let componentCount: Int
    /// CMYK float formats take ink amounts from 0 to 100 (lcms2's convention for ink spaces).
    private let inputScale: Float

    // lcms2's pixel-format macros are not imported into Swift; these are their values
    // (FLOAT_SH(1) | COLORSPACE_SH(pt) | CHANNELS_SH(n) | BYTES_SH(4)).
    private static func floatFormat(colorSpace: UInt32, channels: UInt32) -> UInt32 {
        (1 << 22) | (colorSpace << 16) | (channels << 3) | 4
    }
    static let grayFloat = floatFormat(colorSpace: 3, channels: 1)
    static let rgbFloat = floatFormat(colorSpace: 4, channels: 3)
    static let cmykFloat = floatFormat(colorSpace: 6, channels: 4)
    static let relativeColorimetric: UInt32 = 1
    static let noCache: UInt32 = 0x0040

    /// Makes the transform, or returns nil when lcms2 cannot read the profile, the profile's colour
    /// space does not have `componentCount` channels, or it cannot be used as an input profile.
    /// Must not run concurrently with other profile or transform creation (``LCMSConverterFactory`` serialises it).
    init?(profile bytes: [UInt8], componentCount: Int) {
        guard !bytes.isEmpty, bytes.count <= Int(UInt32.max) else { return nil }
        guard let profile = bytes.withUnsafeBytes({ cmsOpenProfileFromMem($0.baseAddress, UInt32($0.count)) }) else {
            return nil
        }
        defer { cmsCloseProfile(profile) }
        let format: UInt32
        switch (cmsGetColorSpace(profile), componentCount) {
        case (cmsSigGrayData, 1): format = LCMSTransform.grayFloat
        case (cmsSigRgbData, 3): format = LCMSTransform.rgbFloat
        case (cmsSigCmykData, 4): format = LCMSTransform.cmykFloat
        default: return nil
        }
        switch cmsGetDeviceClass(profile) {
        case cmsSigLinkClass, cmsSigAbstractClass, cmsSigNamedColorClass: return nil
        default: break
        }
        guard let srgb = cmsCreate_sRGBProfile() else { return nil }
        defer { cmsCloseProfile(srgb) }
        guard
            let transform = cmsCreateTransform(
                profile, format, srgb, LCMSTransform.rgbFloat, LCMSTransform.relativeColorimetric,
                LCMSTransform.noCache)
        else { return nil }
        handle = transform
        self.componentCount = componentCount
        inputScale = componentCount == 4 ? 100 : 1
    }

    deinit { cmsDeleteTransform(handle) }

    func rgb(_ components: [Double]) -> RGB {
        var input = [Float](repeating: 0, count: componentCount)
        for i in 0..<min(componentCount, components.count) {
            input[i] = Float(min(max(components[i], 0), 1)) * inputScale
        }
        var output = [Float](repeating: 0, count: 3)
        input.withUnsafeBytes { source in
            output.withUnsafeMutableBytes { target in
                cmsDoTransform(handle, source.baseAddress, target.baseAddress, 1)
            }
        }
        return RGB(
            Double(min(max(output[0], 0), 1)), Double(min(max(output[1], 0), 1)), Double(min(max(output[2], 0), 1)))
    }

    func rgbBytes(fromUnitComponents components: [Float], pixelCount: Int) -> [UInt8] {
        let pixelCount = max(0, min(pixelCount, components.count / componentCount))
        var bytes = [UInt8](repeating: 0, count: pixelCount * 3)
        guard pixelCount > 0 else { return bytes }
        // Converted in chunks so the float buffers stay small for big images.
        let chunk = 1 << 16
        var input = [Float](repeating: 0, count: min(chunk, pixelCount) * componentCount)
        var output = [Float](repeating: 0, count: min(chunk, pixelCount) * 3)
        var start = 0
        while start < pixelCount {
            let count = min(chunk, pixelCount - start)
            let base = start * componentCount
            for i in 0..<(count * componentCount) { input[i] = min(max(components[base + i], 0), 1) * inputScale }
            input.withUnsafeBytes { source in
                output.withUnsafeMutableBytes { target in
                    cmsDoTransform(handle, source.baseAddress, target.baseAddress, UInt32(count))
                }
            }
            for i in 0..<(count * 3) {
                let value = output[i]
                bytes[start * 3 + i] = value.isNaN ? 0 : UInt8(min(max(value * 255 + 0.5, 0), 255))
            }
            start += count
        }
        return bytes
    }
}
