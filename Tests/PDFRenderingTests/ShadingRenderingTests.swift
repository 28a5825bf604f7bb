import Foundation
import PDFCore
import PDFGraphics
import PDFRendering
import PDFTestSupport
import Testing

/// Axial, radial, function-based and mesh shadings against MuPDF.
@Suite("Shadings against MuPDF")
struct ShadingRenderingTests {
    /// `/Function` of a type 2 interpolation from `c0` to `c1`, and the same in Swift.
    static func ramp(_ c0: RGB, _ c1: RGB) -> (pdf: String, color: @Sendable (Double) -> RGB) {
        (
            "<< /FunctionType 2 /Domain [0 1] /C0 [\(c0.r) \(c0.g) \(c0.b)] /C1 [\(c1.r) \(c1.g) \(c1.b)] /N 1 >>",
            { t in RGB(c0.r + t * (c1.r - c0.r), c0.g + t * (c1.g - c0.g), c0.b + t * (c1.b - c0.b)) }
        )
    }

    static func extendText(_ extend: (Bool, Bool)) -> String { "[\(extend.0) \(extend.1)]" }

    @Test(
        "Axial shadings with each combination of extends, as sh and as a pattern fill, match MuPDF",
        arguments: [(false, false), (true, true), (true, false), (false, true)])
    func axial(_ extend: (Bool, Bool)) throws {
        let ramp = Self.ramp(RGB(1, 0.9, 0), RGB(0, 0.2, 0.8))
        let shading = Shading(
            geometry: .axial(start: PDFPoint(60, 40), end: PDFPoint(140, 80), t0: 0, t1: 1, extend: extend),
            color: ramp.color
        )
        let clip = TestPath.rectangle(10, 10, 180, 100)
        let disc = TestPath.circle(100, 155, 40)
        let patternMatrix = PDFMatrix(1, 0, 0, 1, 0, 100)
        let list = DisplayList(items: [
            .save, .clip(clip.path, .nonZero, ctm: .identity),
            .shading(shading, ctm: .identity, state: DrawState()),
            .restore,
            .fill(disc.path, .nonZero, .shading(shading, matrix: patternMatrix), ctm: .identity, state: DrawState()),
        ])
        let dictionary = """
            << /ShadingType 2 /ColorSpace /DeviceRGB /Coords [60 40 140 80] /Extend \(Self.extendText(extend))
            /Function \(ramp.pdf) >>
            """
        let page = HandPage(
            content: """
                q \(clip.operators) W n /Sh sh Q
                /Pattern cs /P scn \(disc.operators) f
                """,
            resources: """
                << /Shading << /Sh \(dictionary) >> /Pattern << /P << /PatternType 2 /Matrix [1 0 0 1 0 100] /Shading \(dictionary) >> >> >>
                """)
        try Fidelity.expectMatch(page.rendered(list), label: "axial \(extend)")
    }

    @Test(
        "Radial shadings with each combination of extends match MuPDF",
        arguments: [(false, false), (true, true), (true, false), (false, true)])
    func radial(_ extend: (Bool, Bool)) throws {
        let ramp = Self.ramp(RGB(1, 0.2, 0.2), RGB(0.1, 0.1, 0.9))
        // One circle inside the other (a cone opening outwards) and two apart.
        let nested = Shading(
            geometry: .radial(
                start: PDFPoint(70, 60), startRadius: 8, end: PDFPoint(90, 60), endRadius: 45, t0: 0, t1: 1,
                extend: extend),
            color: ramp.color)
        let apart = Shading(
            geometry: .radial(
                start: PDFPoint(40, 150), startRadius: 10, end: PDFPoint(120, 160), endRadius: 25, t0: 0, t1: 1,
                extend: extend),
            color: ramp.color)
        let top = TestPath.rectangle(0, 110, 200, 90)
        let list = DisplayList(items: [
            .save, .clip(TestPath.rectangle(0, 0, 200, 110).path, .nonZero, ctm: .identity),
            .shading(nested, ctm: .identity, state: DrawState()), .restore,
            .save, .clip(top.path, .nonZero, ctm: .identity),
            .shading(apart, ctm: .identity, state: DrawState()), .restore,
        ])
        let page = HandPage(
            content: "q 0 0 200 110 re W n /A sh Q q \(top.operators) W n /B sh Q",
            resources: """
                << /Shading << /A << /ShadingType 3 /ColorSpace /DeviceRGB /Coords [70 60 8 90 60 45]
                /Extend \(Self.extendText(extend)) /Function \(ramp.pdf) >>
                /B << /ShadingType 3 /ColorSpace /DeviceRGB /Coords [40 150 10 120 160 25]
                /Extend \(Self.extendText(extend)) /Function \(ramp.pdf) >> >> >>
                """)
        try Fidelity.expectMatch(page.rendered(list), label: "radial \(extend)")
    }

