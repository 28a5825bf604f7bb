import PDFSigning

/// The Autograph side of the csc step's throughput:
/// `autograph-bench --csc-worker BASE_URL CREDENTIAL DOCUMENT SAMPLE COUNT TASKS ROUNDS SERVER_LOG`
/// (TASKS: "1,8").
///
/// One `CSCClient(baseURL:)` and one `CSCSigner(client:credentialID:)` for the whole process, shared by
/// every task: while one `signatures/signHash` call is under way, the hashes of the other tasks' signatures
/// wait and go together in the next authorization and signing call. The passes, the timing and the output
/// as ``RemoteSignerWorker`` runs them, with SERVER_LOG as the request log: after each pass, untimed, the
/// lines it gained are the requests the server received during the pass.
enum CSCWorker {
    struct Arguments {
        var baseURL: String
        var credential: String
        /// DOCUMENT SAMPLE COUNT TASKS ROUNDS, and SERVER_LOG as the request log.
        var passes: RemoteSignerWorker.Passes
    }

    static func main(_ arguments: Arguments) async -> Int32 {
        await RemoteSignerWorker.main(arguments.passes) {
            let client = try await CSCClient(baseURL: arguments.baseURL)
            return try await CSCSigner(client: client, credentialID: arguments.credential)
        } describe: { signer in
            "\(RemoteSignerWorker.name(signer.scheme)), one CSCSigner shared by the tasks, up to "
                + "\(signer.credential.multisign) hashes a call"
        }
    }
}
