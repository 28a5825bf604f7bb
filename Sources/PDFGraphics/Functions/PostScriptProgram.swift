import PDFCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A type 4 (PostScript calculator) function's program (ISO 32000-2 §7.10.5), parsed once into a
/// flat list of instructions with jumps for `if` and `ifelse`, and run on a stack of at most 100
/// operands (the limit of Annex C).
struct PostScriptProgram: Sendable {
    enum Value: Sendable, Equatable {
        case int(Int)
        case real(Double)
        case bool(Bool)

        var number: Double? {
            switch self {
            case .int(let value): Double(value)
            case .real(let value): value
            case .bool: nil
            }
        }
    }

    /// The operators of ISO 32000-2 Table 42, except `if` and `ifelse`, which become jumps.
    enum Operator: String, Sendable, CaseIterable {
        case abs, add, atan, ceiling, cos, cvi, cvr, div, exp, floor, idiv, ln, log, mod, mul, neg, round
        case sin, sqrt, sub, truncate
        case and, bitshift, eq, ge, gt, le, lt, ne, not, or, xor
        case copy, dup, exch, index, pop, roll
    }

    enum Instruction: Sendable, Equatable {
        case push(Value)
        case op(Operator)
        /// Pops a boolean and jumps when it is false.
        case jumpIfFalse(Int)
        case jump(Int)
    }

    let instructions: [Instruction]

    static let maxStack = 100
    static let maxNesting = 64
    static let maxInstructions = 100_000
    /// Instructions executed per evaluation at most (a program has no loops, so this only guards size).
    static let maxSteps = 1_000_000

    private indirect enum Node {
        case value(Value)
        case op(Operator)
        case procedure([Node])
        case conditional([Node])
        case alternative([Node], [Node])
    }

    /// Parses `{ … }`.
    /// - Throws: `PDFError` `.syntax` for an unknown operator, an unbalanced brace or a stray procedure,
    ///   `.limitExceeded` for a program nested or sized beyond the limits.
    init(_ bytes: [UInt8]) throws(PDFError) {
        var tokens = PostScriptTokens(bytes)
        guard tokens.next() == .open else { throw PDFError(.syntax, "a PostScript function must start with {") }
        let body = try PostScriptProgram.parseProcedure(&tokens, depth: 0)
        var code: [Instruction] = []
        try PostScriptProgram.compile(body, into: &code)
        instructions = code
    }

    private static func parseProcedure(_ tokens: inout PostScriptTokens, depth: Int) throws(PDFError) -> [Node] {
        guard depth < maxNesting else { throw PDFError(.limitExceeded, "PostScript procedures nest too deeply") }
        var nodes: [Node] = []
        while true {
            switch tokens.next() {
            case .end:
                throw PDFError(.syntax, "a PostScript procedure is not closed")
            case .close:
                return nodes
            case .open:
                nodes.append(.procedure(try parseProcedure(&tokens, depth: depth + 1)))
            case .number(let value):
                nodes.append(.value(value))
            case .word(let word):
                switch word {
                case "true": nodes.append(.value(.bool(true)))
                case "false": nodes.append(.value(.bool(false)))
                case "if":
                    guard case .procedure(let body) = nodes.popLast() else {
                        throw PDFError(.syntax, "PostScript if without a procedure")
                    }
                    nodes.append(.conditional(body))
                case "ifelse":
                    guard case .procedure(let second) = nodes.popLast(), case .procedure(let first) = nodes.popLast()
                    else { throw PDFError(.syntax, "PostScript ifelse without two procedures") }
                    nodes.append(.alternative(first, second))
                default:
                    guard let op = Operator(rawValue: word) else {
                        throw PDFError(.syntax, "unknown PostScript calculator operator \(word)")
                    }
                    nodes.append(.op(op))
                }
            }
        }
    }

    private static func compile(_ nodes: [Node], into code: inout [Instruction]) throws(PDFError) {
        for node in nodes {
            guard code.count < maxInstructions else { throw PDFError(.limitExceeded, "PostScript program too long") }
            switch node {
            case .value(let value): code.append(.push(value))
            case .op(let op): code.append(.op(op))
            case .procedure: throw PDFError(.syntax, "a PostScript procedure outside if or ifelse")
            case .conditional(let body):
                let branch = code.count
                code.append(.jump(0))
                try compile(body, into: &code)
                code[branch] = .jumpIfFalse(code.count)
            case .alternative(let first, let second):
                let branch = code.count
                code.append(.jump(0))
                try compile(first, into: &code)
                let skip = code.count
                code.append(.jump(0))
                code[branch] = .jumpIfFalse(code.count)
                try compile(second, into: &code)
                code[skip] = .jump(code.count)
            }
        }
    }

    /// Runs the program with `input` on the stack and returns the top `outputCount` numbers
    /// (bottom first). An error (stack underflow or overflow, a type mismatch) stops the program;
    /// what is on the stack then is used, missing outputs being 0.
    func evaluate(_ input: [Double], outputCount: Int) -> [Double] {
        var machine = PostScriptMachine()
        for value in input { _ = machine.push(.real(value)) }
        var pc = 0
        var steps = 0
        run: while pc < instructions.count, steps < PostScriptProgram.maxSteps {
            steps += 1
            switch instructions[pc] {
            case .push(let value):
                guard machine.push(value) else { break run }
                pc += 1
            case .op(let op):
                guard machine.execute(op) else { break run }
                pc += 1
            case .jump(let target):
                pc = target
            case .jumpIfFalse(let target):
                guard case .bool(let condition) = machine.pop() else { break run }
                pc = condition ? pc + 1 : target
            }
        }
        var output = [Double](repeating: 0, count: outputCount)
        for (j, value) in machine.stack.suffix(outputCount).enumerated() {
            output[j] = value.number ?? (value == .bool(true) ? 1 : 0)
        }
        return output
    }
}

/// The tokens of a PostScript calculator program.
struct PostScriptTokens {
    enum Token: Equatable {
        case open, close, end
        case number(PostScriptProgram.Value)
        case word(String)
    }

    let bytes: [UInt8]
    var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func next() -> Token {
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "%") {
                while position < bytes.count, bytes[position] != 0x0A, bytes[position] != 0x0D { position += 1 }
            } else if byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 || byte == 0x0C || byte == 0 {
                position += 1
            } else {
                break
            }
        }
        guard position < bytes.count else { return .end }
        let byte = bytes[position]
        if byte == UInt8(ascii: "{") {
            position += 1
            return .open
        }
        if byte == UInt8(ascii: "}") {
            position += 1
            return .close
        }
        let start = position
        while position < bytes.count {
            let b = bytes[position]
            if b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 || b == 0x0C || b == 0 || b == UInt8(ascii: "{")
                || b == UInt8(ascii: "}") || b == UInt8(ascii: "%")
            {
                break
            }
            position += 1
        }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        if let value = Int(text) { return .number(.int(value)) }
        if let first = text.first, first.isNumber || first == "-" || first == "+" || first == ".",
            let value = Double(text), value.isFinite
        {
            return .number(.real(value))
        }
        return .word(text)
    }
}
