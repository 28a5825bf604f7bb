import Foundation
import PDFTestSupport
import Testing

/// Every command's `--help` ends with examples of that command, as a person reads them in a shell.
@Suite(
    "every command's --help ends with examples", .serialized,
    .enabled(if: BuiltTool.available, "autograph is not built next to the test binary"))
struct HelpExamplesTests {
    /// The commands `autograph --help` lists.
    static func commands() throws -> [String] {
        let overview = try BuiltTool.run(["--help"])
        try #require(overview.status == 0)
        let lines = overview.output.split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex { $0.hasPrefix("Commands:") })
        return lines[(start + 1)...].prefix { $0.hasPrefix("  ") }.compactMap { $0.split(separator: " ").first }
            .map(String.init)
    }

    @Test("each command's --help has an Examples: section last, of two or three lines that run that command")
    func examplesNameTheirCommand() throws {
        let names = try Self.commands()
        #expect(names.count >= 25, "\(names)")
        for name in names {
            let help = try BuiltTool.run([name, "--help"])
            #expect(help.status == 0, "\(name) --help: exit \(help.status)")
            let lines = help.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            guard let start = lines.lastIndex(of: "Examples:") else {
                Issue.record("\(name) --help has no Examples: section")
                continue
            }
            let examples = lines[(start + 1)...].filter { !$0.isEmpty }
            #expect((2...3).contains(examples.count), "\(name): \(examples)")
            for example in examples {
                let words = example.split(separator: " ")
                #expect(example.hasPrefix("  "), "\(name): \(example)")
                #expect(words.count >= 2 && words[0] == "autograph" && words[1] == name, "\(name): \(example)")
            }
        }
    }
}
