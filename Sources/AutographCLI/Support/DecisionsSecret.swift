import PDFWeb

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The secret `autograph serve --decisions URL` signs its requests with (HMAC-SHA-256, see
/// docs/web-api.md "Server-side hosts"): `--decisions-secret-file FILE`, a file only its owner may
/// read or write (as `--storage-key-file`), or `$AUTOGRAPH_DECISIONS_SECRET`. The key is the text
/// as it is, whitespace around it removed (not decoded from hex), so the backend uses the same
/// string; at least 16 bytes.
enum DecisionsSecret {
    static let environmentVariable = "AUTOGRAPH_DECISIONS_SECRET"

    /// How to make a secret file.
    static let generation = "openssl rand -hex 32 > decisions.secret && chmod 600 decisions.secret"

    /// The secret from `--decisions-secret-file`, else from the environment.
    /// - Throws: `UsageError` when neither gives one, the file is too open or unreadable, or the
    ///   secret is shorter than `HTTPDecisions.minimumSecretLength` bytes.
    static func read(_ arguments: Arguments) throws -> [UInt8] {
        let files = arguments.values("decisions-secret-file")
        guard files.count <= 1 else { throw UsageError("give --decisions-secret-file once") }
        let secret: [UInt8]
        let source: String
        if let path = files.first {
            try StorageKey.checkPermissions(path)
            secret = Array(String(decoding: try readFile(path), as: UTF8.self).trimmingWhitespace.utf8)
            source = path
        } else if let value = getenv(environmentVariable).map({ String(cString: $0) }), !value.isEmpty {
            secret = Array(value.trimmingWhitespace.utf8)
            source = "$" + environmentVariable
        } else {
            throw UsageError(
                "--decisions needs the secret its requests are signed with: --decisions-secret-file FILE (mode 600) "
                    + "or $\(environmentVariable); make one with \(generation)")
        }
        guard secret.count >= HTTPDecisions.minimumSecretLength else {
            throw UsageError(
                "the decisions secret in \(source) has \(secret.count) bytes; it needs at least "
                    + "\(HTTPDecisions.minimumSecretLength) (make one with \(generation))")
        }
        return secret
    }
}
