import Glibc

/// Where the bench's inputs, outputs and tools are, with the environment's overrides.
struct BenchEnvironment {
    /// `Benchmarks/`.
    var packageDirectory: String
    /// The root package (`Benchmarks/..`).
    var rootDirectory: String
    /// This program, re-executed for the Autograph side's child processes.
    var executable: String
    /// The corpus root (`AUTOGRAPH_CORPUS`, else `/work/shared/corpus`).
    var corpus: String
    /// `PYTHON`, else `python3`.
    var python: String
    /// `QPDF`, else `qpdf`.
    var qpdf: String
    /// `PDFSIG`, else `pdfsig`.
    var pdfsig: String
    /// `MUTOOL`, else `mutool` (the render step).
    var mutool: String = "mutool"
    /// `PDFTOPPM`, else `pdftoppm` (the render step).
    var pdftoppm: String = "pdftoppm"
    /// The release `autograph` CLI: `AUTOGRAPH_BIN`, else the one built beside this program, else
    /// the root package's `.build/release/autograph`; nil when none exists.
    var autograph: String?
    var launcher: Launcher
    var pikepdfScript: String
    var pypdfFormsScript: String
    var pyhankoSignScript: String
    /// The root package's `scripts/pyhanko-modlevel.py` (pyHanko's verdicts as JSON lines).
    var pyhankoModlevelScript: String
    /// The test PKI of the root package (`Tests/Fixtures/pki`): signing keys and the root certificate.
    var pki: String
    /// The generated 1 GB file.
    var bigFile: String

    static func current() throws(BenchError) -> BenchEnvironment {
        let packageDirectory = directory(of: directory(of: directory(of: "\(#filePath)")))
        let rootDirectory = directory(of: packageDirectory)
        let executable = resolvedExecutable()
        let executableDirectory = directory(of: executable)
        let helper = "\(executableDirectory)/bench-rusage"
        guard access(helper, X_OK) == 0 else {
            throw BenchError(
                "\(helper) is missing; build the whole package: swift build -c release --package-path Benchmarks")
        }
        let candidates = [
            variable("AUTOGRAPH_BIN"), "\(executableDirectory)/autograph", "\(rootDirectory)/.build/release/autograph",
        ]
        return BenchEnvironment(
            packageDirectory: packageDirectory, rootDirectory: rootDirectory, executable: executable,
            corpus: variable("AUTOGRAPH_CORPUS") ?? "/work/shared/corpus",
            python: variable("PYTHON") ?? "python3", qpdf: variable("QPDF") ?? "qpdf",
            pdfsig: variable("PDFSIG") ?? "pdfsig", mutool: variable("MUTOOL") ?? "mutool",
            pdftoppm: variable("PDFTOPPM") ?? "pdftoppm",
            autograph: candidates.compactMap { $0 }.first { access($0, X_OK) == 0 },
            launcher: Launcher(helper: helper),
            pikepdfScript: "\(packageDirectory)/scripts/pikepdf_corpus.py",
            pypdfFormsScript: "\(packageDirectory)/scripts/pypdf_forms.py",
            pyhankoSignScript: "\(packageDirectory)/scripts/pyhanko_sign.py",
            pyhankoModlevelScript: "\(rootDirectory)/scripts/pyhanko-modlevel.py",
            pki: "\(rootDirectory)/Tests/Fixtures/pki",
            bigFile: "\(packageDirectory)/.build/big-1gb.pdf")
    }

    /// A file or directory under `Benchmarks/.build/`.
    func buildPath(_ name: String) -> String { "\(packageDirectory)/.build/\(name)" }

    /// A non-empty environment variable.
    static func variable(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        let text = String(cString: value)
        return text.isEmpty ? nil : text
    }

    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// This program's path, symbolic links resolved (`/proc/self/exe`).
    static func resolvedExecutable() -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return CommandLine.arguments[0] }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
