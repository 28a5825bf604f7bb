public import PDFCore

extension Shading {
    /// Reads a shading dictionary (types 1 to 3) or stream (types 4 to 7) (ISO 32000-2 §8.7.4.5),
    /// with its colours converted to sRGB.
    ///
    /// Axial and radial shadings get a ``color`` closure that looks up a table of the function
    /// sampled 1024 times between t0 and t1; mesh shadings get each vertex's colour.
    ///
    /// - Parameters:
    ///   - object: the shading (a dictionary, a stream or a reference to one).
    ///   - resources: the resource dictionary that names the shading's colour space, if any.
    ///   - document: resolves references and decodes streams.
    ///   - icc: makes converters for `/ICCBased` colour spaces; nil uses their `/Alternate`.
    /// - Throws: `PDFError` `.syntax` for a malformed shading, `.unsupported` for an unknown
    ///   `/ShadingType`, `.limitExceeded` when a mesh has more vertices or patches than the limits,
    ///   plus what reading the colour space or function throws.
    public init(
        _ object: PDFObject, resources: PDFDictionary?, document: PDFDocument, icc: (any ICCConverterFactory)?
    ) throws(PDFError) {
        let resolved = document.resolve(object)
        guard let dictionary = resolved.dictionaryValue else {
            throw PDFError(.syntax, "a shading must be a dictionary or a stream, not \(resolved.typeName)")
        }
        let reader = ShadingReader(dictionary: dictionary, document: document)
        guard let type = document.resolve(dictionary, "ShadingType")?.intValue else {
            throw PDFError(.syntax, "a shading needs a /ShadingType")
        }
        guard let spaceObject = dictionary["ColorSpace"] else {
            throw PDFError(.syntax, "a shading needs a /ColorSpace")
        }
        let space = try ColorSpace.resolve(spaceObject, resources: resources, document: document, icc: icc)
        guard !space.isPattern else { throw PDFError(.syntax, "a shading's colour space cannot be a Pattern space") }
        let function = try reader.function(outputs: space.componentCount)
        var background: RGB? = nil
        if let values = reader.numbers("Background"), values.count == space.componentCount {
            background = space.rgb(values)
        }
        var bbox: PDFRectangle? = nil
        if let box = reader.numbers("BBox"), box.count == 4 {
            bbox = PDFRectangle(x0: box[0], y0: box[1], x1: box[2], y1: box[3])
        }
        switch type {
        case 1:
            guard let function, function.inputCount == 2 else {
                throw PDFError(.syntax, "a function-based shading needs a function of two inputs")
            }
            var domain = reader.numbers("Domain") ?? [0, 1, 0, 1]
            if domain.count != 4 { domain = [0, 1, 0, 1] }
            let matrix = PDFMatrix(dictionary["Matrix"], document: document) ?? .identity
            let color: @Sendable (Double, Double) -> RGB = { x, y in space.rgb(function.evaluate([x, y])) }
            self.init(
                geometry: .function(domain: domain, matrix: matrix, color: color), color: { _ in .black },
                background: background, bbox: bbox)
        case 2, 3:
            guard let function, function.inputCount == 1 else {
                throw PDFError(.syntax, "an axial or radial shading needs a function of one input")
            }
            var domain = reader.numbers("Domain") ?? [0, 1]
            if domain.count != 2 { domain = [0, 1] }
            let extendFlags = document.resolve(dictionary, "Extend")?.arrayValue?.map {
                document.resolve($0).boolValue ?? false
            }
            let extend = extendFlags?.count == 2 ? (extendFlags![0], extendFlags![1]) : (false, false)
            let color = ShadingReader.colorTable(function: function, space: space, t0: domain[0], t1: domain[1])
            let coordinates = reader.numbers("Coords") ?? []
            let geometry: Geometry
            if type == 2 {
                guard coordinates.count == 4 else { throw PDFError(.syntax, "an axial shading needs 4 /Coords") }
                geometry = .axial(
                    start: PDFPoint(coordinates[0], coordinates[1]), end: PDFPoint(coordinates[2], coordinates[3]),
                    t0: domain[0], t1: domain[1], extend: extend)
            } else {
                guard coordinates.count == 6, coordinates[2] >= 0, coordinates[5] >= 0 else {
                    throw PDFError(.syntax, "a radial shading needs 6 /Coords with radii of at least 0")
                }
                geometry = .radial(
                    start: PDFPoint(coordinates[0], coordinates[1]), startRadius: coordinates[2],
                    end: PDFPoint(coordinates[3], coordinates[4]), endRadius: coordinates[5], t0: domain[0],
                    t1: domain[1], extend: extend)
            }
            self.init(geometry: geometry, color: color, background: background, bbox: bbox)
        case 4, 5, 6, 7:
            guard let stream = resolved.streamValue else { throw PDFError(.syntax, "a mesh shading must be a stream") }
            if let function, function.inputCount != 1 {
                throw PDFError(.syntax, "a mesh shading's function must take one input")
            }
            var mesh = try MeshReader(
                stream: stream, type: type, space: space, function: function, reader: reader)
            let geometry: Geometry = type <= 5 ? .triangles(try mesh.triangles()) : .patches(try mesh.patches())
            var color: @Sendable (Double) -> RGB = { _ in .black }
            if let function, mesh.decode.count >= 6 {
                color = ShadingReader.colorTable(
                    function: function, space: space, t0: mesh.decode[4], t1: mesh.decode[5])
            }
            self.init(geometry: geometry, color: color, background: background, bbox: bbox)
        default:
            throw PDFError(.unsupported, "shading type \(type) is not defined")
        }
    }
}

