import AutographCrypto

extension SessionError {
    /// A session error for a failure in AutographCrypto: `message`, then what OpenSSL queued.
    init(_ code: Code, _ message: String, crypto error: CryptoError) {
        self.init(code, error.annotating(message))
    }
}
