import PDFCore

// Names PDFAnnotations uses that PDFCore does not declare (ISO 32000-2 clauses in the comments). Internal,
// so no two modules' constants meet; PDFCore's public ones (`.type`, `.f`, `.p` …) are used as they are.
extension PDFName {
    // §11.6.4.4 graphics state parameters: /ca, the non-stroking alpha (PDFCore's .ca is /CA, the stroking one)
    static let nonStrokingAlpha: PDFName = "ca"
    // §12.5.2 annotation dictionaries
    static let nm: PDFName = "NM"
    static let c: PDFName = "C"
    // §12.5.6.13 ink annotations
    static let inkList: PDFName = "InkList"
    // §12.5.6.19 widget annotations (appearance characteristics)
    static let tp: PDFName = "TP"
    // Resource names Autograph gives what it adds
    static let photo: PDFName = "Photo"
    static let autographWatermarkTitle: PDFName = "AutographWatermarkTitle"
    static let autographWatermarkDate: PDFName = "AutographWatermarkDate"
    static let autographWatermarkGS: PDFName = "AutographWatermarkGS"
}
