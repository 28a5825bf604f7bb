#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `--p12 ID.p12 [--p12-password-file F]`: a PKCS#12 key container and its password, for every
/// command that signs with one (`sign`, `refuse`). The password comes from a file or
/// `$AUTOGRAPH_P12_PASSWORD`; `--p12-password PW` is kept for old scripts and discouraged, since a
/// command line shows in `ps` to every user of the machine.
enum PKCS12Options {
    /// The environment variable that holds the password when no option gives it.
    static let passwordVariable = "AUTOGRAPH_P12_PASSWORD"

    static let specs: [CommandSpec.Option] = [
        .init(name: "p12", valueName: "ID.p12", help: "a PKCS#12 key container"),
        .init(
            name: "p12-password-file", valueName: "F",
            help: "a file whose first line is the PKCS#12 password (else $\(passwordVariable))"),
        .init(
            name: "p12-password", valueName: "PW",
            help: "the PKCS#12 password on the command line (discouraged: ps shows it; use the file or variable)"),
    ]

    /// The password of `--p12`: `--p12-password-file`'s first line, `--p12-password`, or
    /// `$AUTOGRAPH_P12_PASSWORD`, in that order; nil when none gives one (the container is then
    /// opened with the absent and the empty password, and "needs a password" when neither opens it).
    /// - Throws: `UsageError` for both options at once, or for either without `--p12`.
    static func password(_ arguments: Arguments) throws -> String? {
        let file = arguments.value("p12-password-file")
        let given = arguments.value("p12-password")
        guard arguments.value("p12") != nil else {
            for name in ["p12-password-file", "p12-password"] where arguments.value(name) != nil {
                throw UsageError("--\(name) needs --p12 ID.p12")
            }
            return nil
        }
        if file != nil && given != nil { throw UsageError("give --p12-password-file or --p12-password, not both") }
        if let file { return try TimeStampOptions.secret(file) }
        if let given { return given }
        if let value = getenv(passwordVariable) { return String(cString: value) }
        return nil
    }
}
