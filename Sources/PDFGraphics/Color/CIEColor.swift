#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// CIE-based colour (ISO 32000-2 §8.6.5) to sRGB: tristimulus values relative to the space's
/// `/WhitePoint` are adapted to D65 with the Bradford transform, converted with the sRGB matrix
/// (IEC 61966-2-1) and encoded with the sRGB curve. This is what a colour-managed reader does
/// through the D50 profile connection space (lcms2 adapts with Bradford too), so a diffuse white
/// maps to sRGB white whatever the white point.
struct CIEConversion: Sendable {
    /// XYZ (relative to the white point) to linear sRGB, adaptation included; row-major 3 × 3.
    let matrix: [Double]
    /// The space's `/WhitePoint` (Xw, Yw, Zw).
    let whitePoint: (Double, Double, Double)

    static let d65: (Double, Double, Double) = (0.95047, 1.0, 1.08883)

    private static let bradford: [Double] = [
        0.8951, 0.2664, -0.1614,
        -0.7502, 1.7135, 0.0367,
        0.0389, -0.0685, 1.0296,
    ]
    private static let bradfordInverse: [Double] = [
        0.9869929, -0.1470543, 0.1599627,
        0.4323053, 0.5183603, 0.0492912,
        -0.0085287, 0.0400428, 0.9684867,
    ]
    private static let xyzToSRGB: [Double] = [
        3.2404542, -1.5371385, -0.4985314,
        -0.9692660, 1.8760108, 0.0415560,
        0.0556434, -0.2040259, 1.0572252,
    ]

    init(whitePoint: (Double, Double, Double)) {
        self.whitePoint = whitePoint
        let source = CIEConversion.multiply(CIEConversion.bradford, [whitePoint.0, whitePoint.1, whitePoint.2])
        let target = CIEConversion.multiply(CIEConversion.bradford, [CIEConversion.d65.0, 1, CIEConversion.d65.2])
        var scale = [Double](repeating: 0, count: 9)
        for i in 0..<3 { scale[4 * i] = source[i] != 0 ? target[i] / source[i] : 1 }
        let adaptation = CIEConversion.product(
            CIEConversion.bradfordInverse, CIEConversion.product(scale, CIEConversion.bradford))
        matrix = CIEConversion.product(CIEConversion.xyzToSRGB, adaptation)
    }

    /// Linear sRGB (unclamped) of XYZ relative to the white point.
    @inline(__always)
    func linear(_ x: Double, _ y: Double, _ z: Double) -> (Double, Double, Double) {
        (
            matrix[0] * x + matrix[1] * y + matrix[2] * z,
            matrix[3] * x + matrix[4] * y + matrix[5] * z,
            matrix[6] * x + matrix[7] * y + matrix[8] * z
        )
    }

    func rgb(_ x: Double, _ y: Double, _ z: Double) -> RGB {
        let (r, g, b) = linear(x, y, z)
        return RGB(CIEConversion.encode(r), CIEConversion.encode(g), CIEConversion.encode(b))
    }

    /// The sRGB transfer curve, clamped to 0…1.
    @inline(__always)
    static func encode(_ linear: Double) -> Double {
        guard linear > 0 else { return 0 }
        guard linear < 1 else { return 1 }
        return linear <= 0.0031308 ? 12.92 * linear : 1.055 * pow(linear, 1 / 2.4) - 0.055
    }

    /// CIE L*a*b* to XYZ relative to a white point of `white` (ISO 32000-2 §8.6.5.4).
    @inline(__always)
    static func labToXYZ(
        _ l: Double, _ a: Double, _ b: Double, white: (Double, Double, Double)
    ) -> (Double, Double, Double) {
        let m = (l + 16) / 116
        func g(_ x: Double) -> Double { x >= 6.0 / 29.0 ? x * x * x : 108.0 / 841.0 * (x - 4.0 / 29.0) }
        return (white.0 * g(m + a / 500), white.1 * g(m), white.2 * g(m - b / 200))
    }

    static func multiply(_ m: [Double], _ v: [Double]) -> [Double] {
        (0..<3).map { m[3 * $0] * v[0] + m[3 * $0 + 1] * v[1] + m[3 * $0 + 2] * v[2] }
    }

    static func product(_ a: [Double], _ b: [Double]) -> [Double] {
        var result = [Double](repeating: 0, count: 9)
        for i in 0..<3 {
            for j in 0..<3 { result[3 * i + j] = (0..<3).reduce(0) { $0 + a[3 * i + $1] * b[3 * $1 + j] } }
        }
        return result
    }
}
