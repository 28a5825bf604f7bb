import Foundation
import PDFTestSupport

/// ICC profiles written by the tests (ICC.1:2022, version 4.3): no profile files are installed on
/// the build machines, and none are checked in.
enum TestProfiles {
    /// sRGB as lcms2 builds it (`cmsCreate_sRGBProfile`): Rec. 709 primaries and D65 white adapted
    /// to D50 with the Bradford transform, the IEC 61966-2-1 curve as a parametric curve.
    static let sRGB: [UInt8] = {
        let curve = ICCProfile.parametricCurve(function: 3, SRGB.curveParameters)
        return ICCProfile(
            deviceClass: "mntr", colorSpace: "RGB ", connectionSpace: "XYZ ",
            tags: [
                ("desc", ICCProfile.text("Autograph test sRGB")), ("cprt", ICCProfile.text("No copyright")),
                ("wtpt", ICCProfile.xyz(SRGB.d50)), ("rXYZ", ICCProfile.xyz(SRGB.column(0))),
                ("gXYZ", ICCProfile.xyz(SRGB.column(1))), ("bXYZ", ICCProfile.xyz(SRGB.column(2))),
                ("rTRC", curve), ("gTRC", curve), ("bTRC", curve),
            ]
        ).bytes()
    }()

    /// A gray profile: D50 white, gamma 2.2.
    static let gray: [UInt8] = ICCProfile(
        deviceClass: "mntr", colorSpace: "GRAY", connectionSpace: "XYZ ",
        tags: [
            ("desc", ICCProfile.text("Autograph test gray")), ("cprt", ICCProfile.text("No copyright")),
            ("wtpt", ICCProfile.xyz(SRGB.d50)), ("kTRC", ICCProfile.parametricCurve(function: 0, [2.2])),
        ]
    ).bytes()

    /// A CMYK output profile (Lab PCS, identity curves around a 17-point CLUT as AToB0) whose
    /// colours are, by construction, the sRGB colours r = 1 − min(1, c + k) … : each grid point's
    /// Lab is that sRGB colour's (D50, as lcms2 converts it relative colorimetrically).
    static let cmyk: [UInt8] = {
        let points = 17
        var table: [UInt16] = []
        table.reserveCapacity(points * points * points * points * 3)
        // The first input (cyan) varies slowest (ICC.1 §10.12.3).
        for c in 0..<points {
            for m in 0..<points {
                for y in 0..<points {
                    for k in 0..<points {
                        let ink = [c, m, y, k].map { Double($0) / Double(points - 1) }
                        let lab = SRGB.lab((0..<3).map { 1 - min(1, ink[$0] + ink[3]) })
                        // The 16-bit Lab encoding of version 4: L* 0…100 and a*, b* −128…127 over 0…65535.
                        table += [lab.l * 65535 / 100, (lab.a + 128) * 257, (lab.b + 128) * 257].map {
                            UInt16(min(max($0.rounded(), 0), 65535))
                        }
                    }
                }
            }
        }
        return ICCProfile(
            deviceClass: "prtr", colorSpace: "CMYK", connectionSpace: "Lab ",
            tags: [
                ("desc", ICCProfile.text("Autograph test CMYK")), ("cprt", ICCProfile.text("No copyright")),
                ("wtpt", ICCProfile.xyz(SRGB.d50)),
                ("A2B0", ICCProfile.lutAToB(inputs: 4, outputs: 3, gridPoints: points, table: table)),
            ]
        ).bytes()
    }()

    /// A real-world sRGB profile when one is installed (pikepdf ships one).
    static var installedSRGB: [UInt8]? {
        let result = try? Oracle.run("python3", ["-c", "import pikepdf, os; print(os.path.dirname(pikepdf.__file__))"])
        guard let directory = result?.output.trimmingCharacters(in: .whitespacesAndNewlines), !directory.isEmpty,
            let data = FileManager.default.contents(atPath: directory + "/pdfa/data/sRGB.icc")
        else { return nil }
        return Array(data)
    }
}

