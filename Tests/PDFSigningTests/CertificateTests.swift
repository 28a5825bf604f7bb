import Foundation
import PDFTestSupport
import Testing

@testable import PDFSigning

/// The test PKI in `Tests/Fixtures/pki` (made by `scripts/make-test-pki`) and the openssl oracle.
enum PKI {
    struct Failure: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    static let signers = ["signer-rsa2048", "signer-rsa-pss", "signer-p256", "signer-p384", "signer-expired"]
    static let certificates = ["root", "intermediate", "other-root"] + signers

    static func path(_ name: String) -> String { TestPaths.fixture("pki", name) }

    static func bytes(_ name: String) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path(name)) else {
            throw Failure(message: "missing fixture \(name) (run scripts/make-test-pki)")
        }
        return [UInt8](data)
    }

    /// `NAME.cert.pem`.
    static func certificate(_ name: String) throws -> Certificate {
        try #require(Certificate.certificates(pem: try bytes("\(name).cert.pem")).first)
    }

    /// `NAME.key.pem`.
    static func key(_ name: String) throws -> PrivateKey {
        try PrivateKey(pem: try bytes("\(name).key.pem"), password: nil)
    }

    /// Runs openssl; throws when it fails.
    @discardableResult
    static func openssl(_ arguments: [String]) throws -> Oracle.Result {
        let result = try Oracle.run("openssl", arguments)
        guard result.status == 0 else {
            throw Failure(message: "openssl \(arguments.joined(separator: " ")): \(result.errors)")
        }
        return result
    }

    /// The value after `label=` in openssl's output.
    static func field(_ output: String, _ label: String) -> String? {
        output.split(separator: "\n").first { $0.hasPrefix(label + "=") }.map { String($0.dropFirst(label.count + 1)) }
    }

    static func write(_ bytes: [UInt8], _ directory: String, _ name: String) throws -> String {
        let path = "\(directory)/\(name)"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func isoSeconds(_ text: String) throws -> Int {
        // openssl's -dateopt iso_8601 prints "2025-01-01 00:00:00Z".
        let formatter = ISO8601DateFormatter()
        let date = try #require(formatter.date(from: text.replacingOccurrences(of: " ", with: "T")))
        return Int(date.timeIntervalSince1970)
    }
}

@Suite("Certificates, private keys and raw signatures, against openssl")
struct CertificateTests {
    @Test("Certificate fields agree with openssl x509", arguments: PKI.certificates)
    func fields(name: String) throws {
        let certificate = try PKI.certificate(name)
        let path = PKI.path("\(name).cert.pem")
        let text = try PKI.openssl([
            "x509", "-in", path, "-noout", "-subject", "-issuer", "-serial", "-startdate", "-enddate",
            "-dateopt", "iso_8601", "-nameopt", "RFC2253,-esc_msb",
        ]).output
        #expect(certificate.subject == PKI.field(text, "subject"))
        #expect(certificate.issuer == PKI.field(text, "issuer"))
        #expect(certificate.serialNumber == PKI.field(text, "serial"))
        #expect(certificate.notBefore == (try PKI.isoSeconds(try #require(PKI.field(text, "notBefore")))))
        #expect(certificate.notAfter == (try PKI.isoSeconds(try #require(PKI.field(text, "notAfter")))))
        let der = try PKI.openssl(["x509", "-in", path, "-outform", "DER"]).outputData
        #expect(certificate.derBytes == [UInt8](der))
        #expect(try Certificate(der: [UInt8](der)) == certificate)

        let extensionText = try PKI.openssl(["x509", "-in", path, "-noout", "-ext", "subjectKeyIdentifier"]).output
        let hex = try #require(extensionText.split(separator: "\n").last).trimmingCharacters(in: .whitespaces)
        let identifier = hex.split(separator: ":").map { UInt8($0, radix: 16)! }
        #expect(certificate.subjectKeyIdentifier == identifier)
        #expect(certificate.isCA == name.hasSuffix("root") || name == "intermediate")
        #expect(certificate.description == certificate.subject)
    }

