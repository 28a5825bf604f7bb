import Glibc
import PDFCore
import PDFForms

/// The protocol between the corpus benchmark and its two workers (this program re-executed with
/// `--corpus-worker`, and `scripts/pikepdf_corpus.py`), which do the same work in one process each.
///
/// The task list is a file of lines `INDEX \t HAS_PASSWORD(0|1) \t PASSWORD \t PATH`. A worker runs
/// every task once per round, in order, and writes one line per event to standard output, flushed
/// at once so that a crash loses nothing:
///
///     V \t DESCRIPTION                                   what is measured (library and version)
///     S \t ROUND \t INDEX                                a file is started (the last one unanswered crashed)
///     R \t ROUND \t INDEX \t SECONDS \t OBJECTS \t STREAMS \t DECODED_BYTES \t DECODE_ERRORS
///     F \t ROUND \t INDEX \t SECONDS \t MESSAGE          the file did not open
///
/// SECONDS covers opening, resolving every object, decoding every stream and closing, nothing else.
enum CorpusProtocol {
    struct Task {
        var index: Int
        var path: String
        var password: String?
    }

    static func writeTasks(_ tasks: [Task], to path: String) throws(BenchError) {
        var text = ""
        for task in tasks {
            text += "\(task.index)\t\(task.password == nil ? 0 : 1)\t\(task.password ?? "")\t\(task.path)\n"
        }
        try write(text, to: path)
    }

    /// Writes `text` to the file at `path`, replacing it.
    static func write(_ text: String, to path: String) throws(BenchError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { throw BenchError("cannot write \(path): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        guard written == bytes.count else { throw BenchError("cannot write \(path)") }
    }

    static func readTasks(from path: String) throws(BenchError) -> [Task] {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw BenchError("cannot read \(path): \(String(cString: strerror(errno)))") }
        let text = String(decoding: Launcher.readAll(descriptor), as: UTF8.self)
        return text.split(separator: "\n").compactMap { line in
            let columns = line.split(separator: "\t", maxSplits: 3, omittingEmptySubsequences: false)
            guard columns.count == 4, let index = Int(columns[0]) else { return nil }
            return Task(index: index, path: String(columns[3]), password: columns[1] == "1" ? String(columns[2]) : nil)
        }
    }

    /// A message made safe for one field of a line.
    static func field(_ text: String) -> String {
        String(text.map { $0 == "\t" || $0 == "\n" || $0 == "\r" ? " " : $0 })
    }
}

/// The Autograph side of the corpus benchmark (`autograph-bench --corpus-worker LIST ROUNDS`).
enum CorpusWorker {
    struct Work {
        var objects = 0
        var streams = 0
        var decodedBytes = 0
        var decodeErrors = 0
    }

    /// What a worker does to each file.
    enum Workload {
        /// Open, resolve every object, decode every stream.
        case corpus
        /// Fill every editable text field and save the document (to memory).
        case forms
    }

    static func main(listPath: String, rounds: Int, workload: Workload) -> Int32 {
        let tasks: [CorpusProtocol.Task]
        do {
            tasks = try CorpusProtocol.readTasks(from: listPath)
        } catch {
            Progress.note("autograph-bench: \(error)")
            return 1
        }
        emitLine(workload == .corpus ? "V\tAutograph PDFCore (in process)" : "V\tAutograph PDFForms (in process)")
        for round in 0..<rounds {
            var roundSeconds = 0.0
            for (position, task) in tasks.enumerated() {
                emitLine("S\t\(round)\t\(task.index)")
                let start = monotonicSeconds()
                do {
                    let work = try workload == .corpus ? measure(task) : fill(task)
                    let seconds = monotonicSeconds() - start
                    roundSeconds += seconds
                    emitLine(
                        "R\t\(round)\t\(task.index)\t\(seconds)\t\(work.objects)\t\(work.streams)\t\(work.decodedBytes)\t"
                            + "\(work.decodeErrors)")
                } catch {
                    let seconds = monotonicSeconds() - start
                    emitLine("F\t\(round)\t\(task.index)\t\(seconds)\t\(CorpusProtocol.field("\(error)"))")
                }
                if position % 10 == 9 {
                    Progress.update(
                        "  Autograph \(workload): round \(round + 1)/\(rounds), \(position + 1)/\(tasks.count) files")
                }
            }
            Progress.finish(
                "  Autograph: round \(round + 1)/\(rounds) done, \(Format.seconds(roundSeconds)) over \(tasks.count) files"
            )
        }
        return 0
    }

    /// Opens, resolves every object and decodes every stream's general-purpose filters.
    static func measure(_ task: CorpusProtocol.Task) throws(BenchError) -> Work {
        let document: PDFDocument
        do {
            document = try PDFDocument(contentsOfFile: task.path, options: ParseOptions(password: task.password))
        } catch {
            throw BenchError(error.description)
        }
        var work = Work()
        for reference in document.objectReferences {
            let object = document.object(reference)
            work.objects += 1
            guard case .stream(let stream) = object else { continue }
            work.streams += 1
            do {
                work.decodedBytes += try stream.partiallyDecodedData().data.count
            } catch {
                work.decodeErrors += 1
            }
        }
        return work
    }

    /// Fills every editable text field with "Field N" (cut to /MaxLen) and saves the whole document
    /// to memory. Work: `objects` = fields filled, `decodedBytes` = bytes written.
    static func fill(_ task: CorpusProtocol.Task) throws(BenchError) -> Work {
        do {
            let document = try PDFDocument(contentsOfFile: task.path, options: ParseOptions(password: task.password))
            guard let form = AcroForm(document: document) else { throw BenchError("no form") }
            var filler = FormFiller(form: form)
            var filled = 0
            for (index, field) in form.fields.enumerated()
            where field.kind == .text && field.isEditable && field.widgets.contains(where: { $0.reference != nil }) {
                var text = "Field \(index)"
                if let maxLength = field.maxLength, maxLength > 0 { text = String(text.suffix(maxLength)) }
                try filler.set(field.name, to: .text(text))
                filled += 1
            }
            guard filled > 0 else { throw BenchError("no text fields") }
            let bytes = try filler.documentBytes()
            return Work(objects: filled, streams: 0, decodedBytes: bytes.count, decodeErrors: 0)
        } catch let error as BenchError {
            throw error
        } catch {
            throw BenchError("\(error)")
        }
    }

}
