import PDFCore
import PDFGraphics
import PDFTestSupport
import Testing

/// Packs values of given bit widths big-endian, padding to a byte boundary where asked.
struct BitWriter {
    var bytes: [UInt8] = []
    var bitCount = 0

    mutating func write(_ value: Int, _ bits: Int) {
        for bit in stride(from: bits - 1, through: 0, by: -1) {
            if bitCount % 8 == 0 { bytes.append(0) }
            if (value >> bit) & 1 == 1 { bytes[bytes.count - 1] |= UInt8(0x80 >> (bitCount % 8)) }
            bitCount += 1
        }
    }

    mutating func align() { bitCount = (bitCount + 7) / 8 * 8 }
}

@Suite("Mesh shading decoding (ISO 32000-2 §8.7.4.5.5 – §8.7.4.5.8)")
struct ShadingMeshTests {
    func shading(_ dictionary: PDFDictionary, _ data: [UInt8], objects: [PDFObject] = []) throws -> Shading {
        let (document, refs) = try FunctionFixtures.document(
            objects + [.stream(PDFStream(dictionary: dictionary, data: data, compress: true))])
        return try Shading(.reference(refs.last!), resources: nil, document: document, icc: nil)
    }

    @Test("lattice form (type 5): 12-bit coordinates, 4-bit t through a function, each vertex byte-aligned")
    func lattice() throws {
        var writer = BitWriter()
        // 3 vertices per row, 2 rows; x = 10·column, y = 20·row; t = column / 2 → 4-bit samples 0, 7.5 → 8, 15.
        for row in 0..<2 {
            for column in 0..<3 {
                writer.write(column * 10 * 4095 / 100, 12)
                writer.write(row * 20 * 4095 / 100, 12)
                writer.write([0, 8, 15][column], 4)
                writer.align()
            }
        }
        let mesh = try shading(
            [
                "ShadingType": 5, "ColorSpace": .name("DeviceGray"), "BitsPerCoordinate": 12, "BitsPerComponent": 4,
                "VerticesPerRow": 3, "Decode": [0, 100, 0, 100, 0, 1],
                "Function": FunctionFixtures.exponential(c0: [1], c1: [0], n: 1),
            ], writer.bytes)
        guard case .triangles(let triangles) = mesh.geometry else {
            Issue.record("not triangles")
            return
        }
        // Two cells of two triangles each.
        #expect(triangles.count == 4)
        let first = triangles[0]
        #expect(abs(first.points.0.x) < 0.03 && abs(first.points.1.x - 10) < 0.03 && abs(first.points.2.y - 20) < 0.03)
        // The function maps t to gray 1 − t: vertex at column 1 has t = 8/15.
        #expect(abs(first.colors.1.r - (1 - 8.0 / 15)) < 1e-9 && first.colors.0 == RGB(1, 1, 1))
        // The shading's colour table follows the function over /Decode's t range.
        #expect(abs(mesh.color(0.25).r - 0.75) < 0.002)
    }

