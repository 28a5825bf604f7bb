public import PDFCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A PDF function (ISO 32000-2 §7.10): sampled (type 0), exponential (type 2), stitching (type 3)
/// or PostScript calculator (type 4), or an array of one-output functions acting as one.
///
/// Inputs are clipped to `/Domain` and outputs to `/Range` when the function has one. A function
/// is a value: once built it evaluates without touching the document again, from any thread.
public struct PDFFunction: Sendable {
    indirect enum Body: Sendable {
        case sampled(SampledFunction)
        case exponential(c0: [Double], c1: [Double], exponent: Double)
        case stitching(functions: [PDFFunction], bounds: [Double], encode: [Double])
        case postScript(PostScriptProgram)
        /// One-output functions evaluated side by side.
        case array([PDFFunction])
    }

    /// `/Domain`: 2 × m numbers.
    let domain: [Double]
    /// `/Range`: 2 × n numbers, or nil when outputs are not clipped.
    let range: [Double]?
    let body: Body
    /// The number of inputs (m).
    public let inputCount: Int
    /// The number of outputs (n).
    public let outputCount: Int

    /// How deeply stitching functions may nest (a cycle through references ends here).
    static let maxDepth = 8
    /// How many functions one function may be built from in all, so that stitching functions
    /// naming the same function many times at each level cannot multiply the work.
    static let maxFunctionCount = 1024

    /// Reads a function dictionary or stream.
    ///
    /// - Parameters:
    ///   - object: the function (a dictionary, a stream or a reference to one).
    ///   - document: resolves references and decodes streams.
    /// - Throws: `PDFError` `.syntax` for a malformed function, `.unsupported` for an unknown
    ///   `/FunctionType`, `.limitExceeded` for a sample table or nesting beyond the limits,
    ///   `.decodeFailed` when a stream cannot be decoded.
    public init(_ object: PDFObject, document: PDFDocument) throws(PDFError) {
        var budget = PDFFunction.maxFunctionCount
        try self.init(object, document: document, depth: 0, budget: &budget)
    }

    /// An array of one-output functions acting as one function with as many outputs (as `/Function`
    /// may be in shadings, ISO 32000-2 §8.7.4.5, and in Separation and DeviceN tint transforms).
    ///
    /// - Throws: `PDFError` `.syntax` when the array is empty or a member has more than one output,
    ///   plus whatever reading a member throws.
    public init(functions objects: [PDFObject], document: PDFDocument) throws(PDFError) {
        if objects.count == 1 {
            try self.init(objects[0], document: document)
            return
        }
        guard !objects.isEmpty, objects.count <= 32 else {
            throw PDFError(.syntax, "a function array needs 1 to 32 functions, not \(objects.count)")
        }
        var functions: [PDFFunction] = []
        var budget = PDFFunction.maxFunctionCount
        for object in objects {
            let function = try PDFFunction(object, document: document, depth: 1, budget: &budget)
            guard function.outputCount == 1 else {
                throw PDFError(.syntax, "each function of a function array must have one output")
            }
            functions.append(function)
        }
        guard functions.allSatisfy({ $0.inputCount == functions[0].inputCount }) else {
            throw PDFError(.syntax, "the functions of a function array differ in their number of inputs")
        }
        self.init(
            domain: functions[0].domain, range: nil, body: .array(functions), inputCount: functions[0].inputCount,
            outputCount: functions.count)
    }

    init(domain: [Double], range: [Double]?, body: Body, inputCount: Int, outputCount: Int) {
        self.domain = domain
        self.range = range
        self.body = body
        self.inputCount = inputCount
        self.outputCount = outputCount
    }

