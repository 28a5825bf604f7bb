import Foundation
import PDFCore
import PDFTestSupport
import Testing

@testable import PDFSigning

/// Generated keys, certificates and the demo identity, checked by openssl, pyHanko and pdfsig.
@Suite("CertificateBuilderTests: generated keys, certificates and the demo identity")
struct CertificateBuilderTests {
    /// A root CA and an end-entity certificate issued by it, written as DER and PEM.
    struct Chain {
        var rootKey: PrivateKey
        var root: Certificate
        var signerKey: PrivateKey
        var signer: Certificate
        var directory: String

        init(_ kind: GeneratedKeyKind = .p256, configure: (inout CertificateBuilder) -> Void = { _ in }) throws {
            rootKey = try PrivateKey.generate(kind)
            var rootBuilder = CertificateBuilder(commonName: "Builder Test Root", isCA: true, validityDays: 30)
            rootBuilder.organization = "Autograph Test"
            rootBuilder.country = "CH"
            root = try rootBuilder.selfSigned(key: rootKey)
            signerKey = try PrivateKey.generate(kind)
            var signerBuilder = CertificateBuilder(commonName: "Zoë Builder Signer")
            signerBuilder.organization = "Autograph Test"
            signerBuilder.organizationalUnit = "Signing"
            configure(&signerBuilder)
            signer = try signerBuilder.issued(publicKeyOf: signerKey, by: root, issuerKey: rootKey)
            directory = try TestPaths.temporaryDirectory("certificate-builder")
            for (name, certificate) in [("root", root), ("signer", signer)] {
                _ = try PKI.write(certificate.derBytes, directory, "\(name).der")
                try PKI.openssl(["x509", "-inform", "DER", "-in", "\(directory)/\(name).der", "-out", path(name)])
            }
        }

        /// `NAME.pem`.
        func path(_ name: String) -> String { "\(directory)/\(name).pem" }

        /// `openssl x509 -text` of `NAME.der`.
        func text(_ name: String) throws -> String {
            try PKI.openssl(["x509", "-in", "\(directory)/\(name).der", "-inform", "DER", "-noout", "-text"]).output
        }
    }

    /// The lines of `text` after the one containing `heading` (up to `count`), trimmed.
    static func lines(after heading: String, in text: String, count: Int = 1) -> [String] {
        let all = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        guard let index = all.firstIndex(where: { $0.contains(heading) }) else { return [] }
        return Array(all[(index + 1)...].prefix(count))
    }

    static let kinds: [(GeneratedKeyKind, KeyKind, String)] = [
        (.p256, .ec(curve: "P-256"), "NIST CURVE: P-256"), (.p384, .ec(curve: "P-384"), "NIST CURVE: P-384"),
        (.rsa(bits: 2048), .rsa(bits: 2048), "Public-Key: (2048 bit)"),
    ]

