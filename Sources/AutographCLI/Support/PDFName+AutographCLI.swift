import PDFCore

// Names AutographCLI uses that PDFCore does not declare (ISO 32000-2 clauses in the comments). Internal,
// so no two modules' constants meet; PDFCore's public ones (`.type`, `.f`, `.p` …) are used as they are.
extension PDFName {
    // §12.7 interactive forms (fields, variable text, choice options, button states)
    static let yes: PDFName = "Yes"
}
