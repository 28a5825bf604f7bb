import PDFCore
import PDFSession
import PDFSigning

/// What `autograph demo` and `autograph serve` share: the session store in a directory (its key
/// from `--storage-key-file` / `$AUTOGRAPH_STORAGE_KEY`, else the public demo key, said aloud with
/// how to give a real one), the demo identity kept in it with its root written next to it, and the
/// signature configuration of a demo signer (handwriting on, the signer's name).
struct DemoStore {
    /// The store's user: `autograph session … --user demo` reads what serve and demo left.
    static let user = "demo"

    let directory: String
    /// `directory/store.sqlite`.
    let storePath: String
    /// Whether a key was given (false: the public demo key).
    let keyGiven: Bool
    let controller: SessionController
    let identity: DemoIdentity
    let configuration: SignatureConfiguration
    /// Whether the demo identity signs (false once a seal replaces it): `serve` then trusts its
    /// root in its own signature panel, and only there.
    var identitySigns = true

    init(directory: String, name: String, arguments: Arguments, console: Console, command: String) throws {
        try makeDirectory(directory)
        storePath = directory + "/store.sqlite"
        let given = try StorageKey.read(arguments)
        keyGiven = given != nil
        self.directory = directory
        do {
            controller = try SessionController(
                username: Self.user, storageKey: given ?? StorageKey.publicDemoKey, storePath: storePath)
        } catch {
            throw StorageKey.explained(error, keyGiven: keyGiven, storePath: storePath, user: Self.user)
        }
        if !keyGiven {
            console.error(StorageKey.publicKeyWarning(command: command, storePath: storePath, user: Self.user))
        }
        identity = try controller.demoIdentity(name: name)
        try writeFile(
            directory + "/demo-root.pem", PEM.encode(try identity.rootCertificate.derBytes, label: "CERTIFICATE"))
        var configuration = SignatureConfiguration(signer: try identity.signer())
        configuration.appearance.handwrittenSignatureEnabled = true
        configuration.attributes.signatureName = name
        self.configuration = configuration
    }
}
