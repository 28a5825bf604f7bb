#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The operand stack of a PostScript calculator function and its operators (ISO 32000-2 Table 42,
/// with the semantics of the PostScript Language Reference). Every operator returns false on an
/// error (underflow, overflow, wrong operand type, undefined result), which stops the program.
struct PostScriptMachine {
    typealias Value = PostScriptProgram.Value

    var stack: [Value] = []

    init() { stack.reserveCapacity(PostScriptProgram.maxStack) }

    mutating func push(_ value: Value) -> Bool {
        guard stack.count < PostScriptProgram.maxStack else { return false }
        stack.append(value)
        return true
    }

    mutating func pop() -> Value? { stack.popLast() }

    private mutating func popNumber() -> Double? {
        guard let number = stack.last?.number else { return nil }
        stack.removeLast()
        return number
    }

    private mutating func popInt() -> Int? {
        guard case .int(let value) = stack.last else { return nil }
        stack.removeLast()
        return value
    }

    /// Pushes a real result, failing on NaN or infinity (PostScript's undefinedresult).
    private mutating func pushReal(_ value: Double) -> Bool {
        value.isFinite ? push(.real(value)) : false
    }

    /// Pushes an integer result of `op` on two integers, or a real one when it overflows.
    private mutating func arithmetic(
        _ intOp: (Int, Int) -> (Int, Bool), _ realOp: (Double, Double) -> Double
    ) -> Bool {
        guard stack.count >= 2 else { return false }
        let b = stack.removeLast()
        let a = stack.removeLast()
        if case .int(let x) = a, case .int(let y) = b {
            let (result, overflow) = intOp(x, y)
            return overflow ? pushReal(realOp(Double(x), Double(y))) : push(.int(result))
        }
        guard let x = a.number, let y = b.number else { return false }
        return pushReal(realOp(x, y))
    }

    /// Applies a rounding operator: integers stay as they are, reals stay reals.
    private mutating func rounding(_ body: (Double) -> Double) -> Bool {
        guard let top = stack.popLast() else { return false }
        switch top {
        case .int: return push(top)
        case .real(let value): return pushReal(body(value))
        case .bool: return false
        }
    }

    private mutating func compare(_ body: (Double, Double) -> Bool) -> Bool {
        guard let b = popNumber(), let a = popNumber() else { return false }
        return push(.bool(body(a, b)))
    }

    private mutating func logical(_ boolOp: (Bool, Bool) -> Bool, _ intOp: (Int, Int) -> Int) -> Bool {
        guard stack.count >= 2 else { return false }
        let b = stack.removeLast()
        let a = stack.removeLast()
        switch (a, b) {
        case (.bool(let x), .bool(let y)): return push(.bool(boolOp(x, y)))
        case (.int(let x), .int(let y)): return push(.int(intOp(x, y)))
        default: return false
        }
    }

    private static func degrees(_ radians: Double) -> Double { radians * 180 / Double.pi }
    private static func radians(_ degrees: Double) -> Double { degrees * Double.pi / 180 }

