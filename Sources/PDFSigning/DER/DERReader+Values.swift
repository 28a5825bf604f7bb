/// A BIT STRING's content (X.690 §8.6): the octets and how many bits of the last one are unused.
package struct DERBitString: Hashable, Sendable {
    package var bytes: ArraySlice<UInt8>
    package var unusedBits: Int
}

extension DERReader {
    /// Reads an INTEGER (X.690 §8.3) and returns its two's-complement content octets.
    ///
    /// - Throws: `.malformedData` when the next node is not an INTEGER or has no content.
    package mutating func readInteger() throws(SigningError) -> ArraySlice<UInt8> {
        try readIntegerContent(.integer)
    }

    /// Reads an INTEGER that fits in `Int`.
    package mutating func readInt() throws(SigningError) -> Int {
        var copy = self
        let content = try copy.readIntegerContent(.integer)
        let value = try Self.int(from: content)
        self = copy
        return value
    }

    /// Reads an ENUMERATED (X.690 §8.4) that fits in `Int`.
    package mutating func readEnumerated() throws(SigningError) -> Int {
        var copy = self
        let value = try Self.int(from: try copy.readIntegerContent(.enumerated))
        self = copy
        return value
    }

    /// Reads a BOOLEAN (X.690 §8.2; DER's TRUE is 0xFF, any non-zero octet is read as true).
    package mutating func readBoolean() throws(SigningError) -> Bool {
        var copy = self
        let node = try copy.readNode(.boolean)
        guard node.content.count == 1 else { throw SigningError(.malformedData, "DER: BOOLEAN is not one octet") }
        self = copy
        return node.content.first != 0
    }

    /// Reads an OBJECT IDENTIFIER (X.690 §8.19).
    package mutating func readObjectIdentifier() throws(SigningError) -> ObjectIdentifier {
        var copy = self
        let identifier = try ObjectIdentifier(derContent: try copy.readNode(.objectIdentifier).content)
        self = copy
        return identifier
    }

    /// Reads a primitive OCTET STRING (X.690 §8.7; the constructed BER form is refused).
    package mutating func readOctetString() throws(SigningError) -> ArraySlice<UInt8> {
        try readNode(.octetString).content
    }

    /// Reads a primitive BIT STRING (X.690 §8.6).
    package mutating func readBitString() throws(SigningError) -> DERBitString {
        var copy = self
        let content = try copy.readNode(.bitString).content
        guard let unused = content.first, unused <= 7, !(content.count == 1 && unused != 0) else {
            throw SigningError(.malformedData, "DER: invalid BIT STRING at offset \(position)")
        }
        self = copy
        return DERBitString(bytes: content.dropFirst(), unusedBits: Int(unused))
    }

    /// Reads a NULL (X.690 §8.8).
    package mutating func readNull() throws(SigningError) {
        var copy = self
        guard try copy.readNode(.null).content.isEmpty else {
            throw SigningError(.malformedData, "DER: NULL with content at offset \(position)")
        }
        self = copy
    }

    /// Reads a UTCTime or GeneralizedTime (X.680 §46–47; RFC 5280 §4.1.2.5) as seconds since
    /// 1970-01-01T00:00:00Z. Two-digit years 50–99 are 19xx, 00–49 are 20xx; fractions of a second
    /// are dropped; a `±hhmm` offset is applied.
    package mutating func readTime() throws(SigningError) -> Int {
        var copy = self
        let node = try copy.readNode()
        let seconds: Int
        switch node.tag {
        case .utcTime: seconds = try DERTime.parse(node.content, fourDigitYear: false)
        case .generalizedTime: seconds = try DERTime.parse(node.content, fourDigitYear: true)
        default: throw SigningError(.malformedData, "DER: expected a time at offset \(position), found \(node.tag)")
        }
        self = copy
        return seconds
    }

