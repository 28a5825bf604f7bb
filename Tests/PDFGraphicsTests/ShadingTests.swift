import Foundation
import PDFAuthoring
import PDFCore
import PDFGraphics
import PDFTestSupport
import Testing

/// A page that paints one shading over the whole page with `sh`, rendered by MuPDF.
enum ShadingPage {
    static let width = 200.0
    static let height = 100.0

    static func build(_ make: (inout PDFBuilder) -> PDFObject) throws -> (
        path: String, shading: Shading, document: PDFDocument
    ) {
        var builder = PDFBuilder()
        let shading = make(&builder)
        // A stream shading is already an object of its own; a dictionary one is added here.
        let reference = shading.referenceValue ?? builder.add(shading)
        let resources: PDFDictionary = ["Shading": .dictionary(["Sh0": .reference(reference)])]
        builder.addPage(
            width: width, height: height, content: Array("/Sh0 sh".utf8), resources: resources, compress: false)
        let bytes = builder.build()
        let path = try TestPaths.temporaryDirectory("shading") + "/shading.pdf"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let document = try PDFDocument(bytes: bytes)
        return (path, try Shading(.reference(reference), resources: resources, document: document, icc: nil), document)
    }

    /// MuPDF's pixel whose centre is nearest the user-space point (x, y).
    static func oracle(_ page: RenderedPage, _ x: Double, _ y: Double) -> [Int] {
        let pixel = page.pixel(Int(x), Int(height - y))
        return [pixel.r, pixel.g, pixel.b]
    }

    /// The user-space centre of the pixel MuPDF draws at (x, y).
    static func center(_ x: Double, _ y: Double) -> (Double, Double) {
        (Double(Int(x)) + 0.5, height - (Double(Int(height - y)) + 0.5))
    }

    static func bytes(_ rgb: RGB) -> [Int] { [rgb.r, rgb.g, rgb.b].map { Int(($0 * 255).rounded()) } }

    static func mix(_ colors: [RGB], _ weights: [Double]) -> RGB {
        var result = RGB(0, 0, 0)
        for (color, weight) in zip(colors, weights) {
            result.r += color.r * weight
            result.g += color.g * weight
            result.b += color.b * weight
        }
        return result
    }
}

extension PDFBuilder {
    mutating func stream(_ dictionary: PDFDictionary, _ data: [UInt8]) -> PDFObject {
        .reference(add(.stream(PDFStream(dictionary: dictionary, data: data, compress: true))))
    }
}

/// Big-endian bytes of `value` in `count` bytes.
func bigEndian(_ value: Int, _ count: Int) -> [UInt8] {
    (0..<count).reversed().map { UInt8((value >> (8 * $0)) & 0xFF) }
}

@Suite(
    "Shadings against MuPDF (ISO 32000-2 §8.7.4.5)", .enabled(if: Requirement.tool("mutool"), "mutool is not installed")
)
struct ShadingTests {
    // MuPDF samples a shading's function into a 256-entry table: a step of 1/255 of t, plus
    // rounding, so 4/255 where the colour is flat. Where it changes fast, where in a pixel MuPDF
    // takes its sample matters too, so axial and radial colours are compared with the range our
    // colours take over the pixel (its centre ± half a pixel), widened by 4/255.
    static let tolerance = 4

    /// Whether `oracle` lies within `tolerance` of the range of `samples`, channel by channel.
    static func within(_ oracle: [Int], _ samples: [[Int]], tolerance: Int = ShadingTests.tolerance) -> Bool {
        (0..<3).allSatisfy { c in
            let values = samples.map { $0[c] }
            return oracle[c] >= values.min()! - tolerance && oracle[c] <= values.max()! + tolerance
        }
    }

