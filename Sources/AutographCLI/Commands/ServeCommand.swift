import Dispatch
import PDFCore
import PDFSession
import PDFSigning
import PDFWeb

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `autograph serve`: the web viewer and its JSON API (docs/web-api.md) until SIGINT or SIGTERM.
enum ServeCommand: Command {
    static let spec = CommandSpec(
        name: "serve",
        summary: "Serve the web viewer and its API over a signing session (local use: token, loopback)",
        usage:
            "autograph serve [FILE] [--port N] [--host H] [--store DIR] [--key-file KEY] [--web-root DIR] [--name NAME]",
        positionals: 0...1,
        options: [
            .init(name: "port", valueName: "N", help: "the TCP port (default 8410; 0: any free port)"),
            .init(name: "host", valueName: "H", help: "the address to listen on (default 127.0.0.1)"),
            .init(name: "store", valueName: "DIR", help: "where the session store goes (default .build/serve)"),
            .init(name: "key-file", valueName: "KEY", help: "the store's 64-byte key (else $AUTOGRAPH_STORAGE_KEY)"),
            .init(name: "web-root", valueName: "DIR", help: "serve the viewer's files from DIR (front-end work)"),
            .init(name: "name", valueName: "NAME", help: "the demo signer's name (default Ada Lovelace)"),
            .init(name: "continuous", help: "scroll continuously (default: one page at a time, as WYSIWYS)"),
            .init(name: "vertical", help: "scroll vertically (default: horizontally, as WYSIWYS)"),
            .init(name: "two-page", help: "two pages side by side, the first alone as a cover"),
        ],
        details: """
            Opens FILE (or the demo form) in a session whose store is DIR/store.sqlite, signs with the demo
            identity (made on the first run and kept in the store; its root DIR/demo-root.pem is trusted by
            nothing), and prints the one URL to open, with the run's random token. Every request must carry
            the token; only the Host named in the URL is answered. Without a key the store uses a public demo
            key: it protects nothing.
            """)

    static func run(_ arguments: Arguments, console: Console) async throws -> ExitCode {
        let host = arguments.value("host") ?? "127.0.0.1"
        guard let port = Int(arguments.value("port") ?? "8410"), (0...65535).contains(port) else {
            throw UsageError("--port must be a number from 0 to 65535")
        }
        let directory = arguments.value("store") ?? ".build/serve"
        let name = arguments.value("name") ?? "Ada Lovelace"
        let demo = try DemoStore(
            directory: directory, name: name, arguments: arguments, console: console, command: "serve")
        let controller = demo.controller
        let signature = demo.configuration
        var viewer = ViewerConfiguration()
        viewer.continuousScrolling = arguments.has("continuous")
        viewer.verticalScrolling = arguments.has("vertical")
        viewer.twoPageSpreads = arguments.has("two-page")
        let backend = WebBackend(
            controller: controller, signatureConfiguration: signature, viewerConfiguration: viewer)
        if let file = arguments.positionals.first {
            try await backend.open(pdf: try readFile(file), documentID: nil)
        } else {
            try await backend.open(pdf: DemoForm.make(), documentID: "demo-form")
        }

        var configuration = WebServer.Configuration()
        configuration.webRoot = arguments.value("web-root")
        let server = WebServer(backend: backend, configuration: configuration)
        let bound: Int
        do {
            bound = try server.start(host: host, port: port)
        } catch {
            console.error("autograph serve: \(error.message)")
            return .failure
        }
        let shownHost = host.contains(":") ? "[\(host)]" : host
        console.print("autograph serve: open http://\(shownHost):\(bound)/?token=\(server.token)")
        let signal = await waitForTermination()
        console.print("autograph serve: \(signal), stopping")
        server.stop()
        await backend.close()
        return .success
    }

    /// Waits for SIGINT or SIGTERM (their default action is turned off meanwhile).
    static func waitForTermination() async -> String {
        let (stream, continuation) = AsyncStream.makeStream(of: String.self)
        var sources: [any DispatchSourceSignal] = []
        for (number, label) in [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM")] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { continuation.yield(label) }
            source.resume()
            sources.append(source)
        }
        var received = "stopped"
        for await label in stream {
            received = label
            break
        }
        for source in sources { source.cancel() }
        return received
    }
}
