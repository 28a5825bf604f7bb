import PDFCore

// Names PDFAuthoring uses that PDFCore does not declare (ISO 32000-2 clauses in the comments). Internal,
// so no two modules' constants meet; PDFCore's public ones (`.type`, `.f`, `.p` …) are used as they are.
extension PDFName {
    // §8.9.5 image dictionaries
    static let decode: PDFName = "Decode"
}
