import PDFCore

// Names PDFAnnotations uses that PDFCore does not declare (ISO 32000-2 clauses in the comments). Internal,
// so no two modules' constants meet; PDFCore's public ones (`.type`, `.f`, `.p` …) are used as they are.
extension PDFName {
    // §12.5.2 annotation dictionaries
    static let nm: PDFName = "NM"
    // §12.5.6.19 widget annotations (appearance characteristics)
    static let tp: PDFName = "TP"
    // Resource names Autograph gives what it adds
    static let photo: PDFName = "Photo"
    static let autographWatermarkTitle: PDFName = "AutographWatermarkTitle"
    static let autographWatermarkDate: PDFName = "AutographWatermarkDate"
    static let autographWatermarkGS: PDFName = "AutographWatermarkGS"
}