    @Test("Issuer names, serial numbers and key kinds")
    func identities() throws {
        let root = try PKI.certificate("root")
        let intermediate = try PKI.certificate("intermediate")
        let signer = try PKI.certificate("signer-p384")
        #expect(signer.issuerDER == intermediate.subjectDER)
        #expect(intermediate.issuerDER == root.subjectDER)
        #expect(signer.serialDER == [0x02, 0x02, 0x20, 0x04])
        #expect(signer.subject.hasPrefix("CN=Zoë Signer P-384,"))
        #expect(root.publicKeyKind == .rsa(bits: 3072))
        #expect(intermediate.publicKeyKind == .ec(curve: "P-384"))
        #expect(try PKI.certificate("signer-p256").publicKeyKind == .ec(curve: "P-256"))
        #expect(try PKI.certificate("signer-rsa2048").publicKeyKind == .rsa(bits: 2048))
        let chain = Certificate.certificates(pem: try PKI.bytes("signer-p256.chain.pem"))
        #expect(chain == [intermediate, root])
        #expect(Set(chain + [root]).count == 2)
    }

    @Test("Validity periods")
    func validity() throws {
        let expired = try PKI.certificate("signer-expired")
        let now = Int(Date().timeIntervalSince1970)
        #expect(!expired.isValid(at: now))
        #expect(expired.isValid(at: 1_600_000_000))
        #expect(expired.isValid(at: expired.notAfter) && !expired.isValid(at: expired.notAfter + 1))
        #expect(try PKI.certificate("signer-rsa2048").isValid(at: now))
        // The root's notAfter is a GeneralizedTime (2054).
        #expect(try PKI.certificate("root").notAfter == 2_682_374_399)
    }

    @Test("What is not a certificate is refused")
    func unreadableCertificates() throws {
        for bytes in [[], [0x30, 0x03, 0x02, 0x01, 0x01], Array("hello".utf8), try PKI.bytes("signer-p256.cert.pem")] {
            #expect(throws: SigningError(.certificateUnreadable, "")) { try Certificate(der: bytes) }
        }
        #expect(Certificate.certificates(pem: Array("no PEM here".utf8)).isEmpty)
        #expect(Certificate.certificates(pem: try PKI.bytes("signer-p256.key.pem")).isEmpty)
    }

    @Test(
        "Private keys read from PKCS#8, encrypted PKCS#8 and traditional PEM",
        arguments: [
            ("signer-rsa2048.key.pem", nil, "signer-rsa2048", KeyKind.rsa(bits: 2048)),
            ("signer-rsa2048.key.enc.pem", "secret", "signer-rsa2048", .rsa(bits: 2048)),
            ("signer-rsa2048.key.rsa.pem", nil, "signer-rsa2048", .rsa(bits: 2048)),
            ("signer-rsa2048.key.rsa-enc.pem", "secret", "signer-rsa2048", .rsa(bits: 2048)),
            ("signer-p256.key.ec.pem", nil, "signer-p256", .ec(curve: "P-256")),
            ("signer-p256.key.enc.pem", "secret", "signer-p256", .ec(curve: "P-256")),
            ("signer-p384.key.pem", "ignored", "signer-p384", .ec(curve: "P-384")),
        ] as [(String, String?, String, KeyKind)])
    func privateKeys(file: String, password: String?, signer: String, kind: KeyKind) throws {
        let key = try PrivateKey(pem: try PKI.bytes(file), password: password)
        #expect(key.kind == kind)
        #expect(key.matches(try PKI.certificate(signer)))
        #expect(!key.matches(try PKI.certificate("signer-rsa-pss")))
        #expect(key.defaultScheme == (signer == "signer-rsa2048" ? .rsaPKCS1v15 : .ecdsa))
    }

    @Test("The key is found in PEM text that also holds certificates")
    func combinedPEM() throws {
        let pem =
            try PKI.bytes("signer-p256.cert.pem") + PKI.bytes("signer-p256.key.enc.pem") + PKI.bytes("root.cert.pem")
        let key = try PrivateKey(pem: pem, password: "secret")
        #expect(key.matches(try PKI.certificate("signer-p256")))
        #expect(Certificate.certificates(pem: pem).count == 2, "other blocks are skipped")
    }

