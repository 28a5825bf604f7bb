import AutographJSON
import PDFSigning

/// `autograph pkcs11 list`: what a PKCS#11 module offers, as `pkcs11-tool -O` shows it.
enum PKCS11Command: Command {
    static let spec = CommandSpec(
        name: "pkcs11",
        summary: "List the tokens, keys and certificates a PKCS#11 module (token, HSM) offers",
        usage: "autograph pkcs11 list --module MODULE.so [--token LABEL] [--pin-file F] [--json]",
        positionals: 1...1,
        options: [
            .init(name: "module", valueName: "MODULE.so", help: "the PKCS#11 module (required)"),
            .init(name: "token", valueName: "LABEL", help: "only this token"),
            .init(
                name: "pin-file", valueName: "F",
                help: "a file holding the user PIN, to see private objects (else $\(PKCS11Options.pinVariable))"),
            .init(name: "json", help: "print JSON: [{slot, label, serial, manufacturer, model, objects}]"),
        ],
        details: """
            For each token with a token present: its slot, label, serial number, manufacturer and model, then
            its private keys and certificates (label, id in hexadecimal; a certificate's subject and validity).
            Without a PIN only public objects show. The labels and ids are what `autograph sign --pkcs11 …
            --key-label L` or `--key-id HEX` takes.
            """)

    static func run(_ arguments: Arguments, console: Console) async throws -> ExitCode {
        guard arguments.positionals.first == "list" else {
            throw UsageError("autograph pkcs11 takes one action: list")
        }
        guard let module = arguments.value("module") else { throw UsageError("--module MODULE.so is required") }
        let tokens = try PKCS11Inventory.read(
            module: module, tokenLabel: arguments.value("token"), pin: try PKCS11Options.pin(arguments))
        if arguments.has("json") {
            console.print(JSONValue.array(tokens.map(\.json)).prettyText)
            return .success
        }
        if tokens.isEmpty { console.print("no token present in \(module)") }
        for token in tokens {
            console.print(
                "Slot \(token.slot): token '\(token.label)' serial \(token.serialNumber) (\(token.manufacturer) \(token.model))"
                    + (token.pinLocked ? ", PIN LOCKED" : ""))
            for object in token.objects {
                var line = "  \(object.kind): label '\(object.label)' id \(object.id)"
                if let subject = object.subject { line += "\n    subject \(subject)" }
                if let validity = object.validity { line += "\n    valid \(validity)" }
                console.print(line)
            }
        }
        return .success
    }
}
