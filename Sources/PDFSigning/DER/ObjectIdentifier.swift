/// An ASN.1 OBJECT IDENTIFIER such as `"1.2.840.113549.1.7.2"` (id-signedData; ITU-T X.680 §32,
/// encoded as in ITU-T X.690 §8.19).
///
/// Inside `PDFSigning` this name shadows the standard library's `ObjectIdentifier`; write
/// `Swift.ObjectIdentifier` for object identity there.
public struct ObjectIdentifier: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The arcs, e.g. `[1, 2, 840, 113549, 1, 7, 2]`.
    public let components: [UInt64]
    /// The content octets of the DER encoding (without tag and length).
    package let derContent: [UInt8]

    /// Parses dotted decimal text such as `"2.16.840.1.101.3.4.2.1"`; nil when it is not a valid
    /// identifier (at least two arcs, the first 0, 1 or 2, the second below 40 unless the first is 2).
    public init?(_ text: String) {
        var components: [UInt64] = []
        for part in text.split(separator: ".", omittingEmptySubsequences: false) {
            guard !part.isEmpty, part.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let arc = UInt64(part)
            else { return nil }
            components.append(arc)
        }
        self.init(components: components)
    }

    /// The identifier with these arcs; nil when they do not form a valid identifier.
    public init?(components: [UInt64]) {
        guard components.count >= 2, components[0] <= 2, components[0] == 2 || components[1] < 40 else { return nil }
        let (first, overflow) = (components[0] * 40).addingReportingOverflow(components[1])
        guard !overflow else { return nil }
        var content: [UInt8] = []
        Self.appendBase128(first, to: &content)
        for arc in components.dropFirst(2) { Self.appendBase128(arc, to: &content) }
        self.components = components
        self.derContent = content
    }

    /// Creates an identifier from a literal; the literal must be valid dotted decimal.
    public init(stringLiteral value: StaticString) {
        guard let identifier = ObjectIdentifier(value.description) else {
            preconditionFailure("invalid object identifier literal \(value)")
        }
        self = identifier
    }

    /// Decodes the content octets of an OBJECT IDENTIFIER (X.690 §8.19): base-128 subidentifiers,
    /// minimal (no leading 0x80 octet), the first one combining the first two arcs.
    ///
    /// - Throws: `SigningError` `.malformedData` when the octets are empty, truncated, not minimal or
    ///   an arc exceeds 64 bits.
    package init(derContent bytes: some Collection<UInt8>) throws(SigningError) {
        var subidentifiers: [UInt64] = []
        var value: UInt64 = 0
        var started = false
        for byte in bytes {
            if !started && byte == 0x80 {
                throw SigningError(.malformedData, "OBJECT IDENTIFIER has a non-minimal subidentifier")
            }
            guard value >> 57 == 0 else { throw SigningError(.malformedData, "OBJECT IDENTIFIER arc exceeds 64 bits") }
            value = value << 7 | UInt64(byte & 0x7F)
            started = true
            if byte & 0x80 == 0 {
                subidentifiers.append(value)
                value = 0
                started = false
            }
        }
        guard !subidentifiers.isEmpty, !started else {
            throw SigningError(.malformedData, "OBJECT IDENTIFIER is empty or truncated")
        }
        let first = subidentifiers[0]
        let head: [UInt64] = first < 40 ? [0, first] : first < 80 ? [1, first - 40] : [2, first - 80]
        self.components = head + subidentifiers.dropFirst()
        self.derContent = Array(bytes)
    }

    /// The dotted decimal form, e.g. `1.2.840.113549.1.7.2`.
    public var description: String {
        components.map(String.init).joined(separator: ".")
    }

    private static func appendBase128(_ value: UInt64, to output: inout [UInt8]) {
        var groups: [UInt8] = [UInt8(value & 0x7F)]
        var rest = value >> 7
        while rest > 0 {
            groups.append(UInt8(rest & 0x7F) | 0x80)
            rest >>= 7
        }
        output.append(contentsOf: groups.reversed())
    }
}
