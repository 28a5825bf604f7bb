public import PDFCore

extension ColorSpace {
    /// How deeply colour spaces may refer to others (Indexed over Separation over ICCBased …).
    static let maxDepth = 8

    /// Reads a colour space: a family name, a name in the `/ColorSpace` resource dictionary, or an
    /// array (ISO 32000-2 §8.6.3). `DeviceGray`, `DeviceRGB` and `DeviceCMYK` are replaced by the
    /// resources' `DefaultGray`, `DefaultRGB`, `DefaultCMYK` when those exist and have as many
    /// components (§8.6.5.6). The inline-image abbreviations `G`, `RGB`, `CMYK` and `I` are read too.
    ///
    /// - Parameters:
    ///   - object: the colour space object (a name, an array or a reference).
    ///   - resources: the resource dictionary that names colour spaces, if any.
    ///   - document: resolves references and decodes lookup tables and profiles.
    ///   - icc: makes converters for `/ICCBased` profiles; nil draws them through `/Alternate`.
    /// - Throws: `PDFError` `.syntax` for a malformed or unknown space, `.unsupported` for a family
    ///   not defined by ISO 32000-2, `.limitExceeded` when spaces nest more than 8 deep, plus what
    ///   reading a tint transform or decoding a stream throws.
    public static func resolve(
        _ object: PDFObject, resources: PDFDictionary?, document: PDFDocument, icc: (any ICCConverterFactory)?
    ) throws(PDFError) -> ColorSpace {
        var resolver = Resolver(resources: resources, document: document, icc: icc)
        return try resolver.resolve(object, depth: 0, useDefaults: true)
    }

    struct Resolver {
        let resources: PDFDictionary?
        let document: PDFDocument
        let icc: (any ICCConverterFactory)?

        mutating func resolve(_ object: PDFObject, depth: Int, useDefaults: Bool) throws(PDFError) -> ColorSpace {
            guard depth <= ColorSpace.maxDepth else {
                throw PDFError(.limitExceeded, "colour spaces nest more than \(ColorSpace.maxDepth) deep")
            }
            let resolved = document.resolve(object)
            switch resolved {
            case .name(let name):
                return try named(name, depth: depth, useDefaults: useDefaults)
            case .array(let items):
                guard let first = items.first, let family = document.resolve(first).nameValue else {
                    throw PDFError(.syntax, "a colour space array must start with a family name")
                }
                if items.count == 1 { return try named(family, depth: depth, useDefaults: useDefaults) }
                return try array(family, Array(items.dropFirst()), depth: depth)
            default:
                throw PDFError(.syntax, "a colour space must be a name or an array, not \(resolved.typeName)")
            }
        }

        private mutating func named(_ name: PDFName, depth: Int, useDefaults: Bool) throws(PDFError) -> ColorSpace {
            let device: (ColorSpace, PDFName)?
            switch name.string {
            case "DeviceGray", "G": device = (.deviceGray, "DefaultGray")
            case "DeviceRGB", "RGB": device = (.deviceRGB, "DefaultRGB")
            case "DeviceCMYK", "CMYK": device = (.deviceCMYK, "DefaultCMYK")
            case "Pattern": return ColorSpace(.pattern(base: nil), name: "Pattern", componentCount: 0)
            default: device = nil
            }
            let spaces = resources.flatMap { document.resolve($0, "ColorSpace")?.dictionaryValue }
            if let (space, defaultName) = device {
                // §8.6.5.6: a Default space replaces the device space; one that cannot be read is ignored.
                if useDefaults, let replacement = spaces?[defaultName],
                    let found = try? resolve(replacement, depth: depth + 1, useDefaults: false),
                    found.componentCount == space.componentCount, !found.isPattern
                {
                    return found
                }
                return space
            }
            guard let definition = spaces?[name] else {
                throw PDFError(.syntax, "unknown colour space /\(name.string)")
            }
            return try resolve(definition, depth: depth + 1, useDefaults: useDefaults)
        }

        private func numbers(_ object: PDFObject?) -> [Double]? {
            guard let items = object.flatMap({ document.resolve($0).arrayValue }) else { return nil }
            let values = items.compactMap { document.resolve($0).numberValue }
            return values.count == items.count && values.allSatisfy(\.isFinite) ? values : nil
        }

