import COpenSSL

/// An OpenSSL memory `BIO`: bytes for PEM reading, or a sink for PEM and text output.
final class MemoryBIO {
    let pointer: OpaquePointer
    /// The copy of the input a reading BIO reads from (it does not copy it itself).
    private let storage: UnsafeMutableRawBufferPointer?

    /// An empty BIO collecting output.
    init(_ operation: CryptoOperation) throws(CryptoError) {
        guard let pointer = BIO_new(BIO_s_mem()) else { throw .drained(operation, "BIO_new") }
        self.pointer = pointer
        storage = nil
    }

    /// A read-only BIO over a copy of `bytes`.
    init(reading bytes: [UInt8], _ operation: CryptoOperation) throws(CryptoError) {
        let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 1)
        bytes.withUnsafeBytes { storage.copyMemory(from: $0) }
        guard let pointer = BIO_new_mem_buf(storage.baseAddress, Int32(clamping: bytes.count)) else {
            storage.deallocate()
            throw .drained(operation, "BIO_new_mem_buf")
        }
        self.pointer = pointer
        self.storage = storage
    }

    deinit {
        BIO_free(pointer)
        storage?.deallocate()
    }

    /// Everything written so far and not yet read.
    func readAll() -> [UInt8] {
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = BIO_read(pointer, &chunk, Int32(chunk.count))
            guard count > 0 else { break }
            output.append(contentsOf: chunk[0..<Int(count)])
        }
        return output
    }
}
