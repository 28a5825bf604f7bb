import PDFCore

/// Decodes the packed data of mesh shadings (ISO 32000-2 §8.7.4.5.5 – §8.7.4.5.8): free-form
/// and lattice-form triangle meshes (types 4, 5), Coons and tensor-product patch meshes (6, 7).
///
/// Each vertex (types 4, 5) and each patch (types 6, 7) starts on a byte boundary, as poppler and
/// pdf.js read them. Counts are bounded so that a hostile stream cannot exhaust memory.
struct MeshReader {
    let type: Int
    let space: ColorSpace
    let function: PDFFunction?
    let bitsPerCoordinate: Int
    let bitsPerComponent: Int
    let bitsPerFlag: Int
    let verticesPerRow: Int
    /// `/Decode`: xmin xmax ymin ymax, then a pair per colour component (one pair, t, with a function).
    let decode: [Double]
    var bits: PackedBitReader

    static let maxTriangles = 250_000
    static let maxPatches = 50_000

    private var colorCount: Int { function == nil ? space.componentCount : 1 }

    init(stream: PDFStream, type: Int, space: ColorSpace, function: PDFFunction?, reader: ShadingReader)
        throws(PDFError)
    {
        self.type = type
        self.space = space
        self.function = function
        bitsPerCoordinate = reader.int("BitsPerCoordinate") ?? 0
        bitsPerComponent = reader.int("BitsPerComponent") ?? 0
        bitsPerFlag = type == 5 ? 0 : reader.int("BitsPerFlag") ?? 0
        verticesPerRow = type == 5 ? reader.int("VerticesPerRow") ?? 0 : 0
        guard [1, 2, 4, 8, 12, 16, 24, 32].contains(bitsPerCoordinate),
            [1, 2, 4, 8, 12, 16].contains(bitsPerComponent),
            type == 5 || [2, 4, 8].contains(bitsPerFlag)
        else {
            throw PDFError(.syntax, "a mesh shading needs valid /BitsPerCoordinate, /BitsPerComponent, /BitsPerFlag")
        }
        guard type != 5 || verticesPerRow >= 2 else {
            throw PDFError(.syntax, "a lattice-form mesh needs /VerticesPerRow of at least 2")
        }
        let colorCount = function == nil ? space.componentCount : 1
        guard let decode = reader.numbers("Decode"), decode.count >= 4 + 2 * colorCount else {
            throw PDFError(.syntax, "a mesh shading needs a /Decode with \(4 + 2 * colorCount) numbers")
        }
        self.decode = decode
        bits = PackedBitReader(try stream.decodedData())
    }

    private mutating func value(_ count: Int, _ low: Double, _ high: Double) -> Double? {
        guard let raw = bits.read(count) else { return nil }
        let maximum = count == 32 ? 4_294_967_295.0 : Double((1 << count) - 1)
        return low + Double(raw) * (high - low) / maximum
    }

    private mutating func point() -> PDFPoint? {
        guard let x = value(bitsPerCoordinate, decode[0], decode[1]),
            let y = value(bitsPerCoordinate, decode[2], decode[3])
        else { return nil }
        return PDFPoint(x, y)
    }

    private mutating func color() -> RGB? {
        var components = [Double](repeating: 0, count: colorCount)
        for i in 0..<colorCount {
            guard let c = value(bitsPerComponent, decode[4 + 2 * i], decode[5 + 2 * i]) else { return nil }
            components[i] = c
        }
        if let function { return space.rgb(function.evaluate(components)) }
        return space.rgb(components)
    }

    private mutating func vertex() -> (PDFPoint, RGB)? {
        guard let point = point(), let color = color() else { return nil }
        bits.align()
        return (point, color)
    }

    /// Types 4 and 5.
    mutating func triangles() throws(PDFError) -> [MeshTriangle] {
        var triangles: [MeshTriangle] = []
        func add(_ a: (PDFPoint, RGB), _ b: (PDFPoint, RGB), _ c: (PDFPoint, RGB)) throws(PDFError) {
            guard triangles.count < MeshReader.maxTriangles else {
                throw PDFError(.limitExceeded, "a mesh shading has more than \(MeshReader.maxTriangles) triangles")
            }
            triangles.append(MeshTriangle(points: (a.0, b.0, c.0), colors: (a.1, b.1, c.1)))
        }
        if type == 5 {
            var previous: [(PDFPoint, RGB)] = []
            var row: [(PDFPoint, RGB)] = []
            while let vertex = vertex() {
                row.append(vertex)
                guard row.count == verticesPerRow else { continue }
                if !previous.isEmpty {
                    for i in 0..<(verticesPerRow - 1) {
                        try add(previous[i], previous[i + 1], row[i])
                        try add(previous[i + 1], row[i + 1], row[i])
                    }
                }
                previous = row
                row = []
            }
            return triangles
        }
        // Type 4: flag 0 starts a triangle; 1 and 2 add one sharing an edge with the previous one.
        var last: ((PDFPoint, RGB), (PDFPoint, RGB), (PDFPoint, RGB))? = nil
        while true {
            guard let flag = bits.read(bitsPerFlag), let v = vertex() else { break }
            switch (flag, last) {
            case (1, let (_, b, c)?):
                try add(b, c, v)
                last = (b, c, v)
            case (2, let (a, _, c)?):
                try add(a, c, v)
                last = (a, c, v)
            default:
                // A new triangle (also a 1 or 2 with nothing before it, read as 0).
                guard bits.read(bitsPerFlag) != nil, let b = vertex(), bits.read(bitsPerFlag) != nil,
                    let c = vertex()
                else { return triangles }
                try add(v, b, c)
                last = (v, b, c)
            }
        }
        return triangles
    }