        private func whitePoint(_ dictionary: PDFDictionary) throws(PDFError) -> (Double, Double, Double) {
            guard let white = numbers(dictionary["WhitePoint"]), white.count == 3, white[0] > 0, white[1] > 0,
                white[2] > 0
            else { throw PDFError(.syntax, "a CIE-based colour space needs a positive /WhitePoint") }
            // ISO 32000-2 requires Yw = 1; scale the point so it holds.
            return (white[0] / white[1], 1, white[2] / white[1])
        }

        private mutating func array(_ family: PDFName, _ operands: [PDFObject], depth: Int) throws(PDFError)
            -> ColorSpace
        {
            let dictionary = document.resolve(operands[0]).dictionaryValue ?? PDFDictionary()
            switch family.string {
            case "DeviceGray", "G", "DeviceRGB", "RGB", "DeviceCMYK", "CMYK":
                return try named(family, depth: depth, useDefaults: false)
            case "CalGray":
                let gamma = document.resolve(dictionary, "Gamma")?.numberValue ?? 1
                return ColorSpace(
                    .calGray(CIEConversion(whitePoint: try whitePoint(dictionary)), gamma: gamma > 0 ? gamma : 1),
                    name: "CalGray", componentCount: 1)
            case "CalRGB":
                var gamma = numbers(dictionary["Gamma"]) ?? [1, 1, 1]
                if gamma.count != 3 || gamma.contains(where: { $0 <= 0 }) { gamma = [1, 1, 1] }
                var matrix = numbers(dictionary["Matrix"]) ?? [1, 0, 0, 0, 1, 0, 0, 0, 1]
                if matrix.count != 9 { matrix = [1, 0, 0, 0, 1, 0, 0, 0, 1] }
                return ColorSpace(
                    .calRGB(CIEConversion(whitePoint: try whitePoint(dictionary)), gamma: gamma, matrix: matrix),
                    name: "CalRGB", componentCount: 3)
            case "Lab":
                var range = numbers(dictionary["Range"]) ?? [-100, 100, -100, 100]
                if range.count != 4 || range[0] > range[1] || range[2] > range[3] { range = [-100, 100, -100, 100] }
                return ColorSpace(
                    .lab(CIEConversion(whitePoint: try whitePoint(dictionary))), name: "Lab", componentCount: 3,
                    ranges: [0, 100] + range)
            case "ICCBased":
                return try iccBased(operands[0], depth: depth)
            case "Indexed", "I":
                return try indexed(operands, depth: depth)
            case "Separation":
                guard operands.count >= 3, let colorant = document.resolve(operands[0]).nameValue else {
                    throw PDFError(.syntax, "a Separation space needs a name, an alternate space and a tint transform")
                }
                let alternate = try resolve(operands[1], depth: depth + 1, useDefaults: false)
                let tint = try tintTransform(operands[2], inputs: 1, alternate: alternate)
                return ColorSpace(
                    .tint(tint, alternate: alternate, paintsNothing: colorant == .none), name: "Separation",
                    componentCount: 1)
            case "DeviceN":
                guard operands.count >= 3, let names = document.resolve(operands[0]).arrayValue, !names.isEmpty,
                    names.count <= 32
                else {
                    throw PDFError(.syntax, "a DeviceN space needs 1 to 32 names, an alternate and a tint transform")
                }
                let alternate = try resolve(operands[1], depth: depth + 1, useDefaults: false)
                let tint = try tintTransform(operands[2], inputs: names.count, alternate: alternate)
                let none = names.allSatisfy { document.resolve($0).nameValue == PDFName.none }
                return ColorSpace(
                    .tint(tint, alternate: alternate, paintsNothing: none), name: "DeviceN",
                    componentCount: names.count)
            case "Pattern":
                let base = try resolve(operands[0], depth: depth + 1, useDefaults: true)
                guard !base.isPattern else { throw PDFError(.syntax, "a Pattern space cannot be over a Pattern space") }
                return ColorSpace(.pattern(base: base), name: "Pattern", componentCount: base.componentCount)
            default:
                throw PDFError(.unsupported, "unknown colour space family /\(family.string)")
            }
        }

