import PDFCore

// Names PDFTestSupport uses that PDFCore does not declare (ISO 32000-2 clauses in the comments). Internal,
// so no two modules' constants meet; PDFCore's public ones (`.type`, `.f`, `.p` …) are used as they are.
extension PDFName {
    // §7.8.3 resource dictionaries
    static let font: PDFName = "Font"
    // §8.10 form XObjects
    static let bBox: PDFName = "BBox"
    // §9.6 simple fonts
    static let baseFont: PDFName = "BaseFont"
    static let encoding: PDFName = "Encoding"
    // §12.5.2 annotation dictionaries
    static let rect: PDFName = "Rect"
    static let ap: PDFName = "AP"
    static let `as`: PDFName = "AS"
    // §12.5.6.19 widget annotations (appearance characteristics)
    static let mk: PDFName = "MK"
    static let bc: PDFName = "BC"
    static let bg: PDFName = "BG"
    static let ca: PDFName = "CA"
    // §12.7 interactive forms
    static let needAppearances: PDFName = "NeedAppearances"
    static let dr: PDFName = "DR"
    static let t: PDFName = "T"
    static let ff: PDFName = "Ff"
    static let da: PDFName = "DA"
    static let q: PDFName = "Q"
    static let maxLen: PDFName = "MaxLen"
    static let opt: PDFName = "Opt"
    static let off: PDFName = "Off"
    // Font resource names as form authors use them
    static let helv: PDFName = "Helv"
    static let zaDb: PDFName = "ZaDb"
    // §14.3.3 document information
    static let title: PDFName = "Title"
}
