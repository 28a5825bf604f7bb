import Glibc
import PDFCore
import PDFForms

/// The keys, the field and the documents of the signing steps (`sign`, `sign-process`, `verify`).
enum SignSetup {
    /// A signing key of the root package's test PKI (`Tests/Fixtures/pki`).
    struct Key {
        var name: String
        /// The PKCS#12 file's name in the PKI directory.
        var file: String
        /// A short name for output files.
        var slug: String
    }

    static let keys = [
        Key(name: "P-256", file: "signer-p256.p12", slug: "p256"),
        Key(name: "RSA-2048", file: "signer-rsa2048.p12", slug: "rsa2048"),
    ]
    /// The password of every PKCS#12 file of the test PKI.
    static let password = "secret"
    /// The new visible field, on page 1 of every document, both sides.
    static let fieldName = "BenchSig"
    static let rect = PDFRectangle(x0: 72, y0: 72, x1: 272, y1: 132)
    static let rectText = "72,72,272,132"
    /// At most this many corpus files are signed (spread evenly over the eligible ones).
    static let maximumFiles = 40

    /// The documents chosen, and why the others were left out.
    struct Selection {
        var files: [CorpusFile] = []
        /// Corpus files considered.
        var corpusFiles = 0
        /// Corpus files both sides can sign.
        var eligible = 0
        /// Why the other corpus files were left out: reason → count.
        var excluded: [String: Int] = [:]
        /// Set when pyHanko could not be asked (the sign steps then run Autograph alone).
        var probeProblem: String?

        func details() -> String {
            let reasons = excluded.sorted { $0.value > $1.value }.map { "\($0.value) \($0.key)" }
            var text =
                "  documents: \(files.count) (\(min(eligible, SignSetup.maximumFiles)) of the \(eligible) corpus "
                + "files both sides can sign, spread evenly by name, + the generated 1-page file)"
            if !reasons.isEmpty {
                text += "\n  left out of \(corpusFiles) corpus files: " + reasons.joined(separator: ", ")
            }
            if let probeProblem { text += "\n  pyHanko was not asked which files it can sign: \(probeProblem)" }
            return text
        }
    }

    /// The documents both sides sign: the corpus files that Autograph opens, that are not encrypted,
    /// have a page and no signature, and that pyHanko opens strictly (asked by `pyhanko_sign.py
    /// --probe`); at most ``maximumFiles`` of them, spread evenly by name; then the generated 1-page file.
    static func select(_ corpus: [CorpusFile], environment: BenchEnvironment) throws(BenchError) -> Selection {
        var selection = Selection(corpusFiles: corpus.count)
        var candidates: [CorpusFile] = []
        for file in corpus {
            if let reason = autographReason(file) {
                selection.excluded["Autograph: " + reason, default: 0] += 1
            } else {
                candidates.append(file)
            }
        }
        var accepted = Set(candidates.indices)
        if let problem = pyhankoProblem(environment) {
            selection.probeProblem = problem
        } else if !candidates.isEmpty {
            let list = environment.buildPath("bench-sign-probe.tsv")
            try CorpusProtocol.writeTasks(
                candidates.enumerated().map { CorpusProtocol.Task(index: $0.offset, path: $0.element.path) },
                to: list)
            let run = try environment.launcher.run(
                [environment.python, environment.pyhankoSignScript, "--probe", list], stdout: .capture,
                stderr: .inherit, timeout: 600)
            accepted = []
            for line in run.outputText.split(separator: "\n") {
                let columns = line.split(separator: "\t", maxSplits: 2).map(String.init)
                guard columns.count >= 2, let index = Int(columns[1]), candidates.indices.contains(index) else {
                    continue
                }
                if columns[0] == "OK" {
                    accepted.insert(index)
                } else {
                    let reason = columns.count > 2 ? String(columns[2].prefix { $0 != ":" }) : "refused"
                    selection.excluded["pyHanko: " + reason, default: 0] += 1
                }
            }
            if !run.succeeded { selection.probeProblem = "the probe ended with exit code \(run.exitCode)" }
        }
        let eligible = candidates.indices.filter { accepted.contains($0) }.map { candidates[$0] }
        selection.eligible = eligible.count
        if eligible.count > maximumFiles {
            selection.files = (0..<maximumFiles).map { eligible[$0 * eligible.count / maximumFiles] }
            selection.excluded["beyond the first \(maximumFiles) (spread evenly)", default: 0] +=
                eligible.count - maximumFiles
        } else {
            selection.files = eligible
        }
        selection.files.append(try sample(environment))
        return selection
    }

    /// Why Autograph's side leaves `file` out, or nil.
    static func autographReason(_ file: CorpusFile) -> String? {
        if file.password != nil { return "encrypted" }
        guard let document = try? PDFDocument(contentsOfFile: file.path, options: ParseOptions(password: nil)) else {
            return "does not open"
        }
        if document.encryption != nil { return "encrypted" }
        if document.pageCount < 1 { return "no page" }
        if let form = AcroForm(document: document),
            form.signatureFields.contains(where: { $0.value == .signature(signed: true) })
        {
            return "already signed"
        }
        return nil
    }

    /// Why pyHanko cannot be run, or nil.
    static func pyhankoProblem(_ environment: BenchEnvironment) -> String? {
        guard Launcher.isAvailable(environment.python) else { return "\(environment.python) not found" }
        let run = try? environment.launcher.run([environment.python, "-c", "import pyhanko.sign"], timeout: 120)
        return run?.succeeded == true ? nil : "\(environment.python) cannot import pyhanko (pip install pyhanko)"
    }

    /// The generated 1-page file of the `big` step (`Benchmarks/.build/small-1page.pdf`), made when missing.
    static func sample(_ environment: BenchEnvironment) throws(BenchError) -> CorpusFile {
        let path = environment.buildPath("small-1page.pdf")
        if !BigFile.isComplete(path, minimumSize: 0) { try BigFile.generate(at: path, pages: 1, contentBytes: 4096) }
        var info = stat()
        _ = stat(path, &info)
        return CorpusFile(name: "(generated) small-1page.pdf", path: path, password: nil, size: Int(info.st_size))
    }

    /// The PKCS#12 file of `key`.
    static func p12(_ key: Key, _ environment: BenchEnvironment) -> String { "\(environment.pki)/\(key.file)" }

    /// The root certificate every test key chains to.
    static func root(_ environment: BenchEnvironment) -> String { "\(environment.pki)/root.cert.pem" }
}