    /// Types 6 and 7. Boundary points are kept in stream order p00 p01 p02 p03 p13 p23 p33 p32 p31
    /// p30 p20 p10 and corner colours as c00 c03 c33 c30, so that flag f reuses the previous
    /// patch's points 3f … 3f + 3 and colours f, f + 1.
    mutating func patches() throws(PDFError) -> [MeshPatch] {
        var patches: [MeshPatch] = []
        var previous: (boundary: [PDFPoint], colors: [RGB])? = nil
        // Stream order of the boundary points → index p_ij = 4i + j in row order.
        let boundaryIndex = [0, 1, 2, 3, 7, 11, 15, 14, 13, 12, 8, 4]
        // Type 7's inner points, in stream order p11 p12 p22 p21.
        let innerIndex = [5, 6, 10, 9]
        read: while let flag = bits.read(bitsPerFlag) {
            var boundary = [PDFPoint](repeating: PDFPoint(0, 0), count: 12)
            var colors = [RGB](repeating: .black, count: 4)
            var first = 0
            var firstColor = 0
            if flag != 0, let previous, flag <= 3 {
                let f = Int(flag)
                for k in 0..<4 { boundary[k] = previous.boundary[(3 * f + k) % 12] }
                colors[0] = previous.colors[f]
                colors[1] = previous.colors[(f + 1) % 4]
                first = 4
                firstColor = 2
            }
            for k in first..<12 {
                guard let p = point() else { break read }
                boundary[k] = p
            }
            var inner: [PDFPoint] = []
            if type == 7 {
                for _ in 0..<4 {
                    guard let p = point() else { break read }
                    inner.append(p)
                }
            }
            for k in firstColor..<4 {
                guard let c = color() else { break read }
                colors[k] = c
            }
            bits.align()
            var points = [PDFPoint](repeating: PDFPoint(0, 0), count: 16)
            for (k, index) in boundaryIndex.enumerated() { points[index] = boundary[k] }
            if type == 7 {
                for (k, index) in innerIndex.enumerated() { points[index] = inner[k] }
            } else {
                MeshReader.coonsInnerPoints(&points)
            }
            guard patches.count < MeshReader.maxPatches else {
                throw PDFError(.limitExceeded, "a mesh shading has more than \(MeshReader.maxPatches) patches")
            }
            patches.append(MeshPatch(points: points, colors: colors))
            previous = (boundary, colors)
        }
        return patches
    }

    /// The four inner control points that make a tensor-product patch equal to a Coons patch
    /// (ISO 32000-2 §8.7.4.5.8), `points` in row order p00 … p33.
    static func coonsInnerPoints(_ points: inout [PDFPoint]) {
        func p(_ i: Int, _ j: Int) -> PDFPoint { points[4 * i + j] }
        func combine(_ terms: [(Double, PDFPoint)]) -> PDFPoint {
            PDFPoint(terms.reduce(0) { $0 + $1.0 * $1.1.x } / 9, terms.reduce(0) { $0 + $1.0 * $1.1.y } / 9)
        }
        let p11 = combine([
            (-4, p(0, 0)), (6, p(0, 1)), (6, p(1, 0)), (-2, p(0, 3)), (-2, p(3, 0)), (3, p(3, 1)), (3, p(1, 3)),
            (-1, p(3, 3)),
        ])
        let p12 = combine([
            (-4, p(0, 3)), (6, p(0, 2)), (6, p(1, 3)), (-2, p(0, 0)), (-2, p(3, 3)), (3, p(3, 2)), (3, p(1, 0)),
            (-1, p(3, 0)),
        ])
        let p21 = combine([
            (-4, p(3, 0)), (6, p(3, 1)), (6, p(2, 0)), (-2, p(3, 3)), (-2, p(0, 0)), (3, p(0, 1)), (3, p(2, 3)),
            (-1, p(0, 3)),
        ])
        let p22 = combine([
            (-4, p(3, 3)), (6, p(3, 2)), (6, p(2, 3)), (-2, p(3, 0)), (-2, p(0, 3)), (3, p(0, 2)), (3, p(2, 0)),
            (-1, p(0, 0)),
        ])
        points[5] = p11
        points[6] = p12
        points[9] = p21
        points[10] = p22
    }
}
