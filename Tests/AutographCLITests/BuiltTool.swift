import Foundation
import PDFTestSupport
import Testing

/// The built `autograph` run as a child process, as a person runs it from a shell: its own exit
/// code, standard output and standard error, its own environment.
enum BuiltTool {
    /// The tool under test: `$AUTOGRAPH_TEST_TOOL` when set (the same tests run against another
    /// build, e.g. one made before a change, to see them fail there), else the product built next to
    /// the test binary.
    static let path: String? =
        ProcessInfo.processInfo.environment["AUTOGRAPH_TEST_TOOL"] ?? TestPaths.builtProduct("autograph")

    /// Whether there is a tool to run.
    static var available: Bool { path != nil }

    /// Runs the tool with `arguments`; `environment` adds variables. `$AUTOGRAPH_P12_PASSWORD` is
    /// removed from what the child inherits unless `environment` sets it, so a password in the
    /// test runner's environment cannot make a test pass.
    static func run(
        _ arguments: [String], environment: [String: String] = [:], timeout: Double = 180
    ) throws -> Oracle.Result {
        let tool = try #require(path, "build the autograph tool first (swift build)")
        let settings = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        return try Oracle.run(
            "env", ["-u", "AUTOGRAPH_P12_PASSWORD"] + settings + [tool] + arguments, timeout: timeout)
    }

    /// A fixture of the test PKI.
    static func pki(_ name: String) -> String { TestPaths.fixture("pki", name) }

    /// A new directory holding `autograph sample`'s three-page form as `sample.pdf` (one empty
    /// signature field, Signature1); returns the directory.
    static func sampleDirectory(_ label: String) throws -> String {
        let directory = try TestPaths.temporaryDirectory(label)
        let result = try run(["sample", "-o", directory + "/sample.pdf"])
        try #require(result.status == 0, "sample: \(result.errors)")
        return directory
    }

    /// Writes `text` to `path`.
    static func write(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }
}