    @Test("axial, both ends extended: color(t) at points along the axis and beyond its ends")
    func axial() throws {
        let page = try ShadingPage.build { builder in
            let red = builder.add(FunctionFixtures.exponential(c0: [1, 0, 0], c1: [0.2, 0.8, 0.1], n: 2))
            let blue = builder.add(FunctionFixtures.exponential(c0: [0.2, 0.8, 0.1], c1: [0, 0, 1], n: 1))
            return .dictionary([
                "ShadingType": 2, "ColorSpace": .name("DeviceRGB"), "Coords": [50, 0, 150, 0],
                "Domain": [0, 1], "Extend": [true, true],
                "Function": .dictionary([
                    "FunctionType": 3, "Domain": [0, 1], "Functions": [.reference(red), .reference(blue)],
                    "Bounds": [0.5], "Encode": [0, 1, 0, 1],
                ]),
            ])
        }
        guard case .axial(let start, let end, let t0, let t1, let extend) = page.shading.geometry else {
            Issue.record("not an axial shading")
            return
        }
        #expect(start == PDFPoint(50, 0) && end == PDFPoint(150, 0) && t0 == 0 && t1 == 1 && extend == (true, true))
        let rendered = try RenderedPage.render(page.path, page: 1)
        for x in [10.0, 49, 60, 75, 90, 99, 101, 120, 140, 160, 195] {
            let (cx, _) = ShadingPage.center(x, 50)
            let ours = [cx - 0.5, cx, cx + 0.5].map {
                ShadingPage.bytes(page.shading.color(min(max(($0 - 50) / 100, 0), 1)))
            }
            let mu = ShadingPage.oracle(rendered, x, 50)
            #expect(Self.within(mu, ours), "x \(x): ours \(ours), MuPDF \(mu)")
        }
    }

    @Test("radial, both ends extended: t from the distance to the common centre")
    func radial() throws {
        let page = try ShadingPage.build { _ in
            .dictionary([
                "ShadingType": 3, "ColorSpace": .name("DeviceCMYK"), "Coords": [100, 50, 10, 100, 50, 45],
                "Extend": [true, true],
                "Function": FunctionFixtures.exponential(c0: [0, 0.9, 0.2, 0], c1: [0.8, 0.1, 0, 0.2], n: 1.5),
            ])
        }
        guard case .radial(let c0, let r0, let c1, let r1, _, _, let extend) = page.shading.geometry else {
            Issue.record("not a radial shading")
            return
        }
        #expect(c0 == PDFPoint(100, 50) && r0 == 10 && c1 == PDFPoint(100, 50) && r1 == 45 && extend == (true, true))
        let rendered = try RenderedPage.render(page.path, page: 1)
        for x in [101.0, 105, 112, 120, 130, 140, 150, 170, 195] {
            let (cx, cy) = ShadingPage.center(x, 50)
            let ours = [cx - 0.5, cx, cx + 0.5].map { px in
                let distance = ((px - 100) * (px - 100) + (cy - 50) * (cy - 50)).squareRoot()
                return ShadingPage.bytes(page.shading.color(min(max((distance - 10) / 35, 0), 1)))
            }
            let mu = ShadingPage.oracle(rendered, x, 50)
            #expect(Self.within(mu, ours), "x \(x): ours \(ours), MuPDF \(mu)")
        }
    }

    @Test("function-based: the colour of each point through /Matrix and a two-input function")
    func functionBased() throws {
        let page = try ShadingPage.build { builder in
            let function = builder.add(
                FunctionFixtures.postScript(
                    "{ 2 copy mul 3 1 roll exch 1 exch sub exch }", domain: [0, 1, 0, 1], range: [0, 1, 0, 1, 0, 1]))
            return .dictionary([
                "ShadingType": 1, "ColorSpace": .name("DeviceRGB"), "Domain": [0, 1, 0, 1],
                "Matrix": [200, 0, 0, 100, 0, 0], "Function": .reference(function),
            ])
        }
        guard case .function(let domain, let matrix, let color) = page.shading.geometry else {
            Issue.record("not a function-based shading")
            return
        }
        #expect(domain == [0, 1, 0, 1] && matrix == PDFMatrix(200, 0, 0, 100, 0, 0))
        // (x, y) → (x·y, 1 − x, y), worked out from the program: x y → x y x y → x y xy → xy x y →
        // xy y x → xy y 1−x → xy 1−x y.
        let probe = color(0.25, 0.5)
        #expect(abs(probe.r - 0.125) < 1e-9 && abs(probe.g - 0.75) < 1e-9 && abs(probe.b - 0.5) < 1e-9)
        let rendered = try RenderedPage.render(page.path, page: 1)
        for (x, y) in [(20.0, 20.0), (100, 50), (150, 80), (180, 10), (60, 90)] {
            let (cx, cy) = ShadingPage.center(x, y)
            let ours = ShadingPage.bytes(color(cx / 200, cy / 100))
            let mu = ShadingPage.oracle(rendered, x, y)
            // MuPDF samples function-based shadings on a grid and interpolates: 6/255.
            #expect(SwatchPage.distance(ours, mu) <= 6, "(\(x), \(y)): ours \(ours), MuPDF \(mu)")
        }
    }

