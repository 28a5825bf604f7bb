import COpenSSL

/// AES-256 in Galois/Counter Mode (NIST SP 800-38D) through OpenSSL: 32-byte key, 12-byte nonce,
/// 16-byte tag. Works on caller-owned buffers so a large value is never copied by this layer.
enum AESGCM {
    static let keySize = 32
    static let nonceSize = 12
    static let tagSize = 16
    /// OpenSSL's update calls take an `Int32` length: larger inputs go in slices of this size.
    private static let sliceSize = 1 << 30

    /// Encrypts `plaintext` into `ciphertext` (same length; the two may be the same memory, not
    /// partially overlapping) and writes the tag into `tag`. Returns false when OpenSSL fails.
    static func seal(
        key: [UInt8], nonce: [UInt8], aad: [UInt8], plaintext: UnsafeRawBufferPointer,
        ciphertext: UnsafeMutableRawBufferPointer, tag: UnsafeMutableRawBufferPointer
    ) -> Bool {
        precondition(ciphertext.count == plaintext.count && tag.count == tagSize)
        return run(encrypt: true, key: key, nonce: nonce, aad: aad, input: plaintext, output: ciphertext) {
            context in
            EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_GET_TAG, Int32(tagSize), tag.baseAddress) == 1
        }
    }

    /// Decrypts `buffer` in place after checking `tag`; false when the tag does not match (the
    /// buffer then holds unauthenticated bytes the caller must discard) or OpenSSL fails.
    static func open(
        key: [UInt8], nonce: [UInt8], aad: [UInt8], buffer: UnsafeMutableRawBufferPointer, tag: [UInt8]
    ) -> Bool {
        guard tag.count == tagSize else { return false }
        var expected = tag
        return run(
            encrypt: false, key: key, nonce: nonce, aad: aad, input: UnsafeRawBufferPointer(buffer), output: buffer
        ) { context in
            EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_SET_TAG, Int32(tagSize), &expected) == 1
        }
    }

    /// One pass: key and nonce, the additional data, the text in slices, then the tag step
    /// (`tagStep` reads the tag after encrypting; sets it before the final check when decrypting).
    private static func run(
        encrypt: Bool, key: [UInt8], nonce: [UInt8], aad: [UInt8], input: UnsafeRawBufferPointer,
        output: UnsafeMutableRawBufferPointer, tagStep: (OpaquePointer) -> Bool
    ) -> Bool {
        guard key.count == keySize, nonce.count == nonceSize, let context = EVP_CIPHER_CTX_new() else { return false }
        defer { EVP_CIPHER_CTX_free(context) }
        let mode: Int32 = encrypt ? 1 : 0
        var written: Int32 = 0
        var ok =
            EVP_CipherInit_ex(context, EVP_aes_256_gcm(), nil, nil, nil, mode) == 1
            && EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_SET_IVLEN, Int32(nonceSize), nil) == 1
            && EVP_CipherInit_ex(context, nil, nil, key, nonce, mode) == 1
            && (aad.isEmpty || EVP_CipherUpdate(context, nil, &written, aad, Int32(aad.count)) == 1)
        var offset = 0
        while ok, offset < input.count {
            let count = min(sliceSize, input.count - offset)
            ok =
                EVP_CipherUpdate(
                    context, output.baseAddress!.assumingMemoryBound(to: UInt8.self) + offset, &written,
                    input.baseAddress!.assumingMemoryBound(to: UInt8.self) + offset, Int32(count)) == 1
                && Int(written) == count
            offset += count
        }
        if ok, !encrypt { ok = tagStep(context) }
        // GCM writes nothing at the end; a scratch buffer keeps the pointer valid for empty input.
        var tail = [UInt8](repeating: 0, count: 32)
        ok = ok && EVP_CipherFinal_ex(context, &tail, &written) == 1 && written == 0
        if ok, encrypt { ok = tagStep(context) }
        if !ok { ERR_clear_error() }
        return ok
    }
}
