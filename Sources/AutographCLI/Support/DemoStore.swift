import PDFCore
import PDFSession
import PDFSigning

/// What `autograph demo` and `autograph serve` share: the session store in a directory (its key
/// from `--key-file` / `$AUTOGRAPH_STORAGE_KEY`, else the public demo key, said aloud), the demo
/// identity kept in it with its root written next to it, and the signature configuration of a
/// demo signer (handwriting on, the signer's name).
struct DemoStore {
    let directory: String
    let controller: SessionController
    let identity: DemoIdentity
    let configuration: SignatureConfiguration

    init(directory: String, name: String, arguments: Arguments, console: Console, command: String) throws {
        try makeDirectory(directory)
        let key: [UInt8]
        if let given = try StorageKey.read(arguments) {
            key = given
        } else {
            console.print("\(command): no storage key given; the store uses a public key (it protects nothing)")
            key = StorageKey.publicDemoKey
        }
        self.directory = directory
        controller = try SessionController(username: "demo", storageKey: key, storePath: directory + "/store.sqlite")
        identity = try controller.demoIdentity(name: name)
        try writeFile(
            directory + "/demo-root.pem", PEM.encode(try identity.rootCertificate.derBytes, label: "CERTIFICATE"))
        var configuration = SignatureConfiguration(signer: try identity.signer())
        configuration.appearance.handwrittenSignatureEnabled = true
        configuration.attributes.signatureName = name
        self.configuration = configuration
    }
}
