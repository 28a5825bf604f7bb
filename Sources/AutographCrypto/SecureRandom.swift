import COpenSSL

/// Cryptographically secure random bytes from OpenSSL's generator (`RAND_bytes`), which OpenSSL
/// seeds from the operating system.
///
/// A failure is an error, never a fallback: a generator that cannot be seeded has no entropy
/// source, and bytes from anywhere else would make salts, nonces, IVs and serial numbers
/// predictable without anyone noticing.
package enum SecureRandom {
    /// `count` random bytes.
    /// - Throws: `CryptoError` (`.random`) when the generator fails.
    package static func bytes(_ count: Int) throws(CryptoError) -> [UInt8] {
        precondition(count >= 0, "a negative count of random bytes")
        try CryptoOperation.begin(.random)
        var output = [UInt8](repeating: 0, count: count)
        var offset = 0
        while offset < count {
            // RAND_bytes takes an int: larger requests go in slices.
            let slice = min(count - offset, Int(Int32.max))
            let ok = output.withUnsafeMutableBufferPointer { buffer in
                RAND_bytes(buffer.baseAddress! + offset, Int32(slice)) == 1
            }
            guard ok else { throw .drained(.random, "RAND_bytes") }
            offset += slice
        }
        return output
    }
}