    /// Reads a character string: UTF8String, PrintableString, IA5String, VisibleString,
    /// TeletexString (read as Latin-1) or BMPString (UTF-16BE) (X.680 §41).
    package mutating func readString() throws(SigningError) -> String {
        var copy = self
        let node = try copy.readNode()
        let content = node.content
        let text: String?
        switch node.tag {
        case .utf8String: text = String(validating: content, as: UTF8.self)
        case .printableString, .ia5String, .visibleString:
            text = content.allSatisfy { $0 < 0x80 } ? String(decoding: content, as: UTF8.self) : nil
        case .teletexString: text = String(String.UnicodeScalarView(content.map { Unicode.Scalar($0) }))
        case .bmpString:
            if content.count % 2 == 0 {
                let units = stride(from: content.startIndex, to: content.endIndex, by: 2).map {
                    UInt16(content[$0]) << 8 | UInt16(content[$0 + 1])
                }
                text = String(validating: units, as: UTF16.self)
            } else {
                text = nil
            }
        default: throw SigningError(.malformedData, "DER: expected a string at offset \(position), found \(node.tag)")
        }
        guard let text else { throw SigningError(.malformedData, "DER: invalid \(node.tag) at offset \(position)") }
        self = copy
        return text
    }

    private mutating func readIntegerContent(_ tag: DERTag) throws(SigningError) -> ArraySlice<UInt8> {
        var copy = self
        let content = try copy.readNode(tag).content
        guard !content.isEmpty else { throw SigningError(.malformedData, "DER: empty INTEGER at offset \(position)") }
        self = copy
        return content
    }

    private static func int(from content: ArraySlice<UInt8>) throws(SigningError) -> Int {
        guard content.count <= MemoryLayout<Int>.size else {
            throw SigningError(.malformedData, "DER: INTEGER does not fit in \(MemoryLayout<Int>.size) bytes")
        }
        var value = content.first! & 0x80 != 0 ? -1 : 0
        for byte in content { value = value << 8 | Int(byte) }
        return value
    }
}

/// Conversions between ASN.1 times and seconds since 1970 (proleptic Gregorian calendar, UTC).
package enum DERTime {
    /// Parses `YYMMDDhhmm[ss](Z|±hhmm)` or `YYYYMMDDhh[mm[ss[.f…]]](Z|±hhmm)`.
    static func parse(_ text: ArraySlice<UInt8>, fourDigitYear: Bool) throws(SigningError) -> Int {
        let invalid = SigningError(.malformedData, "DER: invalid time \"\(String(decoding: text, as: UTF8.self))\"")
        var index = text.startIndex
        func digits(_ count: Int) -> Int? {
            guard text.endIndex - index >= count else { return nil }
            var value = 0
            for _ in 0..<count {
                let byte = text[index]
                guard byte >= 0x30 && byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
                index += 1
            }
            return value
        }
        let year: Int
        if fourDigitYear {
            guard let value = digits(4) else { throw invalid }
            year = value
        } else {
            guard let value = digits(2) else { throw invalid }
            year = value < 50 ? 2000 + value : 1900 + value
        }
        guard let month = digits(2), let day = digits(2), let hour = digits(2) else { throw invalid }
        var minute = 0
        var second = 0
        if let value = digits(2) {
            minute = value
            if let value = digits(2) { second = value }
        } else if !fourDigitYear {
            throw invalid
        }
        if fourDigitYear, index < text.endIndex, text[index] == 0x2E || text[index] == 0x2C {
            index += 1
            let start = index
            while index < text.endIndex, text[index] >= 0x30 && text[index] <= 0x39 { index += 1 }
            guard index > start else { throw invalid }
        }
        var offset = 0
        guard index < text.endIndex else { throw invalid }
        switch text[index] {
        case 0x5A:  // Z
            index += 1
        case 0x2B, 0x2D:  // + -
            let sign = text[index] == 0x2B ? 1 : -1
            index += 1
            guard let hours = digits(2), let minutes = digits(2), hours <= 23, minutes <= 59 else { throw invalid }
            offset = sign * (hours * 3600 + minutes * 60)
        default: throw invalid
        }
        guard index == text.endIndex, (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
            hour <= 23, minute <= 59, second <= 60
        else { throw invalid }
        return seconds(year: year, month: month, day: day) + hour * 3600 + minute * 60 + second - offset
    }

    /// Seconds since 1970 at the start of a day (Howard Hinnant's `days_from_civil`).
    package static func seconds(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return (era * 146_097 + dayOfEra - 719_468) * 86_400
    }

    /// The calendar date and time of `seconds` since 1970 (Hinnant's `civil_from_days`).
    package static func components(
        _ seconds: Int
    ) -> (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day, secondOfDay / 3600, secondOfDay % 3600 / 60, secondOfDay % 60)
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
