import PDFSigning

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `--pkcs11 MODULE --token LABEL [--token-serial S] [--key-label L | --key-id HEX] [--pin-file F]`:
/// a key in a PKCS#11 token or HSM. The PIN comes from a file or `$AUTOGRAPH_PKCS11_PIN`, never from
/// a command-line value (which `ps` shows to every user).
enum PKCS11Options {
    static let pinVariable = "AUTOGRAPH_PKCS11_PIN"

    static let specs: [CommandSpec.Option] = [
        .init(name: "pkcs11", valueName: "MODULE.so", help: "sign with a key in a PKCS#11 token or HSM (its module)"),
        .init(name: "token", valueName: "LABEL", help: "the token's label (default: the first token)"),
        .init(name: "token-serial", valueName: "S", help: "the token's serial number"),
        .init(name: "key-label", valueName: "L", help: "the private key's label (its certificate has its id)"),
        .init(name: "key-id", valueName: "HEX", help: "the private key's id, in hexadecimal"),
        .init(
            name: "pin-file", valueName: "F",
            help: "a file holding the token's (or --csc credential's) PIN (else $\(pinVariable); no PIN: no login)"),
    ]

    /// The PKCS#11 signer the arguments name; nil without `--pkcs11`.
    static func signer(_ arguments: Arguments, chain: [Certificate]) throws -> PKCS11Signer? {
        guard let module = arguments.value("pkcs11") else {
            // --pin-file is also --csc's.
            let own =
                ["token", "token-serial", "key-label", "key-id"] + (arguments.value("csc") == nil ? ["pin-file"] : [])
            for name in own where arguments.value(name) != nil {
                throw UsageError("--\(name) needs --pkcs11 MODULE.so")
            }
            return nil
        }
        for name in ["p12", "key", "cert"] where arguments.value(name) != nil {
            throw UsageError("give --pkcs11 or --\(name), not both")
        }
        return try PKCS11Signer(
            module: module, tokenLabel: arguments.value("token"), tokenSerial: arguments.value("token-serial"),
            keyLabel: arguments.value("key-label"), keyID: try keyID(arguments), pin: try pin(arguments), chain: chain,
            scheme: arguments.has("pss") ? .rsaPSS : nil, allowExpired: arguments.has("allow-expired"))
    }

    /// The PIN from `--pin-file`, else the environment; nil when neither gives one.
    static func pin(_ arguments: Arguments) throws -> String? {
        if let path = arguments.value("pin-file") { return try TimeStampOptions.secret(path) }
        if let value = getenv(pinVariable).map({ String(cString: $0) }), !value.isEmpty { return value }
        return nil
    }

    static func keyID(_ arguments: Arguments) throws -> [UInt8]? {
        guard let text = arguments.value("key-id") else { return nil }
        guard !text.isEmpty, text.utf8.count <= 256, let bytes = Hex.decode(text) else {
            throw UsageError("--key-id takes hexadecimal digits, an even number of them, not \(text.prefix(40))")
        }
        return bytes
    }
}
