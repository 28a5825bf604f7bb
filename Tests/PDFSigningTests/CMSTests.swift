import Foundation
import PDFTestSupport
import Testing

@testable import PDFSigning

@Suite("CMS SignedData: built here and checked by openssl cms, made by openssl cms and read here")
struct CMSTests {
    struct Case: Sendable, CustomStringConvertible {
        var signer: String
        var scheme: SignatureScheme
        var digest: DigestAlgorithm
        var description: String { "\(signer) \(scheme.rawValue) \(digest.rawValue)" }
    }

    static let cases: [Case] = [
        ("signer-rsa2048", SignatureScheme.rsaPKCS1v15), ("signer-rsa-pss", .rsaPSS), ("signer-p256", .ecdsa),
        ("signer-p384", .ecdsa),
    ].flatMap { signer, scheme in DigestAlgorithm.allCases.map { Case(signer: signer, scheme: scheme, digest: $0) } }

    static let content = Array("%PDF-1.7 pretend byte ranges: the content of a detached signature\n".utf8)

    static func builder(_ testCase: Case) throws -> CMSSignedDataBuilder {
        CMSSignedDataBuilder(
            certificate: try PKI.certificate(testCase.signer), chain: [try PKI.certificate("intermediate")],
            digestAlgorithm: testCase.digest, scheme: testCase.scheme)
    }

    /// `openssl cms -verify` of a detached DER CMS over `content`, trusting the test root.
    static func opensslVerify(_ cms: [UInt8], content: [UInt8], in directory: String) throws -> Oracle.Result {
        try Oracle.run(
            "openssl",
            [
                "cms", "-verify", "-binary", "-inform", "DER", "-in", try PKI.write(cms, directory, "cms.der"),
                "-content", try PKI.write(content, directory, "content.bin"), "-CAfile", PKI.path("root.cert.pem"),
                "-purpose", "any", "-out", "/dev/null",
            ])
    }

    @Test("A detached CMS from the builder verifies with openssl cms -verify", arguments: cases)
    func opensslVerifiesBuiltCMS(testCase: Case) throws {
        let builder = try Self.builder(testCase)
        let key = try PKI.key(testCase.signer)
        let cms = try builder.sign(messageDigest: testCase.digest.hash(Self.content), with: key)
        let directory = try TestPaths.temporaryDirectory("cms")
        defer { try? FileManager.default.removeItem(atPath: directory) }

        let result = try Self.opensslVerify(cms, content: Self.content, in: directory)
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.errors.contains("Verification successful"))
        // Other content does not verify.
        let other = try Self.opensslVerify(cms, content: Self.content + [0x0A], in: directory)
        #expect(other.status != 0)

        let printed = try PKI.openssl(["cms", "-cmsout", "-print", "-inform", "DER", "-in", "\(directory)/cms.der"])
            .output
        #expect(!printed.contains("signingTime"))
        #expect(!printed.contains("(1.2.840.113549.1.9.5)"))
        #expect(printed.contains("1.2.840.113549.1.9.16.2.47"), "ESS signing-certificate-v2")
        #expect(printed.contains("1.2.840.113549.1.9.52"), "CMS algorithm protection")
        #expect(printed.contains("eContent: <ABSENT>"))

