/// A PDF object as a value (ISO 32000-2 §7.3).
///
/// Objects read from a file are immutable snapshots; edits build new values and
/// go through ``IncrementalUpdate`` or ``DocumentWriter``.
public enum PDFObject: Hashable, Sendable {
    case null
    case boolean(Bool)
    case integer(Int)
    case real(PDFReal)
    case string(PDFString)
    case name(PDFName)
    case array([PDFObject])
    case dictionary(PDFDictionary)
    case stream(PDFStream)
    case reference(PDFReference)
}

extension PDFObject {
    /// The integer value, also for a real with an integral value.
    public var intValue: Int? {
        switch self {
        case .integer(let value): return value
        case .real(let real):
            guard real.value.isFinite, real.value == real.value.rounded(),
                abs(real.value) < 9.0e18
            else { return nil }
            return Int(real.value)
        default: return nil
        }
    }

    /// The numeric value of an integer or a real.
    public var numberValue: Double? {
        switch self {
        case .integer(let value): return Double(value)
        case .real(let real): return real.value
        default: return nil
        }
    }

    public var boolValue: Bool? {
        if case .boolean(let value) = self { return value }
        return nil
    }

    public var nameValue: PDFName? {
        if case .name(let value) = self { return value }
        return nil
    }

    public var stringValue: PDFString? {
        if case .string(let value) = self { return value }
        return nil
    }

    public var arrayValue: [PDFObject]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The dictionary of a dictionary, or the dictionary of a stream.
    public var dictionaryValue: PDFDictionary? {
        switch self {
        case .dictionary(let value): return value
        case .stream(let stream): return stream.dictionary
        default: return nil
        }
    }

    public var streamValue: PDFStream? {
        if case .stream(let value) = self { return value }
        return nil
    }

    public var referenceValue: PDFReference? {
        if case .reference(let value) = self { return value }
        return nil
    }

    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// A short name of the object's type, for messages.
    public var typeName: String {
        switch self {
        case .null: "null"
        case .boolean: "boolean"
        case .integer: "integer"
        case .real: "real"
        case .string: "string"
        case .name: "name"
        case .array: "array"
        case .dictionary: "dictionary"
        case .stream: "stream"
        case .reference: "reference"
        }
    }
}

// Not ExpressibleByNilLiteral: `nil` must always mean "absent" (an Optional), never `.null`.
extension PDFObject: ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral,
    ExpressibleByFloatLiteral
{
    public init(integerLiteral value: Int) { self = .integer(value) }
    public init(booleanLiteral value: Bool) { self = .boolean(value) }
    public init(arrayLiteral elements: PDFObject...) { self = .array(elements) }
    public init(floatLiteral value: Double) { self = .real(PDFReal(value)) }
}

/// An indirect reference `n g R` (ISO 32000-2 §7.3.10).
public struct PDFReference: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The object number (positive).
    public var number: Int
    /// The generation number.
    public var generation: Int

    public init(_ number: Int, _ generation: Int = 0) {
        self.number = number
        self.generation = generation
    }

    public static func < (lhs: PDFReference, rhs: PDFReference) -> Bool {
        (lhs.number, lhs.generation) < (rhs.number, rhs.generation)
    }

    public var description: String { "\(number) \(generation) R" }
}

/// A real number that keeps the literal it was read from, so a round trip writes the same bytes.
public struct PDFReal: Hashable, Sendable, CustomStringConvertible {
    /// The numeric value.
    public var value: Double
    /// The characters the number was written with in the source, when it was read.
    public var literal: String?

    public init(_ value: Double, literal: String? = nil) {
        self.value = value
        self.literal = literal
    }

    public static func == (lhs: PDFReal, rhs: PDFReal) -> Bool { lhs.value == rhs.value }
    public func hash(into hasher: inout Hasher) { hasher.combine(value) }

    public var description: String { literal ?? PDFReal.format(value) }

    /// Formats a number the way PDF wants it: no exponent, at most `precision` fraction digits.
    public static func format(_ value: Double, precision: Int = 6) -> String {
        guard value.isFinite else { return "0" }
        if value == value.rounded(), abs(value) < 1.0e15 { return String(Int(value)) }
        var scale = 1.0
        for _ in 0..<precision { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        guard scaled < 9.0e18 else { return plainDigits(value.rounded()) }
        let units = Int(scaled)
        let whole = units / Int(scale)
        var fraction = String(units % Int(scale))
        if fraction.count < precision {
            fraction = String(repeating: "0", count: precision - fraction.count) + fraction
        }
        while fraction.hasSuffix("0") { fraction.removeLast() }
        let sign = value < 0 && units != 0 ? "-" : ""
        return fraction.isEmpty ? "\(sign)\(whole)" : "\(sign)\(whole).\(fraction)"
    }

    /// An integral double too large for `Int`, written out in digits (`1e+20` → `100000000000000000000`).
    private static func plainDigits(_ value: Double) -> String {
        let text = String(value)  // shortest representation, possibly with an exponent
        guard let exponentIndex = text.firstIndex(where: { $0 == "e" || $0 == "E" }),
            let exponent = Int(text[text.index(after: exponentIndex)...])
        else { return text.hasSuffix(".0") ? String(text.dropLast(2)) : text }
        var mantissa = String(text[..<exponentIndex])
        let negative = mantissa.hasPrefix("-")
        if negative { mantissa.removeFirst() }
        let parts = mantissa.split(separator: ".", omittingEmptySubsequences: false)
        let integer = String(parts[0])
        let fraction = parts.count > 1 ? String(parts[1]) : ""
        let digits = integer + fraction
        let zeros = max(0, exponent - fraction.count)
        return (negative ? "-" : "") + digits + String(repeating: "0", count: zeros)
    }
}
