import Foundation
import PDFTestSupport
import Testing

@testable import AutographCLI

/// What a document or a request names (fields, values, metadata, signers) reaches a terminal only
/// as text: the control characters a terminal would act on are shown escaped.
@Suite struct ConsoleEscapeTests {
    @Test("a field named with an escape sequence is printed as \\u{1B}, never as the sequence")
    func fieldNames() async throws {
        let directory = try TestPaths.temporaryDirectory("console-escape")
        let path = directory + "/escape.pdf"
        let form = TestForms.agreement(text: ["name\u{1B}]0;owned\u{07}\u{1B}[2J", "comment\u{9B}31m"], signatures: [])
        try Data(form).write(to: URL(fileURLWithPath: path))
        let listed = await autograph("fields", path)
        #expect(listed.code == .success, "\(listed.errors)")
        #expect(!listed.output.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x9B })
        #expect(listed.output.contains(#"name\u{1B}]0;owned\u{7}\u{1B}[2J [text]"#), "\(listed.output)")
        #expect(listed.output.contains(#"comment\u{9B}31m"#))
        // JSON escapes them itself, and keeps the name as it is.
        let json = await autograph("fields", path, "--json")
        #expect(json.output.contains(#""name\u001b]0;owned\u0007\u001b[2J""#), "\(json.output.prefix(400))")
    }

    @Test("tabs, line feeds, carriage returns and form feeds stay as they are")
    func keptCharacters() {
        #expect(Console.printable("a\tb\nc\rd\u{0C}e") == "a\tb\nc\rd\u{0C}e")
        #expect(Console.printable("\u{7F}\u{85}") == #"\u{7F}\u{85}"#)
    }
}