        // And it reads back here.
        let parsed = try CMSSignedData(der: cms)
        let signer = try #require(parsed.signerInfos.first)
        #expect(parsed.signerInfos.count == 1 && parsed.version == 1 && parsed.contentType == .data)
        #expect(parsed.content == nil)
        #expect(parsed.digestAlgorithms == [testCase.digest.algorithmIdentifier])
        #expect(
            Set(parsed.certificates)
                == Set([try PKI.certificate(testCase.signer), try PKI.certificate("intermediate")]))
        #expect(parsed.signerCertificate(for: signer) == (try PKI.certificate(testCase.signer)))
        #expect(try signer.messageDigest == testCase.digest.hash(Self.content))
        #expect(signer.contentType == .data)
        #expect(signer.signingTime == nil)
        #expect(signer.signatureAlgorithm == builder.signatureAlgorithmIdentifier)
        #expect(parsed.verifySignature(of: signer))
        var tampered = parsed
        tampered.signerInfos[0].signature[8] ^= 0x40
        #expect(!tampered.verifySignature(of: tampered.signerInfos[0]))
    }

    /// pyHanko's `validate_sig_integrity` (which also checks RFC 6211 algorithm protection) over every
    /// `*.der` in `directory`: file name → [intact, valid, signed attribute names].
    static let pyHankoScript = """
        import sys, glob, json, hashlib
        from asn1crypto import cms
        from pyhanko.sign.validation.generic_cms import validate_sig_integrity
        content = open(sys.argv[2], 'rb').read()
        out = {}
        for path in sorted(glob.glob(sys.argv[1] + '/*.der')):
            sd = cms.ContentInfo.load(open(path, 'rb').read())['content']
            si = sd['signer_infos'][0]
            sid = si['sid'].chosen
            cert = next(c.chosen for c in sd['certificates']
                        if c.chosen.issuer == sid['issuer'] and c.chosen.serial_number == sid['serial_number'].native)
            digest = hashlib.new(si['digest_algorithm']['algorithm'].native, content).digest()
            try:
                intact, valid = validate_sig_integrity(si, cert, expected_content_type='data', actual_digest=digest)
            except Exception as error:
                intact, valid = False, type(error).__name__ + ': ' + str(error)
            out[path.split('/')[-1]] = [intact, valid, sorted(a['type'].native for a in si['signed_attrs'])]
        print(json.dumps(out))
        """

    @Test(
        "pyHanko finds every built CMS intact and valid, algorithm protection included",
        .enabled(
            if: Requirement.python("pyhanko") && Requirement.python("asn1crypto"),
            "pyHanko is not installed (pip install pyhanko)"))
    func pyHankoVerifiesBuiltCMS() throws {
        let directory = try TestPaths.temporaryDirectory("cms-pyhanko")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for testCase in Self.cases {
            let cms = try Self.builder(testCase).sign(
                messageDigest: testCase.digest.hash(Self.content), with: try PKI.key(testCase.signer))
            _ = try PKI.write(
                cms, directory, "\(testCase.signer)-\(testCase.scheme.rawValue)-\(testCase.digest.rawValue).der")
        }
        // Signed attributes that protect sha256WithRSAEncryption, in a SignerInfo that says rsaEncryption.
        var naming = try Self.builder(Case(signer: "signer-rsa2048", scheme: .rsaPKCS1v15, digest: .sha256))
        naming.rsaSignatureAlgorithmNamesDigest = true
        let plain = try Self.builder(Case(signer: "signer-rsa2048", scheme: .rsaPKCS1v15, digest: .sha256))
        let attributes = try naming.signedAttributes(messageDigest: DigestAlgorithm.sha256.hash(Self.content))
        let signature = try PKI.key("signer-rsa2048").sign(
            digest: DigestAlgorithm.sha256.hash(attributes), digestAlgorithm: .sha256, scheme: .rsaPKCS1v15)
        _ = try PKI.write(plain.assemble(signedAttributes: attributes, signature: signature), directory, "mismatch.der")

        let result = try Oracle.run(
            "python3",
            ["-c", Self.pyHankoScript, directory, try PKI.write(Self.content, "\(directory)", "content.bin")])
        #expect(result.status == 0, "\(result.errors)")
        let verdicts = try #require(JSONSerialization.jsonObject(with: result.outputData) as? [String: [Any]])
        #expect(verdicts.count == Self.cases.count + 1)
        for (file, verdict) in verdicts {
            let attributes = verdict[2] as? [String]
            if file == "mismatch.der" {
                #expect(verdict[0] as? Bool == false, "pyHanko checks algorithm protection: \(verdict)")
                #expect((verdict[1] as? String)?.contains("lgorithm protection") == true, "\(verdict)")
            } else {
                #expect(verdict[0] as? Bool == true && verdict[1] as? Bool == true, "\(file): \(verdict)")
                #expect(
                    attributes == [
                        "cms_algorithm_protection", "content_type", "message_digest", "signing_certificate_v2",
                    ])
            }
        }
    }

    @Test("The signed attributes are contentType, messageDigest, signing-certificate-v2, algorithm protection")
    func signedAttributes() throws {
        let testCase = Case(signer: "signer-p384", scheme: .ecdsa, digest: .sha384)
        let builder = try Self.builder(testCase)
        let digest = try testCase.digest.hash(Self.content)
        let attributes = try builder.signedAttributes(messageDigest: digest)
        #expect(try attributes == builder.signedAttributes(messageDigest: digest), "deterministic")
        #expect(attributes.first == 0x31)
        #expect(try builder.signedAttributesDigest(messageDigest: digest) == DigestAlgorithm.sha384.hash(attributes))

        var reader = DERReader(attributes)
        let node = try reader.readNode(.set)
        let list = try CMSAttribute.list(in: node)
        #expect(
            Set(list.map(\.type))
                == [
                    .contentTypeAttribute, .messageDigestAttribute, .signingCertificateV2Attribute,
                    .algorithmProtectionAttribute,
                ])
        #expect(list.allSatisfy { $0.values.count == 1 })
        // DER SET OF order (X.690 §11.6).
        var elements = try node.contentReader()
        var encodings: [[UInt8]] = []
        while !elements.isAtEnd { encodings.append(Array(try elements.readNode().encoded)) }
        #expect(encodings == encodings.sorted { $0.lexicographicallyPrecedes($1) })

        // ESSCertIDv2: no hashAlgorithm (SHA-256 is the DEFAULT), the certificate's SHA-256, issuer and serial.
        let certificate = try PKI.certificate(testCase.signer)
        let certificateHash = try PKI.openssl([
            "x509", "-in", PKI.path("signer-p384.cert.pem"), "-noout", "-fingerprint", "-sha256",
        ])
        .output.split(separator: "=").last!.trimmingCharacters(in: .whitespacesAndNewlines)
            .split(separator: ":").map { UInt8($0, radix: 16)! }
        let value = try #require(list.first { $0.type == .signingCertificateV2Attribute }?.values.first)
        var ess = DERReader(value)
        try ess.readSequence { (signingCertificate) throws(SigningError) in
            try signingCertificate.readSequence { (certs) throws(SigningError) in
                try certs.readSequence { (id) throws(SigningError) in
                    #expect(Array(try id.readOctetString()) == certificateHash)
                    try id.readSequence { (issuerSerial) throws(SigningError) in
                        try issuerSerial.readSequence { (names) throws(SigningError) in
                            try names.readExplicit(4) { (name) throws(SigningError) in
                                #expect(Array(try name.readNode().encoded) == certificate.issuerDER)
                            }
                        }
                        #expect(Array(try issuerSerial.readNode().encoded) == certificate.serialDER)
                    }
                }
            }
        }
        // Algorithm protection names the SignerInfo's algorithms.
        let protection = try #require(list.first { $0.type == .algorithmProtectionAttribute }?.values.first)
        var protectionReader = DERReader(protection)
        try protectionReader.readSequence { (body) throws(SigningError) in
            #expect(try AlgorithmIdentifier(from: &body) == builder.digestAlgorithmIdentifier)
            let signature = try body.readImplicit(1, constructed: true)
            #expect(Array(signature.content) == Array(builder.signatureAlgorithmIdentifier.encoded.dropFirst(2)))
        }
    }

    @Test("A remote raw signer signs the signed attributes' digest; openssl pkeyutl plays the HSM")
    func remoteRawSigner() throws {
        let directory = try TestPaths.temporaryDirectory("cms")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for testCase in [
            Case(signer: "signer-rsa2048", scheme: .rsaPKCS1v15, digest: .sha512),
            Case(signer: "signer-rsa-pss", scheme: .rsaPSS, digest: .sha256),
            Case(signer: "signer-p256", scheme: .ecdsa, digest: .sha256),
        ] {
            let builder = try Self.builder(testCase)
            let messageDigest = try testCase.digest.hash(Self.content)
            let attributes = try builder.signedAttributes(messageDigest: messageDigest)
            let toSign = try builder.signedAttributesDigest(messageDigest: messageDigest)
            var options = ["-pkeyopt", "digest:\(testCase.digest.rawValue)"]
            if testCase.scheme == .rsaPSS {
                options += ["-pkeyopt", "rsa_padding_mode:pss", "-pkeyopt", "rsa_pss_saltlen:digest"]
            }
            let signature = try PKI.openssl(
                [
                    "pkeyutl", "-sign", "-inkey", PKI.path("\(testCase.signer).key.pem"), "-in",
                    try PKI.write(toSign, directory, "tbs.bin"),
                ]
                    + options
            ).outputData
            let cms = builder.assemble(signedAttributes: attributes, signature: [UInt8](signature))
            let result = try Self.opensslVerify(cms, content: Self.content, in: directory)
            #expect(result.status == 0, "\(testCase): \(result.errors)")
        }
    }

    @Test("Unsigned attributes carry a time-stamp token and do not disturb the signature")
    func unsignedAttributes() throws {
        let testCase = Case(signer: "signer-p256", scheme: .ecdsa, digest: .sha256)
        let builder = try Self.builder(testCase)
        let key = try PKI.key(testCase.signer)
        let digest = try testCase.digest.hash(Self.content)
        let attributes = try builder.signedAttributes(messageDigest: digest)
        let signature = try key.sign(
            digest: builder.signedAttributesDigest(messageDigest: digest), digestAlgorithm: .sha256, scheme: .ecdsa)
        // A stand-in for a time-stamp token: any ContentInfo.
        let token = try builder.sign(messageDigest: DigestAlgorithm.sha256.hash(signature), with: key)
        let cms = builder.assemble(
            signedAttributes: attributes, signature: signature,
            unsignedAttributes: CMSSignedDataBuilder.unsignedAttributes(timeStampToken: token))
        let parsed = try CMSSignedData(der: cms)
        let signer = try #require(parsed.signerInfos.first)
        #expect(signer.timeStampToken == token)
        #expect(signer.unsignedAttributesDER?.first == 0xA1)
        #expect(signer.signedAttributesDER?.first == 0xA0)
        #expect(signer.signedAttributesToVerify == attributes)
        #expect(parsed.verifySignature(of: signer))
        let directory = try TestPaths.temporaryDirectory("cms")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(try Self.opensslVerify(cms, content: Self.content, in: directory).status == 0)
    }

    @Test("sha*WithRSAEncryption as the signature algorithm also verifies with openssl")
    func rsaAlgorithmNamingDigest() throws {
        var builder = try Self.builder(Case(signer: "signer-rsa2048", scheme: .rsaPKCS1v15, digest: .sha384))
        builder.rsaSignatureAlgorithmNamesDigest = true
        #expect(builder.signatureAlgorithmIdentifier.algorithm == .sha384WithRSAEncryption)
        let cms = try builder.sign(
            messageDigest: DigestAlgorithm.sha384.hash(Self.content), with: try PKI.key("signer-rsa2048"))
        let directory = try TestPaths.temporaryDirectory("cms")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(try Self.opensslVerify(cms, content: Self.content, in: directory).status == 0)
        let parsed = try CMSSignedData(der: cms)
        #expect(parsed.verifySignature(of: parsed.signerInfos[0]))
    }

    @Test(
        "A CMS made by openssl cms -sign reads here and its signature verifies",
        arguments: [
            ("signer-rsa2048", [String]()), ("signer-p256", []), ("signer-p384", ["-keyid"]),
            ("signer-rsa-pss", ["-keyopt", "rsa_padding_mode:pss"]),
        ])
    func readsOpenSSLCMS(signer: String, options: [String]) throws {
        let directory = try TestPaths.temporaryDirectory("cms")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let contentPath = try PKI.write(Self.content, directory, "content.bin")
        try PKI.openssl(
            [
                "cms", "-sign", "-binary", "-md", "sha256", "-nosmimecap", "-outform", "DER", "-in", contentPath,
                "-signer", PKI.path("\(signer).cert.pem"), "-inkey", PKI.path("\(signer).key.pem"),
                "-certfile", PKI.path("\(signer).chain.pem"), "-out", "\(directory)/openssl.der",
            ] + options)
        let der = [UInt8](try Data(contentsOf: URL(fileURLWithPath: "\(directory)/openssl.der")))
        let before = Int(Date().timeIntervalSince1970)
        // Padded as in a PDF's /Contents.
        let parsed = try CMSSignedData(der: der + [UInt8](repeating: 0, count: 4096))
        #expect(parsed.encoded == der)
        let info = try #require(parsed.signerInfos.first)
        #expect(parsed.certificates.count == 3)
        #expect(parsed.signerCertificate(for: info) == (try PKI.certificate(signer)))
        if options.contains("-keyid") {
            #expect(info.identifier == .subjectKeyIdentifier(try PKI.certificate(signer).subjectKeyIdentifier ?? []))
            #expect(info.version == 3)
        } else {
            #expect(info.version == 1)
        }
        #expect(info.digest == .sha256)
        #expect(try info.messageDigest == DigestAlgorithm.sha256.hash(Self.content))
        #expect(info.contentType == .data)
        let signingTime = try #require(info.signingTime, "OpenSSL 3.0 always adds signingTime")
        #expect(abs(signingTime - before) < 300)
        #expect(info.timeStampToken == nil && info.unsignedAttributesDER == nil)
        #expect(parsed.verifySignature(of: info))
        if signer == "signer-rsa-pss" {
            let (scheme, digest, salt) = try SignatureScheme.parse(info.signatureAlgorithm)
            #expect(scheme == .rsaPSS && digest == .sha256 && salt == 2048 / 8 - 32 - 2)
        }
    }

    @Test("Trailing bytes other than zeros, and truncations, are refused without trapping")
    func malformed() throws {
        let cms = try Self.builder(Case(signer: "signer-p256", scheme: .ecdsa, digest: .sha256))
            .sign(messageDigest: DigestAlgorithm.sha256.hash(Self.content), with: try PKI.key("signer-p256"))
        #expect(throws: SigningError(.malformedData, "")) { try CMSSignedData(der: cms + [0, 0, 1]) }
        #expect(throws: SigningError(.malformedData, "")) { try CMSSignedData(der: []) }
        #expect(throws: SigningError(.malformedData, "")) {
            try CMSSignedData(der: try PKI.certificate("root").derBytes)
        }
        for length in 0..<cms.count {
            #expect(throws: SigningError.self) { try CMSSignedData(der: Array(cms.prefix(length))) }
        }
        var parsedAfterFlip = 0
        for index in stride(from: 0, to: cms.count, by: 3) {
            var bytes = cms
            bytes[index] ^= 0x5A
            if let parsed = try? CMSSignedData(der: bytes) {
                parsedAfterFlip += 1
                for info in parsed.signerInfos {
                    _ = (parsed.verifySignature(of: info), info.messageDigest, info.signingTime)
                }
            }
        }
        #expect(parsedAfterFlip > 0)
    }
}
