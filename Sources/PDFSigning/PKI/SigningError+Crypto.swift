import AutographCrypto

extension SigningError {
    /// A signing error for a failure in AutographCrypto: `message`, then what OpenSSL queued, as
    /// PDFSigning has always worded OpenSSL failures ("… (OpenSSL: error:…)").
    init(_ code: Code, _ message: String, crypto error: CryptoError) {
        self.init(code, error.annotating(message))
    }

    /// A signing error with `message` followed by OpenSSL errors gathered from several attempts.
    init(_ code: Code, _ message: String, queue: [OpenSSLError]) {
        self.init(code, queue.annotating(message))
    }
}

/// Runs one crypto step; its failure becomes a `SigningError` with `code` and `message`.
///
/// `body` is an untyped throwing closure only because Swift does not infer a closure's thrown type
/// from its context: it calls AutographCrypto, so what it throws is a `CryptoError`.
func signingStep<Result>(
    _ code: SigningError.Code, _ message: @autoclosure () -> String, _ body: () throws -> Result
) throws(SigningError) -> Result {
    do {
        return try body()
    } catch let error as CryptoError {
        throw SigningError(code, message(), crypto: error)
    } catch {
        throw SigningError(code, "\(message()): \(error)")
    }
}
