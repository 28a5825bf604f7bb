import FoundationEssentials
import Glibc

/// One PDF of the corpus, with the password its catalog gives.
struct CorpusFile: Sendable {
    /// The path relative to the corpus root.
    var name: String
    var path: String
    /// nil for none; "" for the empty user password (`(empty)` in the catalog).
    var password: String?
    var size: Int
    /// The catalog's class tags of the file (`signed`, `form`, `incremental` …; the corpus README), if any.
    var classes: Set<String> = []

    /// Every PDF under `root`, sorted by name, with passwords from any `*.tsv` catalog that has `file`
    /// and `password` columns (the logic of `PDFTestSupport/Corpus.swift`, which the bench must not
    /// depend on) and class tags from its `classes` column (space-separated).
    static func all(in root: String) -> [CorpusFile] {
        let manager = FileManager.default
        var passwords: [String: String] = [:]
        var classes: [String: Set<String>] = [:]
        let entries = (try? manager.contentsOfDirectory(atPath: root)) ?? []
        for tsv in entries where tsv.hasSuffix(".tsv") {
            guard let text = try? String(contentsOfFile: "\(root)/\(tsv)", encoding: .utf8) else { continue }
            let lines = text.split(separator: "\n", omittingEmptySubsequences: true)
            guard let header = lines.first?.split(separator: "\t", omittingEmptySubsequences: false).map(String.init),
                let fileColumn = header.firstIndex(of: "file"), let passwordColumn = header.firstIndex(of: "password")
            else { continue }
            let classesColumn = header.firstIndex(of: "classes")
            for line in lines.dropFirst() {
                let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
                if let classesColumn, columns.count > max(fileColumn, classesColumn) {
                    classes[columns[fileColumn], default: []].formUnion(
                        columns[classesColumn].split(separator: " ").map(String.init))
                }
                guard columns.count > max(fileColumn, passwordColumn), !columns[passwordColumn].isEmpty else {
                    continue
                }
                let password = columns[passwordColumn]
                passwords[columns[fileColumn]] = password == "(empty)" ? "" : password
            }
        }
        let relatives = (try? manager.subpathsOfDirectory(atPath: root)) ?? []
        var files: [CorpusFile] = []
        for relative in relatives where relative.lowercased().hasSuffix(".pdf") {
            let path = "\(root)/\(relative)"
            var info = stat()
            guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
            files.append(
                CorpusFile(
                    name: relative, path: path, password: passwords[relative], size: Int(info.st_size),
                    classes: classes[relative] ?? []))
        }
        return files.sorted { $0.name < $1.name }
    }

    /// Reads every file once so that the measured rounds find them in the page cache.
    static func warm(_ files: [CorpusFile]) {
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        for file in files {
            let descriptor = open(file.path, O_RDONLY)
            guard descriptor >= 0 else { continue }
            while buffer.withUnsafeMutableBytes({ read(descriptor, $0.baseAddress, $0.count) }) > 0 {}
            close(descriptor)
        }
    }

    /// The command-line arguments that give this file's password to `autograph` and to `qpdf`
    /// (none for no password or the empty one, which both try by default).
    var passwordArguments: [String] {
        guard let password, !password.isEmpty else { return [] }
        return ["--password=\(password)"]
    }
}
