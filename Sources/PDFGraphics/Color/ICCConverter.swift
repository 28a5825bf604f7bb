/// Colour management hook (ISO 32000-2 §8.6.5.5): makes converters from ICC profiles to sRGB.
///
/// Implemented in PDFRendering with lcms2 (`LCMSConverterFactory`) so that PDFGraphics stays free
/// of C. Without a factory, an `/ICCBased` space is drawn through its `/Alternate` space.
public protocol ICCConverterFactory: Sendable {
    /// A converter from an ICC profile with `componentCount` channels to sRGB, or nil when the
    /// profile cannot be used (unreadable, or its channels do not match `componentCount`).
    func converter(profile: [UInt8], componentCount: Int) -> (any ICCConverter)?
}

/// Converts colours of one ICC profile to sRGB.
public protocol ICCConverter: Sendable {
    /// The sRGB colour of `components`, each from 0 to 1.
    func rgb(_ components: [Double]) -> RGB
    /// Converts `pixelCount` pixels of interleaved components (each 0 to 1) to 3 bytes (R, G, B) each.
    func rgbBytes(fromUnitComponents components: [Float], pixelCount: Int) -> [UInt8]
}
