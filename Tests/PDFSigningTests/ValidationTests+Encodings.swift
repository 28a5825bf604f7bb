import Foundation
import PDFCore
import PDFForms
import PDFTestSupport
import Testing

@testable import PDFSigning

/// Signatures in other encodings and /SubFilters, and BER.
extension ValidationTests {
    // MARK: Other encodings and /SubFilters

    @Test("a CMS in BER with indefinite lengths is read and agrees with the oracles; its prefixes never crash")
    func berCMS() async throws {
        let signed = try await Self.sign(TestDocuments.simple())
        let status = try #require(try Self.validate(signed).first)
        let (a, b) = (status.byteRange[1], status.byteRange[2])
        let der = try #require(Self.unhex(String(decoding: signed[(a + 1)..<(b - 1)], as: UTF8.self)))
        let cms = Array(der.prefix(try Self.tlvLength(der)))
        let ber = try Self.indefinite(cms, levels: 4)
        #expect(ber != cms && BERConverter.needsConversion(ber))
        #expect(try BERConverter.definiteLength(ber).encoding == cms)
        func embedding(_ bytes: [UInt8]) -> [UInt8] {
            let text = Array((bytes.map { String(format: "%02X", $0) }.joined()).utf8)
            var file = signed
            file.replaceSubrange(
                (a + 1)..<(b - 1), with: text + [UInt8](repeating: UInt8(ascii: "0"), count: b - a - 2 - text.count))
            return file
        }
        let berStatus = try #require(try Self.validateWithOracles(embedding(ber)).first)
        #expect(berStatus.isValid, "\(describe(berStatus))")
        // Every prefix of the BER converts or throws; validating it gives a status, never a crash.
        let roots = try Self.roots(Self.root)
        for length in stride(from: 0, to: ber.count, by: 3) {
            let prefix = Array(ber.prefix(length))
            if let converted = try? BERConverter.definiteLength(prefix) {
                _ = try? CMSSignedData(der: converted.encoding)
            }
            let statuses = SignatureValidator(document: try PDFDocument(bytes: embedding(prefix)), trustRoots: roots)
                .validate()
            // Cut only in the final end-of-contents octets, the zero padding completes it.
            #expect(statuses.count == 1 && statuses.first?.isValid == ber[length...].allSatisfy { $0 == 0 })
        }
    }

