import PDFSigning

/// `--tsa URL [--tsa-user U --tsa-password-file F | --tsa-token-file F]`: the time-stamp authority
/// of `sign --level B-T` and of `timestamp`. Secrets come from files, never the command line (where
/// any user of the machine can read them).
enum TimeStampOptions {
    static let specs: [CommandSpec.Option] = [
        .init(name: "tsa", valueName: "URL", help: "the RFC 3161 time-stamp authority (http or https)"),
        .init(name: "tsa-user", valueName: "U", help: "the authority's user name (HTTP basic authentication)"),
        .init(name: "tsa-password-file", valueName: "F", help: "a file holding the password of --tsa-user"),
        .init(name: "tsa-token-file", valueName: "F", help: "a file holding a bearer token for the authority"),
    ]

    /// The authority the arguments name; nil without `--tsa`.
    static func authority(_ arguments: Arguments) throws -> HTTPTimeStampAuthority? {
        guard let url = arguments.value("tsa") else {
            for name in ["tsa-user", "tsa-password-file", "tsa-token-file"] where arguments.value(name) != nil {
                throw UsageError("--\(name) needs --tsa URL")
            }
            return nil
        }
        var authority = try HTTPTimeStampAuthority(url: url)
        if let user = arguments.value("tsa-user") {
            authority.username = user
            if let path = arguments.value("tsa-password-file") { authority.password = try secret(path) }
        } else if arguments.value("tsa-password-file") != nil {
            throw UsageError("--tsa-password-file needs --tsa-user")
        }
        if let path = arguments.value("tsa-token-file") {
            guard arguments.value("tsa-user") == nil else {
                throw UsageError("give --tsa-user or --tsa-token-file, not both")
            }
            authority.bearerToken = try secret(path)
        }
        return authority
    }

    /// The first line of the file at `path`, without its line break.
    static func secret(_ path: String) throws -> String {
        let text = String(decoding: try readFile(path), as: UTF8.self)
        let line = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return String(line.hasSuffix("\r") ? line.dropLast() : line)
    }
}