    mutating func execute(_ op: PostScriptProgram.Operator) -> Bool {
        switch op {
        case .add: return arithmetic({ $0.addingReportingOverflow($1) }, +)
        case .sub: return arithmetic({ $0.subtractingReportingOverflow($1) }, -)
        case .mul: return arithmetic({ $0.multipliedReportingOverflow(by: $1) }, *)
        case .div:
            guard let b = popNumber(), let a = popNumber(), b != 0 else { return false }
            return pushReal(a / b)
        case .idiv:
            guard let b = popInt(), let a = popInt(), b != 0 else { return false }
            return push(.int(a == Int.min && b == -1 ? a : a / b))
        case .mod:
            guard let b = popInt(), let a = popInt(), b != 0 else { return false }
            return push(.int(b == -1 ? 0 : a % b))
        case .abs:
            guard let top = stack.popLast() else { return false }
            switch top {
            case .int(let value): return value == Int.min ? pushReal(-Double(value)) : push(.int(Swift.abs(value)))
            case .real(let value): return push(.real(Swift.abs(value)))
            case .bool: return false
            }
        case .neg:
            guard let top = stack.popLast() else { return false }
            switch top {
            case .int(let value): return value == Int.min ? pushReal(-Double(value)) : push(.int(-value))
            case .real(let value): return push(.real(-value))
            case .bool: return false
            }
        case .ceiling: return rounding { $0.rounded(.up) }
        case .floor: return rounding { $0.rounded(.down) }
        case .truncate: return rounding { $0.rounded(.towardZero) }
        // PostScript's round takes the greater of two equally close integers (−2.5 → −2).
        case .round: return rounding { ($0 + 0.5).rounded(.down) }
        case .cvi:
            guard let value = popNumber() else { return false }
            let truncated = value.rounded(.towardZero)
            guard truncated.isFinite, Swift.abs(truncated) < 9.0e18 else { return false }
            return push(.int(Int(truncated)))
        case .cvr:
            guard let value = popNumber() else { return false }
            return push(.real(value))
        case .sqrt:
            guard let value = popNumber(), value >= 0 else { return false }
            return pushReal(value.squareRoot())
        case .sin:
            guard let value = popNumber() else { return false }
            return pushReal(sin(PostScriptMachine.radians(value)))
        case .cos:
            guard let value = popNumber() else { return false }
            return pushReal(cos(PostScriptMachine.radians(value)))
        case .atan:
            guard let den = popNumber(), let num = popNumber(), num != 0 || den != 0 else { return false }
            var angle = PostScriptMachine.degrees(atan2(num, den))
            if angle < 0 { angle += 360 }
            return pushReal(angle)
        case .exp:
            guard let exponent = popNumber(), let base = popNumber() else { return false }
            return pushReal(pow(base, exponent))
        case .ln:
            guard let value = popNumber(), value > 0 else { return false }
            return pushReal(log(value))
        case .log:
            guard let value = popNumber(), value > 0 else { return false }
            return pushReal(log10(value))
        case .eq, .ne:
            guard stack.count >= 2 else { return false }
            let b = stack.removeLast()
            let a = stack.removeLast()
            let equal: Bool
            if let x = a.number, let y = b.number {
                equal = x == y
            } else {
                equal = a == b
            }
            return push(.bool(op == .eq ? equal : !equal))
        case .ge: return compare(>=)
        case .gt: return compare(>)
        case .le: return compare(<=)
        case .lt: return compare(<)
        case .and: return logical({ $0 && $1 }, &)
        case .or: return logical({ $0 || $1 }, |)
        case .xor: return logical({ $0 != $1 }, ^)
        case .not:
            guard let top = stack.popLast() else { return false }
            switch top {
            case .bool(let value): return push(.bool(!value))
            case .int(let value): return push(.int(~value))
            case .real: return false
            }
        case .bitshift:
            guard let shift = popInt(), let value = popInt() else { return false }
            // A right shift is arithmetic, as in MuPDF and pdf.js; shifting 64 or more bits out leaves 0 or −1.
            if shift >= 0 { return push(.int(shift >= 64 ? 0 : value << shift)) }
            return push(.int(-shift >= 64 ? (value < 0 ? -1 : 0) : value >> -shift))
        case .dup:
            guard let top = stack.last else { return false }
            return push(top)
        case .exch:
            guard stack.count >= 2 else { return false }
            stack.swapAt(stack.count - 1, stack.count - 2)
            return true
        case .pop:
            return stack.popLast() != nil
        case .copy:
            guard let n = popInt(), n >= 0, n <= stack.count,
                stack.count + n <= PostScriptProgram.maxStack
            else { return false }
            stack.append(contentsOf: stack[(stack.count - n)...])
            return true
        case .index:
            guard let n = popInt(), n >= 0, n < stack.count else { return false }
            return push(stack[stack.count - 1 - n])
        case .roll:
            guard let j = popInt(), let n = popInt(), n >= 0, n <= stack.count else { return false }
            guard n > 0 else { return true }
            let shift = ((j % n) + n) % n
            guard shift != 0 else { return true }
            let start = stack.count - n
            let window = Array(stack[start...])
            for i in 0..<n { stack[start + (i + shift) % n] = window[i] }
            return true
        }
    }
}