    @Test("free-form triangles (type 4): decoded vertices, edge flags, Gouraud colours")
    func triangles() throws {
        // flag (8 bits), x, y (16 bits over [0 200] and [0 100]), r g b (8 bits).
        func vertex(_ flag: Int, _ x: Double, _ y: Double, _ rgb: [Int]) -> [UInt8] {
            [UInt8(flag)] + bigEndian(Int(x / 200 * 65535), 2) + bigEndian(Int(y / 100 * 65535), 2)
                + rgb.map { UInt8($0) }
        }
        let data =
            vertex(0, 10, 10, [255, 0, 0]) + vertex(0, 190, 10, [0, 255, 0]) + vertex(0, 10, 90, [0, 0, 255])
            + vertex(1, 190, 90, [255, 255, 255])
        let page = try ShadingPage.build { builder in
            builder.stream(
                [
                    "ShadingType": 4, "ColorSpace": .name("DeviceRGB"), "BitsPerCoordinate": 16,
                    "BitsPerComponent": 8, "BitsPerFlag": 8, "Decode": [0, 200, 0, 100, 0, 1, 0, 1, 0, 1],
                ], data)
        }
        guard case .triangles(let triangles) = page.shading.geometry else {
            Issue.record("not a triangle mesh")
            return
        }
        #expect(triangles.count == 2)
        let written: [[(Double, Double)]] = [[(10, 10), (190, 10), (10, 90)], [(190, 10), (10, 90), (190, 90)]]
        for (triangle, expected) in zip(triangles, written) {
            let points = [triangle.points.0, triangle.points.1, triangle.points.2]
            for (point, (x, y)) in zip(points, expected) {
                // 16-bit coordinates: within 200/65535.
                #expect(abs(point.x - x) < 0.01 && abs(point.y - y) < 0.01, "\(point) vs (\(x), \(y))")
            }
        }
        #expect(triangles[1].colors.2 == RGB(1, 1, 1) && triangles[0].colors.0 == RGB(1, 0, 0))
        let rendered = try RenderedPage.render(page.path, page: 1)
        for (x, y) in [(40.0, 30.0), (70, 40), (100, 20), (30, 60), (150, 70), (120, 60), (170, 30)] {
            let (cx, cy) = ShadingPage.center(x, y)
            // Barycentric weights in whichever triangle holds the point.
            var ours: [Int]? = nil
            for triangle in triangles {
                let (a, b, c) = triangle.points
                let det = (b.y - c.y) * (a.x - c.x) + (c.x - b.x) * (a.y - c.y)
                let wa = ((b.y - c.y) * (cx - c.x) + (c.x - b.x) * (cy - c.y)) / det
                let wb = ((c.y - a.y) * (cx - c.x) + (a.x - c.x) * (cy - c.y)) / det
                let wc = 1 - wa - wb
                if wa >= 0, wb >= 0, wc >= 0 {
                    let colors = [triangle.colors.0, triangle.colors.1, triangle.colors.2]
                    ours = ShadingPage.bytes(ShadingPage.mix(colors, [wa, wb, wc]))
                }
            }
            let expected = try #require(ours)
            let mu = ShadingPage.oracle(rendered, x, y)
            #expect(SwatchPage.distance(expected, mu) <= Self.tolerance, "(\(x), \(y)): ours \(expected), MuPDF \(mu)")
        }
    }

