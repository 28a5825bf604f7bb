import Foundation
import PDFCore
import PDFForms
import PDFTestSupport
import Testing

@testable import PDFSigning

/// Documents signed by `DocumentSigner`, some damaged on purpose, validated by `SignatureValidator`
/// and by pyHanko and pdfsig, which must agree with it.
@Suite("Validating signatures: integrity, CMS signature, trust and coverage, as pyHanko and pdfsig see them")
struct ValidationTests {
    static let root = TestPaths.fixture("pki", "root.cert.pem")
    static let otherRoot = TestPaths.fixture("pki", "other-root.cert.pem")

    static func pki(_ name: String) -> String { TestPaths.fixture("pki", name) }

    static func read(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }

    static func roots(_ path: String) throws -> [Certificate] { Certificate.certificates(pem: try read(path)) }

    static func signer(
        _ name: String = "signer-rsa2048", scheme: SignatureScheme? = nil, allowExpired: Bool = false
    ) throws -> LocalKeySigner {
        try LocalKeySigner(pkcs12: pki("\(name).p12"), password: "secret", scheme: scheme, allowExpired: allowExpired)
    }

    /// `bytes` signed by `signer` (signer-rsa2048 by default) as a new invisible field.
    static func sign(
        _ bytes: [UInt8], signer: LocalKeySigner? = nil, request: SignatureRequest? = nil, password: String? = nil
    ) async throws -> [UInt8] {
        let document = try PDFDocument(bytes: bytes, options: ParseOptions(password: password))
        var request = request ?? SignatureRequest(placement: .invisible)
        request.reason = request.reason ?? "Approved"
        let signed = try await DocumentSigner(document: document, request: request, signer: try signer ?? Self.signer())
            .sign()
        return try signed.bytes()
    }

    static func validate(
        _ bytes: [UInt8], trust: String = root, password: String? = nil, at time: Int? = nil
    ) throws -> [SignatureStatus] {
        let document = try PDFDocument(bytes: bytes, options: ParseOptions(password: password))
        return SignatureValidator(document: document, trustRoots: try roots(trust), validationTime: time).validate()
    }