    init(_ object: PDFObject, document: PDFDocument, depth: Int, budget: inout Int) throws(PDFError) {
        guard depth <= PDFFunction.maxDepth else {
            throw PDFError(.limitExceeded, "functions nest more than \(PDFFunction.maxDepth) deep")
        }
        budget -= 1
        guard budget >= 0 else {
            throw PDFError(
                .limitExceeded, "a function is built from more than \(PDFFunction.maxFunctionCount) functions")
        }
        let resolved = document.resolve(object)
        guard let dictionary = resolved.dictionaryValue else {
            throw PDFError(.syntax, "a function must be a dictionary or a stream, not \(resolved.typeName)")
        }
        let numbers = { (key: PDFName) -> [Double]? in
            guard let items = document.resolve(dictionary, key)?.arrayValue else { return nil }
            let values = items.compactMap { document.resolve($0).numberValue }
            return values.count == items.count && values.allSatisfy(\.isFinite) ? values : nil
        }
        guard let domain = numbers("Domain"), domain.count >= 2, domain.count % 2 == 0, domain.count <= 32 else {
            throw PDFError(.syntax, "a function needs a /Domain of 2 × m numbers")
        }
        var range = numbers("Range")
        if let found = range, found.count < 2 || found.count % 2 != 0 { range = nil }
        let inputCount = domain.count / 2
        switch document.resolve(dictionary, "FunctionType")?.intValue {
        case 0:
            guard let stream = resolved.streamValue, let range else {
                throw PDFError(.syntax, "a sampled function must be a stream with a /Range")
            }
            let sampled = try SampledFunction(
                stream: stream, inputCount: inputCount, range: range, numbers: numbers, document: document)
            self.init(
                domain: domain, range: range, body: .sampled(sampled), inputCount: inputCount,
                outputCount: range.count / 2)
        case 2:
            let c0 = numbers("C0") ?? [0]
            let c1 = numbers("C1") ?? [1]
            guard let exponent = document.resolve(dictionary, "N")?.numberValue, exponent.isFinite,
                c0.count == c1.count, !c0.isEmpty
            else { throw PDFError(.syntax, "an exponential function needs /N and /C0, /C1 of equal size") }
            self.init(
                domain: Array(domain.prefix(2)), range: range,
                body: .exponential(c0: c0, c1: c1, exponent: exponent), inputCount: 1, outputCount: c0.count)
        case 3:
            guard let items = document.resolve(dictionary, "Functions")?.arrayValue, !items.isEmpty,
                items.count <= 256
            else { throw PDFError(.syntax, "a stitching function needs /Functions") }
            var functions: [PDFFunction] = []
            for item in items {
                functions.append(try PDFFunction(item, document: document, depth: depth + 1, budget: &budget))
            }
            let bounds = numbers("Bounds") ?? []
            guard let encode = numbers("Encode"), bounds.count == items.count - 1, encode.count == 2 * items.count,
                functions.allSatisfy({ $0.inputCount == 1 && $0.outputCount == functions[0].outputCount })
            else { throw PDFError(.syntax, "a stitching function's /Bounds, /Encode or /Functions disagree") }
            self.init(
                domain: Array(domain.prefix(2)), range: range,
                body: .stitching(functions: functions, bounds: bounds, encode: encode), inputCount: 1,
                outputCount: functions[0].outputCount)
        case 4:
            guard let stream = resolved.streamValue, let range else {
                throw PDFError(.syntax, "a PostScript calculator function must be a stream with a /Range")
            }
            let program = try PostScriptProgram(try stream.decodedData(maxSize: 1 << 20))
            self.init(
                domain: domain, range: range, body: .postScript(program), inputCount: inputCount,
                outputCount: range.count / 2)
        case let type:
            throw PDFError(.unsupported, "function type \(type.map(String.init) ?? "missing") is not supported")
        }
    }

    /// Evaluates the function: `input` (padded with zeros or cut to ``inputCount``) is clipped to
    /// `/Domain`; the ``outputCount`` outputs are clipped to `/Range` when there is one.
    public func evaluate(_ input: [Double]) -> [Double] {
        var x = [Double](repeating: 0, count: inputCount)
        for i in 0..<inputCount {
            let value = i < input.count && !input[i].isNaN ? input[i] : 0
            x[i] = min(max(value, domain[2 * i]), domain[2 * i + 1])
        }
        var y = evaluateClipped(x)
        if y.count != outputCount { y = Array((y + [Double](repeating: 0, count: outputCount)).prefix(outputCount)) }
        if let range {
            for j in 0..<min(outputCount, range.count / 2) {
                y[j] = y[j].isNaN ? range[2 * j] : min(max(y[j], range[2 * j]), range[2 * j + 1])
            }
        }
        return y
    }

    /// Evaluates a one-input function at `t` (the common case of shadings and tints).
    public func evaluate(_ t: Double) -> [Double] { evaluate([t]) }

    private func evaluateClipped(_ x: [Double]) -> [Double] {
        switch body {
        case .sampled(let sampled):
            return sampled.evaluate(x, domain: domain)
        case .exponential(let c0, let c1, let exponent):
            let power = pow(x[0], exponent)
            guard power.isFinite else { return c0 }
            return (0..<c0.count).map { c0[$0] + power * (c1[$0] - c0[$0]) }
        case .stitching(let functions, let bounds, let encode):
            let t = x[0]
            var k = 0
            while k < bounds.count, t >= bounds[k] { k += 1 }
            // ISO 32000-2 §7.10.4: when Domain0 = Bounds0 the first subdomain is closed on both ends.
            if k == 1, bounds[0] == domain[0], t == bounds[0] { k = 0 }
            let low = k == 0 ? domain[0] : bounds[k - 1]
            let high = k == bounds.count ? domain[1] : bounds[k]
            let mapped = PDFFunction.interpolate(t, low, high, encode[2 * k], encode[2 * k + 1])
            return functions[k].evaluate([mapped])
        case .postScript(let program):
            return program.evaluate(x, outputCount: outputCount)
        case .array(let functions):
            return functions.map { $0.evaluate(x)[0] }
        }
    }

    /// ISO 32000-2 §7.10.2's Interpolate: maps `x` from [x0, x1] to [y0, y1] (y0 when x0 = x1).
    @inline(__always)
    static func interpolate(_ x: Double, _ x0: Double, _ x1: Double, _ y0: Double, _ y1: Double) -> Double {
        x1 == x0 ? y0 : y0 + (x - x0) * (y1 - y0) / (x1 - x0)
    }
}