    @Test("each generated key kind signs digests its certificate verifies; openssl reads the key", arguments: kinds)
    func keyKinds(kind: GeneratedKeyKind, expected: KeyKind, opensslLabel: String) throws {
        let chain = try Chain(kind)
        #expect(chain.signerKey.kind == expected)
        #expect(chain.signer.publicKeyKind == expected)
        #expect(chain.signerKey.matches(chain.signer) && !chain.rootKey.matches(chain.signer))
        let digest = try DigestAlgorithm.sha256.hash(Array("generated keys sign".utf8))
        let scheme = chain.signerKey.defaultScheme
        let signature = try chain.signerKey.sign(digest: digest, digestAlgorithm: .sha256, scheme: scheme)
        #expect(chain.signer.verify(signature: signature, digest: digest, digestAlgorithm: .sha256, scheme: scheme))
        #expect(!chain.root.verify(signature: signature, digest: digest, digestAlgorithm: .sha256, scheme: scheme))
        let flipped = digest.map { $0 ^ 0x80 }
        #expect(!chain.signer.verify(signature: signature, digest: flipped, digestAlgorithm: .sha256, scheme: scheme))

        #expect(try chain.text("signer").contains(opensslLabel))
        let keyPath = try PKI.write(try chain.signerKey.pem(), chain.directory, "key.pem")
        let openSSLPublic = try PKI.openssl(["pkey", "-in", keyPath, "-pubout", "-outform", "DER"]).outputData
        #expect(chain.signerKey.publicKeyDER == [UInt8](openSSLPublic))
        let certificatePublic = try PKI.openssl(["x509", "-in", chain.path("signer"), "-noout", "-pubkey"]).output
        let fromCertificate = try PKI.write(Array(certificatePublic.utf8), chain.directory, "public.pem")
        let certificateDER = try PKI.openssl(["pkey", "-pubin", "-in", fromCertificate, "-outform", "DER"]).outputData
        #expect(chain.signerKey.publicKeyDER == [UInt8](certificateDER))
        let verified = try Oracle.run(
            "openssl", ["verify", "-x509_strict", "-CAfile", chain.path("root"), chain.path("signer")])
        #expect(verified.output.contains("signer.pem: OK"), "\(verified.output) \(verified.errors)")
    }

