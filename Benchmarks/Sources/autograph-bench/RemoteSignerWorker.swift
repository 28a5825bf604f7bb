import Glibc
import PDFCore
import PDFSigning

/// What the in-process workers of the `pkcs11` and `csc` steps share (``PKCS11Worker``, ``CSCWorker``): the
/// signer made, and signing once per count, before anything is timed; DOCUMENT read once; each signature,
/// timed with the rest of its pass: `PDFDocument(bytes:)`, `DocumentSigner(document:request:signer:)
/// .sign()` with a new invisible field `Sig`, `bytes()`. For each count (threads or tasks), ROUNDS passes of
/// COUNT signatures: 1 signs them one after the other; more, a task group of that many tasks, each signing
/// its share (COUNT / tasks, the first ones one more). With a request log, after each pass, untimed, the
/// lines the log gained are the requests the server received during the pass.
///
/// Output, one line each: `V \t DESCRIPTION`, then per pass `T \t COUNT \t ROUND \t SIGNATURES \t SECONDS`
/// (and `\t REQUESTS` with a request log), or `F \t REASON` when signing failed (exit 1). The last signed
/// document goes to SAMPLE.
enum RemoteSignerWorker {
    /// The worker's last arguments: `DOCUMENT SAMPLE COUNT COUNTS ROUNDS` (COUNTS: "1,8").
    struct Passes {
        var document: String
        var sample: String
        var signatures: Int
        /// The threads or tasks of each series of passes.
        var counts: [Int]
        var rounds: Int
        /// The server's request log, or nil.
        var requestLog: String?
    }

    /// Makes the signer (`make`), reports what it is (`describe`: what follows "in process, SCHEME, "), then
    /// signs the passes; the process's exit code.
    static func main<S: Signer>(
        _ passes: Passes, make: () async throws -> S, describe: (S) -> String
    ) async -> Int32 {
        let bytes = readFile(passes.document)
        let signer: S
        do {
            guard !bytes.isEmpty else { throw BenchError("cannot read \(passes.document)") }
            signer = try await make()
        } catch {
            emitLine("F\t\(CorpusProtocol.field("\(error)"))")
            return 1
        }
        emitLine("V\tAutograph PDFSigning (in process, \(describe(signer)))")
        var last: [UInt8] = []
        defer { _ = try? writeFile(last, to: passes.sample) }
        do {
            for count in passes.counts {
                // Untimed: the code paths warm, a session (PKCS#11) or a connection (CSC) for each task opened.
                last = try await pass(bytes, signer: signer, signatures: count, tasks: count)
                for round in 0..<passes.rounds {
                    let offset = passes.requestLog.map { fileSize($0) } ?? 0
                    let start = monotonicSeconds()
                    last = try await pass(bytes, signer: signer, signatures: passes.signatures, tasks: count)
                    let seconds = monotonicSeconds() - start
                    let requests = passes.requestLog.map { "\t\(CSCDummyServer.lines($0, since: offset))" } ?? ""
                    emitLine("T\t\(count)\t\(round)\t\(passes.signatures)\t\(seconds)\(requests)")
                }
            }
        } catch {
            emitLine("F\t\(CorpusProtocol.field("\(error)"))")
            return 1
        }
        return 0
    }

    /// "ECDSA" or "RSA".
    static func name(_ scheme: SignatureScheme) -> String { scheme == .ecdsa ? "ECDSA" : "RSA" }

    /// Signs `signatures` copies of the document with `tasks` tasks; the last one signed.
    private static func pass(
        _ bytes: [UInt8], signer: some Signer, signatures: Int, tasks: Int
    ) async throws -> [UInt8] {
        if tasks == 1 {
            var last: [UInt8] = []
            for _ in 0..<signatures { last = try await sign(bytes, signer: signer) }
            return last
        }
        return try await withThrowingTaskGroup(of: [UInt8].self) { group in
            for task in 0..<tasks {
                let share = signatures / tasks + (task < signatures % tasks ? 1 : 0)
                group.addTask {
                    var last: [UInt8] = []
                    for _ in 0..<share { last = try await sign(bytes, signer: signer) }
                    return last
                }
            }
            var last: [UInt8] = []
            for try await result in group where !result.isEmpty { last = result }
            return last
        }
    }

    /// One signature: open, sign with a new invisible field, the signed document in memory.
    private static func sign(_ bytes: [UInt8], signer: some Signer) async throws -> [UInt8] {
        let document = try PDFDocument(bytes: bytes)
        let request = SignatureRequest(fieldName: "Sig", placement: .invisible)
        return try await DocumentSigner(document: document, request: request, signer: signer).sign().bytes()
    }

    /// Writes `bytes` to `path` (replaced).
    static func writeFile(_ bytes: [UInt8], to path: String) throws(BenchError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else {
            throw BenchError("cannot write \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { throw BenchError("cannot write \(path)") }
            offset += written
        }
    }
}
