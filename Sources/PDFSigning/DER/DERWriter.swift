/// Builds DER (ITU-T X.690 §10), shaped like swift-asn1's `DER.Serializer`: nested builders for
/// constructed values, definite minimal lengths, and SET OF components sorted by their encodings
/// (X.690 §11.6).
///
/// ```swift
/// var writer = DERWriter()
/// writer.sequence { body in
///     body.objectIdentifier("1.2.840.113549.1.7.1")
///     body.explicit(0) { $0.octetString(content) }
/// }
/// let der = writer.bytes
/// ```
package struct DERWriter: Sendable {
    /// The encoding written so far.
    package private(set) var bytes: [UInt8] = []
    /// Where each top-level element starts, so a SET OF can sort them.
    private var elementStarts: [Int] = []

    package init() {}

    /// Appends one TLV with `tag` and `content`.
    package mutating func append(tag: DERTag, content: some Collection<UInt8>) {
        elementStarts.append(bytes.count)
        bytes.append(contentsOf: tag.encoded)
        Self.appendLength(content.count, to: &bytes)
        bytes.append(contentsOf: content)
    }

    /// Appends one complete, already encoded TLV as it is (a certificate, a Name, a serial number …).
    package mutating func appendEncoded(_ encoded: some Collection<UInt8>) {
        elementStarts.append(bytes.count)
        bytes.append(contentsOf: encoded)
    }

    /// Appends an encoded TLV with its tag replaced by `[number] IMPLICIT`, keeping its primitive or
    /// constructed form (X.690 §8.14.3) — e.g. a SET OF attributes as `signedAttrs [0]`.
    package mutating func appendImplicit(_ number: UInt32, retagging encoded: [UInt8]) {
        var reader = DERReader(encoded)
        guard let node = try? reader.readNode(), reader.isAtEnd else {
            preconditionFailure("appendImplicit needs one complete TLV")
        }
        append(tag: .context(number, constructed: node.tag.isConstructed), content: node.content)
    }

    /// Appends a constructed value with `tag` whose content `body` writes.
    package mutating func constructed<E: Error>(
        _ tag: DERTag, _ body: (inout DERWriter) throws(E) -> Void
    ) throws(E) {
        var inner = DERWriter()
        try body(&inner)
        append(tag: tag, content: inner.bytes)
    }

    /// Appends a SEQUENCE (X.690 §8.9), or another tag for an implicitly tagged SEQUENCE.
    package mutating func sequence<E: Error>(
        tag: DERTag = .sequence, _ body: (inout DERWriter) throws(E) -> Void
    ) throws(E) {
        try constructed(tag, body)
    }

    /// Appends a SET OF (X.690 §8.12) whose components are sorted by their encodings (X.690
    /// §11.6), or another tag for an implicitly tagged SET OF.
    package mutating func set<E: Error>(tag: DERTag = .set, _ body: (inout DERWriter) throws(E) -> Void) throws(E) {
        var inner = DERWriter()
        try body(&inner)
        append(tag: tag, content: inner.sortedElements())
    }

    /// Appends `[number] EXPLICIT` around what `body` writes (X.690 §8.14.2).
    package mutating func explicit<E: Error>(
        _ number: UInt32, _ body: (inout DERWriter) throws(E) -> Void
    ) throws(E) {
        try constructed(.context(number), body)
    }

    /// Appends `[number] IMPLICIT` with the content `body` writes (X.690 §8.14.3); `constructed`
    /// follows the underlying type (true for SEQUENCE and SET).
    package mutating func implicit<E: Error>(
        _ number: UInt32, constructed: Bool = true, _ body: (inout DERWriter) throws(E) -> Void
    ) throws(E) {
        try self.constructed(.context(number, constructed: constructed), body)
    }

    /// Appends an INTEGER (X.690 §8.3) from an unsigned big-endian magnitude: leading zero octets
    /// are removed and one is added back when the high bit is set, so the value stays positive.
    package mutating func integer(unsignedBytes magnitude: some Collection<UInt8>) {
        var content = Array(magnitude.drop { $0 == 0 })
        if content.isEmpty || content[0] & 0x80 != 0 { content.insert(0, at: 0) }
        append(tag: .integer, content: content)
    }

    /// Appends an INTEGER (X.690 §8.3) in the fewest two's-complement octets.
    package mutating func integer(_ value: Int) {
        var content: [UInt8] = []
        var rest = value
        repeat {
            content.insert(UInt8(truncatingIfNeeded: rest), at: 0)
            rest >>= 8
        } while !(rest == 0 && content[0] & 0x80 == 0) && !(rest == -1 && content[0] & 0x80 != 0)
        append(tag: .integer, content: content)
    }

    /// Appends a BOOLEAN (X.690 §11.1: TRUE is 0xFF).
    package mutating func boolean(_ value: Bool) {
        append(tag: .boolean, content: [value ? 0xFF : 0x00])
    }

    /// Appends an OBJECT IDENTIFIER (X.690 §8.19).
    package mutating func objectIdentifier(_ identifier: ObjectIdentifier) {
        append(tag: .objectIdentifier, content: identifier.derContent)
    }

    /// Appends an OCTET STRING (X.690 §8.7).
    package mutating func octetString(_ content: some Collection<UInt8>) {
        append(tag: .octetString, content: content)
    }

    /// Appends a NULL (X.690 §8.8).
    package mutating func null() {
        append(tag: .null, content: [UInt8]())
    }

    /// Appends a BIT STRING (X.690 §8.6) of whole octets, or with `unusedBits` of the last unused.
    package mutating func bitString(_ content: some Collection<UInt8>, unusedBits: Int = 0) {
        precondition((0...7).contains(unusedBits) && (unusedBits == 0 || !content.isEmpty))
        append(tag: .bitString, content: [UInt8(unusedBits)] + Array(content))
    }

    /// Appends a UTF8String (X.680 §41).
    package mutating func utf8String(_ text: String) {
        append(tag: .utf8String, content: Array(text.utf8))
    }

    /// Appends a PrintableString (X.680 §41.4); the caller keeps to its character set.
    package mutating func printableString(_ text: String) {
        append(tag: .printableString, content: Array(text.utf8))
    }

    /// Appends an IA5String (ASCII).
    package mutating func ia5String(_ text: String) {
        append(tag: .ia5String, content: Array(text.utf8))
    }

    /// Appends a UTCTime `YYMMDDhhmmssZ` (X.690 §11.8; RFC 5280 §4.1.2.5.1: years 1950–2049).
    package mutating func utcTime(_ seconds: Int) {
        let time = DERTime.components(seconds)
        precondition((1950...2049).contains(time.year), "UTCTime covers 1950 to 2049")
        let text =
            Self.twoDigits(time.year % 100) + Self.twoDigits(time.month) + Self.twoDigits(time.day)
            + Self.twoDigits(time.hour) + Self.twoDigits(time.minute) + Self.twoDigits(time.second) + "Z"
        append(tag: .utcTime, content: Array(text.utf8))
    }

    /// Appends a GeneralizedTime `YYYYMMDDhhmmssZ` (X.690 §11.7; RFC 5280 §4.1.2.5.2).
    package mutating func generalizedTime(_ seconds: Int) {
        let time = DERTime.components(seconds)
        precondition((0...9999).contains(time.year), "GeneralizedTime covers years 0 to 9999")
        let year = String(time.year)
        let text =
            String(repeating: "0", count: 4 - year.count) + year + Self.twoDigits(time.month)
            + Self.twoDigits(time.day) + Self.twoDigits(time.hour) + Self.twoDigits(time.minute)
            + Self.twoDigits(time.second) + "Z"
        append(tag: .generalizedTime, content: Array(text.utf8))
    }

    // MARK: Helpers

    /// The top-level elements in ascending order of their encodings (X.690 §11.6).
    private func sortedElements() -> [UInt8] {
        let ends = elementStarts.dropFirst() + [bytes.count]
        let elements = zip(elementStarts, ends).map { bytes[$0..<$1] }
        return Array(elements.sorted { $0.lexicographicallyPrecedes($1) }.joined())
    }

    private static func appendLength(_ length: Int, to output: inout [UInt8]) {
        guard length >= 0x80 else {
            output.append(UInt8(length))
            return
        }
        var octets: [UInt8] = []
        var rest = length
        while rest > 0 {
            octets.insert(UInt8(rest & 0xFF), at: 0)
            rest >>= 8
        }
        output.append(0x80 | UInt8(octets.count))
        output.append(contentsOf: octets)
    }

    private static func twoDigits(_ value: Int) -> String {
        value < 10 ? "0\(value)" : String(value)
    }
}
