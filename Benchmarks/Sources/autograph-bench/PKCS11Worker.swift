import Glibc
import PDFCore
import PDFSigning

/// The Autograph side of the pkcs11 step's throughput:
/// `autograph-bench --pkcs11-worker MODULE TOKEN PIN_FILE KEY_LABEL CHAIN DOCUMENT SAMPLE COUNT THREADS ROUNDS`
/// (THREADS: "1,8").
///
/// One `PKCS11Signer(module:tokenLabel:keyLabel:pin:chain:)` for the whole process (the token's pool of
/// sessions gives each concurrent signature a session of its own); DOCUMENT read once. Each signature,
/// timed with the rest of its pass: `PDFDocument(bytes:)`, `DocumentSigner(document:request:signer:)
/// .sign()` with a new invisible field `Sig`, `bytes()`. For each THREADS value, ROUNDS passes of COUNT
/// signatures: 1 thread signs them one after the other; more, a task group of that many tasks, each
/// signing its share (COUNT / THREADS, the first ones one more). The signer is made, and signs
/// once per thread count, before anything is timed.
///
/// Output, one line each: `V \t DESCRIPTION`, then per pass `T \t THREADS \t ROUND \t SIGNATURES \t
/// SECONDS`, or `F \t REASON` when signing failed (exit 1). The last signed document goes to SAMPLE.
enum PKCS11Worker {
    struct Arguments {
        var module: String
        var tokenLabel: String
        var pinFile: String
        var keyLabel: String
        var chain: String
        var document: String
        var sample: String
        var signatures: Int
        var threads: [Int]
        var rounds: Int
    }

    static func main(_ arguments: Arguments) async -> Int32 {
        let pin = String(decoding: readFile(arguments.pinFile), as: UTF8.self).filter { !$0.isWhitespace }
        let bytes = readFile(arguments.document)
        let signer: PKCS11Signer
        do {
            guard !bytes.isEmpty else { throw BenchError("cannot read \(arguments.document)") }
            signer = try PKCS11Signer(
                module: arguments.module, tokenLabel: arguments.tokenLabel, keyLabel: arguments.keyLabel, pin: pin,
                chain: Certificate.certificates(pem: readFile(arguments.chain)))
        } catch {
            emitLine("F\t\(CorpusProtocol.field("\(error)"))")
            return 1
        }
        let scheme = signer.scheme == .ecdsa ? "ECDSA" : "RSA"
        emitLine("V\tAutograph PDFSigning (in process, \(scheme), one PKCS11Signer, a pool of sessions)")
        var last: [UInt8] = []
        defer { _ = try? writeFile(last, to: arguments.sample) }
        do {
            for threads in arguments.threads {
                // Untimed: a session for each task opened, the code paths warm.
                last = try await pass(bytes, signer: signer, signatures: threads, threads: threads)
                for round in 0..<arguments.rounds {
                    let start = monotonicSeconds()
                    last = try await pass(bytes, signer: signer, signatures: arguments.signatures, threads: threads)
                    let seconds = monotonicSeconds() - start
                    emitLine("T\t\(threads)\t\(round)\t\(arguments.signatures)\t\(seconds)")
                }
            }
        } catch {
            emitLine("F\t\(CorpusProtocol.field("\(error)"))")
            return 1
        }
        return 0
    }

    /// Signs `signatures` copies of the document with `threads` tasks; the last one signed. (The csc
    /// step's worker signs its passes the same way.)
    static func pass(
        _ bytes: [UInt8], signer: some Signer, signatures: Int, threads: Int
    ) async throws -> [UInt8] {
        if threads == 1 {
            var last: [UInt8] = []
            for _ in 0..<signatures { last = try await sign(bytes, signer: signer) }
            return last
        }
        return try await withThrowingTaskGroup(of: [UInt8].self) { group in
            for task in 0..<threads {
                let share = signatures / threads + (task < signatures % threads ? 1 : 0)
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