/// sRGB's colorimetry as lcms2 builds its sRGB profile, and the conversion of sRGB colours to CIE Lab.
enum SRGB {
    /// lcms2's D50 (`cmsD50_XYZ`), the profile connection space's white.
    static let d50 = [0.9642, 1.0, 0.8249]

    /// IEC 61966-2-1: Y = ((X + 0.055) / 1.055)^2.4 above 0.04045, X / 12.92 below, as the ICC
    /// parametric function 3 (g, a, b, c, d).
    static let curveParameters = [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045]

    /// Linear RGB to XYZ under D50: the columns are the colorants.
    static let matrix: [[Double]] = {
        func xyz(_ x: Double, _ y: Double) -> [Double] { [x / y, 1, (1 - x - y) / y] }
        let primaries = transpose([xyz(0.64, 0.33), xyz(0.30, 0.60), xyz(0.15, 0.06)])
        let white = xyz(0.3127, 0.3290)
        let scale = multiply(inverse(primaries), white)
        let d65 = primaries.map { row in (0..<3).map { row[$0] * scale[$0] } }
        // Bradford: the cone responses of each white, the ratio applied between the two.
        let bradford = [[0.8951, 0.2664, -0.1614], [-0.7502, 1.7135, 0.0367], [0.0389, -0.0685, 1.0296]]
        let from = multiply(bradford, white)
        let to = multiply(bradford, d50)
        let ratio = (0..<3).map { row in (0..<3).map { row == $0 ? to[row] / from[row] : 0 } }
        return multiply(multiply(inverse(bradford), multiply(ratio, bradford)), d65)
    }()

    static func column(_ index: Int) -> [Double] { matrix.map { $0[index] } }

    /// The CIE Lab (D50) of an sRGB colour, components 0…1.
    static func lab(_ rgb: [Double]) -> (l: Double, a: Double, b: Double) {
        let p = curveParameters
        let linear = rgb.map { $0 >= p[4] ? pow(p[1] * $0 + p[2], p[0]) : p[3] * $0 }
        let xyz = multiply(matrix, linear)
        func f(_ t: Double) -> Double { t <= pow(24.0 / 116, 3) ? 841.0 / 108 * t + 16.0 / 116 : cbrt(t) }
        let (fx, fy, fz) = (f(xyz[0] / d50[0]), f(xyz[1] / d50[1]), f(xyz[2] / d50[2]))
        return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))
    }

    static func multiply(_ matrix: [[Double]], _ vector: [Double]) -> [Double] {
        matrix.map { row in zip(row, vector).map { $0 * $1 }.reduce(0, +) }
    }

    static func multiply(_ a: [[Double]], _ b: [[Double]]) -> [[Double]] {
        a.map { row in (0..<3).map { column in (0..<3).map { row[$0] * b[$0][column] }.reduce(0, +) } }
    }

    static func transpose(_ matrix: [[Double]]) -> [[Double]] {
        (0..<3).map { row in (0..<3).map { matrix[$0][row] } }
    }

    static func inverse(_ m: [[Double]]) -> [[Double]] {
        let cofactors = (0..<3).map { row in
            (0..<3).map { column in
                let (r1, r2) = ((row + 1) % 3, (row + 2) % 3)
                let (c1, c2) = ((column + 1) % 3, (column + 2) % 3)
                return m[r1][c1] * m[r2][c2] - m[r1][c2] * m[r2][c1]
            }
        }
        let determinant = (0..<3).map { m[0][$0] * cofactors[0][$0] }.reduce(0, +)
        return (0..<3).map { row in (0..<3).map { cofactors[$0][row] / determinant } }
    }
}

