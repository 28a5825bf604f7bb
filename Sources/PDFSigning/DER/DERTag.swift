/// An ASN.1 identifier: class, primitive or constructed, and number (ITU-T X.690 §8.1.2).
package struct DERTag: Hashable, Sendable, CustomStringConvertible {
    /// The tag class (X.690 Table 1).
    package enum TagClass: UInt8, Hashable, Sendable {
        case universal = 0
        case application = 1
        case contextSpecific = 2
        case privateUse = 3
    }

    package var tagClass: TagClass
    package var isConstructed: Bool
    package var number: UInt32

    package init(_ tagClass: TagClass, number: UInt32, constructed: Bool = false) {
        self.tagClass = tagClass
        self.number = number
        self.isConstructed = constructed
    }

    /// A context-specific tag `[number]`, constructed unless said otherwise (explicit tags always are).
    package static func context(_ number: UInt32, constructed: Bool = true) -> DERTag {
        DERTag(.contextSpecific, number: number, constructed: constructed)
    }

    package static let boolean = DERTag(.universal, number: 1)
    package static let integer = DERTag(.universal, number: 2)
    package static let bitString = DERTag(.universal, number: 3)
    package static let octetString = DERTag(.universal, number: 4)
    package static let null = DERTag(.universal, number: 5)
    package static let objectIdentifier = DERTag(.universal, number: 6)
    package static let enumerated = DERTag(.universal, number: 10)
    package static let utf8String = DERTag(.universal, number: 12)
    package static let sequence = DERTag(.universal, number: 16, constructed: true)
    package static let set = DERTag(.universal, number: 17, constructed: true)
    package static let printableString = DERTag(.universal, number: 19)
    package static let teletexString = DERTag(.universal, number: 20)
    package static let ia5String = DERTag(.universal, number: 22)
    package static let utcTime = DERTag(.universal, number: 23)
    package static let generalizedTime = DERTag(.universal, number: 24)
    package static let visibleString = DERTag(.universal, number: 26)
    package static let bmpString = DERTag(.universal, number: 30)

    /// The identifier octets (X.690 §8.1.2), in the high-tag-number form from 31 on.
    package var encoded: [UInt8] {
        let leading = tagClass.rawValue << 6 | (isConstructed ? 0x20 : 0)
        guard number >= 31 else { return [leading | UInt8(number)] }
        var groups: [UInt8] = [UInt8(number & 0x7F)]
        var rest = number >> 7
        while rest > 0 {
            groups.append(UInt8(rest & 0x7F) | 0x80)
            rest >>= 7
        }
        return [leading | 0x1F] + groups.reversed()
    }

    package var description: String {
        switch tagClass {
        case .universal: "[UNIVERSAL \(number)\(isConstructed ? " constructed" : "")]"
        case .application: "[APPLICATION \(number)]"
        case .contextSpecific: "[\(number)\(isConstructed ? "" : " primitive")]"
        case .privateUse: "[PRIVATE \(number)]"
        }
    }
}

/// One TLV read from DER: its tag, its content octets and its whole encoding, both as slices of the
/// reader's buffer (so their indices are offsets into it, and the source bytes are kept — a
/// signature is checked over exactly these octets).
package struct DERNode: Sendable {
    package var tag: DERTag
    /// The content octets (X.690 §8.1.4).
    package var content: ArraySlice<UInt8>
    /// Identifier, length and content octets.
    package var encoded: ArraySlice<UInt8>
    /// The nesting depth of the node (the outermost is 0).
    package var depth: Int

    /// Where the content octets are in the reader's buffer.
    package var contentRange: Range<Int> { content.startIndex..<content.endIndex }
    /// Where the whole encoding is in the reader's buffer.
    package var encodedRange: Range<Int> { encoded.startIndex..<encoded.endIndex }

    /// A reader over the content octets, one level deeper.
    ///
    /// - Throws: `.malformedData` when the node is primitive or nesting exceeds `DERReader.maximumDepth`.
    package func contentReader() throws(SigningError) -> DERReader {
        guard tag.isConstructed else {
            throw SigningError(.malformedData, "DER: \(tag) at offset \(encoded.startIndex) is not constructed")
        }
        guard depth + 1 <= DERReader.maximumDepth else {
            throw SigningError(.malformedData, "DER: nesting deeper than \(DERReader.maximumDepth) levels")
        }
        return DERReader(content, depth: depth + 1)
    }
}
