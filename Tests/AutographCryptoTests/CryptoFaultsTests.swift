import AutographCrypto
import Testing

/// The failure seam itself, and what a failure carries: the operation, the failing call and the
/// OpenSSL queue read at once.
@Suite("CryptoFaultsTests: injected failures and the errors OpenSSL failures become")
struct CryptoFaultsTests {
    @Test("an RNG failure is an error, never bytes from a fallback")
    func randomFailure() throws {
        let error = CryptoFaults.failing(.random) {
            #expect(throws: CryptoError.self) { try SecureRandom.bytes(16) }
        }
        #expect(error?.operation == .random)
        #expect(error?.isInjected == true)
        #expect(error?.description.contains("injected random failure") == true)
        // Outside the plan the generator works again.
        #expect(try SecureRandom.bytes(16).count == 16)
    }

    @Test("each operation fails where it starts", arguments: [CryptoOperation.digest, .aesCBC, .aesGCM, .hkdf, .mac])
    func operationsFail(_ operation: CryptoOperation) throws {
        let key = [UInt8](repeating: 7, count: 32)
        var buffer = [UInt8](repeating: 1, count: 16)
        var tag = [UInt8](repeating: 0, count: 16)
        let error = CryptoFaults.failing(operation) {
            #expect(throws: CryptoError.self) {
                switch operation {
                case .digest: _ = try MessageDigest.sha256.hash([1, 2, 3])
                case .aesCBC: _ = try AESCBC.encrypt(key: key, iv: Array(key.prefix(16)), data: buffer, padding: true)
                case .aesGCM:
                    try buffer.withUnsafeMutableBytes { text in
                        try tag.withUnsafeMutableBytes { tag in
                            try AESGCM.seal(
                                key: key, nonce: Array(key.prefix(12)), aad: [],
                                plaintext: UnsafeRawBufferPointer(text),
                                ciphertext: text, tag: tag)
                        }
                    }
                case .mac: _ = try HMAC.authenticationCode(key: key, message: buffer)
                default: _ = try HKDF.sha256(key: key, salt: [], info: [], length: 32)
                }
            }
        }
        #expect(error?.operation == operation)
        #expect(error?.function == CryptoFaults.injectedFunction)
    }

    @Test("a plan can let calls through first and stop failing after a count")
    func skippingAndTimes() throws {
        try CryptoFaults.failing(.digest, skipping: 2, times: 1) { () throws in
            #expect(try MessageDigest.sha1.hash([1]).count == 20)
            #expect(try MessageDigest.md5.hash([1]).count == 16)
            #expect(throws: CryptoError.self) { try MessageDigest.sha256.hash([1]) }
            #expect(try MessageDigest.sha256.hash([1]).count == 32)
            // Other operations are not touched.
            #expect(try SecureRandom.bytes(4).count == 4)
        }
    }

    @Test("a plan is task-local: concurrent work outside it is not touched, child tasks inside it are")
    func taskLocal() async throws {
        async let outside: Int = {
            var succeeded = 0
            for _ in 0..<200 {
                if (try? SecureRandom.bytes(8)) != nil { succeeded += 1 }
                await Task.yield()
            }
            return succeeded
        }()
        await CryptoFaults.failing(.random) {
            for _ in 0..<200 {
                #expect(throws: CryptoError.self) { try SecureRandom.bytes(8) }
                await Task.yield()
            }
            let child = Task { (try? SecureRandom.bytes(8)) == nil }
            #expect(await child.value, "a task started inside the plan inherits it")
        }
        #expect(await outside == 200)
    }

    @Test("an OpenSSL failure carries the failing call and the queue's text, read at once")
    func realFailures() throws {
        let certificate = #expect(throws: CryptoError.self) {
            try X509Certificate(der: [0x30, 0x03, 0x02, 0x01, 0x01])
        }
        #expect(certificate?.operation == .certificateReading)
        #expect(certificate?.function == "d2i_X509")
        #expect(certificate?.queue.isEmpty == false)
        #expect(certificate?.annotating("not a certificate").hasPrefix("not a certificate (OpenSSL: error:") == true)

        // Bad padding: the error is this call's own, nothing left over from the failure above.
        let key = [UInt8](repeating: 1, count: 16)
        let padding = #expect(throws: CryptoError.self) {
            try AESCBC.decrypt(key: key, iv: key, data: [UInt8](repeating: 9, count: 16), padding: true)
        }
        #expect(padding?.function == "EVP_CipherFinal_ex")
        #expect(padding?.queue.contains { $0.text.contains("bad decrypt") } == true)
        #expect(padding?.queue.contains { $0.text.contains("DECODER") || $0.text.contains("asn1") } == false)

        // A refusal before OpenSSL is called has a reason and no queue.
        let refused = #expect(throws: CryptoError.self) {
            try AESCBC.encrypt(key: [1, 2, 3], iv: key, data: [], padding: true)
        }
        #expect(refused?.reason?.contains("16, 24 or 32 bytes") == true)
        #expect(refused?.queue.isEmpty == true)
    }

    @Test("an unknown digest name in the reference CMS signer is refused, not a crash")
    func unknownDigestName() throws {
        let key = try AsymmetricKey(privateKeyPEM: Fixtures.pem("signer-p256.key.pem"), password: nil)
        let certificate = try #require(X509Certificate.all(pem: Fixtures.pem("signer-p256.cert.pem")).first)
        let error = #expect(throws: CryptoError.self) {
            try CMSContentInfo.signedData(
                messageDigest: [UInt8](repeating: 0, count: 32), certificate: certificate, key: key, chain: [],
                digestName: "no-such-digest")
        }
        #expect(error?.operation == .cmsSigning)
    }
}
