import PDFAnnotations
import PDFCore
import PDFSession
import PDFSigning

extension AutographCLI {
    /// The exit code and the line on standard error for a command that failed with `error`: the
    /// one place the command line turns an error into an exit code and a message.
    ///
    /// An `AutographError` exits with its category's code (`ErrorCategory/exitCode`) and prints
    /// its description; errors of the layers whose codes the seed API reports (signing, annotations,
    /// the session) add their seed code, `(signo -136)`, which scripts match. Any other error is
    /// `ErrorCategory/internal` and prints its text.
    static func failure(_ error: any Error, command: String) -> (code: ExitCode, message: String) {
        let prefix = "autograph \(command): "
        guard let error = error as? any AutographError else {
            return (ErrorCategory.internal.exitCode, prefix + "\(error)")
        }
        var message = prefix + error.description
        if let seedCode = error.seedCode, error is SigningError || error is AnnotationError || error is SessionError {
            message += " (signo \(seedCode))"
        }
        return (error.category.exitCode, message)
    }
}

extension ErrorCategory {
    /// The exit code of a command that failed with an error of this category: 2 for a mistake in
    /// how the command was called, 1 for every other failure (`autograph --help` lists them).
    var exitCode: ExitCode {
        switch self {
        case .usage: .usage
        case .badInput, .notFound, .conflict, .forbidden, .unsupported, .tooLarge, .cancelled, .unavailable,
            .internal:
            .failure
        }
    }
}

extension UsageError: AutographError {
    var description: String { message }
    /// `usage`.
    var codeName: String { "usage" }
    /// None: the seed API has no command line.
    var seedCode: Int? { nil }
    /// `ErrorCategory/usage`: exit code 2.
    var category: ErrorCategory { .usage }
}