    @Test("openssl shows a v3 root with critical CA:TRUE and an end entity whose key identifiers chain")
    func extensions() throws {
        let chain = try Chain()
        let root = try chain.text("root")
        #expect(root.contains("Version: 3 (0x2)"))
        #expect(root.contains("Signature Algorithm: ecdsa-with-SHA256"))
        #expect(root.contains("X509v3 Basic Constraints: critical"))
        #expect(Self.lines(after: "X509v3 Basic Constraints", in: root) == ["CA:TRUE"])
        #expect(root.contains("X509v3 Key Usage: critical"))
        #expect(Self.lines(after: "X509v3 Key Usage", in: root) == ["Certificate Sign, CRL Sign"])
        #expect(!root.contains("Extended Key Usage"))
        let rootIdentifier = try #require(Self.lines(after: "X509v3 Subject Key Identifier", in: root).first)
        #expect(Self.lines(after: "X509v3 Authority Key Identifier", in: root).first?.hasSuffix(rootIdentifier) == true)

        let signer = try chain.text("signer")
        #expect(Self.lines(after: "X509v3 Basic Constraints: critical", in: signer) == ["CA:FALSE"])
        #expect(signer.contains("X509v3 Key Usage: critical"))
        #expect(Self.lines(after: "X509v3 Key Usage", in: signer) == ["Digital Signature, Non Repudiation"])
        let signerIdentifier = try #require(Self.lines(after: "X509v3 Subject Key Identifier", in: signer).first)
        #expect(signerIdentifier != rootIdentifier)
        let authority = try #require(Self.lines(after: "X509v3 Authority Key Identifier", in: signer).first)
        #expect(authority.hasSuffix(rootIdentifier), "\(authority) vs \(rootIdentifier)")
        let hex = signerIdentifier.split(separator: ":").compactMap { UInt8($0, radix: 16) }
        #expect(chain.signer.subjectKeyIdentifier == hex)
        #expect(chain.root.isCA && !chain.signer.isCA)

        let fields = try PKI.openssl([
            "x509", "-in", chain.path("signer"), "-noout", "-subject", "-issuer", "-serial", "-startdate", "-enddate",
            "-dateopt", "iso_8601", "-nameopt", "RFC2253,-esc_msb",
        ]).output
        #expect(PKI.field(fields, "subject") == "CN=Zoë Builder Signer,OU=Signing,O=Autograph Test")
        #expect(PKI.field(fields, "issuer") == "CN=Builder Test Root,O=Autograph Test,C=CH")
        let serial = try #require(PKI.field(fields, "serial"))
        #expect(serial.count == 32 && serial == chain.signer.serialNumber)
        #expect(chain.root.serialNumber != chain.signer.serialNumber)
        let now = Int(Date().timeIntervalSince1970)
        let notBefore = try PKI.isoSeconds(try #require(PKI.field(fields, "notBefore")))
        let notAfter = try PKI.isoSeconds(try #require(PKI.field(fields, "notAfter")))
        #expect(abs(notBefore - (now - 3600)) < 120)
        #expect(abs(notAfter - (now + 365 * 86_400)) < 120)
    }

    @Test("a chosen serial number and extended key usage are written as asked")
    func serialAndExtendedKeyUsage() throws {
        let chain = try Chain {
            $0.serialNumber = [0x00, 0x81, 0x02, 0x03]
            $0.extendedKeyUsage = ["1.3.6.1.5.5.7.3.4", "1.3.6.1.5.5.7.3.36"]
        }
        let serial = try PKI.openssl(["x509", "-in", chain.path("signer"), "-noout", "-serial"]).output
        #expect(PKI.field(serial, "serial") == "810203")
        #expect(chain.signer.serialDER == [0x02, 0x04, 0x00, 0x81, 0x02, 0x03])
        let text = try chain.text("signer")
        let usage = Self.lines(after: "X509v3 Extended Key Usage", in: text).first ?? ""
        #expect(usage.contains("E-mail Protection") && usage.contains("1.3.6.1.5.5.7.3.36"), "\(usage)")
        #expect(!text.contains("X509v3 Extended Key Usage: critical"))
    }

    @Test("a random serial number always has 16 content octets, positive (one in 128 had 15 before)")
    func randomSerials() throws {
        let key = try PrivateKey.generate(.p256)
        var seen: Set<String> = []
        for _ in 0..<300 {
            let certificate = try CertificateBuilder(commonName: "Serial").selfSigned(key: key)
            let serial = certificate.serialNumber
            #expect(serial.count == 32, "\(serial)")
            let first = try #require(UInt8(serial.prefix(2), radix: 16))
            #expect((0x40...0x7F).contains(first), "\(serial)")
            seen.insert(serial)
        }
        #expect(seen.count == 300)
    }

    @Test("unusable fields, mismatched issuer keys and non-CA issuers are refused")
    func refusals() throws {
        let key = try PrivateKey.generate(.p256)
        let other = try PrivateKey.generate(.p256)
        let root = try CertificateBuilder(commonName: "Root", isCA: true).selfSigned(key: key)
        let leaf = try CertificateBuilder(commonName: "Leaf").issued(publicKeyOf: other, by: root, issuerKey: key)
        #expect(throws: SigningError(.privateKeyNotFound, "")) {
            try CertificateBuilder(commonName: "X").issued(publicKeyOf: other, by: root, issuerKey: other)
        }
        #expect(throws: SigningError(.invalidArgument, "")) {
            try CertificateBuilder(commonName: "X").issued(publicKeyOf: key, by: leaf, issuerKey: other)
        }
        var builders: [CertificateBuilder] = []
        builders.append(CertificateBuilder(commonName: ""))
        builders.append(CertificateBuilder(commonName: String(repeating: "x", count: 65)))
        var country = CertificateBuilder(commonName: "X")
        country.country = "Switzerland"
        builders.append(country)
        var backwards = CertificateBuilder(commonName: "X")
        backwards.notAfter = backwards.notBefore - 1
        builders.append(backwards)
        for serial in [[0x00, 0x00], [UInt8](repeating: 0xFF, count: 20)] {
            var builder = CertificateBuilder(commonName: "X")
            builder.serialNumber = serial
            builders.append(builder)
        }
        for builder in builders {
            #expect(throws: SigningError(.invalidArgument, "")) { try builder.selfSigned(key: key) }
        }
        var longest = CertificateBuilder(commonName: String(repeating: "é", count: 64))
        longest.serialNumber = [0x7F] + [UInt8](repeating: 0xFF, count: 19)
        #expect(try longest.selfSigned(key: key).serialDER.count == 22)
        #expect(throws: SigningError(.invalidArgument, "")) { try PrivateKey.generate(.rsa(bits: 1024)) }
        #expect(throws: SigningError(.invalidArgument, "")) { try key.pem(password: "") }
    }

