import AutographCrypto
import Testing

/// Published test vectors: the wrappers compute what the standards say, not what they computed
/// yesterday.
@Suite("KnownAnswerTests: digests, AES-CBC, AES-GCM, HKDF and HMAC against published vectors")
struct KnownAnswerTests {
    static func hex(_ text: String) -> [UInt8] {
        let digits = Array(text.utf8)
        return stride(from: 0, to: digits.count, by: 2).map {
            UInt8(String(decoding: digits[$0..<($0 + 2)], as: UTF8.self), radix: 16)!
        }
    }

    @Test(
        "the digests of \"abc\" are FIPS 180-4's and RFC 1321's",
        arguments: [
            (MessageDigest.md5, "900150983cd24fb0d6963f7d28e17f72"),
            (.sha1, "a9993e364706816aba3e25717850c26c9cd0d89d"),
            (.sha256, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
            (
                .sha384,
                "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7"
            ),
            (
                .sha512,
                "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
                    + "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"
            ),
        ])
    func digestOfABC(_ digest: MessageDigest, _ expected: String) throws {
        #expect(try digest.hash(Array("abc".utf8)) == Self.hex(expected))
        #expect(digest.length == expected.utf8.count / 2)
        // Streamed in pieces, and as concatenated parts: the same digest.
        let context = try DigestContext(digest)
        for byte in "abc".utf8 { context.update([byte]) }
        #expect(try context.finalize() == Self.hex(expected))
        #expect(try digest.hash(Array("a".utf8), [], Array("bc".utf8)) == Self.hex(expected))
    }

    @Test("AES-128-CBC encrypts NIST SP 800-38A F.2.1's first block and decrypts it back")
    func aesCBC() throws {
        let key = Self.hex("2b7e151628aed2a6abf7158809cf4f3c")
        let iv = Self.hex("000102030405060708090a0b0c0d0e0f")
        let plain = Self.hex("6bc1bee22e409f96e93d7e117393172a")
        let cipher = try AESCBC.encrypt(key: key, iv: iv, data: plain, padding: false)
        #expect(cipher == Self.hex("7649abac8119b246cee98e9b12e9197d"))
        #expect(try AESCBC.decrypt(key: key, iv: iv, data: cipher, padding: false) == plain)
        // With PKCS#7 padding a whole block of padding follows, and is removed again.
        let padded = try AESCBC.encrypt(key: key, iv: iv, data: plain, padding: true)
        #expect(padded.count == 32 && Array(padded.prefix(16)) == cipher)
        #expect(try AESCBC.decrypt(key: key, iv: iv, data: padded, padding: true) == plain)
    }

    @Test("AES-256-GCM gives the GCM specification's test cases 13 and 14")
    func aesGCMVectors() throws {
        let key = [UInt8](repeating: 0, count: 32)
        let nonce = [UInt8](repeating: 0, count: 12)
        var tag = [UInt8](repeating: 0, count: 16)
        var empty: [UInt8] = []
        try seal(key: key, nonce: nonce, aad: [], &empty, &tag)
        #expect(tag == Self.hex("530f8afbc74536b9a963b4f1c4cb738b"))
        var block = [UInt8](repeating: 0, count: 16)
        try seal(key: key, nonce: nonce, aad: [], &block, &tag)
        #expect(block == Self.hex("cea7403d4d606b6e074ec5d3baf39d18"))
        #expect(tag == Self.hex("d0d1c8a799996bf0265b98b5d48ab919"))
    }

    @Test("AES-256-GCM opens what it sealed, and refuses a changed byte, tag, nonce or additional data")
    func aesGCMRoundTrip() throws {
        let key = (0..<32).map { UInt8($0) }
        let nonce = (0..<12).map { UInt8(100 + $0) }
        let aad = Array("record 7".utf8)
        let plain = Array("what the signer saw is what was signed".utf8)
        var sealed = plain
        var tag = [UInt8](repeating: 0, count: 16)
        try seal(key: key, nonce: nonce, aad: aad, &sealed, &tag)
        #expect(sealed != plain)

        var opened = sealed
        #expect(try open(key: key, nonce: nonce, aad: aad, &opened, tag: tag))
        #expect(opened == plain)

        var flipped = sealed
        flipped[3] ^= 0x01
        #expect(try !open(key: key, nonce: nonce, aad: aad, &flipped, tag: tag))
        var copy = sealed
        var badTag = tag
        badTag[15] ^= 0x80
        #expect(try !open(key: key, nonce: nonce, aad: aad, &copy, tag: badTag))
        copy = sealed
        #expect(try !open(key: key, nonce: Array(nonce.reversed()), aad: aad, &copy, tag: tag))
        copy = sealed
        #expect(try !open(key: key, nonce: nonce, aad: Array("record 8".utf8), &copy, tag: tag))
        copy = sealed
        #expect(try !open(key: key, nonce: nonce, aad: aad, &copy, tag: Array(tag.prefix(12))))
    }

    @Test("HKDF-SHA-256 derives RFC 5869's test case 1")
    func hkdf() throws {
        let okm = try HKDF.sha256(
            key: [UInt8](repeating: 0x0b, count: 22), salt: Self.hex("000102030405060708090a0b0c"),
            info: Self.hex("f0f1f2f3f4f5f6f7f8f9"), length: 42)
        #expect(
            okm == Self.hex("3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865"))
    }