        private func tintTransform(_ object: PDFObject, inputs: Int, alternate: ColorSpace) throws(PDFError)
            -> PDFFunction
        {
            let resolved = document.resolve(object)
            let function: PDFFunction
            if let items = resolved.arrayValue {
                function = try PDFFunction(functions: items, document: document)
            } else {
                function = try PDFFunction(resolved, document: document)
            }
            guard function.inputCount == inputs, function.outputCount >= alternate.componentCount else {
                throw PDFError(
                    .syntax,
                    "a tint transform must take \(inputs) inputs and give \(alternate.componentCount) outputs")
            }
            return function
        }

        private mutating func iccBased(_ object: PDFObject, depth: Int) throws(PDFError) -> ColorSpace {
            guard let stream = document.resolve(object).streamValue else {
                throw PDFError(.syntax, "an ICCBased space needs a profile stream")
            }
            let dictionary = stream.dictionary
            guard let n = document.resolve(dictionary, .n)?.intValue, [1, 3, 4].contains(n) else {
                throw PDFError(.syntax, "an ICCBased space needs /N 1, 3 or 4")
            }
            var explicitRanges = numbers(dictionary["Range"])
            if let found = explicitRanges,
                found.count != 2 * n
                    || stride(from: 0, to: found.count, by: 2).contains(where: { found[$0] >= found[$0 + 1] })
            {
                explicitRanges = nil
            }
            let ranges = explicitRanges ?? Array(repeating: [0.0, 1.0], count: n).flatMap { $0 }
            if let icc, let profile = try? stream.decodedData(maxSize: 8 << 20),
                let converter = icc.converter(profile: profile, componentCount: n)
            {
                return ColorSpace(.iccBased(converter), name: "ICCBased", componentCount: n, ranges: ranges)
            }
            if let alternate = dictionary["Alternate"],
                let space = try? resolve(alternate, depth: depth + 1, useDefaults: false),
                space.componentCount == n, !space.isPattern
            {
                // The profile's /Range still sets the components' ranges (and images' default /Decode).
                guard let explicitRanges else { return space }
                return ColorSpace(space.family, name: space.name, componentCount: n, ranges: explicitRanges)
            }
            let device = [ColorSpace.deviceGray, .deviceGray, .deviceRGB, .deviceCMYK][n - 1]
            guard let explicitRanges else { return device }
            return ColorSpace(device.family, name: device.name, componentCount: n, ranges: explicitRanges)
        }

        private mutating func indexed(_ operands: [PDFObject], depth: Int) throws(PDFError) -> ColorSpace {
            guard operands.count >= 3, let hival = document.resolve(operands[1]).intValue else {
                throw PDFError(.syntax, "an Indexed space needs a base, hival and a lookup table")
            }
            let base = try resolve(operands[0], depth: depth + 1, useDefaults: true)
            guard !base.isPattern, !base.isIndexed else {
                throw PDFError(.syntax, "an Indexed space cannot be over a Pattern or Indexed space")
            }
            let count = min(max(hival, 0), 255) + 1
            let n = base.componentCount
            var lookup: [UInt8]
            switch document.resolve(operands[2]) {
            case .string(let string): lookup = string.bytes
            case .stream(let stream): lookup = try stream.decodedData(maxSize: 256 * 32 + 1024)
            default: throw PDFError(.syntax, "an Indexed space's lookup must be a string or a stream")
            }
            // A short table reads as zeros for the missing bytes.
            if lookup.count < count * n { lookup += [UInt8](repeating: 0, count: count * n - lookup.count) }
            var table: [RGB] = []
            table.reserveCapacity(count)
            var components = [Double](repeating: 0, count: n)
            for index in 0..<count {
                for j in 0..<n {
                    let (low, high) = (base.ranges[2 * j], base.ranges[2 * j + 1])
                    components[j] = low + Double(lookup[index * n + j]) * (high - low) / 255
                }
                table.append(base.rgb(components))
            }
            return ColorSpace(
                .indexed(base: base, table: table), name: "Indexed", componentCount: 1,
                ranges: [0, Double(count - 1)])
        }
    }
}