    @Test("Wrong or missing passwords are -125; what is no key is -124")
    func privateKeyErrors() throws {
        for file in ["signer-rsa2048.key.enc.pem", "signer-rsa2048.key.rsa-enc.pem", "signer-p256.key.enc.pem"] {
            for password in ["wrong", nil, ""] as [String?] {
                let error = #expect(throws: SigningError.self) {
                    try PrivateKey(pem: try PKI.bytes(file), password: password)
                }
                #expect(
                    error?.code == .wrongKeyContainerPassword && error?.signoCode == -125,
                    "\(file) \(password ?? "nil")")
            }
        }
        for bytes in [
            [], Array("garbage".utf8), try PKI.bytes("signer-p256.cert.pem"), try PKI.bytes("signer-p256.p12"),
        ] {
            let error = #expect(throws: SigningError.self) { try PrivateKey(pem: bytes, password: "secret") }
            #expect(error?.code == .keyContainerUnreadable && error?.signoCode == -124)
        }
    }

    struct SigningCase: Sendable, CustomStringConvertible {
        var signer: String
        var scheme: SignatureScheme
        var digest: DigestAlgorithm
        var description: String { "\(signer) \(scheme.rawValue) \(digest.rawValue)" }
    }

    static let signingCases: [SigningCase] = [
        ("signer-rsa2048", SignatureScheme.rsaPKCS1v15), ("signer-rsa-pss", .rsaPSS), ("signer-rsa2048", .rsaPSS),
        ("signer-p256", .ecdsa), ("signer-p384", .ecdsa),
    ].flatMap { signer, scheme in
        DigestAlgorithm.allCases.map { SigningCase(signer: signer, scheme: scheme, digest: $0) }
    }

    @Test("Raw signatures over digests verify here and with openssl pkeyutl", arguments: signingCases)
    func rawSignatures(testCase: SigningCase) throws {
        let key = try PKI.key(testCase.signer)
        let certificate = try PKI.certificate(testCase.signer)
        let digest = try testCase.digest.hash(Array("content \(testCase)".utf8))
        let signature = try key.sign(digest: digest, digestAlgorithm: testCase.digest, scheme: testCase.scheme)
        #expect(
            certificate.verify(
                signature: signature, digest: digest, digestAlgorithm: testCase.digest, scheme: testCase.scheme))
        var tampered = digest
        tampered[0] ^= 1
        #expect(
            !certificate.verify(
                signature: signature, digest: tampered, digestAlgorithm: testCase.digest, scheme: testCase.scheme))
        let other: SignatureScheme =
            testCase.scheme == .rsaPSS ? .rsaPKCS1v15 : testCase.scheme == .ecdsa ? .rsaPSS : .rsaPSS
        #expect(
            !certificate.verify(signature: signature, digest: digest, digestAlgorithm: testCase.digest, scheme: other))

        let directory = try TestPaths.temporaryDirectory("raw-signature")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var arguments = [
            "pkeyutl", "-verify", "-certin", "-inkey", PKI.path("\(testCase.signer).cert.pem"),
            "-in", try PKI.write(digest, directory, "digest.bin"), "-sigfile",
            try PKI.write(signature, directory, "sig.bin"),
            "-pkeyopt", "digest:\(testCase.digest.rawValue)",
        ]
        if testCase.scheme == .rsaPSS {
            arguments += ["-pkeyopt", "rsa_padding_mode:pss", "-pkeyopt", "rsa_pss_saltlen:digest"]
        }
        let result = try PKI.openssl(arguments)
        #expect(result.output.contains("Signature Verified Successfully"))
    }

    @Test("Signatures openssl pkeyutl makes verify here")
    func opensslSignatures() throws {
        let directory = try TestPaths.temporaryDirectory("raw-signature")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let digest = try DigestAlgorithm.sha384.hash(Array("from openssl".utf8))
        let input = try PKI.write(digest, directory, "digest.bin")
        for (signer, scheme, options) in [
            ("signer-rsa2048", SignatureScheme.rsaPKCS1v15, [String]()),
            ("signer-rsa-pss", .rsaPSS, ["-pkeyopt", "rsa_padding_mode:pss", "-pkeyopt", "rsa_pss_saltlen:digest"]),
            ("signer-p384", .ecdsa, []),
        ] {
            let signature = try PKI.openssl(
                [
                    "pkeyutl", "-sign", "-inkey", PKI.path("\(signer).key.pem"), "-in", input, "-pkeyopt",
                    "digest:sha384",
                ]
                    + options
            ).outputData
            #expect(
                try PKI.certificate(signer).verify(
                    signature: [UInt8](signature), digest: digest, digestAlgorithm: .sha384, scheme: scheme))
        }
    }

    @Test("A key refuses schemes it cannot use and digests of the wrong length")
    func signingErrors() throws {
        let rsa = try PKI.key("signer-rsa2048")
        let ec = try PKI.key("signer-p256")
        let digest = try DigestAlgorithm.sha256.hash([1, 2, 3])
        #expect(throws: SigningError(.unsupportedAlgorithm, "")) {
            try rsa.sign(digest: digest, digestAlgorithm: .sha256, scheme: .ecdsa)
        }
        #expect(throws: SigningError(.unsupportedAlgorithm, "")) {
            try ec.sign(digest: digest, digestAlgorithm: .sha256, scheme: .rsaPSS)
        }
        #expect(throws: SigningError(.invalidArgument, "")) {
            try ec.sign(digest: digest, digestAlgorithm: .sha384, scheme: .ecdsa)
        }
        #expect(
            !(try PKI.certificate("signer-p256")).verify(
                signature: [], digest: digest, digestAlgorithm: .sha256, scheme: .ecdsa))

        let directory = try TestPaths.temporaryDirectory("ed25519")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try PKI.openssl(["genpkey", "-algorithm", "ED25519", "-out", "\(directory)/ed.pem"])
        let ed = try PrivateKey(
            pem: [UInt8](try Data(contentsOf: URL(fileURLWithPath: "\(directory)/ed.pem"))), password: nil)
        #expect(ed.kind == .ed25519)
        #expect(throws: SigningError.self) { try ed.sign(digest: digest, digestAlgorithm: .sha256, scheme: .ecdsa) }
    }
}

