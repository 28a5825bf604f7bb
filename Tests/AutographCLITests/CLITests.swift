import Foundation
import PDFTestSupport
import Testing

@testable import AutographCLI
@testable import PDFCore

/// Runs `autograph` in process.
func autograph(_ arguments: String...) async -> (code: ExitCode, output: String, errors: String) {
    await autograph(arguments)
}

/// `autograph` with arguments built as an array.
func autograph(_ arguments: [String]) async -> (code: ExitCode, output: String, errors: String) {
    let console = Console.captured()
    let code = await AutographCLI.run(arguments, console: console)
    return (code, console.output, console.errors)
}

func temporaryFile(_ name: String) throws -> String {
    try TestPaths.temporaryDirectory("cli") + "/" + name
}

@Suite("autograph command line")
struct CLITests {
    @Test("sample writes a document that qpdf accepts, and info describes it")
    func sampleAndInfo() async throws {
        let path = try temporaryFile("sample.pdf")
        #expect(await autograph("sample", "-o", path).code == .success)
        #expect(try Oracle.qpdfCheck(path).status == 0)
        let info = await autograph("info", path)
        #expect(info.code == .success)
        #expect(info.output.contains("Pages:            3"))
        #expect(info.output.contains("Form:             2 fields"))
        #expect(info.output.contains("0 signed of 1 signature fields"))
    }

    @Test("info --json has the documented keys and types")
    func infoJSON() async throws {
        let path = try temporaryFile("sample.pdf")
        _ = await autograph("sample", "-o", path)
        let result = await autograph("info", path, "--json")
        #expect(result.code == .success)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        #expect(object["pages"] as? Int == 3)
        #expect(object["encrypted"] as? Bool == false)
        #expect(object["revisions"] as? Int == 1)
        #expect(object["formFields"] as? Int == 2)
        #expect(object["signatures"] as? Int == 0)
        #expect((object["warnings"] as? [String])?.isEmpty == true)
    }

    @Test("info of an encrypted file needs --password; a wrong one fails with exit 1")
    func infoPassword() async throws {
        let directory = try TestPaths.temporaryDirectory("cli")
        _ = await autograph("sample", "-o", directory + "/plain.pdf")
        try Oracle.qpdfEncrypt(
            directory + "/plain.pdf", directory + "/locked.pdf", user: "secret", owner: "owner", ["256"])
        let locked = directory + "/locked.pdf"
        let missing = await autograph("info", locked)
        #expect(missing.code == .failure)
        #expect(missing.errors.contains("password"))
        #expect(await autograph("info", locked, "--password", "nope").code == .failure)
        let opened = await autograph("info", locked, "--password", "secret", "--json")
        #expect(opened.code == .success)
        #expect(opened.output.contains("\"encrypted\": true"))
    }

    @Test("a damaged file is read with warnings and exit code 3")
    func warningsExitCode() async throws {
        let path = try temporaryFile("damaged.pdf")
        var bytes = TestDocuments.simple()
        bytes.removeLast(30)  // cut the startxref away
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let result = await autograph("info", path)
        #expect(result.code == .successWithWarnings)
        #expect(result.output.contains("rebuilt"))
    }

    @Test(
        "usage errors exit with 2 and say what is wrong in one line",
        arguments: [
            ["info"], ["info", "a.pdf", "b.pdf"], ["info", "a.pdf", "--bogus"], ["rewrite", "a.pdf"],
            ["metadata", "a.pdf", "-o", "b.pdf"],
            ["metadata", "a.pdf", "-o", "b.pdf", "--set", "NoEquals"], ["frobnicate"], [],
        ])
    func usageErrors(arguments: [String]) async {
        let console = Console.captured()
        #expect(await AutographCLI.run(arguments, console: console) == .usage)
        #expect(!console.errors.isEmpty)
        // One line, or, without a command, the overview: a line per command and a few more.
        let limit = arguments.isEmpty ? AutographCLI.commands.count + 12 : 1
        #expect(console.errors.split(separator: "\n").count <= limit)
    }

    @Test("every command has --help", arguments: ["info", "rewrite", "metadata", "sample"])
    func help(command: String) async {
        let result = await autograph(command, "--help")
        #expect(result.code == .success)
        #expect(result.output.contains("Usage: autograph \(command)"))
    }

    @Test("a missing file fails with exit 1 and names the file")
    func missingFile() async {
        let result = await autograph("info", "/no/such/file.pdf")
        #expect(result.code == .failure)
        #expect(result.errors.contains("/no/such/file.pdf"))
    }

    @Test("metadata appends an update that keeps the original as a prefix; qpdf sees the new title")
    func metadata() async throws {
        let directory = try TestPaths.temporaryDirectory("cli")
        let input = directory + "/in.pdf"
        let output = directory + "/out.pdf"
        _ = await autograph("sample", "-o", input)
        let result = await autograph(
            "metadata", input, "-o", output, "--set", "Title=Signed copy", "--set", "Producer=")
        #expect(result.code == .success)
        let original = try Data(contentsOf: URL(fileURLWithPath: input))
        let updated = try Data(contentsOf: URL(fileURLWithPath: output))
        #expect(updated.prefix(original.count) == original)
        #expect(try Oracle.qpdfCheck(output).status == 0)
        #expect(try Oracle.qpdfInfoValue(output, key: "Title") == "u:Signed copy")
        #expect(try Oracle.qpdfInfoValue(output, key: "Producer") == nil)
    }

    @Test("rewrite options: object streams, decrypt, deterministic id")
    func rewrite() async throws {
        let directory = try TestPaths.temporaryDirectory("cli")
        _ = await autograph("sample", "-o", directory + "/plain.pdf")
        try Oracle.qpdfEncrypt(directory + "/plain.pdf", directory + "/locked.pdf", user: "u", owner: "o", ["256"])
        let first = directory + "/a.pdf"
        let second = directory + "/b.pdf"
        for path in [first, second] {
            let result = await autograph(
                "rewrite", directory + "/locked.pdf", "-o", path, "--password", "u", "--decrypt", "--object-streams",
                "--deterministic-id")
            #expect(result.code == .success)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: first)) == Data(contentsOf: URL(fileURLWithPath: second)))
        #expect(try Oracle.qpdfCheck(first).status == 0)
        #expect(try Oracle.qpdfPageCount(first) == 3)
    }
}
