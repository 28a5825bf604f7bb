import PDFAnnotations
import PDFCore
import PDFForms
import PDFSession
import PDFSigning
import Testing

@testable import AutographCLI

/// The command line's one mapping from any error to an exit code and a message
/// (`AutographCLI.failure(_:command:)`).
@Suite("Any error becomes one exit code and one line")
struct ErrorReportTests {
    /// A failure of no known kind.
    struct Unknown: Error, CustomStringConvertible {
        var description: String { "the disk caught fire" }
    }

    @Test(
        "the category → exit code table: 2 for usage, 1 for every other failure",
        arguments: [
            (ErrorCategory.usage, ExitCode.usage), (.badInput, .failure), (.notFound, .failure), (.conflict, .failure),
            (.forbidden, .failure), (.unsupported, .failure), (.tooLarge, .failure), (.cancelled, .failure),
            (.unavailable, .failure), (.internal, .failure),
        ])
    func exitCodeTable(category: ErrorCategory, code: ExitCode) {
        #expect(category.exitCode == code)
    }

    @Test("the table covers every category")
    func everyCategory() {
        #expect(ErrorCategory.allCases.filter { $0.exitCode == .usage } == [.usage])
        #expect(ErrorCategory.allCases.allSatisfy { $0.exitCode == .usage || $0.exitCode == .failure })
    }

    @Test("an error of no known kind exits 1 as internal and prints its text")
    func unknownError() {
        let (code, message) = AutographCLI.failure(Unknown(), command: "fill")
        #expect(code == ErrorCategory.internal.exitCode && code == .failure)
        #expect(message == "autograph fill: the disk caught fire")
    }

    @Test("a usage error exits 2 with its message")
    func usageError() {
        let error = UsageError("--page must be a number")
        let shaped: any AutographError = error
        #expect(shaped.category == .usage && shaped.codeName == "usage" && shaped.seedCode == nil)
        let (code, message) = AutographCLI.failure(error, command: "render")
        #expect(code == .usage)
        #expect(message == "autograph render: --page must be a number")
    }

    @Test("core and form errors exit 1 with their description and no seed code, as before")
    func coreAndFormErrors() {
        let core = AutographCLI.failure(PDFError(.wrongPassword, "the password opens nothing"), command: "info")
        #expect(core.code == .failure)
        #expect(core.message == "autograph info: the password opens nothing")
        let form = AutographCLI.failure(FormError(.unknownField, field: "Nope", "no such field"), command: "fill")
        #expect(form.code == .failure)
        #expect(form.message == "autograph fill: field 'Nope': no such field")
    }

    @Test("signing, annotation and session errors exit 1 with their seed code, which scripts match")
    func seedCodedErrors() {
        let signing = AutographCLI.failure(SigningError(.certificationViolated, "P=1"), command: "sign")
        #expect(signing.code == .failure)
        #expect(signing.message == "autograph sign: P=1 (signo -129)")
        let annotation = AutographCLI.failure(AnnotationError(.pdfA1, "PDF/A-1b"), command: "ink")
        #expect(annotation.message == "autograph ink: PDF/A-1b (signo -150)")
        let session = AutographCLI.failure(SessionError(.documentChanged, "written meanwhile"), command: "session")
        #expect(session.code == .failure)
        #expect(session.message == "autograph session: written meanwhile (signo -128)")
    }

    @Test("through run: a usage error exits 2, a failure 1, each on one line")
    func throughRun() async {
        let usage = await autograph("text")
        #expect(usage.code == .usage && usage.errors.hasPrefix("autograph text: "))
        let missing = await autograph("info", "/nonexistent/file.pdf")
        #expect(missing.code == .failure)
        #expect(missing.errors.hasPrefix("autograph info: ") && !missing.errors.contains("signo"))
    }
}
