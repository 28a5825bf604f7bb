import AutographCrypto
import PDFCore
import PDFSession
import PDFSigning
import PDFTestSupport
import Testing

/// A crypto failure reaches each module's caller as that module's error, with the code and
/// message the module has always used for it, and never as a wrong password or a tampered record.
@Suite("ModuleErrorTests: crypto failures become PDFError, SigningError and SessionError")
struct ModuleErrorTests {
    static let injected = "(OpenSSL: injected"

    // MARK: PDFCore

    @Test("PDFCore: no random bytes is a writeFailed error, for the caller and for a write that needs IVs")
    func coreRandom() throws {
        let error = CryptoFaults.failing(.random) {
            #expect(throws: PDFError.self) { try SecureRandomSource.bytes(16) }
        }
        #expect(error?.code == .writeFailed)
        #expect(error?.message.hasPrefix("no random bytes from the system's secure generator \(Self.injected)") == true)

        let document = try PDFDocument(
            contentsOfFile: TestPaths.fixture("pdf", "encrypted-aes-128.pdf"), options: ParseOptions(password: "user"))
        _ = document.info  // read before the plan: only the write's IVs draw random bytes
        let deterministic = DocumentWriter.Options(write: WriteOptions(deterministicID: true))
        let rewrite = CryptoFaults.failing(.random) {
            #expect(throws: PDFError.self) {
                try DocumentWriter(document: document, options: deterministic).serialized()
            }
        }
        #expect(rewrite?.code == .writeFailed)
        // The same write succeeds once the generator works, and the result opens.
        let bytes = try DocumentWriter(document: document, options: deterministic).serialized()
        let reread = try PDFDocument(bytes: bytes, options: ParseOptions(password: "user"))
        #expect(reread.encryption?.streamMethod == "AES-128")
    }

    @Test("PDFCore: an update to an encrypted file fails as writeFailed when AES or the generator fails")
    func coreIncrementalUpdate() throws {
        let document = try PDFDocument(
            contentsOfFile: TestPaths.fixture("pdf", "encrypted-aes-128.pdf"), options: ParseOptions(password: "user"))
        var update = IncrementalUpdate(base: document, options: WriteOptions(deterministicID: true))
        _ = update.add(.string(PDFString(text: "a new encrypted string")))
        for operation in [CryptoOperation.aesCBC, .random] {
            let error = CryptoFaults.failing(operation) {
                #expect(throws: PDFError.self) { try update.serialized() }
            }
            #expect(error?.code == .writeFailed, "\(operation)")
            #expect(error?.message.contains(Self.injected) == true, "\(operation)")
        }
        #expect(try !update.serialized().isEmpty)
    }

    @Test("PDFCore: a digest the crypto library refuses is unsupported, not a wrong password")
    func coreDigest() throws {
        let error = CryptoFaults.failing(.digest) {
            #expect(throws: PDFError.self) {
                try PDFDocument(
                    contentsOfFile: TestPaths.fixture("pdf", "encrypted-rc4-40.pdf"),
                    options: ParseOptions(password: "user"))
            }
        }
        #expect(error?.code == .unsupported)
        #expect(error?.message.hasPrefix("the md5 digest is not available \(Self.injected)") == true)
    }

    @Test("PDFCore: AES failing in the revision 6 password check is unsupported, not a wrong password")
    func coreCipher() throws {
        let path = TestPaths.fixture("pdf", "encrypted-aes-256-empty-user.pdf")
        let error = CryptoFaults.failing(.aesCBC) {
            #expect(throws: PDFError.self) { try PDFDocument(contentsOfFile: path) }
        }
        #expect(error?.code == .unsupported)
        #expect(try PDFDocument(contentsOfFile: path).encryption?.revision == 6)
    }

    // MARK: PDFSigning

    @Test("PDFSigning: each failing step keeps its code and message, with OpenSSL's text after it")
    func signing() throws {
        let key = try PrivateKey(pem: Fixtures.pem("signer-p256.key.pem"), password: nil)
        let digest = [UInt8](repeating: 0xAB, count: 32)
        let sign = CryptoFaults.failing(.signing) {
            #expect(throws: SigningError.self) {
                try key.sign(digest: digest, digestAlgorithm: .sha256, scheme: .ecdsa)
            }
        }
        #expect(sign?.code == .signingFailed)
        #expect(sign?.message.hasPrefix("cannot make a signing context \(Self.injected)") == true)
        #expect(try key.sign(digest: digest, digestAlgorithm: .sha256, scheme: .ecdsa).count > 8)

        // A key that cannot use a scheme is refused with the reason, as before.
        let mismatch = #expect(throws: SigningError.self) {
            try key.sign(digest: digest, digestAlgorithm: .sha256, scheme: .rsaPSS)
        }
        #expect(mismatch?.code == .unsupportedAlgorithm)
        #expect(mismatch?.message == "RSA-PSS needs an RSA key, not EC P-256")

        let generate = CryptoFaults.failing(.keyGeneration) {
            #expect(throws: SigningError.self) { try PrivateKey.generate(.p256) }
        }
        #expect(generate?.code == .unsupportedAlgorithm)
        #expect(generate?.message.hasPrefix("OpenSSL cannot make EC keys \(Self.injected)") == true)

        let root = try #require(Certificate.certificates(pem: Fixtures.pem("root.cert.pem")).first)
        let certificate = CryptoFaults.failing(.certificateReading) {
            #expect(throws: SigningError.self) { try Certificate(der: root.derBytes) }
        }
        #expect(certificate?.code == .certificateUnreadable)
        #expect(certificate?.message.hasPrefix("not an X.509 certificate \(Self.injected)") == true)
        #expect(try Certificate(der: root.derBytes) == root)

        let container = CryptoFaults.failing(.pkcs12) {
            #expect(throws: SigningError.self) {
                try PKCS12Container.load(Fixtures.bytes("pki", "signer-p256.p12"), password: "secret")
            }
        }
        #expect(container?.code == .keyContainerUnreadable)
        #expect(container?.message.hasPrefix("not a PKCS#12 file \(Self.injected)") == true)
    }

    @Test("PDFSigning: no random serial number is signingFailed; the builder works again afterwards")
    func serialNumber() throws {
        let key = try PrivateKey.generate(.p256)
        let builder = CertificateBuilder(commonName: "Crypto Layer Test", isCA: true, validityDays: 1)
        let error = CryptoFaults.failing(.random) {
            #expect(throws: SigningError.self) { try builder.selfSigned(key: key) }
        }
        #expect(error?.code == .signingFailed)
        #expect(error?.message.hasPrefix("no random serial number \(Self.injected)") == true)
        let root = try builder.selfSigned(key: key)
        #expect(root.isCA && root.subject == "CN=Crypto Layer Test")
        #expect(TrustStore(roots: [root]).verify(root, at: nil).isTrusted)

        let untrusted = CryptoFaults.failing(.pathValidation) { TrustStore(roots: [root]).verify(root, at: nil) }
        guard case .untrusted(let reason) = untrusted else {
            Issue.record("a failing path validation trusted the certificate")
            return
        }
        #expect(reason.hasPrefix("cannot set up verification \(Self.injected)"))
    }

    // MARK: PDFSession

    @Test("PDFSession: the store reports storeUnavailable, not a wrong key or a tampered record")
    func session() throws {
        let path = try TestPaths.temporaryDirectory("crypto-layer") + "/store.sqlite"
        let storageKey = (0..<64).map { UInt8($0 &* 3 &+ 1) }
        let salt = CryptoFaults.failing(.random) {
            #expect(throws: SessionError.self) {
                try SecureStore(username: "ada", storageKey: storageKey, path: path)
            }
        }
        #expect(salt?.code == .storeUnavailable)
        #expect(salt?.message.hasPrefix("store: no random bytes for the salt \(Self.injected)") == true)

        let derivation = CryptoFaults.failing(.hkdf) {
            #expect(throws: SessionError.self) {
                try SecureStore(username: "ada", storageKey: storageKey, path: path)
            }
        }
        #expect(derivation?.code == .storeUnavailable)
        #expect(derivation?.message.hasPrefix("store: key derivation failed \(Self.injected)") == true)

        let store = try SecureStore(username: "ada", storageKey: storageKey, path: path)
        let seal = CryptoFaults.failing(.aesGCM) {
            #expect(throws: SessionError.self) { try store.setSetting(.demoIdentity, to: [1, 2, 3]) }
        }
        #expect(seal?.code == .storeUnavailable)
        let nonce = CryptoFaults.failing(.random) {
            #expect(throws: SessionError.self) { try store.setSetting(.demoIdentity, to: [1, 2, 3]) }
        }
        #expect(nonce?.message.hasPrefix("store: no random bytes for a nonce \(Self.injected)") == true)

        try store.setSetting(.demoIdentity, to: [1, 2, 3])
        let open = CryptoFaults.failing(.aesGCM) {
            #expect(throws: SessionError.self) { try store.setting(.demoIdentity) }
        }
        #expect(open?.code == .storeUnavailable, "an AES-GCM failure is not a tampered record")
        #expect(try store.setting(.demoIdentity) == [1, 2, 3])

        // Reopening while AES-GCM fails: the key check cannot run, which is not a wrong key.
        let reopen = CryptoFaults.failing(.aesGCM) {
            #expect(throws: SessionError.self) {
                try SecureStore(username: "ada", storageKey: storageKey, path: path)
            }
        }
        #expect(reopen?.code == .storeUnavailable)
    }
}