@Suite("Trust store (X509_STORE), against the test PKI")
struct TrustStoreTests {
    @Test(
        "Signers chain through the intermediate to the root", arguments: PKI.signers.filter { $0 != "signer-expired" })
    func trusted(name: String) throws {
        let root = try PKI.certificate("root")
        let intermediate = try PKI.certificate("intermediate")
        let leaf = try PKI.certificate(name)
        let store = TrustStore(roots: [root])
        let now = Int(Date().timeIntervalSince1970)
        #expect(
            store.verify(leaf, intermediates: [intermediate], at: now) == .trusted(chain: [leaf, intermediate, root]))
        #expect(store.verify(leaf, intermediates: [root, intermediate, leaf], at: nil).isTrusted)
        guard case .untrusted(let reason) = store.verify(leaf, intermediates: [], at: now) else {
            Issue.record("trusted without its intermediate")
            return
        }
        #expect(reason.contains("unable to get local issuer certificate"))
    }

    @Test("An unknown root is not trusted")
    func unknownRoot() throws {
        let store = TrustStore(roots: [try PKI.certificate("other-root")])
        let result = store.verify(
            try PKI.certificate("signer-p256"), intermediates: [try PKI.certificate("intermediate")], at: nil)
        #expect(!result.isTrusted)
        #expect(!TrustStore(roots: []).verify(try PKI.certificate("root"), at: nil).isTrusted)
        #expect(TrustStore(roots: [try PKI.certificate("root")]).verify(try PKI.certificate("root"), at: nil).isTrusted)
    }

    @Test("The expired signer is untrusted now, trusted inside its validity and without a time check")
    func expired() throws {
        let store = TrustStore(roots: [try PKI.certificate("root")])
        let leaf = try PKI.certificate("signer-expired")
        let intermediates = [try PKI.certificate("intermediate")]
        guard
            case .untrusted(let reason) = store.verify(
                leaf, intermediates: intermediates, at: Int(Date().timeIntervalSince1970))
        else {
            Issue.record("an expired certificate was trusted")
            return
        }
        #expect(reason.contains("certificate has expired") && reason.contains("Signer Expired"))
        #expect(store.verify(leaf, intermediates: intermediates, at: 1_600_000_000).isTrusted)
        #expect(store.verify(leaf, intermediates: intermediates, at: nil).isTrusted)
        #expect(!store.verify(leaf, intermediates: intermediates, at: 1_500_000_000).isTrusted, "before notBefore")
    }
}
