import PDFCore
import PDFSigning

#if canImport(Glibc)
    import Glibc
#endif

/// The check every editing command makes before its output exists: an update that would break a
/// valid certification (DocMDP) or field lock (FieldMDP) of the document is refused (signo -129)
/// and nothing is written, unless `--force` is given; then the output says which signature the
/// change invalidates.
enum CertificationGuard {
    /// The `--force` option of the editing commands.
    static let forceOption = CommandSpec.Option(
        name: "force", help: "write even when the change breaks the document's certification or a field lock")

    /// Writes `output` with `write`, through a temporary file next to it that is analysed first
    /// when `original` is certified or has locked fields (other documents are written directly).
    static func write(
        _ original: PDFDocument, to output: String, arguments: Arguments, console: Console,
        _ write: (String) throws -> Void
    ) throws {
        let restrictions = CertificationCheck.restrictions(of: original)
        guard restrictions.certification != nil || !restrictions.locks.isEmpty else {
            try write(output)
            return
        }
        let temporary = output + ".autograph-check-\(getpid())"
        try write(temporary)
        let violations: [CertificationCheck.Violation]
        do {
            let updated = try PDFDocument(contentsOfFile: temporary, options: original.options)
            violations = CertificationCheck.violations(original: original, updated: updated)
        } catch {
            unlink(temporary)
            throw error
        }
        if !violations.isEmpty, !arguments.has("force") {
            unlink(temporary)
            var message = violations[0].message
            if violations.count > 1 { message += " (and \(violations.count - 1) more)" }
            throw SigningError(
                .certificationViolated, message + ". Nothing was written; --force writes it anyway, invalidating it")
        }
        guard rename(temporary, output) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw PDFError(.writeFailed, "cannot write \(output): \(reason)")
        }
        var fields: [String] = []
        for violation in violations where !fields.contains(violation.signatureField) {
            fields.append(violation.signatureField)
        }
        for field in fields {
            let first = violations.first { $0.signatureField == field }!
            console.error("warning: --force: this change invalidates the signature in '\(field)': \(first.message)")
        }
    }
}
