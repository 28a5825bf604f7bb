import COpenSSL

/// AES in CBC mode with 128-, 192- or 256-bit keys (ISO 32000-2 §7.6.3: the AESV2 and AESV3 crypt
/// filters, and the AES steps of the revision 6 password hash, §7.6.4.3.4).
package enum AESCBC {
    /// Encrypts `data` with `key` (16, 24 or 32 bytes) and the 16-byte `iv`; with `padding`, PKCS#7
    /// padding is added, without it `data` must be a whole number of blocks.
    /// - Throws: `CryptoError` (`.aesCBC`) for a key or IV of the wrong size, or when OpenSSL fails.
    package static func encrypt(key: [UInt8], iv: [UInt8], data: [UInt8], padding: Bool) throws(CryptoError) -> [UInt8]
    {
        try run(encrypt: true, key: key, iv: iv, data: data, padding: padding)
    }

    /// Decrypts `data`; with `padding`, PKCS#7 padding is checked and removed.
    /// - Throws: `CryptoError` (`.aesCBC`) for a key or IV of the wrong size, data that is not a
    ///   whole number of blocks or has bad padding, or when OpenSSL fails.
    package static func decrypt(key: [UInt8], iv: [UInt8], data: [UInt8], padding: Bool) throws(CryptoError) -> [UInt8]
    {
        try run(encrypt: false, key: key, iv: iv, data: data, padding: padding)
    }

    private static func run(
        encrypt: Bool, key: [UInt8], iv: [UInt8], data: [UInt8], padding: Bool
    ) throws(CryptoError) -> [UInt8] {
        try CryptoOperation.begin(.aesCBC)
        let cipher: OpaquePointer?
        switch key.count {
        case 16: cipher = EVP_aes_128_cbc()
        case 24: cipher = EVP_aes_192_cbc()
        case 32: cipher = EVP_aes_256_cbc()
        default: throw .refused(.aesCBC, "AESCBC", "an AES key has 16, 24 or 32 bytes, not \(key.count)")
        }
        guard iv.count == 16 else { throw .refused(.aesCBC, "AESCBC", "an AES IV has 16 bytes, not \(iv.count)") }
        let context = try CipherContext(.aesCBC)
        try context.initialize(cipher, key: key, iv: iv, encrypt: encrypt)
        EVP_CIPHER_CTX_set_padding(context.pointer, padding ? 1 : 0)
        var output = [UInt8](repeating: 0, count: data.count + 32)
        let total = try output.withUnsafeMutableBufferPointer { (out) throws(CryptoError) -> Int in
            let written = try data.withUnsafeBufferPointer { (input) throws(CryptoError) in
                try context.update(UnsafeRawBufferPointer(input), into: out.baseAddress)
            }
            guard let last = context.finish(into: out.baseAddress! + written) else {
                throw .drained(.aesCBC, "EVP_CipherFinal_ex")
            }
            return written + last
        }
        output.removeSubrange(total...)
        return output
    }
}
