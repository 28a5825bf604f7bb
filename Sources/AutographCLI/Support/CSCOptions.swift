import PDFSigning

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `--csc BASE_URL --credential ID [--csc-client-id ID --csc-secret-file F | --csc-token-file F]
/// [--pin-file F] [--otp-file F]`: a credential of a remote signing service (CSC API v1 or v2).
/// Secrets come from files or `$AUTOGRAPH_CSC_PIN`, never from command-line values (which `ps`
/// shows to every user).
enum CSCOptions {
    static let pinVariable = "AUTOGRAPH_CSC_PIN"

    /// The options of the service's connection (`sign` and `csc credentials` share them).
    static let connectionSpecs: [CommandSpec.Option] = [
        .init(
            name: "csc", valueName: "BASE_URL",
            help: "a remote signing service (CSC API): what comes before /csc/v1 or /csc/v2"),
        .init(name: "csc-client-id", valueName: "ID", help: "the client's id at the service (OAuth 2.0 or basic)"),
        .init(name: "csc-secret-file", valueName: "F", help: "a file holding the client's secret"),
        .init(name: "csc-token-file", valueName: "F", help: "a file holding an access token for the service"),
    ]

    /// The options of `sign` that choose and authorize the credential.
    static let signingSpecs: [CommandSpec.Option] = [
        .init(name: "credential", valueName: "ID", help: "the credential of --csc to sign with"),
        .init(name: "otp-file", valueName: "F", help: "a file holding the credential's one-time password"),
    ]

    /// The client the arguments name; nil without `--csc`.
    static func client(_ arguments: Arguments) async throws -> CSCClient? {
        guard let base = arguments.value("csc") else {
            for name in ["csc-client-id", "csc-secret-file", "csc-token-file", "credential", "otp-file"]
            where arguments.value(name) != nil {
                throw UsageError("--\(name) needs --csc BASE_URL")
            }
            return nil
        }
        if arguments.value("csc-secret-file") != nil, arguments.value("csc-client-id") == nil {
            throw UsageError("--csc-secret-file needs --csc-client-id")
        }
        return try await CSCClient(
            baseURL: base, clientID: arguments.value("csc-client-id"),
            clientSecret: try arguments.value("csc-secret-file").map(TimeStampOptions.secret),
            accessToken: try arguments.value("csc-token-file").map(TimeStampOptions.secret))
    }

    /// The CSC signer the arguments name; nil without `--csc`.
    static func signer(_ arguments: Arguments) async throws -> CSCSigner? {
        guard arguments.value("csc") != nil else {
            _ = try await client(arguments)
            return nil
        }
        for name in ["p12", "key", "cert", "pkcs11"] where arguments.value(name) != nil {
            throw UsageError("give --csc or --\(name), not both")
        }
        guard let credential = arguments.value("credential") else {
            throw UsageError("--csc needs --credential ID (see `autograph csc credentials`)")
        }
        guard let client = try await client(arguments) else { return nil }
        return try await CSCSigner(
            client: client, credentialID: credential, pin: try pin(arguments),
            otp: try arguments.value("otp-file").map(TimeStampOptions.secret),
            scheme: arguments.has("pss") ? .rsaPSS : nil, allowExpired: arguments.has("allow-expired"))
    }

    /// The PIN from `--pin-file`, else `$AUTOGRAPH_CSC_PIN`; nil when neither gives one.
    static func pin(_ arguments: Arguments) throws -> String? {
        if let path = arguments.value("pin-file") { return try TimeStampOptions.secret(path) }
        if let value = getenv(pinVariable).map({ String(cString: $0) }), !value.isEmpty { return value }
        return nil
    }
}