    @Test("PKCS#8 PEM export round-trips here and through openssl, plain and encrypted", arguments: [true, false])
    func pemRoundTrip(rsa: Bool) throws {
        let key = try PrivateKey.generate(rsa ? .rsa(bits: 2048) : .p384)
        let certificate = try CertificateBuilder(commonName: "PEM").selfSigned(key: key)
        let directory = try TestPaths.temporaryDirectory("pem")
        let plain = try key.pem()
        #expect(String(decoding: plain, as: UTF8.self).hasPrefix("-----BEGIN PRIVATE KEY-----\n"))
        #expect(try PrivateKey(pem: plain, password: nil).matches(certificate))
        let plainPath = try PKI.write(plain, directory, "plain.pem")
        let plainPublic = try PKI.openssl(["pkey", "-in", plainPath, "-pubout", "-outform", "DER"]).outputData
        #expect([UInt8](plainPublic) == key.publicKeyDER)

        let encrypted = try key.pem(password: "s3cret pass")
        let encryptedText = String(decoding: encrypted, as: UTF8.self)
        #expect(encryptedText.hasPrefix("-----BEGIN ENCRYPTED PRIVATE KEY-----\n"))
        #expect(try PrivateKey(pem: encrypted, password: "s3cret pass").matches(certificate))
        #expect(throws: SigningError(.wrongKeyContainerPassword, "")) {
            try PrivateKey(pem: encrypted, password: "wrong")
        }
        #expect(throws: SigningError(.wrongKeyContainerPassword, "")) { try PrivateKey(pem: encrypted, password: nil) }
        let encryptedPath = try PKI.write(encrypted, directory, "encrypted.pem")
        let encryptedPublic = try PKI.openssl([
            "pkey", "-in", encryptedPath, "-passin", "pass:s3cret pass", "-pubout", "-outform", "DER",
        ]).outputData
        #expect([UInt8](encryptedPublic) == key.publicKeyDER)
        let wrong = try Oracle.run("openssl", ["pkey", "-in", encryptedPath, "-passin", "pass:wrong", "-noout"])
        #expect(wrong.status != 0)
        let structure = try PKI.openssl(["asn1parse", "-in", encryptedPath]).output
        #expect(
            structure.contains("PBES2") && structure.contains("aes-256-cbc") && structure.contains("hmacWithSHA256"))
    }

    @Test("the demo identity says it is a demo, survives Codable, and signs what pyHanko and pdfsig accept")
    func demoIdentity() async throws {
        let identity = try DemoIdentity.generate(name: "  Ada Lovelace ")
        let decoded = try JSONDecoder().decode(DemoIdentity.self, from: try JSONEncoder().encode(identity))
        #expect(decoded == identity)
        #expect(String(decoding: identity.signerKeyPEM, as: UTF8.self).hasPrefix("-----BEGIN PRIVATE KEY-----"))
        let directory = try TestPaths.temporaryDirectory("demo")
        for (name, der) in [("root", identity.rootCertificateDER), ("signer", identity.signerCertificateDER)] {
            _ = try PKI.write(der, directory, "\(name).der")
            try PKI.openssl([
                "x509", "-inform", "DER", "-in", "\(directory)/\(name).der", "-out", "\(directory)/\(name).pem",
            ])
        }
        let rootPath = directory + "/root.pem"
        let fields = { (name: String) throws -> String in
            try PKI.openssl([
                "x509", "-in", "\(directory)/\(name).pem", "-noout", "-subject", "-issuer", "-startdate", "-enddate",
                "-dateopt", "iso_8601", "-nameopt", "RFC2253,-esc_msb",
            ]).output
        }
        let root = try fields("root")
        let rootName = "CN=Autograph Demo Root CA — not trusted,O=Autograph demo (not a real identity)"
        #expect(PKI.field(root, "subject") == rootName && PKI.field(root, "issuer") == rootName)
        let signer = try fields("signer")
        #expect(
            PKI.field(signer, "subject") == "CN=Ada Lovelace (Autograph demo),O=Autograph demo (not a real identity)")
        #expect(PKI.field(signer, "issuer") == rootName)
        let span = { (text: String) throws -> Int in
            try PKI.isoSeconds(try #require(PKI.field(text, "notAfter")))
                - PKI.isoSeconds(try #require(PKI.field(text, "notBefore")))
        }
        #expect(try span(root) / 86_400 == 3652)  // ten years and the hour before now
        #expect(try span(signer) / 86_400 == 730)
        #expect(
            try PKI.openssl(["x509", "-in", "\(directory)/signer.der", "-inform", "DER", "-noout", "-text"]).output
                .contains("NIST CURVE: P-256"))
        let verified = try Oracle.run(
            "openssl", ["verify", "-x509_strict", "-CAfile", rootPath, directory + "/signer.pem"])
        #expect(verified.output.contains("signer.pem: OK"), "\(verified.output) \(verified.errors)")

        let localSigner = try decoded.signer()
        #expect(localSigner.signerName == "Ada Lovelace (Autograph demo)")
        #expect(localSigner.chain == [try identity.rootCertificate])
        let bytes = TestDocuments.simple()
        let signed = try await DocumentSigner(
            document: try PDFDocument(bytes: bytes), request: SignatureRequest(placement: .invisible),
            signer: localSigner
        ).sign()
        let output = try signed.bytes()
        #expect(Array(output.prefix(bytes.count)) == bytes)
        let path = try PKI.write(output, directory, "signed.pdf")
        #expect(try Oracle.qpdfCheck(path).status == 0)
        let field = signed.prepared.signature.fieldName
        let trusted = try SignatureOracle.pyhanko(path, trust: rootPath)[field] ?? "missing"
        #expect(trusted.hasPrefix("INTACT:TRUSTED"), "pyHanko: \(trusted)")
        let untrusted = try SignatureOracle.pyhanko(path, trust: nil)[field] ?? "missing"
        #expect(untrusted.hasPrefix("INTACT:UNTRUSTED"), "pyHanko without the demo root: \(untrusted)")
        let pdfsig = try SignatureOracle.pdfsig(path, trust: rootPath)
        #expect(pdfsig.count == 1 && pdfsig.last?.valid == true && pdfsig.last?.trusted == true, "pdfsig: \(pdfsig)")
    }

    @Test("a demo signer's name is trimmed, defaulted and shortened to a 64-character common name")
    func demoNames() throws {
        #expect(DemoIdentity.signerCommonName("") == "Demo signer (Autograph demo)")
        #expect(DemoIdentity.signerCommonName(" \n") == "Demo signer (Autograph demo)")
        let long = DemoIdentity.signerCommonName(String(repeating: "é", count: 100))
        #expect(long.unicodeScalars.count == 64 && long.hasSuffix(" (Autograph demo)"))
        let identity = try DemoIdentity.generate(name: String(repeating: "Zoë ", count: 30))
        #expect(try identity.signerCertificate.subject.hasPrefix("CN=Zoë Zoë"))
        #expect(throws: SigningError(.certificateExpired, "")) {
            try identity.signer(now: Int(Date().timeIntervalSince1970) + 3 * 365 * 86_400)
        }
        var damaged = identity
        damaged.signerKeyPEM = Array("not a key".utf8)
        #expect(throws: SigningError(.keyContainerUnreadable, "")) { try damaged.signer() }
    }
}