    @Test("Coons patches (type 6): points in row order, inner points per §8.7.4.5.7, a shared edge, bilinear colours")
    func coonsPatches() throws {
        // A 90 × 80 square from (10, 10), its edges divided in thirds, and a second square to its
        // right that shares its right edge.
        func point(_ x: Double, _ y: Double) -> [UInt8] {
            bigEndian(Int(x / 200 * 65535), 2) + bigEndian(Int(y / 100 * 65535), 2)
        }
        let (w, h) = (90.0, 80.0)
        var first: [UInt8] = [0]
        // Stream order: p00 p01 p02 p03 p13 p23 p33 p32 p31 p30 p20 p10, with p_ij = (10 + i·w/3, 10 + j·h/3).
        for (i, j) in [(0, 0), (0, 1), (0, 2), (0, 3), (1, 3), (2, 3), (3, 3), (3, 2), (3, 1), (3, 0), (2, 0), (1, 0)] {
            first += point(10 + Double(i) * w / 3, 10 + Double(j) * h / 3)
        }
        // Colours c00 c03 c33 c30.
        first += [255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 0]
        // Flag 2 reuses p33 p32 p31 p30 as the new p00 p01 p02 p03 (the shared edge x = 100, top
        // to bottom) and colours c33, c30; the 8 new points run p13 p23 p33 p32 p31 p30 p20 p10.
        var second: [UInt8] = [2]
        let right: [(Double, Double)] = [
            (130, 90), (160, 90), (190, 90), (190, 63.333), (190, 36.667), (190, 10), (160, 10), (130, 10),
        ]
        for (x, y) in right { second += point(x, y) }
        second += [255, 255, 255, 0, 0, 0]
        let page = try ShadingPage.build { builder in
            builder.stream(
                [
                    "ShadingType": 6, "ColorSpace": .name("DeviceRGB"), "BitsPerCoordinate": 16,
                    "BitsPerComponent": 8, "BitsPerFlag": 8, "Decode": [0, 200, 0, 100, 0, 1, 0, 1, 0, 1],
                ], first + second)
        }
        guard case .patches(let patches) = page.shading.geometry else {
            Issue.record("not a patch mesh")
            return
        }
        #expect(patches.count == 2)
        let patch = patches[0]
        #expect(patch.points.count == 16 && patch.colors == [RGB(1, 0, 0), RGB(0, 1, 0), RGB(0, 0, 1), RGB(1, 1, 0)])
        // Every point, inner ones included, lies on the thirds grid of a flat square patch.
        for i in 0..<4 {
            for j in 0..<4 {
                let p = patch.points[4 * i + j]
                #expect(
                    abs(p.x - (10 + Double(i) * w / 3)) < 0.01 && abs(p.y - (10 + Double(j) * h / 3)) < 0.01,
                    "p\(i)\(j) = \(p)")
            }
        }
        // The second patch starts on the first one's right edge, from its top.
        #expect(patches[1].points[0] == patch.points[15] && patches[1].points[3] == patch.points[12])
        #expect(patches[1].colors[0] == patch.colors[2] && patches[1].colors[1] == patch.colors[3])
        #expect(abs(patches[1].points[12].x - 190) < 0.01 && abs(patches[1].points[12].y - 10) < 0.01)
        #expect(abs(patches[1].points[15].x - 190) < 0.01 && abs(patches[1].points[15].y - 90) < 0.01)
        let rendered = try RenderedPage.render(page.path, page: 1)
        for (x, y) in [(30.0, 30.0), (55, 50), (80, 75), (20, 80), (90, 20)] {
            let (cx, cy) = ShadingPage.center(x, y)
            let (u, v) = ((cx - 10) / w, (cy - 10) / h)
            let ours = ShadingPage.bytes(
                ShadingPage.mix(patch.colors, [(1 - u) * (1 - v), (1 - u) * v, u * v, u * (1 - v)]))
            let mu = ShadingPage.oracle(rendered, x, y)
            // MuPDF subdivides patches into flat triangles: 6/255.
            #expect(SwatchPage.distance(ours, mu) <= 6, "(\(x), \(y)): ours \(ours), MuPDF \(mu)")
        }
    }
}
