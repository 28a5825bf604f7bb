import COpenSSL

/// AES-256 in Galois/Counter Mode (NIST SP 800-38D): 32-byte key, 12-byte nonce, 16-byte tag.
/// Works on caller-owned buffers so a large value is never copied by this layer.
package enum AESGCM {
    package static let keySize = 32
    package static let nonceSize = 12
    package static let tagSize = 16
    /// OpenSSL's update calls take an `Int32` length: larger inputs go in slices of this size.
    private static let sliceSize = 1 << 30

    /// Encrypts `plaintext` into `ciphertext` (same length; the two may be the same memory, not
    /// partially overlapping) and writes the tag into `tag`.
    /// - Throws: `CryptoError` (`.aesGCM`) for a key or nonce of the wrong size, or when OpenSSL fails.
    package static func seal(
        key: [UInt8], nonce: [UInt8], aad: [UInt8], plaintext: UnsafeRawBufferPointer,
        ciphertext: UnsafeMutableRawBufferPointer, tag: UnsafeMutableRawBufferPointer
    ) throws(CryptoError) {
        precondition(ciphertext.count == plaintext.count && tag.count == tagSize)
        let context = try start(encrypt: true, key: key, nonce: nonce, aad: aad)
        try process(context, input: plaintext, output: ciphertext)
        // GCM writes nothing at the end; a scratch buffer keeps the pointer valid for empty input.
        var tail = [UInt8](repeating: 0, count: 32)
        guard context.finish(into: &tail) == 0 else { throw .drained(.aesGCM, "EVP_CipherFinal_ex") }
        try context.control(EVP_CTRL_GCM_GET_TAG, Int32(tagSize), tag.baseAddress)
    }

    /// Decrypts `buffer` in place after checking `tag`.
    /// - Returns: true when the tag matches; false when it does not (wrong key, altered bytes, or a
    ///   tag that is not 16 bytes) — the buffer then holds unauthenticated bytes the caller must
    ///   discard.
    /// - Throws: `CryptoError` (`.aesGCM`) for a key or nonce of the wrong size, or when OpenSSL fails
    ///   otherwise than by a mismatch.
    package static func open(
        key: [UInt8], nonce: [UInt8], aad: [UInt8], buffer: UnsafeMutableRawBufferPointer, tag: [UInt8]
    ) throws(CryptoError) -> Bool {
        guard tag.count == tagSize else { return false }
        let context = try start(encrypt: false, key: key, nonce: nonce, aad: aad)
        try process(context, input: UnsafeRawBufferPointer(buffer), output: buffer)
        var expected = tag
        try context.control(EVP_CTRL_GCM_SET_TAG, Int32(tagSize), &expected)
        var tail = [UInt8](repeating: 0, count: 32)
        guard context.finish(into: &tail) == 0 else {
            // The final step fails exactly when the tag does not match: an answer, not an error.
            ErrorQueue.clear()
            return false
        }
        return true
    }

    /// A context with the key and nonce set and the additional data added.
    private static func start(encrypt: Bool, key: [UInt8], nonce: [UInt8], aad: [UInt8]) throws(CryptoError)
        -> CipherContext
    {
        try CryptoOperation.begin(.aesGCM)
        guard key.count == keySize else {
            throw .refused(.aesGCM, "AESGCM", "an AES-256-GCM key has \(keySize) bytes, not \(key.count)")
        }
        guard nonce.count == nonceSize else {
            throw .refused(.aesGCM, "AESGCM", "an AES-GCM nonce has \(nonceSize) bytes here, not \(nonce.count)")
        }
        let context = try CipherContext(.aesGCM)
        try context.initialize(EVP_aes_256_gcm(), key: nil, iv: nil, encrypt: encrypt)
        try context.control(EVP_CTRL_GCM_SET_IVLEN, Int32(nonceSize), nil)
        try context.initialize(nil, key: key, iv: nonce, encrypt: encrypt)
        if !aad.isEmpty {
            _ = try aad.withUnsafeBufferPointer { (bytes) throws(CryptoError) in
                try context.update(UnsafeRawBufferPointer(bytes), into: nil)
            }
        }
        return context
    }

    /// The text in slices of at most `sliceSize` bytes.
    private static func process(
        _ context: CipherContext, input: UnsafeRawBufferPointer, output: UnsafeMutableRawBufferPointer
    ) throws(CryptoError) {
        var offset = 0
        while offset < input.count {
            let count = min(sliceSize, input.count - offset)
            let written = try context.update(
                UnsafeRawBufferPointer(rebasing: input[offset..<(offset + count)]),
                into: output.baseAddress!.assumingMemoryBound(to: UInt8.self) + offset)
            guard written == count else {
                throw .refused(.aesGCM, "EVP_CipherUpdate", "GCM wrote \(written) bytes for \(count)")
            }
            offset += count
        }
    }
}