    static func write(_ bytes: [UInt8], _ name: String = "signed.pdf") throws -> String {
        let path = try TestPaths.temporaryDirectory("validation") + "/" + name
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Validates `bytes` and checks that pyHanko and pdfsig agree: pyHanko's `INTACT` with intact and
    /// valid, `INTACT:TRUSTED` (without NONSTANDARD_COVERAGE) with `isValid`; pdfsig's "Signature is
    /// Valid" with intact and valid, "Certificate is Trusted" with trusted. Where they are not
    /// installed, a warning says the comparison is left out.
    @discardableResult
    static func validateWithOracles(
        _ bytes: [UInt8], trust: String = root, password: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> [SignatureStatus] {
        let statuses = try validate(bytes, trust: trust, password: password)
        guard
            Requirement.check(
                ValidationOracles.installed,
                orWarn: "pyHanko, pdfsig or certutil is not installed; their verdicts are not compared",
                sourceLocation: sourceLocation)
        else { return statuses }
        let path = try write(bytes)
        let pyhanko = try ValidationOracles.pyhanko(path, trust: trust, password: password)
        let pdfsig = try ValidationOracles.pdfsig(path, trust: trust, password: password)
        for status in statuses {
            let verdict = pyhanko[status.fieldName] ?? "INVALID (no verdict)"
            let intactAndValid = status.digestIntact && status.signatureValid
            #expect(
                verdict.hasPrefix("INTACT") == intactAndValid, "pyHanko says \(verdict) for \(describe(status))",
                sourceLocation: sourceLocation)
            #expect(
                (verdict.hasPrefix("INTACT:TRUSTED") && !verdict.contains("NONSTANDARD_COVERAGE")) == status.isValid,
                "pyHanko says \(verdict) for \(describe(status))", sourceLocation: sourceLocation)
            let report = pdfsig[status.fieldName] ?? (valid: false, trusted: false)
            #expect(
                report.valid == intactAndValid, "pdfsig: \(report) for \(describe(status))",
                sourceLocation: sourceLocation)
            if report.valid {
                #expect(
                    report.trusted == status.trust.isTrusted, "pdfsig: \(report) for \(describe(status))",
                    sourceLocation: sourceLocation)
            }
        }
        return statuses
    }

    // MARK: Valid signatures

    @Test(
        "a fresh signature is intact, valid, trusted and covers the entire file",
        arguments: [
            (
                "signer-rsa2048", SignatureScheme.rsaPKCS1v15, DigestAlgorithm.sha256,
                SignatureRequest.SubFilter.cadesDetached
            ),
            ("signer-rsa-pss", .rsaPSS, .sha256, .cadesDetached), ("signer-p256", .ecdsa, .sha384, .pkcs7Detached),
            ("signer-p384", .ecdsa, .sha512, .cadesDetached),
        ])
    func freshSignature(
        name: String, scheme: SignatureScheme, digest: DigestAlgorithm, subFilter: SignatureRequest.SubFilter
    ) async throws {
        var request = SignatureRequest(fieldName: "Approval", placement: .invisible)
        request.digestAlgorithm = digest
        request.subFilter = subFilter
        request.signingTime = PDFDate(seconds: 1_800_000_000, utcOffsetMinutes: 60)
        let signed = try await Self.sign(
            TestDocuments.simple(pages: 2), signer: try Self.signer(name, scheme: scheme), request: request)
        let statuses = try Self.validateWithOracles(signed)
        let status = try #require(statuses.first)
        #expect(statuses.count == 1)
        #expect(status.fieldName == "Approval")
        #expect(status.digestIntact && status.signatureValid && status.trust.isTrusted)
        #expect(status.coverage == .entireFile)
        #expect(status.isValid)
        #expect(status.problems.isEmpty, "\(status.problems)")
        #expect(status.unsupported == nil)
        #expect(status.revision == 1 && status.laterRevisions == 0)
        #expect(status.digestAlgorithm == digest.rawValue)
        #expect(status.subFilter == subFilter.rawValue)
        #expect(status.claimedSigningTime?.seconds == 1_800_000_000)
        #expect(status.byteRange.count == 4 && status.byteRange[0] == 0)
        #expect(status.byteRange[2] + status.byteRange[3] == signed.count)
        let certificate = try #require(status.signerCertificate)
        #expect(certificate.issuer.contains("CN=Autograph Test Intermediate CA"))
        #expect(["2001", "2002", "2003", "2004"].contains(certificate.serialNumber))
        if case .trusted(let chain) = status.trust {
            #expect(chain.count == 3)
            #expect(chain.last?.subject.contains("Autograph Test Root CA") == true)
        }
    }

    @Test("after a second signature the first covers its entire revision, with one later revision")
    func secondSignature() async throws {
        let once = try await Self.sign(TestDocuments.simple(), request: SignatureRequest(fieldName: "First"))
        let twice = try await Self.sign(
            once, signer: try Self.signer("signer-p256"), request: SignatureRequest(fieldName: "Second"))
        let statuses = try Self.validateWithOracles(twice)
        #expect(statuses.map(\.fieldName) == ["First", "Second"])
        #expect(statuses.allSatisfy { $0.isValid })
        #expect(statuses[0].coverage == .entireRevision)
        #expect(statuses[0].revision == 1 && statuses[0].laterRevisions == 1)
        #expect(statuses[1].coverage == .entireFile)
        #expect(statuses[1].revision == 2 && statuses[1].laterRevisions == 0)

        // Opened as of the revision the first signature signs, it covers the whole (shorter) file.
        let document = try PDFDocument(bytes: twice)
        let earlier = try document.document(asOfRevision: 1)
        let asOfFirst = SignatureValidator(document: earlier, trustRoots: try Self.roots(Self.root)).validate()
        #expect(asOfFirst.map(\.fieldName) == ["First"])
        #expect(asOfFirst.first?.coverage == .entireFile && asOfFirst.first?.isValid == true)
        let original = try document.document(asOfRevision: 0)
        #expect(SignatureValidator(document: original, trustRoots: []).validate().isEmpty)
    }

    @Test("a signed document that is encrypted validates: /Contents is not encrypted")
    func encryptedDocument() async throws {
        let encrypted = try Self.read(TestPaths.fixture("pdf", "encrypted-aes-128.pdf"))
        let signed = try await Self.sign(encrypted, password: "user")
        let statuses = try Self.validateWithOracles(signed, password: "user")
        #expect(statuses.count == 1)
        #expect(statuses.first?.isValid == true, "\(statuses.map(describe))")
    }

    @Test("the zero padding after the CMS is ignored; other bytes there are a problem, not a failure")
    func padding() async throws {
        let signed = try await Self.sign(TestDocuments.simple())
        let status = try #require(try Self.validate(signed).first)
        #expect(status.isValid && status.problems.isEmpty)
        var padded = signed
        let end = status.byteRange[2] - 1  // the '>'
        padded.replaceSubrange((end - 4)..<end, with: Array("ABCD".utf8))
        let damaged = try #require(try Self.validateWithOracles(padded).first)
        #expect(damaged.digestIntact && damaged.signatureValid)
        #expect(damaged.problems.contains { $0.contains("other than zeros after the CMS") })
    }

    // MARK: Damaged signatures

    @Test("a byte changed inside the signed range: not intact")
    func changedSignedByte() async throws {
        var signed = try await Self.sign(TestDocuments.simple())
        let reason = try #require(Self.lastRange(of: Array("Approved".utf8), in: signed))
        signed.replaceSubrange(reason, with: Array("Rejected".utf8))
        let status = try #require(try Self.validateWithOracles(signed).first)
        #expect(!status.digestIntact)
        #expect(status.signatureValid)  // the signed attributes are untouched
        #expect(!status.isValid)
        #expect(status.problems.contains { $0.contains("the document was changed") })
    }

    @Test("a byte changed inside the CMS signature value: the signature is not valid")
    func changedSignatureByte() async throws {
        var signed = try await Self.sign(TestDocuments.simple())
        let document = try PDFDocument(bytes: signed)
        let field = try #require(AcroForm(document: document)?.signatureFields.first)
        let dictionary = try #require(document.resolve(field.dictionary[.v] ?? .null).dictionaryValue)
        let contents = try #require(document.resolve(dictionary[.contents] ?? .null).stringValue?.bytes)
        let signature = try #require(try CMSSignedData(der: contents).signerInfos.first?.signature)
        let hex = signature.map { String(format: "%02X", $0) }.joined()
        let range = try #require(
            Self.lastRange(of: Array(hex.utf8), in: signed)
                ?? Self.lastRange(of: Array(hex.lowercased().utf8), in: signed))
        let middle = range.lowerBound + range.count / 2
        signed[middle] = signed[middle] == UInt8(ascii: "0") ? UInt8(ascii: "1") : UInt8(ascii: "0")
        let status = try #require(try Self.validateWithOracles(signed).first)
        #expect(status.digestIntact)
        #expect(!status.signatureValid)
        #expect(!status.isValid)
        #expect(status.problems.contains { $0.contains("does not verify") })
    }

    @Test("a signer that does not chain to the trust root is untrusted, with the reason")
    func unknownRoot() async throws {
        let signed = try await Self.sign(TestDocuments.simple())
        let status = try #require(try Self.validateWithOracles(signed, trust: Self.otherRoot).first)
        #expect(status.digestIntact && status.signatureValid)
        #expect(!status.trust.isTrusted)
        #expect(status.trustReason?.isEmpty == false)
        #expect(!status.isValid)
        let noRoots = try #require(
            SignatureValidator(document: try PDFDocument(bytes: signed), trustRoots: []).validate().first)
        #expect(noRoots.trustReason?.contains("no trust roots") == true)
    }

    @Test("an expired signer is untrusted now, with the expiry in the reason, and trusted when it was valid")
    func expiredSigner() async throws {
        let signed = try await Self.sign(
            TestDocuments.simple(), signer: try Self.signer("signer-expired", allowExpired: true))
        let status = try #require(try Self.validateWithOracles(signed).first)
        #expect(status.digestIntact && status.signatureValid)
        #expect(!status.trust.isTrusted)
        #expect(status.trustReason?.contains("expired on 2021-01-01") == true, "\(status.trustReason ?? "")")
        let then = try #require(try Self.validate(signed, at: 1_590_969_600).first)  // 2020-06-01
        #expect(then.trust.isTrusted && then.isValid)
    }

    /// Ways to damage a signature dictionary, each keeping the file's length.
    enum Damage: String, CaseIterable, CustomTestStringConvertible {
        case threeNumbers, negativeNumber, beyondTheEnd, gapWiderThanContents, gapInsideContents, notAnArray
        case realNumbers, noByteRange, noContents, notStartingAtZero, truncatedFile

        var testDescription: String { rawValue }

        /// The damaged file, or nil when the damage cannot be made.
        func apply(to bytes: [UInt8]) -> [UInt8]? {
            guard let key = ValidationTests.lastRange(of: Array("/ByteRange".utf8), in: bytes),
                let close = bytes[key.upperBound...].firstIndex(of: UInt8(ascii: "]"))
            else { return nil }
            let slot = key.upperBound..<(close + 1)
            let numbers = String(decoding: bytes[slot].dropFirst().dropLast(), as: UTF8.self).split(separator: " ")
                .compactMap { Int($0) }
            guard numbers.count == 4 else { return nil }
            let (a, b, c, d) = (numbers[0], numbers[1], numbers[2], numbers[3])
            var copy = bytes
            func array(_ text: String) -> [UInt8]? {
                guard text.utf8.count <= slot.count else { return nil }
                copy.replaceSubrange(
                    slot, with: Array((text + String(repeating: " ", count: slot.count - text.utf8.count)).utf8))
                return copy
            }
            switch self {
            case .threeNumbers: return array("[\(a) \(b) \(c)]")
            case .negativeNumber: return array("[\(a) \(b) -\(c) \(d)]")
            case .beyondTheEnd: return array("[\(a) \(b) \(c) \(d + 1000)]")
            case .gapWiderThanContents: return array("[\(a) \(b - 1) \(c + 1) \(d - 1)]")
            case .gapInsideContents: return array("[\(a) \(b + 1) \(c - 1) \(d + 1)]")
            case .notAnArray: return array("(\(a) \(b) \(c) \(d))")
            case .realNumbers: return array("[\(a) \(b).0 \(c) \(d)]")
            case .notStartingAtZero: return array("[1 \(b - 1) \(c) \(d)]")
            case .noByteRange:
                copy.replaceSubrange(key, with: Array("/ByteRangX".utf8))
                return copy
            case .noContents:
                // The key just before the '<' at offset b.
                guard b >= 9, bytes[(b - 9)..<b].elementsEqual("/Contents".utf8) else { return nil }
                copy.replaceSubrange((b - 9)..<b, with: Array("/Contentz".utf8))
                return copy
            case .truncatedFile:
                return Array(bytes.prefix(c + d / 2))
            }
        }
    }

    @Test(
        "a malformed /ByteRange, /Contents or file gives a status with problems, never a crash",
        arguments: Damage.allCases)
    func damagedSignatureDictionary(damage: Damage) async throws {
        let signed = try await Self.sign(TestDocuments.simple(), request: SignatureRequest(fieldName: "Damaged"))
        let damaged = try #require(damage.apply(to: signed))
        let statuses: [SignatureStatus]
        if damage == .truncatedFile {
            // The cross-reference is cut off: the document is recovered or does not open; both are fine.
            guard let document = try? PDFDocument(bytes: damaged) else { return }
            statuses = SignatureValidator(document: document, trustRoots: try Self.roots(Self.root)).validate()
        } else {
            statuses = try Self.validateWithOracles(damaged)
            #expect(statuses.count == 1)
        }
        for status in statuses {
            #expect(!status.isValid)
            #expect(!status.problems.isEmpty)
        }
        if [.gapWiderThanContents, .gapInsideContents, .notStartingAtZero].contains(damage) {
            #expect(statuses.first?.coverage == .unclear)
        }
    }

    @Test("corrupting any byte of the signing update, or cutting it anywhere, gives statuses, never a crash")
    func corruptionSweep() async throws {
        let original = TestDocuments.simple()
        let signed = try await Self.sign(original)
        let status = try #require(try Self.validate(signed).first)
        let roots = try Self.roots(Self.root)
        // Every byte of the update but the middle of the hex digits of /Contents.
        let hex = (status.byteRange[1] + 80)..<(status.byteRange[2] - 80)
        let positions = (original.count..<signed.count).filter { !hex.contains($0) }
        var damaged = 0
        for position in positions where position % 2 == 0 {
            for replacement in "(]0".utf8 where signed[position] != replacement {
                var copy = signed
                copy[position] = replacement
                guard let document = try? PDFDocument(bytes: copy) else { continue }
                let statuses = SignatureValidator(document: document, trustRoots: roots).validate()
                #expect(statuses.count <= 1)
                damaged += statuses.filter { !$0.isValid }.count
            }
        }
        for length in stride(from: original.count, to: signed.count, by: 7) {
            guard let document = try? PDFDocument(bytes: signed.prefix(length)) else { continue }
            let statuses = SignatureValidator(document: document, trustRoots: roots).validate()
            #expect(statuses.allSatisfy { !$0.isValid || $0.coverage == .entireRevision })
        }
        #expect(damaged > 0)
    }

    @Test("a field prepared but never signed (a /Contents of zeros) is reported, not thrown")
    func preparedNotSigned() throws {
        let document = try PDFDocument(bytes: TestDocuments.simple())
        let prepared = try SignaturePreparer(document: document, request: SignatureRequest(fieldName: "Later"))
            .prepare(contentsSize: 4096, signerName: "Nobody")
        let status = try #require(try Self.validate(document.withBytes { Array($0) } + prepared.update).first)
        #expect(status.fieldName == "Later")
        #expect(!status.isValid)
        #expect(status.problems.contains { $0.contains("only zeros") })
    }

    // MARK: Helpers

    static func lastRange(of needle: [UInt8], in haystack: [UInt8]) -> Range<Int>? {
        guard !needle.isEmpty, haystack.count >= needle.count else { return nil }
        var start = haystack.count - needle.count
        while start >= 0 {
            if haystack[start] == needle[0], haystack[start..<(start + needle.count)].elementsEqual(needle) {
                return start..<(start + needle.count)
            }
            start -= 1
        }
        return nil
    }

    static func unhex(_ text: String) -> [UInt8]? {
        let digits = Array(text.utf8).filter { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D }
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let value = UInt8(String(decoding: digits[index...index + 1], as: UTF8.self), radix: 16) else {
                return nil
            }
            bytes.append(value)
        }
        return bytes
    }

    /// The length of the first TLV of `der`.
    static func tlvLength(_ der: [UInt8]) throws -> Int {
        var reader = DERReader(der)
        return try reader.readNode().encoded.count
    }

    /// `der` with its constructed nodes down to `levels` deep re-encoded with indefinite lengths,
    /// except the signed attributes `[0]` of a SignerInfo (whose DER is what is signed) and certificates.
    static func indefinite(_ der: [UInt8], levels: Int) throws -> [UInt8] {
        var reader = DERReader(der)
        let node = try reader.readNode()
        return try indefinite(node, levels: levels, depth: 0)
    }

    static func indefinite(_ node: DERNode, levels: Int, depth: Int) throws -> [UInt8] {
        guard node.tag.isConstructed, levels > 0 else { return Array(node.encoded) }
        var children = try node.contentReader()
        var content: [UInt8] = []
        while !children.isAtEnd {
            let child = try children.readNode()
            // Keep certificates ([0] SET of SignedData) and signed attributes ([0] of SignerInfo) as they are.
            let keep = child.tag == .context(0) && depth >= 2
            content += keep ? Array(child.encoded) : try indefinite(child, levels: levels - 1, depth: depth + 1)
        }
        return node.tag.encoded + [0x80] + content + [0x00, 0x00]
    }

    /// Signs with a CMS made here: `adbe.pkcs7.sha1` encapsulates the SHA-1 digest of the byte
    /// ranges; without signed attributes the key signs the content digest directly.
    /// With `trimEndOfLine`, the byte range stops at the final `%%EOF`, before its end of line.
    static func signCustom(
        _ bytes: [UInt8], subFilter: String, signedAttributes: Bool, trimEndOfLine: Bool = false
    ) throws -> [UInt8] {
        let document = try PDFDocument(bytes: bytes)
        var request = SignatureRequest(fieldName: "Custom")
        request.subFilter = .pkcs7Detached
        let prepared = try SignaturePreparer(document: document, request: request)
            .prepare(contentsSize: 8192, signerName: "Custom")
        var file = document.withBytes { Array($0) } + prepared.update
        let name = try #require(lastRange(of: Array("/adbe.pkcs7.detached".utf8), in: file))
        file.replaceSubrange(
            name, with: Array(("/" + subFilter).padding(toLength: name.count, withPad: " ", startingAt: 0).utf8))
        var range = prepared.signature.byteRange
        if trimEndOfLine {
            try #require(file.last == 0x0A && file.dropLast().suffix(5).elementsEqual("%%EOF".utf8))
            range[3] -= 1
            let slot = try #require(lastRange(of: Array("/ByteRange[".utf8), in: file))
            let text = "\(range[0]) \(range[1]) \(range[2]) \(range[3])"
            file.replaceSubrange(slot.upperBound..<(slot.upperBound + text.utf8.count), with: Array(text.utf8))
        }
        let signed = Array(file[range[0]..<(range[0] + range[1])] + file[range[2]..<(range[2] + range[3])])
        let signer = try Self.signer()
        var content: [UInt8]? = subFilter == "adbe.pkcs7.sha1" ? try Digest.sha1.hash(signed) : nil
        let contentType: ObjectIdentifier = subFilter == "ETSI.RFC3161" ? .tstInfo : .data
        if subFilter == "ETSI.RFC3161" {
            // A TSTInfo (RFC 3161 §2.4.2): version, policy, messageImprint, serialNumber, genTime.
            let imprintDigest = try DigestAlgorithm.sha256.hash(signed)
            var tstInfo = DERWriter()
            tstInfo.sequence { info in
                info.integer(1)
                info.objectIdentifier("1.2.3.4")
                info.sequence { imprint in
                    DigestAlgorithm.sha256.algorithmIdentifier.write(to: &imprint)
                    imprint.octetString(imprintDigest)
                }
                info.integer(42)
                info.generalizedTime(1_800_000_000)
            }
            content = tstInfo.bytes
        }
        let contentDigest = try DigestAlgorithm.sha256.hash(content ?? signed)
        var attributes: [UInt8]? = nil
        var toSign = contentDigest
        if signedAttributes {
            var writer = DERWriter()
            writer.set { set in
                set.sequence {
                    $0.objectIdentifier(.contentTypeAttribute)
                    $0.set { $0.objectIdentifier(contentType) }
                }
                set.sequence {
                    $0.objectIdentifier(.messageDigestAttribute)
                    $0.set { $0.octetString(contentDigest) }
                }
            }
            attributes = writer.bytes
            toSign = try DigestAlgorithm.sha256.hash(writer.bytes)
        }
        let signature = try signer.key.sign(digest: toSign, digestAlgorithm: .sha256, scheme: signer.scheme)
        var writer = DERWriter()
        writer.sequence { info in
            info.objectIdentifier(.signedData)
            info.explicit(0) { explicit in
                explicit.sequence { data in
                    data.integer(1)
                    data.set { DigestAlgorithm.sha256.algorithmIdentifier.write(to: &$0) }
                    data.sequence { encapsulated in
                        encapsulated.objectIdentifier(contentType)
                        if let content { encapsulated.explicit(0) { $0.octetString(content) } }
                    }
                    data.set(tag: .context(0)) { set in
                        for certificate in [signer.certificate] + signer.chain {
                            set.appendEncoded(certificate.derBytes)
                        }
                    }
                    data.set { infos in
                        infos.sequence { signerInfo in
                            signerInfo.integer(1)
                            signerInfo.sequence {
                                $0.appendEncoded(signer.certificate.issuerDER)
                                $0.appendEncoded(signer.certificate.serialDER)
                            }
                            DigestAlgorithm.sha256.algorithmIdentifier.write(to: &signerInfo)
                            if let attributes { signerInfo.appendImplicit(0, retagging: attributes) }
                            signer.scheme.algorithmIdentifier(digest: .sha256).write(to: &signerInfo)
                            signerInfo.octetString(signature)
                        }
                    }
                }
            }
        }
        return try embed(writer.bytes, in: file, at: prepared.signature)
    }

    /// Signs with `openssl cms -sign` (a detached CMS with OpenSSL's default attributes) over the byte ranges.
    /// With `subFilter` adbe.pkcs7.sha1, the CMS encapsulates the SHA-1 digest of the byte ranges.
    static func signWithOpenSSL(
        _ bytes: [UInt8], digest: String, subFilter: String = "adbe.pkcs7.detached"
    ) throws -> [UInt8] {
        let document = try PDFDocument(bytes: bytes)
        var request = SignatureRequest(fieldName: "OpenSSL")
        request.subFilter = .pkcs7Detached
        let prepared = try SignaturePreparer(document: document, request: request)
            .prepare(contentsSize: 8192, signerName: "OpenSSL")
        var file = document.withBytes { Array($0) } + prepared.update
        let name = try #require(lastRange(of: Array("/adbe.pkcs7.detached".utf8), in: file))
        file.replaceSubrange(
            name, with: Array(("/" + subFilter).padding(toLength: name.count, withPad: " ", startingAt: 0).utf8))
        let range = prepared.signature.byteRange
        let directory = try TestPaths.temporaryDirectory("openssl-cms")
        var content = Array(file[range[0]..<(range[0] + range[1])] + file[range[2]..<(range[2] + range[3])])
        if subFilter == "adbe.pkcs7.sha1" { content = try Digest.sha1.hash(content) }
        try Data(content).write(to: URL(fileURLWithPath: directory + "/content"))
        let result = try Oracle.run(
            "openssl",
            [
                "cms", "-sign", subFilter == "adbe.pkcs7.sha1" ? "-nodetach" : "-binary", "-binary", "-nosmimecap",
                "-md", digest, "-outform", "DER", "-in",
                directory + "/content",
                "-signer", pki("signer-rsa2048.cert.pem"), "-inkey", pki("signer-rsa2048.key.pem"), "-certfile",
                pki("signer-rsa2048.chain.pem"), "-out", directory + "/cms.der",
            ])
        try #require(result.status == 0, "openssl cms: \(result.errors)")
        return try embed(try read(directory + "/cms.der"), in: file, at: prepared.signature)
    }

    /// `file` with `cms` written in hex into the prepared `/Contents`.
    static func embed(_ cms: [UInt8], in file: [UInt8], at signature: PreparedSignature) throws -> [UInt8] {
        let hex = Array(cms.map { String(format: "%02X", $0) }.joined().utf8)
        try #require(hex.count <= signature.contentsHexLength)
        var output = file
        let start = signature.contentsOffset + 1
        output.replaceSubrange(start..<(start + hex.count), with: hex)
        return output
    }
}
