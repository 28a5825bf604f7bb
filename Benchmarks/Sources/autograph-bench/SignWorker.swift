import Glibc
import PDFCore
import PDFSigning

/// The Autograph side of the sign step:
/// `autograph-bench --sign-worker LIST ROUNDS P12 PASSWORD FIELD X1,Y1,X2,Y2`.
///
/// The key is loaded once (`LocalKeySigner(pkcs12:password:)`). Then every task, once per round:
/// open the file, sign it with `DocumentSigner` (a new visible field on page 1 at the rectangle)
/// and write the signed document to memory (`sign().bytes()`). Only that is timed. Output: the
/// protocol of `CorpusProtocol`, with OBJECTS = 1 (documents signed) and DECODED_BYTES = the size
/// of the signed document.
enum SignWorker {
    struct Arguments {
        var listPath: String
        var rounds: Int
        var p12: String
        var password: String
        var fieldName: String
        var rect: String
    }

    static func main(_ arguments: Arguments) async -> Int32 {
        let tasks: [CorpusProtocol.Task]
        let signer: LocalKeySigner
        let numbers = arguments.rect.split(separator: ",").compactMap { Double($0) }
        guard numbers.count == 4 else {
            Progress.note("autograph-bench: the rectangle wants x1,y1,x2,y2, not \(arguments.rect)")
            return 64
        }
        let rect = PDFRectangle(x0: numbers[0], y0: numbers[1], x1: numbers[2], y1: numbers[3])
        do {
            tasks = try CorpusProtocol.readTasks(from: arguments.listPath)
            signer = try LocalKeySigner(pkcs12: arguments.p12, password: arguments.password)
        } catch {
            Progress.note("autograph-bench: \(error)")
            return 1
        }
        let key = arguments.p12.split(separator: "/").last.map(String.init) ?? arguments.p12
        emitLine("V\tAutograph PDFSigning (in process, \(key))")
        for round in 0..<arguments.rounds {
            var roundSeconds = 0.0
            for task in tasks {
                emitLine("S\t\(round)\t\(task.index)")
                let start = monotonicSeconds()
                do {
                    let document = try PDFDocument(
                        contentsOfFile: task.path, options: ParseOptions(password: task.password))
                    let request = SignatureRequest(
                        fieldName: arguments.fieldName, placement: .visible(page: 0, rect: rect))
                    let signed = try await DocumentSigner(document: document, request: request, signer: signer)
                        .sign()
                    let bytes = try signed.bytes()
                    let seconds = monotonicSeconds() - start
                    roundSeconds += seconds
                    emitLine("R\t\(round)\t\(task.index)\t\(seconds)\t1\t0\t\(bytes.count)\t0")
                } catch {
                    let seconds = monotonicSeconds() - start
                    emitLine("F\t\(round)\t\(task.index)\t\(seconds)\t\(CorpusProtocol.field("\(error)"))")
                }
            }
            Progress.finish(
                "  Autograph: round \(round + 1)/\(arguments.rounds) done, \(Format.seconds(roundSeconds)) over "
                    + "\(tasks.count) files")
        }
        return 0
    }

    /// `autograph-bench --sign-phases FILE P12 PASSWORD OUT`: signs FILE (an invisible field) into OUT
    /// as `autograph sign` does, timing each phase, then measures three references on the same
    /// opened document: a read pass over the file, a copy of it without `fsync`, and the `fsync`.
    /// Before each phase the peak RSS is reset (`/proc/self/clear_refs`), so each line gives that
    /// phase's own peak. One line per phase, sizes in KiB, the last three at the phase's end:
    /// `P \t NAME \t SECONDS \t PEAK \t RESIDENT \t ANONYMOUS \t FILE_BACKED`.
    static func phases(path: String, p12: String, password: String, output: String) async -> Int32 {
        do {
            var start = phaseStart()
            let signer = try LocalKeySigner(pkcs12: p12, password: password)
            phase("load key", since: start)
            start = phaseStart()
            let document = try PDFDocument(contentsOfFile: path, options: ParseOptions(password: nil))
            phase("open", since: start)
            start = phaseStart()
            let pages = document.pageCount
            phase("page tree (\(pages) pages)", since: start)
            let request = SignatureRequest(fieldName: nil, placement: .invisible)
            start = phaseStart()
            let prepared = try SignaturePreparer(document: document, request: request)
                .prepare(contentsSize: signer.estimatedSize, signerName: signer.signerName)
            phase("prepare: update + digest of the file", since: start)
            start = phaseStart()
            let cms = try await signer.cms(for: prepared.signature.digest, algorithm: request.digestAlgorithm)
            phase("CMS (sign the digest)", since: start)
            start = phaseStart()
            try prepared.write(embedding: cms, to: output)
            phase("write: copy + update + fsync + rename", since: start)
            unlink(output)

            start = phaseStart()
            var touched = 0
            document.forEachChunk(in: 0..<document.fileSize) { chunk in
                for offset in stride(from: 0, to: chunk.count, by: 4096) { touched &+= Int(chunk[offset]) }
            }
            phase("reference: read pass (a byte per 4 KiB)", since: start)
            let copy = output + ".copy"
            let descriptor = open(copy, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            guard descriptor >= 0 else { throw BenchError("cannot create \(copy)") }
            defer { unlink(copy) }
            start = phaseStart()
            var failed = false
            document.forEachChunk(in: 0..<document.fileSize) { chunk in
                var written = 0
                while written < chunk.count, !failed {
                    let count = write(descriptor, chunk.baseAddress! + written, chunk.count - written)
                    if count < 0, errno == EINTR { continue }
                    if count <= 0 { failed = true } else { written += count }
                }
            }
            phase("reference: copy, no fsync", since: start)
            start = phaseStart()
            let synced = fsync(descriptor) == 0
            phase("reference: fsync of the copy", since: start)
            close(descriptor)
            guard !failed, synced else { throw BenchError("the reference copy failed") }
            emitLine("#\tread pass checksum \(touched)")
            return 0
        } catch {
            Progress.note("autograph-bench: \(error)")
            return 1
        }
    }

    /// Resets the peak RSS to the current RSS and returns the time.
    private static func phaseStart() -> Double {
        let descriptor = open("/proc/self/clear_refs", O_WRONLY)
        if descriptor >= 0 {
            _ = write(descriptor, "5", 1)
            close(descriptor)
        }
        return monotonicSeconds()
    }

    private static func phase(_ name: String, since start: Double) {
        let seconds = monotonicSeconds() - start
        let memory = status(["VmHWM:", "VmRSS:", "RssAnon:", "RssFile:"])
        emitLine("P\t\(name)\t\(seconds)\t" + memory.map(String.init).joined(separator: "\t"))
    }

    /// Values in KiB of `/proc/self/status` lines.
    static func status(_ keys: [String]) -> [Int] {
        let descriptor = open("/proc/self/status", O_RDONLY)
        let text = descriptor >= 0 ? String(decoding: Launcher.readAll(descriptor), as: UTF8.self) : ""
        return keys.map { key in
            let line = text.split(separator: "\n").first { $0.hasPrefix(key) }
            let fields = line?.dropFirst(key.count).split(whereSeparator: { $0 == " " || $0 == "\t" })
            return fields?.first.flatMap { Int($0) } ?? 0
        }
    }

}
