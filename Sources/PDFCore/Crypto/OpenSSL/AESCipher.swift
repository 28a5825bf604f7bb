import COpenSSL

/// AES in CBC mode through OpenSSL (ISO 32000-2 §7.6.3: AESV2 and AESV3 crypt filters).
package enum AESCipher {
    /// Encrypts `data` with `key` (16 or 32 bytes) and `iv`; with `padding`, PKCS#7 padding is added.
    package static func encryptCBC(key: [UInt8], iv: [UInt8], data: [UInt8], padding: Bool) -> [UInt8]? {
        run(encrypt: true, key: key, iv: iv, data: data, padding: padding)
    }

    /// Decrypts `data`; with `padding`, PKCS#7 padding is checked and removed.
    package static func decryptCBC(key: [UInt8], iv: [UInt8], data: [UInt8], padding: Bool) -> [UInt8]? {
        run(encrypt: false, key: key, iv: iv, data: data, padding: padding)
    }

    private static func run(encrypt: Bool, key: [UInt8], iv: [UInt8], data: [UInt8], padding: Bool) -> [UInt8]? {
        let cipher: OpaquePointer?
        switch key.count {
        case 16: cipher = EVP_aes_128_cbc()
        case 24: cipher = EVP_aes_192_cbc()
        case 32: cipher = EVP_aes_256_cbc()
        default: return nil
        }
        guard iv.count == 16, let context = EVP_CIPHER_CTX_new() else { return nil }
        defer { EVP_CIPHER_CTX_free(context) }
        guard EVP_CipherInit_ex(context, cipher, nil, key, iv, encrypt ? 1 : 0) == 1 else {
            ERR_clear_error()
            return nil
        }
        EVP_CIPHER_CTX_set_padding(context, padding ? 1 : 0)
        var output = [UInt8](repeating: 0, count: data.count + 32)
        var written: Int32 = 0
        var total = 0
        let ok = output.withUnsafeMutableBufferPointer { out -> Bool in
            guard EVP_CipherUpdate(context, out.baseAddress, &written, data, Int32(data.count)) == 1 else {
                return false
            }
            total = Int(written)
            guard EVP_CipherFinal_ex(context, out.baseAddress! + total, &written) == 1 else { return false }
            total += Int(written)
            return true
        }
        guard ok else {
            ERR_clear_error()
            return nil
        }
        output.removeSubrange(total...)
        return output
    }
}
