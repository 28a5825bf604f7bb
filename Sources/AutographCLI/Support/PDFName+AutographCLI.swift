import PDFCore

// Names AutographCLI uses that PDFCore does not declare (ISO 32000-2 clauses in the comments). Internal,
// so no two modules' constants meet; PDFCore's public ones (`.type`, `.f`, `.p` …) are used as they are.
extension PDFName {
    // §8.10 form XObjects
    static let bBox: PDFName = "BBox"
    // §12.5.2 annotation dictionaries
    static let rect: PDFName = "Rect"
    static let ap: PDFName = "AP"
    static let `as`: PDFName = "AS"
    // §12.5.6.19 widget annotations (appearance characteristics)
    static let mk: PDFName = "MK"
    static let bc: PDFName = "BC"
    static let bg: PDFName = "BG"
    // §12.7 interactive forms (fields, variable text, choice options, button states)
    static let t: PDFName = "T"
    static let tu: PDFName = "TU"
    static let ff: PDFName = "Ff"
    static let da: PDFName = "DA"
    static let opt: PDFName = "Opt"
    static let off: PDFName = "Off"
    static let yes: PDFName = "Yes"
    // §14.3.3 document information
    static let title: PDFName = "Title"
    static let producer: PDFName = "Producer"
}
