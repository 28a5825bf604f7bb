import PDFCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `autograph` command-line tool as a library, so its commands run in process in tests.
public enum AutographCLI {
    /// The version printed by `--version` and written into documents we produce.
    public static let version = "0.1.0"

    static let commands: [any Command.Type] = [
        InfoCommand.self, FieldsCommand.self, FillCommand.self, ExportValuesCommand.self, SignCommand.self,
        PrepareCommand.self, EmbedCommand.self, WatermarkCommand.self, RefuseCommand.self, BiometricsCommand.self,
        PhotoCommand.self, InkCommand.self, RenderCommand.self, ThumbnailsCommand.self, RewriteCommand.self,
        MetadataCommand.self, SampleCommand.self, TextCommand.self, SearchCommand.self,
        VerifyCommand.self, TimestampCommand.self, ExtendCommand.self, PKCS11Command.self, CSCCommand.self,
        DemoCommand.self,
        SessionCommand.self,
        ServeCommand.self,
    ]

    /// Runs the tool with `arguments` (without the program name) and exits the process.
    public static func main() async -> Never {
        let code = await run(Array(CommandLine.arguments.dropFirst()), console: .standard())
        exit(code.rawValue)
    }

    /// Runs the tool with `arguments` (without the program name), writing to `console`.
    public static func run(_ arguments: [String], console: Console) async -> ExitCode {
        guard let first = arguments.first else {
            console.error(overview)
            return .usage
        }
        switch first {
        case "--help", "-h", "help":
            if arguments.count > 1, let command = commands.first(where: { $0.spec.name == arguments[1] }) {
                console.print(command.spec.help)
            } else {
                console.print(overview)
            }
            return .success
        case "--version":
            console.print("autograph \(version)")
            return .success
        default:
            break
        }
        guard let command = commands.first(where: { $0.spec.name == first }) else {
            console.error("autograph: unknown command '\(first)' (see autograph --help)")
            return .usage
        }
        let rest = Array(arguments.dropFirst())
        if rest.contains("--help") || rest.contains("-h") {
            console.print(command.spec.help)
            return .success
        }
        do {
            let parsed = try command.spec.parse(rest)
            return try await command.run(parsed, console: console)
        } catch {
            let (code, message) = failure(error, command: command.spec.name)
            console.error(message)
            return code
        }
    }

    static var overview: String {
        var text = """
            autograph \(version): read, fill and sign PDF documents.

            Usage: autograph <command> [options]

            Commands:

            """
        let width = (commands.map { $0.spec.name.count }.max() ?? 0) + 2
        for command in commands {
            let name = command.spec.name
            text += "  " + name + String(repeating: " ", count: width - name.count) + command.spec.summary + "\n"
        }
        text += """

            Run 'autograph <command> --help' for a command's options.
            Exit codes: 0 ok, 1 failure, 2 usage error, 3 succeeded with warnings,
            4 (verify) every signature intact but a signer not trusted.
            """
        return text
    }
}

/// One `autograph` subcommand.
protocol Command: Sendable {
    static var spec: CommandSpec { get }
    static func run(_ arguments: Arguments, console: Console) async throws -> ExitCode
}

extension Command {
    /// Opens the document named by the first positional argument.
    static func openDocument(_ arguments: Arguments) throws -> PDFDocument {
        var options = ParseOptions()
        options.password = arguments.value("password")
        return try PDFDocument(contentsOfFile: arguments.positionals[0], options: options)
    }

    /// Prints the document's warnings to standard error and returns the exit code they imply.
    static func report(_ warnings: [PDFWarning], console: Console) -> ExitCode {
        for warning in warnings { console.error("warning: \(warning.description)") }
        return warnings.isEmpty ? .success : .successWithWarnings
    }
}
