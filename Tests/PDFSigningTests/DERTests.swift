import Foundation
import PDFTestSupport
import Testing

@testable import PDFSigning

/// Reads every node of `reader` and of the nodes inside constructed ones; returns how many.
func walkDER(_ reader: inout DERReader) throws(SigningError) -> Int {
    var count = 0
    while !reader.isAtEnd {
        let node = try reader.readNode()
        count += 1
        if node.tag.isConstructed {
            var inner = try node.contentReader()
            count += try walkDER(&inner)
        }
    }
    return count
}

@Suite("DER reader and writer")
struct DERTests {
    static func hex(_ text: String) -> [UInt8] {
        let digits = Array(text.filter { !$0.isWhitespace })
        return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(digits[$0...$0 + 1]), radix: 16)! }
    }

    static func encode(_ body: (inout DERWriter) -> Void) -> [UInt8] {
        var writer = DERWriter()
        body(&writer)
        return writer.bytes
    }

    @Test(
        "Object identifiers encode as X.690 and RFC 8017 give them",
        arguments: [
            ("1.2.840.113549.1.1.1", "06 09 2A 86 48 86 F7 0D 01 01 01"),  // rsaEncryption
            ("2.16.840.1.101.3.4.2.1", "06 09 60 86 48 01 65 03 04 02 01"),  // id-sha256
            ("1.2.840.113549.1.7.2", "06 09 2A 86 48 86 F7 0D 01 07 02"),  // id-signedData
            ("2.999.3", "06 03 88 37 03"),  // X.690 §8.19.5 example
            ("1.2.840.10045.4.3.2", "06 08 2A 86 48 CE 3D 04 03 02"),  // ecdsa-with-SHA256
            ("0.0", "06 01 00"),
        ])
    func objectIdentifierEncodings(text: String, encoding: String) throws {
        let identifier = try #require(ObjectIdentifier(text))
        #expect(identifier.description == text)
        let bytes = Self.encode { $0.objectIdentifier(identifier) }
        #expect(bytes == Self.hex(encoding))
        var reader = DERReader(bytes)
        #expect(try reader.readObjectIdentifier() == identifier)
        #expect(reader.isAtEnd)
    }

    @Test("Invalid object identifier text and encodings are refused")
    func invalidObjectIdentifiers() {
        for text in ["", "1", "3.1", "1.40", "1..2", "a.b", "1.2.", "-1.2", "1.+2", "1.2.99999999999999999999999"] {
            #expect(ObjectIdentifier(text) == nil, "\(text)")
        }
        for content in ["", "80 01", "2A 86", "2A 80 86 48", "FF FF FF FF FF FF FF FF FF FF 7F"] {
            #expect(throws: SigningError(.malformedData, "")) { try ObjectIdentifier(derContent: Self.hex(content)) }
        }
        let literal: ObjectIdentifier = "1.2.840.113549.1.9.16.2.47"
        #expect(literal == ObjectIdentifier.signingCertificateV2Attribute)
    }

    @Test(
        "Integers are minimal two's complement",
        arguments: [
            (0, "02 01 00"), (127, "02 01 7F"), (128, "02 02 00 80"), (256, "02 02 01 00"), (-1, "02 01 FF"),
            (-128, "02 01 80"), (-129, "02 02 FF 7F"), (Int.max, "02 08 7F FF FF FF FF FF FF FF"),
            (Int.min, "02 08 80 00 00 00 00 00 00 00"),
        ])
    func integers(value: Int, encoding: String) throws {
        let bytes = Self.encode { $0.integer(value) }
        #expect(bytes == Self.hex(encoding))
        var reader = DERReader(bytes)
        #expect(try reader.readInt() == value)
    }

    @Test("Integers from unsigned bytes follow the leading-zero rule")
    func unsignedIntegers() throws {
        #expect(Self.encode { $0.integer(unsignedBytes: [0x00, 0x00, 0x80]) } == Self.hex("02 02 00 80"))
        #expect(Self.encode { $0.integer(unsignedBytes: [0x7F, 0x01]) } == Self.hex("02 02 7F 01"))
        #expect(Self.encode { $0.integer(unsignedBytes: []) } == Self.hex("02 01 00"))
        #expect(Self.encode { $0.integer(unsignedBytes: [0, 0]) } == Self.hex("02 01 00"))
        var reader = DERReader(Self.hex("02 09 01 00 00 00 00 00 00 00 00"))
        #expect(throws: SigningError(.malformedData, "")) { try reader.readInt() }
        #expect(reader.position == 0, "a failed read leaves the cursor where it was")
        #expect(Array(try reader.readInteger()) == Self.hex("01 00 00 00 00 00 00 00 00"))
    }

    @Test(
        "Lengths use the short form below 128 and the fewest long-form octets above",
        arguments: [0, 1, 127, 128, 255, 256, 65_535, 65_536])
    func lengths(count: Int) throws {
        let content = [UInt8](repeating: 0xAB, count: count)
        let bytes = Self.encode { $0.octetString(content) }
        let header: [UInt8] =
            count < 128
            ? [0x04, UInt8(count)]
            : count < 256
                ? [0x04, 0x81, UInt8(count)]
                : count < 65_536
                    ? [0x04, 0x82, UInt8(count >> 8), UInt8(count & 0xFF)]
                    : [0x04, 0x83, UInt8(count >> 16), UInt8(count >> 8 & 0xFF), UInt8(count & 0xFF)]
        #expect(Array(bytes.prefix(header.count)) == header)
        var reader = DERReader(bytes)
        let node = try reader.readNode()
        #expect(node.content.count == count)
        #expect(node.contentRange == header.count..<bytes.count)
        #expect(node.encodedRange == 0..<bytes.count)
    }

    @Test("SET OF sorts its components by encoding; SEQUENCE keeps their order")
    func setOrdering() {
        let set = Self.encode { writer in
            writer.set { body in
                body.octetString([0x01])
                body.integer(2)
                body.integer(1)
                body.null()
            }
        }
        #expect(set == Self.hex("31 0B 02 01 01 02 01 02 04 01 01 05 00"))
        let sequence = Self.encode { writer in
            writer.sequence { body in
                body.integer(2)
                body.integer(1)
            }
        }
        #expect(sequence == Self.hex("30 06 02 01 02 02 01 01"))
    }

    @Test("What the writer writes, the reader reads back")
    func roundTrip() throws {
        let bytes = Self.encode { writer in
            writer.sequence { body in
                body.integer(-300)
                body.boolean(true)
                body.objectIdentifier(.sha384)
                body.octetString([1, 2, 3])
                body.bitString([0xF0], unusedBits: 4)
                body.null()
                body.utf8String("Zoë ✓")
                body.printableString("Autograph Test")
                body.ia5String("a@example.com")
                body.utcTime(1_546_300_800)
                body.generalizedTime(2_051_222_399)
                body.explicit(0) { $0.integer(7) }
                body.implicit(1) { $0.integer(8) }
                body.set(tag: .context(2)) { $0.integer(9) }
                body.appendImplicit(3, retagging: Self.hex("04 02 AA BB"))
            }
        }
        var reader = DERReader(bytes)
        try reader.readSequence { (body) throws(SigningError) in
            #expect(try body.readInt() == -300)
            #expect(try body.readBoolean())
            #expect(try body.readObjectIdentifier() == .sha384)
            #expect(Array(try body.readOctetString()) == [1, 2, 3])
            let bits = try body.readBitString()
            #expect(Array(bits.bytes) == [0xF0] && bits.unusedBits == 4)
            try body.readNull()
            #expect(try body.readString() == "Zoë ✓")
            #expect(try body.readString() == "Autograph Test")
            #expect(try body.readString() == "a@example.com")
            #expect(try body.readTime() == 1_546_300_800)
            #expect(try body.readTime() == 2_051_222_399)
            #expect(try body.readExplicit(0) { (inner) throws(SigningError) in try inner.readInt() } == 7)
            #expect(try body.readOptionalExplicit(5) { (inner) throws(SigningError) in try inner.readInt() } == nil)
            var implicit = try body.readImplicit(1, constructed: true).contentReader()
            #expect(try implicit.readInt() == 8)
            var set = try body.readNode(.context(2)).contentReader()
            #expect(try set.readInt() == 9)
            #expect(Array(try body.readImplicit(3, constructed: false).content) == [0xAA, 0xBB])
        }
        #expect(reader.isAtEnd)
    }

    @Test(
        "Times read as seconds since 1970",
        arguments: [
            (DERTag.utcTime, "190101000000Z", 1_546_300_800),
            (.utcTime, "500101000000Z", -631_152_000),  // 1950: RFC 5280 §4.1.2.5.1
            (.utcTime, "491231235959Z", 2_524_607_999),
            (.utcTime, "0002290000Z", 951_782_400),  // no seconds (BER)
            (.utcTime, "000229010000+0100", 951_782_400),
            (.generalizedTime, "20541231235959Z", 2_682_374_399),
            (.generalizedTime, "20000229000000.123Z", 951_782_400),
            (.generalizedTime, "19700101000000Z", 0),
            (.generalizedTime, "19691231235959Z", -1),
            (.generalizedTime, "20240229120000-0230", 1_709_217_000),
        ])
    func times(tag: DERTag, text: String, seconds: Int) throws {
        let bytes = Self.encode { $0.append(tag: tag, content: Array(text.utf8)) }
        var reader = DERReader(bytes)
        #expect(try reader.readTime() == seconds)
        let expected = Date(timeIntervalSince1970: TimeInterval(seconds))
        #expect(expected.timeIntervalSince1970 == TimeInterval(seconds))
    }

    @Test(
        "Invalid times are refused",
        arguments: ["190230000000Z", "191301000000Z", "190101240000Z", "1901010000Z0", "19010100000", "20190101000000"])
    func invalidTimes(text: String) {
        let tag: DERTag = text.count == 14 ? .generalizedTime : .utcTime
        var reader = DERReader(Self.encode { $0.append(tag: tag, content: Array(text.utf8)) })
        #expect(throws: SigningError(.malformedData, "")) { try reader.readTime() }
    }

    @Test("Time writing agrees with Foundation's calendar")
    func timeWriting() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        for seconds in stride(from: -631_152_000, to: 2_524_607_999, by: 7_654_321) {
            var reader = DERReader(Self.encode { $0.utcTime(seconds) })
            #expect(try reader.readTime() == seconds)
            var general = DERReader(Self.encode { $0.generalizedTime(seconds) })
            #expect(try general.readTime() == seconds)
            let parts = DERTime.components(seconds)
            let date = calendar.dateComponents(
                [.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: Double(seconds)))
            #expect(
                [parts.year, parts.month, parts.day, parts.hour, parts.minute, parts.second]
                    == [date.year, date.month, date.day, date.hour, date.minute, date.second].map { $0 ?? -1 })
        }
    }

    @Test("Strings decode by their type; bad characters are refused")
    func strings() throws {
        var bmp = DERReader(Self.hex("1E 06 00 5A 00 6F 00 EB"))
        #expect(try bmp.readString() == "Zoë")
        var teletex = DERReader(Self.hex("14 03 5A 6F EB"))
        #expect(try teletex.readString() == "Zoë")
        for bad in ["13 02 5A EB", "0C 02 C3 28", "1E 03 00 5A 00", "1E 02 D8 00"] {
            var reader = DERReader(Self.hex(bad))
            #expect(throws: SigningError(.malformedData, "")) { try reader.readString() }
        }
    }

    @Test(
        "Malformed headers throw instead of trapping",
        arguments: [
            "30 80 00 00",  // indefinite length
            "04 05 01 02",  // content runs past the end
            "04 89 01 00 00 00 00 00 00 00 00",  // nine length octets
            "04 88 7F FF FF FF FF FF FF FF",  // huge length
            "1F 80 01 00",  // non-minimal tag number
            "1F FF FF FF FF 7F 00",  // tag number beyond 32 bits
            "04", "", "05 01 00", "01 02 FF FF", "03 00", "03 01 08", "03 02 08 00",
        ])
    func malformed(encoding: String) {
        let bytes = Self.hex(encoding)
        #expect(throws: SigningError(.malformedData, "")) {
            var reader = DERReader(bytes)
            _ = try walkDER(&reader)
            var typed = DERReader(bytes)
            switch bytes.first {
            case 0x05: try typed.readNull()
            case 0x01: _ = try typed.readBoolean()
            case 0x03: _ = try typed.readBitString()
            default: _ = try typed.readNode()
            }
            if bytes.isEmpty { _ = try typed.readNode() }
        }
    }

    @Test("Nesting deeper than the limit throws")
    func depthLimit() throws {
        var writerBytes: [UInt8] = [0x05, 0x00]
        for _ in 0..<(DERReader.maximumDepth + 5) {
            var writer = DERWriter()
            let inner = writerBytes
            writer.sequence { $0.appendEncoded(inner) }
            writerBytes = writer.bytes
        }
        var reader = DERReader(writerBytes)
        #expect(throws: SigningError(.malformedData, "")) { try walkDER(&reader) }
        var shallow = DERReader(Array(writerBytes.suffix(2 + 2 * 10)))
        #expect(try walkDER(&shallow) == 11)
    }

    @Test("Every prefix of a certificate's DER parses or throws")
    func truncationSweep() throws {
        let der = try #require(Certificate.certificates(pem: try PKI.bytes("signer-rsa2048.cert.pem")).first).derBytes
        var full = DERReader(der)
        #expect(try walkDER(&full) > 50)
        for length in 0..<der.count {
            let prefix = Array(der.prefix(length))
            var reader = DERReader(prefix)
            if length == 0 {
                #expect(try walkDER(&reader) == 0)
            } else {
                #expect(throws: SigningError.self) { try walkDER(&reader) }
            }
            #expect(throws: SigningError(.certificateUnreadable, "")) { try Certificate(der: prefix) }
        }
    }

    @Test("Flipping any byte of a certificate's DER never traps")
    func byteFlipSweep() throws {
        let der = try #require(Certificate.certificates(pem: try PKI.bytes("signer-p256.cert.pem")).first).derBytes
        var parsed = 0
        for index in der.indices {
            for mask: UInt8 in [0xFF, 0x80, 0x01] {
                var bytes = der
                bytes[index] ^= mask
                var reader = DERReader(bytes)
                _ = try? walkDER(&reader)
                if let certificate = try? Certificate(der: bytes) {
                    parsed += 1
                    _ = (certificate.subject, certificate.serialNumber, certificate.notAfter)
                }
                _ = try? CMSSignedData(der: bytes)
            }
        }
        #expect(parsed > 0, "flips in the signature or names still parse")
    }
}
