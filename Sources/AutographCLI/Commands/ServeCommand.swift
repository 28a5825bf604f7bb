import AutographJSON
import CShims
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
        usage: """
            autograph serve [FILE [--password P]] [--port N] [--host H] [--store DIR] [--storage-key-file KEY] [--print-token-file F]
                                  [--replace] [--web-root DIR] [--name NAME] [--trust ROOT.pem ...]
                                  [--embed-origin ORIGIN] [--decision-timeout SECONDS] [--config FILE]
                                  [--connections-per-address N]
                                  [--decisions URL --decisions-secret-file FILE]
                                  [--tsa URL [--tsa-user U --tsa-password-file F | --tsa-token-file F]]
                                  [--allow-fetch-to HOST[:PORT]|CIDR ...]
                                  [--pkcs11 MODULE.so [--token LABEL] [--key-label L | --key-id HEX] [--pin-file F] [--chain C.pem]
                                   | --csc BASE_URL --credential ID [--csc-client-id ID --csc-secret-file F] [--pin-file F]
                                   | --csc BASE_URL --csc-client-id ID [--csc-secret-file F]
                                   | --seal pkcs11:…|csc:BASE_URL#CREDENTIAL]
            """,
        positionals: 0...1,
        options: [
            .init(name: "port", valueName: "N", help: "the TCP port (default 8410; 0: any free port)"),
            .init(name: "host", valueName: "H", help: "the address to listen on (default 127.0.0.1)"),
            .init(name: "store", valueName: "DIR", help: "where the session store goes (default .build/serve)"),
            TokenFile.spec,
            .init(
                name: "password", valueName: "P",
                help: "user or owner password of an encrypted FILE (kept, encrypted, in the store with it)"),
        ] + StorageKey.options + [
            .init(name: "replace", help: "discard the stored document of FILE (or the demo form) and start over"),
            .init(name: "web-root", valueName: "DIR", help: "serve the viewer's files from DIR (front-end work)"),
            .init(name: "name", valueName: "NAME", help: "the demo signer's name (default Ada Lovelace)"),
            .init(
                name: "trust", valueName: "ROOT.pem",
                help: "trust anchors of the signature panel (PEM or DER); repeatable (the demo's own root is trusted)",
                repeatable: true),
            .init(
                name: "allow-fetch-to", valueName: "HOST[:PORT]|CIDR",
                help: "a private or loopback destination completing a document may fetch OCSP, CRLs from; repeatable",
                repeatable: true),
            .init(
                name: "lock-fields", valueName: "filled|all|none",
                help: "the fields each signature locks (FieldMDP; default: filled, the fields holding a value)"),
            .init(
                name: "paged",
                help: "one page at a time, turned horizontally, as WYSIWYS (default: continuous vertical scrolling)"),
            .init(name: "continuous", help: "with --paged: scroll continuously all the same"),
            .init(name: "vertical", help: "with --paged: turn pages vertically"),
            .init(name: "two-page", help: "two pages side by side, the first alone as a cover"),
            .init(
                name: "config", valueName: "FILE",
                help: "the viewer's and the signature's configuration, JSON as POST /api/configuration takes it"),
            .init(
                name: "embed-origin", valueName: "ORIGIN",
                help: "the one origin (https://app.example.com) whose pages may frame and drive the viewer"),
            .init(
                name: "connections-per-address", valueName: "N",
                help: "connections from one client address at once (default 64; 0: no limit, behind a reverse proxy)"),
            .init(
                name: "decision-timeout", valueName: "SECONDS",
                help: "how long one step waits for all the host's answers before the defaults (default 60)"),
            .init(
                name: "decisions", valueName: "URL",
                help: "POST each decision, HMAC-signed, to the host's backend at URL (http or https) and use its answer"
            ),
            .init(
                name: "decisions-secret-file", valueName: "FILE",
                help: "the secret --decisions signs with, mode 600 (else $\(DecisionsSecret.environmentVariable))"),
            .init(
                name: "chain", valueName: "CHAIN.pem", help: "with --pkcs11: the seal's intermediate certificates (PEM)"
            ),
        ] + TimeStampOptions.specs + PKCS11Options.specs + CSCOptions.connectionSpecs + CSCOptions.signingSpecs
            + [SealURI.spec],
        details: """
            Opens FILE (or the demo form) in a session whose store is DIR/store.sqlite (user "demo"), signs with
            the demo identity (made on the first run and kept in the store; its root DIR/demo-root.pem is trusted
            by this server's signature panel only, which says so, and by nothing else), and prints a sign-in link
            (it opens the viewer in one browser, once, and leaves a cookie) and the run's random API token for
            scripts (also written to --print-token-file F, a new file of mode 600 removed when the server stops).
            Only the Host named in the URL is answered. With --tsa
            every signature is time-stamped (PAdES B-T); an authority that fails is -146, and the prepared
            document waits to be signed again. Completing a signed document with --tsa makes it last (B-LTA): the
            statuses (OCSP, CRLs) and issuers of its certificates are fetched only for certificates whose path leads
            to a --trust root or to the seal's own chain, and only from public addresses on ports 80 and 443 (no
            proxy, no redirect, 10 s each); --allow-fetch-to adds a destination (a name, an address, with a port,
            or a network: ocsp.internal, 127.0.0.1:8080, 10.20.0.0/16). With --pkcs11 the service signs with a seal in a PKCS#11 token or
            HSM instead of the demo identity (its PIN from --pin-file or $AUTOGRAPH_PKCS11_PIN, checked before
            the service listens; --chain adds its intermediate certificates). With --csc the seal is a credential
            of a remote signing service (CSC API v1 or v2): the service is asked for it, and its PIN checked by
            the first signature; signatures made at once share one authorization and one signing call. --csc
            without --credential lets each person sign with their own certificate at that provider: the viewer's
            "Provider certificate" button opens the provider's authorization page (OAuth 2.0 with PKCE, as the
            client --csc-client-id), which sends the browser back to /provider-return; the first credential of
            their account that needs no further step (implicit authorization) then signs, and the preview shows it.
            --seal URI gives the seal in one: a PKCS#11 URI (RFC 7512), pkcs11:token=LABEL;object=KEY?module-path=
            MODULE.so&pin-source=file:PIN-FILE, or csc:BASE_URL#CREDENTIAL.

            A restart loses nothing: the document's id is "demo-form", or for FILE "file-" and the first 16 hex
            digits of the SHA-256 of its bytes, and a stored document of that id is resumed as it was left
            (filled, prepared or signed; serve says so in one line) instead of being opened afresh. --replace
            discards it and starts over. List what the store holds with
              autograph session list --store DIR/store.sqlite --user demo [--storage-key-file KEY]

            The store's key: --storage-key-file KEY (64 bytes or 128 hex digits; refused unless only its owner
            may read it) or $AUTOGRAPH_STORAGE_KEY. Without one the store uses a public key that protects
            nothing. Make a real one with
              \(StorageKey.generation)
            and move a store made with the public key to it with
              autograph session rekey --store DIR/store.sqlite --user demo --from-public-key \
            --new-storage-key-file store.key

            Connections (docs/web-api.md, "Connections"): a request's head must arrive within 5 s of its connection,
            each connection carries one request, and one client address holds at most 64 connections at once
            (--connections-per-address). Behind a reverse proxy every connection comes from the proxy's address:
            give --connections-per-address 0 (or the most connections the proxy opens to this server), and let the
            proxy limit its clients.

            Who answers the session's decisions (willStartSigning, willConfirmSigning …; docs/web-api.md): nobody
            (every default) unless --decisions URL sends each one to the host's backend as a POST signed with
            HMAC-SHA-256 (X-Autograph-Timestamp, X-Autograph-Signature), or --embed-origin lets the embedding page
            answer them. With both, the backend answers and the page at ORIGIN may only frame the viewer (a page's
            answers come from the signer's browser, where they can be changed; the backend's cannot). A question
            waits --decision-timeout seconds; no answer in time, a status other than 2xx or an answer that is not
            a JSON object means the seed's default, said in one line on standard error. The secret:
            --decisions-secret-file FILE (its text, at least 16 bytes; refused unless only its owner may read it)
            or $\(DecisionsSecret.environmentVariable); make one with
              \(DecisionsSecret.generation)
            """)

    static func run(_ arguments: Arguments, console: Console) async throws -> ExitCode {
        let host = arguments.value("host") ?? "127.0.0.1"
        guard let port = Int(arguments.value("port") ?? "8410"), (0...65535).contains(port) else {
            throw UsageError("--port must be a number from 0 to 65535")
        }
        var perAddress = WebServer.Configuration().connectionsPerAddress
        if let text = arguments.value("connections-per-address") {
            guard let count = Int(text), (0...100_000).contains(count) else {
                throw UsageError("--connections-per-address must be a number from 0 (no limit) to 100000")
            }
            perAddress = count
        }
        let tokenFile = arguments.value("print-token-file")
        if let tokenFile { try TokenFile.check(tokenFile) }
        let (demo, backend) = try await prepare(arguments, console: console)

        var configuration = WebServer.Configuration()
        configuration.webRoot = arguments.value("web-root")
        configuration.embedOrigin = try embedOrigin(arguments)
        configuration.connectionsPerAddress = perAddress
        for path in arguments.values("trust") {
            configuration.trustRoots += try VerifyCommand.certificates(in: path)
        }
        // The panel trusts the demo identity this server signs with; it says nothing else does.
        if demo.identitySigns { configuration.demoTrustRoots = try [demo.identity.rootCertificate] }
        // Large buffers (documents of each revision, pages drawn, PNGs) are mapped on their own and
        // given back when freed: glibc's own threshold rises after each large free, and the server's
        // memory then only grew under load.
        _ = autograph_set_malloc_mmap_threshold(1 << 20)
        let server = WebServer(backend: backend, configuration: configuration)
        let bound: Int
        do {
            bound = try server.start(host: host, port: port)
        } catch {
            console.error("autograph serve: \(error.message)")
            await backend.close()
            return .failure
        }
        if let tokenFile {
            do {
                try TokenFile.write(server.token, to: tokenFile)
            } catch {
                server.stop()
                await backend.close()
                throw error
            }
        }
        let shownHost = host.contains(":") ? "[\(host)]" : host
        console.print("autograph serve: open http://\(shownHost):\(bound)\(server.signInLink())")
        console.print(
            "autograph serve: that link opens the viewer in one browser, once; the API token (scripts: "
                + "Authorization: Bearer; POST /api/links makes another link) is \(server.token)")
        console.print(
            "autograph serve: the store's documents: autograph session list --store \(demo.storePath) --user "
                + DemoStore.user + (demo.keyGiven ? " (with the same storage key)" : ""))
        let signal = await waitForTermination()
        console.print("autograph serve: \(signal), stopping")
        server.stop()
        if let tokenFile { TokenFile.remove(tokenFile) }
        await backend.close()
        return .success
    }

    /// Everything before the server listens: the store, and the backend with FILE's stored document
    /// (or the demo form's) resumed, or opened afresh; prints what it resumed or replaced.
    static func prepare(_ given: Arguments, console: Console) async throws -> (DemoStore, WebBackend) {
        let arguments = try SealURI.expand(given)
        // Who answers the decisions, first: a wrong option is said before anything is created.
        let host = try hostLink(arguments, console: console)
        // Every signature of the service is time-stamped (PAdES B-T) by the authority given.
        let authority = try TimeStampOptions.authority(arguments)
        let directory = arguments.value("store") ?? ".build/serve"
        let name = arguments.value("name") ?? "Ada Lovelace"
        let pdf: [UInt8]
        let id: String
        let password = arguments.value("password")
        if let file = arguments.positionals.first {
            pdf = try readFile(file)
            id = try documentID(forFile: pdf)
        } else {
            guard password == nil else { throw UsageError("--password goes with FILE (the demo form has none)") }
            pdf = DemoForm.make()
            id = demoDocumentID
        }
        var demo = try DemoStore(
            directory: directory, name: name, arguments: arguments, console: console, command: "serve")
        var viewer = ViewerConfiguration()
        var signature = demo.configuration
        signature.timeStampAuthority = authority
        signature.revocationFetchPolicy = try fetchPolicy(arguments)
        // A seal in a PKCS#11 token or HSM signs instead of the demo identity; the PIN is checked now,
        // so a wrong one stops the service before it listens.
        var provider: ProviderSigning?
        if let base = arguments.value("csc"), arguments.value("credential") == nil {
            // No credential named: each person signs with their own at the provider (the viewer's button).
            guard let clientID = arguments.value("csc-client-id") else {
                throw UsageError("--csc without --credential lets people sign with their own: it needs --csc-client-id")
            }
            provider = ProviderSigning(
                baseURL: base, clientID: clientID,
                clientSecret: try arguments.value("csc-secret-file").map(TimeStampOptions.secret))
            console.print("autograph serve: people may sign with their own certificate at \(base)")
        } else if let seal = try await CSCOptions.signer(arguments) {
            signature.signing = .signer(seal)
            demo.identitySigns = false
            signature.attributes.signatureName = seal.signerName ?? name
            console.print(
                "autograph serve: signing with the credential '\(seal.credential.id)' of \(arguments.value("csc") ?? "")"
            )
        } else if let seal = try PKCS11Options.signer(
            arguments, chain: try SignCommand.chainCertificates(arguments))
        {
            signature.signing = .signer(seal)
            demo.identitySigns = false
            signature.attributes.signatureName = seal.signerName ?? name
            console.print(
                "autograph serve: signing with the key '\(arguments.value("key-label") ?? "?")' of \(seal.tokenDescription)"
            )
        }
        // A document of several pages scrolls continuously, top to bottom, as pdf.js and Acrobat
        // show it; `--paged` keeps WYSIWYS's page at a time (a configuration file may say either).
        if !arguments.has("paged") {
            viewer.continuousScrolling = true
            viewer.verticalScrolling = true
        }
        // What the person filled stays as they signed it: a later edit is refused (-129), and a
        // validator names it, unless the operator chooses otherwise.
        let lock = arguments.value("lock-fields") ?? "filled"
        guard let fieldLock = SignatureFieldLock(rawValue: lock) else {
            throw UsageError("--lock-fields takes filled, all or none, not \(Console.inline(lock))")
        }
        signature.attributes.fieldLock = fieldLock
        if let path = arguments.value("config") {
            try configure(from: path, viewer: &viewer, signature: &signature)
        }
        if arguments.has("continuous") { viewer.continuousScrolling = true }
        if arguments.has("vertical") { viewer.verticalScrolling = true }
        if arguments.has("two-page") { viewer.twoPageSpreads = true }
        let backend = WebBackend(
            controller: demo.controller, signatureConfiguration: signature, viewerConfiguration: viewer,
            host: host, providerSigning: provider)
        if let line = try await openDocument(
            pdf, documentID: id, password: password, replace: arguments.has("replace"), in: backend)
        {
            console.print("autograph serve: " + line)
        }
        return (demo, backend)
    }

    /// Applies `--config FILE` (docs/web-api.md, "Configuration"): at most 1 MB of JSON.
    static func configure(
        from path: String, viewer: inout ViewerConfiguration, signature: inout SignatureConfiguration
    ) throws {
        let bytes = try readFile(path)
        guard bytes.count <= 1 << 20 else { throw UsageError("--config \(path): more than 1 MB") }
        do {
            let json = try JSONValue.parse(bytes)
            try ConfigurationJSON.apply(json, viewer: &viewer, signature: &signature)
        } catch let error as JSONValue.ParseError {
            throw UsageError("--config \(path): \(error)")
        } catch let error as WebError {
            throw UsageError("--config \(path): \(error.message)")
        }
    }

    /// What completing a document may fetch: for paths leading to the `--trust` roots (and the
    /// seal's chain), from public addresses and the `--allow-fetch-to` destinations.
    static func fetchPolicy(_ arguments: Arguments) throws -> RevocationFetchPolicy {
        var policy = RevocationFetchPolicy(
            trustAnchors: try arguments.values("trust").flatMap { try VerifyCommand.certificates(in: $0) })
        for destination in arguments.values("allow-fetch-to") {
            do {
                try policy.allow(destination)
            } catch {
                throw UsageError("--allow-fetch-to: \(error.message)")
            }
        }
        return policy
    }

    /// `--embed-origin`, written canonically; nil when not given.
    static func embedOrigin(_ arguments: Arguments) throws -> String? {
        guard let text = arguments.value("embed-origin") else { return nil }
        guard let origin = EmbedOrigin.parse(text) else {
            throw UsageError(
                "--embed-origin must be one origin, such as https://app.example.com or http://127.0.0.1:9000 "
                    + "(a scheme, a host and a port; no path, wildcard or credentials)")
        }
        return origin
    }

    /// Who answers the decisions: the backend at `--decisions` (it wins over `--embed-origin`, whose
    /// page may still frame the viewer), else the embedding page, else nobody.
    static func hostLink(_ arguments: Arguments, console: Console) throws -> WebBackend.HostLink {
        let timeout = try decisionTimeout(arguments)
        let origin = try embedOrigin(arguments)
        guard let url = arguments.value("decisions") else {
            guard arguments.values("decisions-secret-file").isEmpty else {
                throw UsageError("--decisions-secret-file goes with --decisions URL")
            }
            return origin == nil ? .none : .embeddingPage(timeout: timeout)
        }
        guard arguments.values("decisions").count == 1 else { throw UsageError("give --decisions once") }
        do {
            // Checked before the secret is read: a wrong URL is said first.
            _ = try HTTPDecisions(url: url, secret: [UInt8](repeating: 0, count: HTTPDecisions.minimumSecretLength))
        } catch {
            throw UsageError(
                "--decisions must be an http or https URL with a host, such as https://backend.example.com/decisions, "
                    + "not \(url)")
        }
        let secret = try DecisionsSecret.read(arguments)
        let channel: HTTPDecisions
        do {
            channel = try HTTPDecisions(url: url, secret: secret, timeout: timeout) { [console] line in
                console.error("autograph serve: " + line)
            }
        } catch {
            throw UsageError("--decisions: \(error.message)")
        }
        if url.lowercased().hasPrefix("http://") && !isLoopback(url) {
            console.error(
                "autograph serve: --decisions \(url) is plain http: the questions and answers are signed but cross the "
                    + "network readable by anyone on the way; use https")
        }
        if let origin {
            console.print(
                "autograph serve: decisions go to the backend at \(url); the page at \(origin) may frame the viewer "
                    + "but answers none")
        }
        return .channel(channel)
    }

    /// Whether `url`'s host is a loopback address or `localhost`.
    static func isLoopback(_ url: String) -> Bool {
        guard let start = url.firstRange(of: "://") else { return false }
        var authority = url[start.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        let host: Substring
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            host = authority[authority.index(after: authority.startIndex)..<close]
        } else {
            host = authority.prefix { $0 != ":" }
        }
        return host.lowercased() == "localhost" || host.hasPrefix("127.") || host == "::1"
    }

    /// `--decision-timeout` (1 to 3600 seconds; 60 by default).
    static func decisionTimeout(_ arguments: Arguments) throws -> Duration {
        guard let text = arguments.value("decision-timeout") else { return .seconds(60) }
        guard let seconds = Double(text), seconds.isFinite, (1...3600).contains(seconds) else {
            throw UsageError("--decision-timeout must be a number of seconds from 1 to 3600")
        }
        return .milliseconds(Int(seconds * 1000))
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
