import COpenSSL

/// Random bytes from OpenSSL's CSPRNG (`RAND_bytes`), for salts and nonces.
enum SecureRandom {
    /// `count` random bytes, or nil when the generator is not seeded (its error queue is emptied).
    static func bytes(_ count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        guard count == 0 || RAND_bytes(&bytes, Int32(count)) == 1 else {
            ERR_clear_error()
            return nil
        }
        return bytes
    }
}
