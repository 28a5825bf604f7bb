/// A PDF object as a value (ISO 32000-2 §7.3).
///
/// Objects read from a file are immutable snapshots; edits build new values and
/// go through ``IncrementalUpdate`` or ``DocumentWriter``.
public enum PDFObject: Hashable, Sendable {
    /// The null object (§7.3.9): the same as an absent value in a dictionary or array.
    case null
    /// `true` or `false` (§7.3.2).
    case boolean(Bool)
    /// An integer (§7.3.3).
    case integer(Int)
    /// A real number, with the literal it was read from (§7.3.3).
    case real(PDFReal)
    /// A literal or hexadecimal string (§7.3.4).
    case string(PDFString)
    /// A name (§7.3.5).
    case name(PDFName)
    /// An array of objects (§7.3.6).
    case array([PDFObject])
    /// A dictionary (§7.3.7).
    case dictionary(PDFDictionary)
    /// A stream: a dictionary and its data (§7.3.8); only ever the value of an indirect object.
    case stream(PDFStream)
    /// An indirect reference `n g R` (§7.3.10), resolved through the document.
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

    /// The value of a boolean; nil for any other object.
    public var boolValue: Bool? {
        if case .boolean(let value) = self { return value }
        return nil
    }

    /// The name of a name object; nil for any other object.
    public var nameValue: PDFName? {
        if case .name(let value) = self { return value }
        return nil
    }

    /// The string of a string object; nil for any other object.
    public var stringValue: PDFString? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The elements of an array; nil for any other object.
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

    /// The stream of a stream object; nil for any other object.
    public var streamValue: PDFStream? {
        if case .stream(let value) = self { return value }
        return nil
    }

    /// The reference of an indirect reference; nil for any other object (references are not resolved).
    public var referenceValue: PDFReference? {
        if case .reference(let value) = self { return value }
        return nil
    }

    /// True for the null object.
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
    /// An integer object: `let count: PDFObject = 3`.
    public init(integerLiteral value: Int) { self = .integer(value) }
    /// A boolean object: `let flag: PDFObject = true`.
    public init(booleanLiteral value: Bool) { self = .boolean(value) }
    /// An array object: `let box: PDFObject = [0, 0, 612, 792]`.
    public init(arrayLiteral elements: PDFObject...) { self = .array(elements) }
    /// A real object: `let width: PDFObject = 0.5`.
    public init(floatLiteral value: Double) { self = .real(PDFReal(value)) }
}

/// An indirect reference `n g R` (ISO 32000-2 §7.3.10).
public struct PDFReference: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The object number (positive).
    public var number: Int
    /// The generation number.
    public var generation: Int

    /// A reference to object `number` of generation `generation` (0 by default).
    public init(_ number: Int, _ generation: Int = 0) {
        self.number = number
        self.generation = generation
    }

    /// Orders by object number, then by generation.
    public static func < (lhs: PDFReference, rhs: PDFReference) -> Bool {
        (lhs.number, lhs.generation) < (rhs.number, rhs.generation)
    }

    /// The reference as PDF writes it: `12 0 R`.
    public var description: String { "\(number) \(generation) R" }
}

/// A real number that keeps the literal it was read from, so a round trip writes the same bytes.
public struct PDFReal: Hashable, Sendable, CustomStringConvertible {
    /// The numeric value.
    public var value: Double
    /// The characters the number was written with in the source, when it was read.
    public var literal: String?

    /// A real of the given value; `literal` is the text it was read from, when read (nil writes the value with
    /// ``format(_:precision:)``).
    public init(_ value: Double, literal: String? = nil) {
        self.value = value
        self.literal = literal
    }

    /// True when the values are equal, whatever their literals.
    public static func == (lhs: PDFReal, rhs: PDFReal) -> Bool { lhs.value == rhs.value }
    /// Hashes the value alone, as `==` compares.
    public func hash(into hasher: inout Hasher) { hasher.combine(value) }

    /// The literal the number was read from, else the value formatted by ``format(_:precision:)``.
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
