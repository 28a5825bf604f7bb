import Glibc
import PDFSigning

/// The Autograph side of the csc step's throughput:
/// `autograph-bench --csc-worker BASE_URL CREDENTIAL DOCUMENT SAMPLE COUNT TASKS ROUNDS SERVER_LOG`
/// (TASKS: "1,8").
///
/// One `CSCClient(baseURL:)` and one `CSCSigner(client:credentialID:)` for the whole process, shared by
/// every task: while one `signatures/signHash` call is under way, the hashes of the other tasks' signatures
/// wait and go together in the next authorization and signing call. DOCUMENT read once. Each signature,
/// timed with the rest of its pass: `PDFDocument(bytes:)`, `DocumentSigner(document:request:signer:)
/// .sign()` with a new invisible field `Sig`, `bytes()` (``PKCS11Worker/pass(_:signer:signatures:threads:)``).
/// For each TASKS value, ROUNDS passes of COUNT signatures: 1 task signs them one after the other; more,
/// a task group of that many tasks, each signing its share. The signer is made, and signs once per task
/// count, before anything is timed. After each pass, untimed, the lines SERVER_LOG gained are the requests
/// the server received during the pass.
///
/// Output, one line each: `V \t DESCRIPTION`, then per pass `T \t TASKS \t ROUND \t SIGNATURES \t SECONDS
/// \t REQUESTS`, or `F \t REASON` when signing failed (exit 1). The last signed document goes to SAMPLE.
enum CSCWorker {
    struct Arguments {
        var baseURL: String
        var credential: String
        var document: String
        var sample: String
        var signatures: Int
        var tasks: [Int]
        var rounds: Int
        var serverLog: String
    }

    static func main(_ arguments: Arguments) async -> Int32 {
        let bytes = readFile(arguments.document)
        let signer: CSCSigner
        do {
            guard !bytes.isEmpty else { throw BenchError("cannot read \(arguments.document)") }
            let client = try await CSCClient(baseURL: arguments.baseURL)
            signer = try await CSCSigner(client: client, credentialID: arguments.credential)
        } catch {
            emitLine("F\t\(CorpusProtocol.field("\(error)"))")
            return 1
        }
        let scheme = signer.scheme == .ecdsa ? "ECDSA" : "RSA"
        emitLine(
            "V\tAutograph PDFSigning (in process, \(scheme), one CSCSigner shared by the tasks, up to "
                + "\(signer.credential.multisign) hashes a call)")
        var last: [UInt8] = []
        defer { _ = try? PKCS11Worker.writeFile(last, to: arguments.sample) }
        do {
            for tasks in arguments.tasks {
                // Untimed: the code paths warm, the client's connections open.
                last = try await PKCS11Worker.pass(bytes, signer: signer, signatures: tasks, threads: tasks)
                for round in 0..<arguments.rounds {
                    let offset = CSCDummyServer.size(arguments.serverLog)
                    let start = monotonicSeconds()
                    last = try await PKCS11Worker.pass(
                        bytes, signer: signer, signatures: arguments.signatures, threads: tasks)
                    let seconds = monotonicSeconds() - start
                    let requests = CSCDummyServer.lines(arguments.serverLog, since: offset)
                    emitLine("T\t\(tasks)\t\(round)\t\(arguments.signatures)\t\(seconds)\t\(requests)")
                }
            }
        } catch {
            emitLine("F\t\(CorpusProtocol.field("\(error)"))")
            return 1
        }
        return 0
    }
}