    @Test(
        "HMAC-SHA-2 gives RFC 4231's test cases 1, 2 and 6",
        arguments: [
            (
                MessageDigest.sha256, [UInt8](repeating: 0x0b, count: 20), "Hi There",
                "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
            ),
            (
                .sha384, [UInt8](repeating: 0x0b, count: 20), "Hi There",
                "afd03944d84895626b0825f4ab46907f15f9dadbe4101ec682aa034c7cebc59cfaea9ea9076ede7f4af152e8b2fa9cb6"
            ),
            (
                .sha512, [UInt8](repeating: 0x0b, count: 20), "Hi There",
                "87aa7cdea5ef619d4ff0b4241a1d6cb02379f4e2ce4ec2787ad0b30545e17cde"
                    + "daa833b7d6b8a702038b274eaea3f4e4be9d914eeb61f1702e696c203a126854"
            ),
            (
                .sha256, Array("Jefe".utf8), "what do ya want for nothing?",
                "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
            ),
            (
                .sha256, [UInt8](repeating: 0xaa, count: 131), "Test Using Larger Than Block-Size Key - Hash Key First",
                "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
            ),
        ])
    func hmac(_ digest: MessageDigest, _ key: [UInt8], _ message: String, _ expected: String) throws {
        #expect(try HMAC.authenticationCode(digest, key: key, message: Array(message.utf8)) == Self.hex(expected))
    }

    @Test("HMAC refuses an empty key and a digest other than SHA-2")
    func hmacRefusals() throws {
        #expect(throws: CryptoError.self) { try HMAC.authenticationCode(key: [], message: [1]) }
        #expect(throws: CryptoError.self) { try HMAC.authenticationCode(.sha1, key: [1], message: [1]) }
        #expect(try HMAC.authenticationCode(key: [1], message: []).count == 32)
    }

    @Test("random bytes have the length asked for and differ between calls")
    func random() throws {
        #expect(try SecureRandom.bytes(0).isEmpty)
        let first = try SecureRandom.bytes(32)
        let second = try SecureRandom.bytes(32)
        #expect(first.count == 32 && second.count == 32 && first != second)
    }

    // MARK: Helpers

    private func seal(key: [UInt8], nonce: [UInt8], aad: [UInt8], _ text: inout [UInt8], _ tag: inout [UInt8]) throws {
        let count = text.count
        try text.withUnsafeMutableBytes { buffer in
            try tag.withUnsafeMutableBytes { tagBuffer in
                try AESGCM.seal(
                    key: key, nonce: nonce, aad: aad, plaintext: UnsafeRawBufferPointer(buffer), ciphertext: buffer,
                    tag: tagBuffer)
            }
        }
        #expect(text.count == count)
    }

    private func open(key: [UInt8], nonce: [UInt8], aad: [UInt8], _ text: inout [UInt8], tag: [UInt8]) throws -> Bool {
        try text.withUnsafeMutableBytes { buffer in
            try AESGCM.open(key: key, nonce: nonce, aad: aad, buffer: buffer, tag: tag)
        }
    }
}
