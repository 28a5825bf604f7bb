import PDFCore
import PDFGraphics
import PDFTestSupport
import Testing

/// A PostScript calculator program, its inputs and the outputs worked out by hand from the
/// operators' definitions (PostScript Language Reference, ISO 32000-2 Table 42).
struct CalculatorCase: CustomStringConvertible, Sendable {
    var program: String
    var inputs: [Double]
    var expected: [Double]
    var description: String { "\(program) \(inputs)" }

    init(_ program: String, _ inputs: [Double], _ expected: [Double]) {
        self.program = program
        self.inputs = inputs
        self.expected = expected
    }
}

@Suite("PostScript calculator functions (ISO 32000-2 §7.10.5)")
struct FunctionPostScriptTests {
    static let cases: [CalculatorCase] = [
        // Arithmetic.
        .init("{ abs }", [-2.5], [2.5]),
        .init("{ add }", [2, 3.5], [5.5]),
        .init("{ pop 1 1 atan 0 -1 atan -1 0 atan }", [0], [45, 180, 270]),
        .init("{ ceiling exch ceiling }", [2.1, -2.5], [-2, 3]),
        .init("{ cos }", [60], [0.5]),
        .init("{ cvi }", [-3.7], [-3]),
        .init("{ pop 7 cvr 2 div }", [0], [3.5]),
        .init("{ div }", [7, 2], [3.5]),
        .init("{ 3 exp exch 0.5 exp }", [4, 2], [8, 2]),
        .init("{ floor }", [-2.5], [-3]),
        .init("{ pop 7 2 idiv -7 2 idiv }", [0], [3, -3]),
        .init("{ pop 1 ln 2.718281828459045 ln }", [0], [0, 1]),
        .init("{ log }", [1000], [3]),
        .init("{ pop 7 3 mod -7 3 mod }", [0], [1, -1]),
        .init("{ mul }", [2.5, 4], [10]),
        .init("{ neg }", [3], [-3]),
        .init("{ round exch round }", [-2.5, 2.5], [3, -2]),
        .init("{ round }", [2.4], [2]),
        .init("{ sin }", [30], [0.5]),
        .init("{ sqrt }", [16], [4]),
        .init("{ sub }", [2, 5], [-3]),
        .init("{ truncate }", [-2.7], [-2]),
        // Relational, boolean and bitwise.
        .init("{ pop 12 10 and true false and { 1 } { 0 } ifelse }", [0], [8, 0]),
        .init("{ pop 12 10 or false true or { 1 } { 0 } ifelse }", [0], [14, 1]),
        .init("{ pop 12 10 xor true true xor { 1 } { 0 } ifelse }", [0], [6, 0]),
        .init("{ pop 5 not true not { 1 } { 0 } ifelse }", [0], [-6, 0]),
        .init("{ pop 1 4 bitshift 16 -2 bitshift }", [0], [16, 4]),
        .init("{ pop 2 2.0 eq { 1 } { 0 } ifelse 2 3 ne { 1 } { 0 } ifelse }", [0], [1, 1]),
        .init("{ pop true false eq { 1 } { 0 } ifelse }", [0], [0]),
        .init("{ dup 0.5 ge { 1 } { 0 } ifelse exch 0.5 gt { 1 } { 0 } ifelse }", [0.5], [1, 0]),
        .init("{ dup 0.5 le { 1 } { 0 } ifelse exch 0.5 lt { 1 } { 0 } ifelse }", [0.5], [1, 0]),
        // Conditionals, nested.
        .init("{ dup 0.5 gt { pop 1 } if }", [0.7], [1]),
        .init("{ dup 0.5 gt { pop 1 } if }", [0.3], [0.3]),
        .init("{ dup 0.5 lt { 0.25 lt { 1 } { 2 } ifelse } { pop 3 } ifelse }", [0.1], [1]),
        .init("{ dup 0.5 lt { 0.25 lt { 1 } { 2 } ifelse } { pop 3 } ifelse }", [0.3], [2]),
        .init("{ dup 0.5 lt { 0.25 lt { 1 } { 2 } ifelse } { pop 3 } ifelse }", [0.9], [3]),
        // Stack.
        .init("{ pop 1 2 3 2 copy }", [0], [1, 2, 3, 2, 3]),
        .init("{ dup }", [4], [4, 4]),
        .init("{ exch }", [1, 2], [2, 1]),
        .init("{ pop 10 20 30 2 index }", [0], [10, 20, 30, 10]),
        .init("{ pop }", [1, 2], [1]),
        .init("{ pop 1 2 3 4 3 1 roll }", [0], [1, 4, 2, 3]),
        .init("{ pop 1 2 3 4 3 -1 roll }", [0], [1, 3, 4, 2]),
        // Comments and a real written with an exponent-free fraction.
        .init("{ % comment\n .5 add }", [1], [1.5]),
    ]

