import PDFCore

/// A colour space (ISO 32000-2 §8.6) that turns colour components into sRGB.
///
/// Device spaces convert as MuPDF does without colour management (CMYK: r = 1 − min(1, c + k) …);
/// CIE-based spaces (CalGray, CalRGB, Lab) go through XYZ with Bradford adaptation to D65
/// (`CIEConversion`); `/ICCBased` spaces go through an injected ``ICCConverterFactory``, else
/// their `/Alternate`, else the device space with `/N` components. Instances are immutable and
/// may be shared between threads.
public final class ColorSpace: Sendable {
    enum Family: Sendable {
        case deviceGray, deviceRGB, deviceCMYK
        case calGray(CIEConversion, gamma: Double)
        case calRGB(CIEConversion, gamma: [Double], matrix: [Double])
        case lab(CIEConversion)
        case iccBased(any ICCConverter)
        /// `table` holds the sRGB colour of each index 0…hival.
        case indexed(base: ColorSpace, table: [RGB])
        /// Separation and DeviceN; `paintsNothing` for `/None` colorants.
        case tint(PDFFunction, alternate: ColorSpace, paintsNothing: Bool)
        case pattern(base: ColorSpace?)
    }

    let family: Family
    /// The space's family name as PDF writes it (`DeviceRGB`, `Separation` …), for messages.
    public let name: String
    /// The number of colour components an operator like `sc` takes (for a Pattern space, those
    /// of its underlying space, 0 for coloured patterns).
    public let componentCount: Int
    /// Each component's minimum and maximum (2 × ``componentCount`` numbers): 0 and 1 except for
    /// Lab (L from 0 to 100, a and b from `/Range`), ICCBased (`/Range`) and Indexed (0 to hival).
    public let ranges: [Double]

    init(_ family: Family, name: String, componentCount: Int, ranges: [Double]? = nil) {
        self.family = family
        self.name = name
        self.componentCount = componentCount
        self.ranges = ranges ?? Array(repeating: [0.0, 1.0], count: componentCount).flatMap { $0 }
    }

    /// `/DeviceGray` (ISO 32000-2 §8.6.4.2).
    public static let deviceGray = ColorSpace(.deviceGray, name: "DeviceGray", componentCount: 1)
    /// `/DeviceRGB` (ISO 32000-2 §8.6.4.3).
    public static let deviceRGB = ColorSpace(.deviceRGB, name: "DeviceRGB", componentCount: 3)
    /// `/DeviceCMYK` (ISO 32000-2 §8.6.4.4).
    public static let deviceCMYK = ColorSpace(.deviceCMYK, name: "DeviceCMYK", componentCount: 4)

    /// Whether this is a Pattern space (ISO 32000-2 §8.6.6.2): `scn` then names a pattern.
    public var isPattern: Bool {
        if case .pattern = family { return true }
        return false
    }

    /// The underlying space of an uncoloured-pattern space (`[/Pattern /DeviceRGB]`), else nil.
    public var patternBase: ColorSpace? {
        if case .pattern(let base) = family { return base }
        return nil
    }

    /// Whether this is an Indexed space (ISO 32000-2 §8.6.6.3).
    public var isIndexed: Bool {
        if case .indexed = family { return true }
        return false
    }

    /// Whether painting in this space marks nothing: a Separation or DeviceN space whose colorants
    /// are all `/None` (ISO 32000-2 §8.6.6.4).
    public var paintsNothing: Bool {
        if case .tint(_, _, let paintsNothing) = family { return paintsNothing }
        return false
    }

    /// The colour a `cs` operator selects (ISO 32000-2 §8.6.5, §8.6.6): black for device and
    /// CIE spaces (components at 0, or in `/Range` nearest 0; DeviceCMYK 0 0 0 1), index 0 for
    /// Indexed, tints of 1.0 for Separation and DeviceN, nothing for Pattern.
    public var initialColor: [Double] {
        switch family {
        case .deviceCMYK: return [0, 0, 0, 1]
        case .tint: return Array(repeating: 1, count: componentCount)
        case .pattern: return []
        default: return (0..<componentCount).map { min(max(0, ranges[2 * $0]), ranges[2 * $0 + 1]) }
        }
    }

    /// The `/Decode` array an image in this space has by default (ISO 32000-2 Table 90):
    /// [0 2^bpc − 1] for Indexed, the component ranges otherwise.
    public func defaultDecode(bitsPerComponent: Int) -> [Double] {
        if case .indexed = family { return [0, Double((1 << min(max(bitsPerComponent, 1), 16)) - 1)] }
        return ranges
    }

    /// The sRGB colour (components 0…1) of `components`, each clamped to its range; missing
    /// components count as the minimum of their range.
    public func rgb(_ components: [Double]) -> RGB {
        var values = [Double](repeating: 0, count: componentCount)
        for i in 0..<componentCount {
            let value = i < components.count && components[i].isFinite ? components[i] : ranges[2 * i]
            values[i] = min(max(value, ranges[2 * i]), ranges[2 * i + 1])
        }
        return convert(values)
    }

    /// Converts components already clamped to their ranges.
    func convert(_ c: [Double]) -> RGB {
        switch family {
        case .deviceGray:
            return RGB(c[0], c[0], c[0])
        case .deviceRGB:
            return RGB(c[0], c[1], c[2])
        case .deviceCMYK:
            return RGB(1 - min(1, c[0] + c[3]), 1 - min(1, c[1] + c[3]), 1 - min(1, c[2] + c[3]))
        case .calGray(let conversion, let gamma):
            let a = pow(c[0], gamma)
            let white = conversion.whitePoint
            return conversion.rgb(white.0 * a, white.1 * a, white.2 * a)
        case .calRGB(let conversion, let gamma, let m):
            let (a, b, cc) = (pow(c[0], gamma[0]), pow(c[1], gamma[1]), pow(c[2], gamma[2]))
            return conversion.rgb(
                m[0] * a + m[3] * b + m[6] * cc, m[1] * a + m[4] * b + m[7] * cc, m[2] * a + m[5] * b + m[8] * cc)
        case .lab(let conversion):
            let (x, y, z) = CIEConversion.labToXYZ(c[0], c[1], c[2], white: conversion.whitePoint)
            return conversion.rgb(x, y, z)
        case .iccBased(let converter):
            let unit = (0..<componentCount).map { i in
                let (low, high) = (ranges[2 * i], ranges[2 * i + 1])
                return high > low ? (c[i] - low) / (high - low) : 0
            }
            return converter.rgb(unit)
        case .indexed(_, let table):
            return table[min(max(Int(c[0].rounded()), 0), table.count - 1)]
        case .tint(let function, let alternate, _):
            return alternate.rgb(function.evaluate(c))
        case .pattern(let base):
            return base?.rgb(c) ?? .black
        }
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