    @Test("A function-based shading (type 1) with a matrix and a domain matches MuPDF")
    func functionBased() throws {
        let shading = Shading(
            geometry: .function(
                domain: [0, 1, 0, 1], matrix: PDFMatrix(120, 30, -20, 100, 40, 40),
                color: { x, y in RGB(x, y, 1 - x * y) }),
            color: { _ in .black })
        let list = DisplayList(items: [.shading(shading, ctm: .identity, state: DrawState())])
        let page = HandPage(
            content: "/F sh",
            resources: """
                << /Shading << /F << /ShadingType 1 /ColorSpace /DeviceRGB /Domain [0 1 0 1]
                /Matrix [120 30 -20 100 40 40]
                /Function 5 0 R >> >> >>
                """,
            objects: [
                .stream(
                    "/FunctionType 4 /Domain [0 1 0 1] /Range [0 1 0 1 0 1]",
                    Array("{ 2 copy mul 1 exch sub }".utf8))
            ])
        try Fidelity.expectMatch(page.rendered(list), label: "function-based")
        try Fidelity.expectMatch(page.rendered(list, dpi: 300), label: "function-based at 300 dpi")
    }

    @Test("Triangle meshes (type 4) and a tensor-product patch (type 7) match MuPDF")
    func meshes() throws {
        // Type 4: flag, x, y (16 bits over [0 200]), r g b (8 bits).
        let vertices: [(Double, Double, RGB)] = [
            (10, 10, RGB(1, 0, 0)), (110, 20, RGB(0, 1, 0)), (40, 100, RGB(0, 0, 1)),
            (110, 20, RGB(0, 1, 0)), (40, 100, RGB(0, 0, 1)), (100, 90, RGB(1, 1, 0)),
        ]
        var meshData: [UInt8] = []
        func coordinate(_ value: Double) -> [UInt8] {
            let encoded = Int((value / 200 * 65535).rounded())
            return [UInt8(encoded >> 8), UInt8(encoded & 0xFF)]
        }
        func decoded(_ value: Double) -> Double { (value / 200 * 65535).rounded() / 65535 * 200 }
        for (x, y, c) in vertices {
            meshData += [0] + coordinate(x) + coordinate(y)
            meshData += [UInt8(c.r * 255), UInt8(c.g * 255), UInt8(c.b * 255)]
        }
        var triangles: [MeshTriangle] = []
        for first in stride(from: 0, to: vertices.count, by: 3) {
            let v = vertices[first..<(first + 3)].map { (PDFPoint(decoded($0.0), decoded($0.1)), $0.2) }
            triangles.append(MeshTriangle(points: (v[0].0, v[1].0, v[2].0), colors: (v[0].1, v[1].1, v[2].1)))
        }
        // Type 7: p_ij at (x0 + 30 i, y0 + 25 j) with a bulging top edge; corners c00 c03 c33 c30.
        var points = [PDFPoint](repeating: PDFPoint(0, 0), count: 16)
        for i in 0..<4 {
            for j in 0..<4 {
                points[4 * i + j] = PDFPoint(
                    80 + 30 * Double(i), 110 + 25 * Double(j) + (j == 3 && (i == 1 || i == 2) ? 15 : 0))
            }
        }
        let colors = [RGB(1, 0, 0), RGB(0, 1, 0), RGB(0, 0, 1), RGB(1, 1, 0)]
        let order = [
            (0, 0), (0, 1), (0, 2), (0, 3), (1, 3), (2, 3), (3, 3), (3, 2), (3, 1), (3, 0), (2, 0), (1, 0), (1, 1),
            (1, 2), (2, 2), (2, 1),
        ]
        var patchData: [UInt8] = [0]
        for (i, j) in order {
            patchData += coordinate(points[4 * i + j].x) + coordinate(points[4 * i + j].y)
            points[4 * i + j] = PDFPoint(decoded(points[4 * i + j].x), decoded(points[4 * i + j].y))
        }
        for c in colors { patchData += [UInt8(c.r * 255), UInt8(c.g * 255), UInt8(c.b * 255)] }
        let list = DisplayList(items: [
            .shading(
                Shading(geometry: .triangles(triangles), color: { _ in .black }), ctm: .identity, state: DrawState()),
            .shading(
                Shading(geometry: .patches([MeshPatch(points: points, colors: colors)]), color: { _ in .black }),
                ctm: .identity, state: DrawState()),
        ])
        let page = HandPage(
            content: "/T sh /P sh",
            resources: "<< /Shading << /T 5 0 R /P 6 0 R >> >>",
            objects: [
                .stream(
                    "/ShadingType 4 /ColorSpace /DeviceRGB /BitsPerCoordinate 16 /BitsPerComponent 8 /BitsPerFlag 8 /Decode [0 200 0 200 0 1 0 1 0 1]",
                    meshData),
                .stream(
                    "/ShadingType 7 /ColorSpace /DeviceRGB /BitsPerCoordinate 16 /BitsPerComponent 8 /BitsPerFlag 8 /Decode [0 200 0 200 0 1 0 1 0 1]",
                    patchData),
            ])
        try Fidelity.expectMatch(page.rendered(list), label: "meshes")
    }
}
