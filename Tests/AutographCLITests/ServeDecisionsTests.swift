import Foundation
import PDFTestSupport
import PDFWeb
import Testing

@testable import AutographCLI

/// `autograph serve --decisions URL`: the URL, the secret (a file only its owner may read, or the
/// environment) and how it goes with `--embed-origin`, checked before the server starts.
@Suite(.serialized) struct ServeDecisionsTests {
    static let variable = "AUTOGRAPH_DECISIONS_SECRET"

    /// A secret file holding `text` with `mode`.
    static func secretFile(_ text: String, mode: Int = 0o600) throws -> String {
        let path = try TestPaths.temporaryDirectory("decisions") + "/decisions.secret"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        return path
    }

    /// `hostLink` for `arguments`: the link, or the usage error's message; what was printed.
    static func link(_ arguments: [String]) throws -> (link: WebBackend.HostLink?, error: String?, console: Console) {
        let console = Console.captured()
        let parsed = try ServeCommand.spec.parse(arguments)
        do {
            return (try ServeCommand.hostLink(parsed, console: console), nil, console)
        } catch let error as UsageError {
            return (nil, error.message, console)
        }
    }

    static func decisions(_ link: WebBackend.HostLink?) -> HTTPDecisions? {
        guard case .channel(let channel) = link else { return nil }
        return channel as? HTTPDecisions
    }

    @Test("--decisions URL with a secret file goes to the backend, with --decision-timeout")
    func backend() throws {
        let secret = try Self.secretFile("0123456789abcdef0123456789abcdef\n")
        let result = try Self.link([
            "--decisions", "https://backend.example.com/decisions", "--decisions-secret-file", secret,
            "--decision-timeout", "5",
        ])
        let channel = try #require(Self.decisions(result.link), "\(String(describing: result.error))")
        #expect(channel.url == "https://backend.example.com/decisions")
        #expect(channel.timeout == .seconds(5))
        #expect(result.console.errors.isEmpty)
        // Plain http beyond loopback is said aloud; on loopback it is not.
        let plain = try Self.link(["--decisions", "http://backend.example.com/d", "--decisions-secret-file", secret])
        #expect(Self.decisions(plain.link) != nil)
        #expect(plain.console.errors.contains("is plain http"))
        let loopback = try Self.link(["--decisions", "http://127.0.0.1:9000/d", "--decisions-secret-file", secret])
        #expect(Self.decisions(loopback.link) != nil && loopback.console.errors.isEmpty)
    }

    @Test(
        "--decisions refuses a URL that is not http or https, a missing, open or short secret",
        arguments: [
            (["--decisions", "ftp://backend.example.com/d"], "must be an http or https URL"),
            (["--decisions", "backend.example.com/d"], "must be an http or https URL"),
            (["--decisions", "https://backend.example.com/d"], "needs the secret"),
            (["--decisions", "https://b.example.com/d", "--decisions-secret-file", "OPEN"], "are too open; chmod 600"),
            (["--decisions", "https://b.example.com/d", "--decisions-secret-file", "SHORT"], "needs at least 16"),
            (["--decisions-secret-file", "GOOD"], "--decisions-secret-file goes with --decisions URL"),
        ])
    func refusals(_ arguments: [String], _ message: String) throws {
        unsetenv(Self.variable)
        let files = [
            "OPEN": try Self.secretFile("0123456789abcdef0123456789abcdef", mode: 0o644),
            "SHORT": try Self.secretFile("short\n"), "GOOD": try Self.secretFile("0123456789abcdef0123456789abcdef"),
        ]
        let result = try Self.link(arguments.map { files[$0] ?? $0 })
        #expect(result.link == nil)
        #expect(result.error?.contains(message) == true, "\(String(describing: result.error))")
    }

    @Test("the secret may come from $AUTOGRAPH_DECISIONS_SECRET")
    func environment() throws {
        setenv(Self.variable, "  a secret from the environment  ", 1)
        defer { unsetenv(Self.variable) }
        #expect(Self.decisions(try Self.link(["--decisions", "https://b.example.com/d"]).link) != nil)
        setenv(Self.variable, "too short", 1)
        #expect(try Self.link(["--decisions", "https://b.example.com/d"]).error?.contains("$\(Self.variable)") == true)
    }

    @Test("with --embed-origin too, the backend answers and the page may only frame the viewer")
    func backendWinsOverThePage() throws {
        let secret = try Self.secretFile("0123456789abcdef0123456789abcdef")
        let both = try Self.link([
            "--decisions", "https://backend.example.com/d", "--decisions-secret-file", secret, "--embed-origin",
            "https://app.example.com",
        ])
        #expect(Self.decisions(both.link) != nil)
        #expect(
            both.console.output.contains("the page at https://app.example.com may frame the viewer but answers none"))
        guard case .embeddingPage = try Self.link(["--embed-origin", "https://app.example.com"]).link else {
            Issue.record("--embed-origin alone: the page answers")
            return
        }
    }

    @Test("serve with a wrong --decisions exits 2 before creating anything")
    func usageExit() async throws {
        let directory = try TestPaths.temporaryDirectory("serve-decisions") + "/store"
        let result = await autograph("serve", "--store", directory, "--decisions", "gopher://b.example.com/")
        #expect(result.code == .usage, "\(result.errors)")
        #expect(result.errors.contains("--decisions must be an http or https URL"))
        #expect(!FileManager.default.fileExists(atPath: directory))
    }
}
