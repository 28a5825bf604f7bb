import Foundation
import PDFTestSupport
import Testing

@testable import PDFSigning

@Suite("PKCS#12 key containers made by openssl")
struct PKCS12Tests {
    static let files = PKI.signers.flatMap { ["\($0).p12", "\($0).legacy.p12"] }

    @Test("Modern (AES-256) and legacy (RC2-40, 3DES) containers open with their password", arguments: files)
    func opens(file: String) throws {
        let signer = String(file.prefix { $0 != "." })
        let container = try PKCS12Container.load(try PKI.bytes(file), password: "secret")
        let key = try #require(container.key)
        let certificate = try #require(container.certificate)
        #expect(certificate == (try PKI.certificate(signer)))
        #expect(key.matches(certificate))
        #expect(key.kind == certificate.publicKeyKind)
        #expect(Set(container.chain) == Set([try PKI.certificate("intermediate"), try PKI.certificate("root")]))
        // The key signs, and the certificate verifies.
        let digest = try DigestAlgorithm.sha256.hash(Array(file.utf8))
        let signature = try key.sign(digest: digest, digestAlgorithm: .sha256, scheme: key.defaultScheme)
        #expect(
            certificate.verify(
                signature: signature, digest: digest, digestAlgorithm: .sha256, scheme: key.defaultScheme))
    }

    @Test(
        "A wrong or missing password is -125",
        arguments: ["signer-p256.p12", "signer-rsa2048.legacy.p12", "no-key.p12"])
    func wrongPassword(file: String) throws {
        for password in ["wrong", "", nil, "Secret"] as [String?] {
            let error = #expect(throws: SigningError.self) {
                try PKCS12Container.load(try PKI.bytes(file), password: password)
            }
            #expect(error?.code == .wrongKeyContainerPassword)
            #expect(error?.signoCode == -125)
        }
    }

    @Test("What is not PKCS#12 is -124")
    func garbage() throws {
        var generator = SystemRandomNumberGenerator()
        let random = (0..<2048).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let certificate = try PKI.certificate("signer-p256").derBytes
        let inputs: [[UInt8]] = [
            [], random, Array("not a key container".utf8), certificate, try PKI.bytes("signer-p256.cert.pem"),
            try PKI.bytes("signer-p256.key.pem"), [0x30, 0x03, 0x02, 0x01, 0x03],
        ]
        for bytes in inputs {
            let error = #expect(throws: SigningError.self) { try PKCS12Container.load(bytes, password: "secret") }
            #expect(error?.code == .keyContainerUnreadable && error?.signoCode == -124)
        }
    }

    @Test("Every prefix of a container is refused without trapping")
    func truncation() throws {
        let bytes = try PKI.bytes("signer-p256.p12")
        for length in stride(from: 0, to: bytes.count, by: 7) {
            #expect(throws: SigningError.self) {
                try PKCS12Container.load(Array(bytes.prefix(length)), password: "secret")
            }
        }
    }

    @Test("An unknown MAC digest or cipher is -126")
    func unsupported() throws {
        let directory = try TestPaths.temporaryDirectory("pkcs12")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // The MAC's digest is the last id-sha256 in the file; 2.16.840.1.101.3.4.2.127 does not exist.
        var withMAC = try PKI.bytes("signer-p256.p12")
        let sha256: [UInt8] = [0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01]
        let macDigest = try #require(Self.lastRange(of: sha256, in: withMAC))
        withMAC[macDigest.upperBound - 1] = 0x7F
        let macError = #expect(throws: SigningError.self) { try PKCS12Container.load(withMAC, password: "secret") }
        #expect(macError?.code == .unsupportedKeyContainer && macError?.signoCode == -126)
        #expect(macError?.message.contains("OpenSSL") == true, "\(macError?.message ?? "")")

        // Without a MAC, the PBES2 cipher is the first thing checked: AES-256-CBC becomes 2.16.840.1.101.3.4.1.127.
        let path = "\(directory)/nomac.p12"
        try PKI.openssl([
            "pkcs12", "-export", "-nomac", "-keypbe", "AES-256-CBC", "-certpbe", "AES-256-CBC", "-passout",
            "pass:secret",
            "-inkey", PKI.path("signer-p256.key.pem"), "-in", PKI.path("signer-p256.cert.pem"), "-out", path,
        ])
        let noMAC = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(try PKCS12Container.load(noMAC, password: "secret").key != nil)
        let wrong = #expect(throws: SigningError.self) { try PKCS12Container.load(noMAC, password: "wrong") }
        #expect(wrong?.code == .wrongKeyContainerPassword)
        let aes256: [UInt8] = [0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x01, 0x2A]
        var patched = noMAC
        while let range = Self.lastRange(of: aes256, in: patched) { patched[range.upperBound - 1] = 0x7F }
        let cipherError = #expect(throws: SigningError.self) { try PKCS12Container.load(patched, password: "secret") }
        #expect(cipherError?.code == .unsupportedKeyContainer && cipherError?.signoCode == -126)
    }

    @Test("A container with certificates only loads without a key")
    func noKey() throws {
        let container = try PKCS12Container.load(try PKI.bytes("no-key.p12"), password: "secret")
        #expect(container.key == nil)
        #expect(container.certificate == nil)
        #expect(
            Set(container.chain)
                == Set(try ["signer-rsa2048", "intermediate", "root"].map { try PKI.certificate($0) }))
    }

    @Test("A container whose certificate is not its key's loads without a certificate")
    func mismatched() throws {
        let container = try PKCS12Container.load(try PKI.bytes("mismatched.p12"), password: "secret")
        let key = try #require(container.key)
        #expect(key.kind == .ec(curve: "P-256"))
        #expect(container.certificate == nil)
        #expect(container.chain == [try PKI.certificate("signer-rsa2048")])
        #expect(!key.matches(container.chain[0]))
    }

    static func lastRange(of needle: [UInt8], in haystack: [UInt8]) -> Range<Int>? {
        guard haystack.count >= needle.count else { return nil }
        for start in stride(from: haystack.count - needle.count, through: 0, by: -1)
        where haystack[start..<start + needle.count].elementsEqual(needle) {
            return start..<start + needle.count
        }
        return nil
    }
}