    @Test("each operator gives the value worked out by hand", arguments: cases)
    func operators(_ calculation: CalculatorCase) throws {
        let domain = [[Double]](repeating: [-1000, 1000], count: calculation.inputs.count).flatMap { $0 }
        let range = [[Double]](repeating: [-1000, 1000], count: calculation.expected.count).flatMap { $0 }
        let f = try FunctionFixtures.function(
            FunctionFixtures.postScript(calculation.program, domain: domain, range: range))
        #expect(approximatelyEqual(f.evaluate(calculation.inputs), calculation.expected, 1e-9))
    }

    @Test("outputs are clipped to the range and inputs to the domain")
    func clipping() throws {
        let f = try FunctionFixtures.function(
            FunctionFixtures.postScript("{ 2 mul }", domain: [0, 1], range: [0, 1.5]))
        #expect(approximatelyEqual(f.evaluate([0.5]), [1]))
        #expect(approximatelyEqual(f.evaluate([0.9]), [1.5]))
        #expect(approximatelyEqual(f.evaluate([-3]), [0]))
    }

    @Test("errors stop the program without crashing: underflow, overflow, division by zero, type errors")
    func errors() throws {
        let overflow = "{ " + String(repeating: "1 ", count: 150) + "}"
        for program in ["{ add add add }", overflow, "{ 0 div }", "{ 0 idiv }", "{ true add }", "{ -1 sqrt }"] {
            let f = try FunctionFixtures.function(FunctionFixtures.postScript(program, domain: [0, 1], range: [0, 1]))
            let value = f.evaluate([0.5])
            #expect(value.count == 1 && value[0] >= 0 && value[0] <= 1)
        }
    }

    @Test(
        "malformed programs are refused",
        arguments: ["add", "{ add", "{ foo }", "{ 1 { 2 } }", "{ if }", "{ {1} ifelse }"])
    func malformed(_ program: String) throws {
        #expect(throws: PDFError.self) {
            try FunctionFixtures.function(FunctionFixtures.postScript(program, domain: [0, 1], range: [0, 1]))
        }
    }

    @Test("every prefix of a program parses or throws, never crashes")
    func truncationSweep() throws {
        let program = "{ dup 0.5 lt { 0.25 lt { 1 } { 2 } ifelse } { pop 3 } ifelse 4 copy pop pop pop }"
        for length in 0...program.utf8.count {
            let prefix = String(decoding: Array(program.utf8.prefix(length)), as: UTF8.self)
            if let f = try? FunctionFixtures.function(
                FunctionFixtures.postScript(prefix, domain: [0, 1], range: [0, 10]))
            {
                _ = f.evaluate([0.3])
            }
        }
        let deep = String(repeating: "{ ", count: 200) + String(repeating: "} if ", count: 200)
        #expect(throws: PDFError.self) {
            try FunctionFixtures.function(
                FunctionFixtures.postScript("{ true " + deep + "}", domain: [0, 1], range: [0, 1]))
        }
    }
}