    @Test("tensor-product patches (type 7): the four inner points are read, in the order p11 p12 p22 p21")
    func tensorPatches() throws {
        var writer = BitWriter()
        writer.write(0, 8)
        let boundary = [(0, 0), (0, 1), (0, 2), (0, 3), (1, 3), (2, 3), (3, 3), (3, 2), (3, 1), (3, 0), (2, 0), (1, 0)]
        for (i, j) in boundary {
            writer.write(i * 30, 8)
            writer.write(j * 30, 8)
        }
        // Inner points off the grid, to see where each lands.
        for (x, y) in [(31, 32), (33, 64), (65, 66), (67, 34)] {
            writer.write(x, 8)
            writer.write(y, 8)
        }
        for _ in 0..<4 { writer.write(255, 8) }
        let mesh = try shading(
            [
                "ShadingType": 7, "ColorSpace": .name("DeviceGray"), "BitsPerCoordinate": 8, "BitsPerComponent": 8,
                "BitsPerFlag": 8, "Decode": [0, 255, 0, 255, 0, 1],
            ], writer.bytes)
        guard case .patches(let patches) = mesh.geometry else {
            Issue.record("not patches")
            return
        }
        #expect(patches.count == 1)
        let points = patches[0].points
        #expect(
            points[5] == PDFPoint(31, 32) && points[6] == PDFPoint(33, 64) && points[10] == PDFPoint(65, 66)
                && points[9] == PDFPoint(67, 34))
        #expect(points[3] == PDFPoint(0, 90) && points[12] == PDFPoint(90, 0) && points[15] == PDFPoint(90, 90))
        #expect(patches[0].colors == [RGB](repeating: .white, count: 4))
    }

    @Test("Coons inner points of a curved patch follow the formula of §8.7.4.5.7")
    func coonsFormula() throws {
        var writer = BitWriter()
        writer.write(0, 8)
        // A patch whose edges bulge: the boundary control points are not on a grid.
        let boundary = [
            (0, 0), (5, 40), (-5, 80), (0, 120), (40, 125), (80, 115), (120, 120), (125, 80), (115, 40), (120, 0),
            (80, -5), (40, 5),
        ]
        for (x, y) in boundary {
            writer.write(x + 10, 8)
            writer.write(y + 10, 8)
        }
        for _ in 0..<4 { writer.write(0, 8) }
        let mesh = try shading(
            [
                "ShadingType": 6, "ColorSpace": .name("DeviceGray"), "BitsPerCoordinate": 8, "BitsPerComponent": 8,
                "BitsPerFlag": 8, "Decode": [-10, 245, -10, 245, 0, 1],
            ], writer.bytes)
        guard case .patches(let patches) = mesh.geometry else {
            Issue.record("not patches")
            return
        }
        let p = patches[0].points
        func at(_ i: Int, _ j: Int) -> PDFPoint { p[4 * i + j] }
        // p11 = (−4 p00 + 6 (p01 + p10) − 2 (p03 + p30) + 3 (p31 + p13) − p33) / 9, computed here
        // from the written points (p01 = (5, 40), p10 = (40, 5), p03 = (0, 120), p30 = (120, 0),
        // p31 = (115, 40), p13 = (40, 125), p33 = (120, 120)).
        // x: (0 + 6·45 − 2·120 + 3·155 − 120) / 9 = 375 / 9; y: (0 + 6·45 − 2·120 + 3·165 − 120) / 9 = 405 / 9.
        let (x11, y11) = (375.0 / 9, 405.0 / 9)
        #expect(abs(at(1, 1).x - x11) < 1e-9 && abs(at(1, 1).y - y11) < 1e-9)
        // p22 = (−4 p33 + 6 (p32 + p23) − 2 (p30 + p03) + 3 (p02 + p20) − p00) / 9.
        // x: (−480 + 6·205 − 2·120 + 3·75 − 0) / 9 = 735 / 9; y: (−480 + 6·195 − 2·120 + 3·75 − 0) / 9 = 675 / 9.
        let (x22, y22) = (735.0 / 9, 675.0 / 9)
        #expect(abs(at(2, 2).x - x22) < 1e-9 && abs(at(2, 2).y - y22) < 1e-9)
    }

    @Test("dictionary entries: /Background, /BBox, /Extend defaults; malformed shadings are refused")
    func entries() throws {
        let (document, _) = try FunctionFixtures.document([])
        let function = FunctionFixtures.exponential(c0: [0], c1: [1], n: 1)
        let axial = try Shading(
            .dictionary([
                "ShadingType": 2, "ColorSpace": .name("DeviceGray"), "Coords": [0, 0, 1, 0], "Function": function,
                "Background": [0.5], "BBox": [10, 20, 0, 5],
            ]), resources: nil, document: document, icc: nil)
        #expect(axial.background == RGB(0.5, 0.5, 0.5) && axial.bbox == PDFRectangle(x0: 0, y0: 5, x1: 10, y1: 20))
        guard case .axial(_, _, let t0, let t1, let extend) = axial.geometry else {
            Issue.record("not axial")
            return
        }
        #expect(t0 == 0 && t1 == 1 && extend == (false, false))
        #expect(
            abs(axial.color(0.3).r - 0.3) < 0.001 && axial.color(-5) == RGB(0, 0, 0) && axial.color(7) == RGB(1, 1, 1))
        let bad: [PDFDictionary] = [
            ["ShadingType": 2, "ColorSpace": .name("DeviceGray"), "Function": function],  // no /Coords
            [
                "ShadingType": 3, "ColorSpace": .name("DeviceGray"), "Coords": [0, 0, -1, 0, 0, 1],
                "Function": function,
            ],
            ["ShadingType": 2, "ColorSpace": .name("Pattern"), "Coords": [0, 0, 1, 0], "Function": function],
            ["ShadingType": 2, "ColorSpace": .name("DeviceRGB"), "Coords": [0, 0, 1, 0], "Function": function],
            ["ShadingType": 9, "ColorSpace": .name("DeviceGray")],
            ["ShadingType": 4, "ColorSpace": .name("DeviceGray")],  // a mesh must be a stream
        ]
        for dictionary in bad {
            #expect(throws: PDFError.self) {
                try Shading(.dictionary(dictionary), resources: nil, document: document, icc: nil)
            }
        }
    }

    @Test("every prefix of a mesh stream decodes or throws, never crashes")
    func truncationSweep() throws {
        var writer = BitWriter()
        for (flag, x, y) in [
            (0, 1, 1), (0, 200, 1), (0, 1, 200), (1, 200, 200), (2, 100, 250), (0, 5, 5), (0, 9, 9), (0, 5, 9),
        ] {
            writer.write(flag, 2)
            writer.write(x, 8)
            writer.write(y, 8)
            writer.write(x, 4)
            writer.align()
        }
        for type in [4, 6] {
            for length in 0...writer.bytes.count {
                let result = try? shading(
                    [
                        "ShadingType": .integer(type), "ColorSpace": .name("DeviceGray"), "BitsPerCoordinate": 8,
                        "BitsPerComponent": 4, "BitsPerFlag": 2, "Decode": [0, 255, 0, 255, 0, 1],
                    ], Array(writer.bytes.prefix(length)))
                if case .triangles(let triangles)? = result?.geometry { #expect(triangles.count <= 5) }
            }
        }
    }
}
