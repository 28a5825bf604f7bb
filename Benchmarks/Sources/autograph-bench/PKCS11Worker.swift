import PDFCore
import PDFSigning

/// The Autograph side of the pkcs11 step's throughput:
/// `autograph-bench --pkcs11-worker MODULE TOKEN PIN_FILE KEY_LABEL CHAIN DOCUMENT SAMPLE COUNT THREADS ROUNDS`
/// (THREADS: "1,8").
///
/// One `PKCS11Signer(module:tokenLabel:keyLabel:pin:chain:)` for the whole process (the token's pool of
/// sessions gives each concurrent signature a session of its own); the passes, the timing and the output
/// as ``RemoteSignerWorker`` runs them: 1 thread signs one signature after the other; more, a task group of
/// that many tasks.
enum PKCS11Worker {
    struct Arguments {
        var module: String
        var tokenLabel: String
        var pinFile: String
        var keyLabel: String
        var chain: String
        /// DOCUMENT SAMPLE COUNT THREADS ROUNDS.
        var passes: RemoteSignerWorker.Passes
    }

    static func main(_ arguments: Arguments) async -> Int32 {
        let pin = String(decoding: readFile(arguments.pinFile), as: UTF8.self).filter { !$0.isWhitespace }
        return await RemoteSignerWorker.main(arguments.passes) {
            try PKCS11Signer(
                module: arguments.module, tokenLabel: arguments.tokenLabel, keyLabel: arguments.keyLabel, pin: pin,
                chain: Certificate.certificates(pem: readFile(arguments.chain)))
        } describe: { signer in
            "\(RemoteSignerWorker.name(signer.scheme)), one PKCS11Signer, a pool of sessions"
        }
    }
}
