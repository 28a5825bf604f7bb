import AutographJSON
import PDFCore
import PDFSigning

/// `autograph csc credentials`: what a remote signing service (CSC API) lets the account use.
enum CSCCommand: Command {
    static let spec = CommandSpec(
        name: "csc",
        summary: "List the credentials a remote signing service (CSC API v1 or v2) offers the account",
        usage: """
            autograph csc credentials --csc BASE_URL [--csc-client-id ID --csc-secret-file F | --csc-token-file F]
                   [--user ID] [--json]
            """,
        positionals: 1...1,
        options: CSCOptions.connectionSpecs + [
            .init(name: "user", valueName: "ID", help: "the user whose credentials are listed"),
            .init(
                name: "json",
                help: "print JSON: {service, version, credentials [{id, subject, validity, key, authMode, scal}]}"),
        ],
        details: """
            Discovers the service's version (v2, else v1), authenticates as its authType asks (client credentials
            through OAuth 2.0, basic, or a token from --csc-token-file), then lists each credential: its
            certificate's subject and validity, the key's algorithms and length, how a signature is authorized
            (implicit; explicit with PIN and OTP; oauth2code at the provider's page), its SCAL and how many
            hashes one authorization signs. The ids are what `autograph sign --csc … --credential ID` takes.
            """)

    static func run(_ arguments: Arguments, console: Console) async throws -> ExitCode {
        guard arguments.positionals.first == "credentials" else {
            throw UsageError("autograph csc takes one action: credentials")
        }
        guard let client = try await CSCOptions.client(arguments) else {
            throw UsageError("--csc BASE_URL is required")
        }
        var credentials: [(String, Result<CSCCredential, SigningError>)] = []
        let identifiers = try await client.credentialIDs(userID: arguments.value("user"))
        if identifiers.count > 200 { console.error("showing the first 200 of \(identifiers.count) credentials") }
        for id in identifiers.prefix(200) {
            do {
                credentials.append((id, .success(try await client.credential(id))))
            } catch {
                credentials.append((id, .failure(error)))
            }
        }
        if arguments.has("json") {
            let items: [JSONValue] = credentials.map { id, result in
                switch result {
                case .success(let credential): json(credential)
                case .failure(let error): .object([("id", .string(id)), ("error", .string(error.message))])
                }
            }
            console.print(
                JSONValue.object([
                    ("service", .string(client.info.name)), ("version", .string(client.version.rawValue)),
                    ("specs", .string(client.info.specs)), ("credentials", .array(items)),
                ]).prettyText)
            return .success
        }
        console.print(
            "\(client.info.name) (CSC API \(client.info.specs), authType \(client.info.authTypes.joined(separator: ", ")))"
        )
        if credentials.isEmpty { console.print("no credential for this account") }
        for (id, result) in credentials {
            switch result {
            case .success(let credential):
                let certificate = credential.certificate
                console.print(
                    """
                    \(id): \(credential.enabled ? "" : "DISABLED, ")\(credential.authMode), SCAL \(credential.scal), \
                    up to \(credential.multisign) hashes an authorization
                      subject \(certificate.subject)
                      valid \(validity(certificate))
                      key \(credential.keyLength.map { "\($0) bits, " } ?? "")\(credential.algorithms.joined(separator: " "))
                    """)
            case .failure(let error):
                console.print("\(id): \(error.message)")
            }
        }
        return .success
    }

    static func validity(_ certificate: Certificate) -> String {
        "\(PDFDate(seconds: certificate.notBefore).displayString) – \(PDFDate(seconds: certificate.notAfter).displayString)"
    }

    static func json(_ credential: CSCCredential) -> JSONValue {
        .object([
            ("id", .string(credential.id)), ("subject", .string(credential.certificate.subject)),
            ("validity", .string(validity(credential.certificate))), ("enabled", .bool(credential.enabled)),
            ("keyLength", credential.keyLength.map { .int($0) } ?? .null),
            ("algorithms", .array(credential.algorithms.map { .string($0) })),
            ("authMode", .string(credential.authMode)), ("pin", .string(credential.pin.rawValue)),
            ("otp", .string(credential.otp.rawValue)), ("scal", .int(credential.scal)),
            ("multisign", .int(credential.multisign)),
            ("certificates", .int(credential.certificates.count)),
        ])
    }
}
