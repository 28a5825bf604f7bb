import COpenSSL

/// An OpenSSL `EVP_CIPHER_CTX`: one encryption or decryption pass.
final class CipherContext {
    let pointer: OpaquePointer
    let operation: CryptoOperation

    init(_ operation: CryptoOperation) throws(CryptoError) {
        guard let pointer = EVP_CIPHER_CTX_new() else { throw .drained(operation, "EVP_CIPHER_CTX_new") }
        self.pointer = pointer
        self.operation = operation
    }

    deinit { EVP_CIPHER_CTX_free(pointer) }

    /// Sets the cipher, key and IV (each may be nil to keep what an earlier call set).
    func initialize(
        _ cipher: OpaquePointer?, key: UnsafePointer<UInt8>?, iv: UnsafePointer<UInt8>?, encrypt: Bool
    ) throws(CryptoError) {
        guard EVP_CipherInit_ex(pointer, cipher, nil, key, iv, encrypt ? 1 : 0) == 1 else {
            throw .drained(operation, "EVP_CipherInit_ex")
        }
    }

    /// Runs `input` through the cipher into `output` (nil for additional authenticated data);
    /// returns the count written.
    func update(
        _ input: UnsafeRawBufferPointer, into output: UnsafeMutablePointer<UInt8>?
    ) throws(CryptoError) -> Int {
        precondition(input.count <= Int(Int32.max))
        var written: Int32 = 0
        guard
            EVP_CipherUpdate(
                pointer, output, &written, input.baseAddress?.assumingMemoryBound(to: UInt8.self),
                Int32(input.count)) == 1
        else { throw .drained(operation, "EVP_CipherUpdate") }
        return Int(written)
    }

    /// The final step (padding, or the GCM tag check when decrypting); returns the count written
    /// into `output`, which must have room for a block. False when it fails, with the queue left
    /// for the caller to drain or clear.
    func finish(into output: UnsafeMutablePointer<UInt8>) -> Int? {
        var written: Int32 = 0
        guard EVP_CipherFinal_ex(pointer, output, &written) == 1 else { return nil }
        return Int(written)
    }

    /// `EVP_CIPHER_CTX_ctrl` (GCM IV length, tag).
    func control(_ type: Int32, _ argument: Int32, _ pointer: UnsafeMutableRawPointer?) throws(CryptoError) {
        guard EVP_CIPHER_CTX_ctrl(self.pointer, type, argument, pointer) == 1 else {
            throw .drained(operation, "EVP_CIPHER_CTX_ctrl")
        }
    }
}