    @Test(
        "adbe.pkcs7.sha1 (the SHA-1 digest encapsulated), ETSI.RFC3161 and signatures without signed attributes",
        arguments: [
            ("adbe.pkcs7.sha1", true), ("adbe.pkcs7.sha1", false), ("adbe.pkcs7.detached", false),
            ("ETSI.RFC3161", true),
        ])
    func customCMS(subFilter: String, signedAttributes: Bool) throws {
        let file = try Self.signCustom(TestDocuments.simple(), subFilter: subFilter, signedAttributes: signedAttributes)
        // pyHanko does not validate adbe.pkcs7.sha1 (it ignores such signatures) and pdfsig hashes the byte
        // ranges with the signer's digest (SHA-256 here) instead of SHA-1: neither is an oracle for it. This
        // document time-stamp's certificate is no TSA's (pyHanko wants the timeStamping key purpose).
        let status = try #require(
            try subFilter == "adbe.pkcs7.detached" ? Self.validateWithOracles(file).first : Self.validate(file).first)
        #expect(status.subFilter == subFilter)
        #expect(status.digestIntact && status.signatureValid && status.trust.isTrusted, "\(describe(status))")
        #expect(status.isValid)
        // Damaged: the digest no longer matches.
        var damaged = file
        let range = try #require(Self.lastRange(of: Array("/Type/Page".utf8), in: damaged))
        damaged.replaceSubrange(range, with: Array("/Type/Pag ".utf8))
        let broken = try #require(try Self.validate(damaged).first)
        #expect(!broken.digestIntact && !broken.isValid)
    }

    @Test("a byte range that stops at %%EOF, before its end of line, covers the entire revision")
    func endOfRevisionWithoutEndOfLine() async throws {
        let file = try Self.signCustom(
            TestDocuments.simple(), subFilter: "adbe.pkcs7.detached", signedAttributes: true, trimEndOfLine: true)
        let status = try #require(try Self.validateWithOracles(file).first)
        #expect(status.coverage == .entireRevision && status.revision == 1 && status.laterRevisions == 0)
        #expect(status.isValid, "\(describe(status))")
        // Another signer: pdfsig reports "Unknown issue with Certificate" for a second signature by the same
        // certificate (NSS keeps the first one's certificate "in use").
        let twice = try await Self.sign(file, signer: try Self.signer("signer-p256"))
        let later = try #require(try Self.validateWithOracles(twice).first)
        #expect(later.coverage == .entireRevision && later.laterRevisions == 1 && later.isValid)
    }

    @Test("old SHA-1 signatures are checked (never made); adbe.x509.rsa_sha1 is reported as unsupported")
    func unsupported() async throws {
        let sha1 = try Self.signWithOpenSSL(TestDocuments.simple(), digest: "sha1")
        let status = try #require(try Self.validate(sha1).first)
        #expect(status.digestAlgorithm == "sha1")
        #expect(status.digestIntact && status.signatureValid, "\(describe(status))")
        #expect(status.unsupported == nil)
        #expect(status.isValid, "\(describe(status))")
        // pyHanko and pdfsig both accept a SHA-1 CMS signature too.
        let path = try Self.write(sha1)
        if Requirement.check(Requirement.pyHankoCLI, orWarn: "pyHanko is not installed; its verdict is not compared") {
            let pyhanko = try ValidationOracles.pyhanko(path, trust: Self.root, password: nil).values.first
            #expect(pyhanko?.hasPrefix("INTACT") == true, "pyHanko: \(pyhanko ?? "no verdict")")
        }
        // With SHA-1 throughout, adbe.pkcs7.sha1 encapsulates the SHA-1 digest; its signature is checked too.
        let legacy = try Self.signWithOpenSSL(TestDocuments.simple(), digest: "sha1", subFilter: "adbe.pkcs7.sha1")
        let legacyStatus = try #require(try Self.validate(legacy).first)
        #expect(legacyStatus.subFilter == "adbe.pkcs7.sha1" && legacyStatus.digestIntact && legacyStatus.signatureValid)
        var pdfsig: (valid: Bool, trusted: Bool)?
        if Requirement.check(Requirement.tools("pdfsig", "certutil"), orWarn: "pdfsig or certutil is not installed") {
            pdfsig = try ValidationOracles.pdfsig(try Self.write(legacy), trust: Self.root, password: nil).values.first
        }
        print("SHA-1 adbe.pkcs7.sha1: pdfsig \(pdfsig.map { "\($0)" } ?? "no verdict"), ours \(describe(legacyStatus))")

        var x509 = try await Self.sign(TestDocuments.simple())
        let subFilter = try #require(Self.lastRange(of: Array("/ETSI.CAdES.detached".utf8), in: x509))
        x509.replaceSubrange(subFilter, with: Array("/adbe.x509.rsa_sha1 ".utf8))
        let rsaSHA1 = try #require(try Self.validate(x509).first)
        #expect(rsaSHA1.unsupported?.contains("adbe.x509.rsa_sha1") == true)
        #expect(!rsaSHA1.isValid)
    }

    // MARK: BER

    @Test("BER with indefinite lengths and constructed OCTET STRINGs becomes DER")
    func berConversion() throws {
        let ber: [UInt8] = [
            0x30, 0x80, 0x02, 0x01, 0x05, 0x24, 0x80, 0x04, 0x02, 0xAA, 0xBB, 0x04, 0x01, 0xCC, 0x00, 0x00, 0x00, 0x00,
            0x00,
        ]
        let converted = try BERConverter.definiteLength(ber)
        #expect(converted.encoding == [0x30, 0x08, 0x02, 0x01, 0x05, 0x04, 0x03, 0xAA, 0xBB, 0xCC])
        #expect(converted.end == 18)
        // DER comes back unchanged, byte for byte.
        let certificate = try #require(try Self.roots(Self.root).first)
        #expect(!BERConverter.needsConversion(certificate.derBytes))
        #expect(try BERConverter.definiteLength(certificate.derBytes).encoding == certificate.derBytes)
        // Hostile input: too deep, a primitive with an indefinite length, no end-of-contents.
        #expect(throws: SigningError.self) {
            try BERConverter.definiteLength(Array(repeating: [0x30, 0x80], count: 100).flatMap { $0 })
        }
        #expect(throws: SigningError.self) { try BERConverter.definiteLength([0x04, 0x80, 0x00, 0x00]) }
        #expect(throws: SigningError.self) { try BERConverter.definiteLength([0x30, 0x80, 0x02, 0x01, 0x05]) }
    }
}