/// An ICC profile (ICC.1:2022 §7): the 128-byte header, the tag table, the tags' data.
struct ICCProfile {
    /// `mntr`, `prtr`, …
    var deviceClass: String
    /// The data colour space: `RGB `, `GRAY`, `CMYK`.
    var colorSpace: String
    /// The profile connection space: `XYZ ` or `Lab `.
    var connectionSpace: String
    /// Signature and data of each tag, in order.
    var tags: [(String, [UInt8])]

    func bytes() -> [UInt8] {
        var data: [UInt8] = []
        var table = Self.uint32(tags.count)
        for (signature, tag) in tags {
            while data.count % 4 != 0 { data.append(0) }
            table +=
                Self.signature(signature) + Self.uint32(128 + 4 + 12 * tags.count + data.count)
                + Self.uint32(tag.count)
            data += tag
        }
        while data.count % 4 != 0 { data.append(0) }
        let size = 128 + table.count + data.count
        var header = Self.uint32(size) + [0, 0, 0, 0] + [4, 0x30, 0, 0]
        header += Self.signature(deviceClass) + Self.signature(colorSpace) + Self.signature(connectionSpace)
        header += [UInt8](repeating: 0, count: 12)  // creation date: none, so the bytes never change
        header += Self.signature("acsp") + [UInt8](repeating: 0, count: 28)  // platform … rendering intent
        header += Self.xyzNumber(SRGB.d50)  // the PCS illuminant
        header += [UInt8](repeating: 0, count: 128 - header.count)
        return header + table + data
    }

    /// XYZType (§10.31).
    static func xyz(_ value: [Double]) -> [UInt8] { signature("XYZ ") + [0, 0, 0, 0] + xyzNumber(value) }

    /// parametricCurveType (§10.18) with function type `function` (0: Y = X^g; 3: the sRGB form).
    static func parametricCurve(function: Int, _ parameters: [Double]) -> [UInt8] {
        signature("para") + [0, 0, 0, 0] + [0, UInt8(function), 0, 0] + parameters.flatMap(s15Fixed16)
    }

    /// multiLocalizedUnicodeType (§10.15) with one English record.
    static func text(_ text: String) -> [UInt8] {
        let utf16 = text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        return signature("mluc") + [0, 0, 0, 0] + uint32(1) + uint32(12) + Array("enUS".utf8) + uint32(utf16.count)
            + uint32(28) + utf16
    }

    /// lutAToBType (§10.12) with identity A and B curves around a 16-bit CLUT of `gridPoints` per
    /// input (no M curves, no matrix).
    static func lutAToB(inputs: Int, outputs: Int, gridPoints: Int, table: [UInt16]) -> [UInt8] {
        let identity = signature("curv") + [0, 0, 0, 0] + uint32(0)  // no entries: the identity
        let bCurves = [UInt8](repeatElement(identity, count: outputs).joined())
        let aCurves = [UInt8](repeatElement(identity, count: inputs).joined())
        var clut = (0..<16).map { $0 < inputs ? UInt8(gridPoints) : 0 } + [2, 0, 0, 0]
        clut += table.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        while clut.count % 4 != 0 { clut.append(0) }
        let bOffset = 32
        let clutOffset = bOffset + bCurves.count
        let aOffset = clutOffset + clut.count
        return signature("mAB ") + [0, 0, 0, 0] + [UInt8(inputs), UInt8(outputs), 0, 0] + uint32(bOffset)
            + uint32(0) + uint32(0) + uint32(clutOffset) + uint32(aOffset) + bCurves + clut + aCurves
    }

    static func signature(_ text: String) -> [UInt8] { Array(text.utf8.prefix(4)) }

    static func uint32(_ value: Int) -> [UInt8] { (0..<4).reversed().map { UInt8((value >> (8 * $0)) & 0xFF) } }

    static func s15Fixed16(_ value: Double) -> [UInt8] { uint32(Int(Int32((value * 65536).rounded()))) }

    static func xyzNumber(_ value: [Double]) -> [UInt8] { value.flatMap(s15Fixed16) }
}