/// Entries of a shading dictionary.
struct ShadingReader {
    let dictionary: PDFDictionary
    let document: PDFDocument

    /// How many times axial and radial colour functions are sampled.
    static let tableSize = 1024

    func numbers(_ key: PDFName) -> [Double]? {
        guard let items = document.resolve(dictionary, key)?.arrayValue else { return nil }
        let values = items.compactMap { document.resolve($0).numberValue }
        return values.count == items.count && values.allSatisfy(\.isFinite) ? values : nil
    }

    func int(_ key: PDFName) -> Int? { document.resolve(dictionary, key)?.intValue }

    /// `/Function`: one function or an array of one-output functions; it must give `outputs` values.
    func function(outputs: Int) throws(PDFError) -> PDFFunction? {
        guard let object = document.resolve(dictionary, "Function") else { return nil }
        let function: PDFFunction
        if let items = object.arrayValue {
            function = try PDFFunction(functions: items, document: document)
        } else {
            function = try PDFFunction(object, document: document)
        }
        guard function.outputCount >= outputs else {
            throw PDFError(.syntax, "a shading function gives \(function.outputCount) values for \(outputs) components")
        }
        return function
    }

    /// The colour at t (clamped to [t0, t1]) from a table of the function sampled evenly,
    /// interpolated linearly between neighbouring entries.
    static func colorTable(function: PDFFunction, space: ColorSpace, t0: Double, t1: Double)
        -> @Sendable (Double) -> RGB
    {
        let count = t0 == t1 ? 1 : tableSize
        var table: [RGB] = []
        table.reserveCapacity(count)
        for i in 0..<count {
            let t = count == 1 ? t0 : t0 + (t1 - t0) * Double(i) / Double(count - 1)
            table.append(space.rgb(function.evaluate([t])))
        }
        let entries = table
        return { t in
            guard count > 1, t.isFinite else { return entries[0] }
            let position = min(max((t - t0) / (t1 - t0), 0), 1) * Double(count - 1)
            let index = min(Int(position), count - 2)
            let fraction = position - Double(index)
            let (a, b) = (entries[index], entries[index + 1])
            return RGB(a.r + (b.r - a.r) * fraction, a.g + (b.g - a.g) * fraction, a.b + (b.b - a.b) * fraction)
        }
    }
}
