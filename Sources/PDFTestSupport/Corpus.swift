import Foundation

/// One file of the shared corpus with what its catalog says (`*.tsv` beside the files, or the README table).
public struct CorpusFile: Sendable, CustomStringConvertible {
    /// The path relative to the corpus root.
    public var name: String
    public var path: String
    /// The password from the catalog; nil for none, "" for an empty user password.
    public var password: String?

    public var description: String { name }

    /// Every PDF of the corpus (files found on disk; passwords from any catalog TSV with `file` and
    /// `password` columns), sorted by name.
    public static func all(in root: String) -> [CorpusFile] {
        var passwords: [String: String] = [:]
        let tsvs = (try? FileManager.default.contentsOfDirectory(atPath: root))?.filter { $0.hasSuffix(".tsv") } ?? []
        for tsv in tsvs {
            guard let text = try? String(contentsOfFile: "\(root)/\(tsv)", encoding: .utf8) else { continue }
            let lines = text.split(separator: "\n", omittingEmptySubsequences: true)
            guard let header = lines.first?.split(separator: "\t", omittingEmptySubsequences: false).map(String.init),
                let fileColumn = header.firstIndex(of: "file"), let passwordColumn = header.firstIndex(of: "password")
            else { continue }
            for line in lines.dropFirst() {
                let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
                guard columns.count > max(fileColumn, passwordColumn), !columns[passwordColumn].isEmpty else {
                    continue
                }
                let password = columns[passwordColumn]
                passwords[columns[fileColumn]] = password == "(empty)" ? "" : password
            }
        }
        var files: [CorpusFile] = []
        if let enumerator = FileManager.default.enumerator(atPath: root) {
            while let relative = enumerator.nextObject() as? String {
                guard relative.lowercased().hasSuffix(".pdf") else { continue }
                files.append(CorpusFile(name: relative, path: "\(root)/\(relative)", password: passwords[relative]))
            }
        }
        return files.sorted { $0.name < $1.name }
    }
}
