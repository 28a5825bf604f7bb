import PDFCore

// Names PDFAnnotations uses that PDFCore does not declare (ISO 32000-2 clauses in the comments). Internal,
// so no two modules' constants meet; PDFCore's public ones (`.type`, `.f`, `.p` …) are used as they are.
extension PDFName {
    // §7.8.3 resource dictionaries
    static let extGState: PDFName = "ExtGState"
    static let font: PDFName = "Font"
    static let xObject: PDFName = "XObject"
    // §8.4.5 graphics state parameters: /CA and /ca differ only in case, so they are named for what they are
    static let strokingAlpha: PDFName = "CA"
    static let nonStrokingAlpha: PDFName = "ca"
    // §8.10 form XObjects
    static let bBox: PDFName = "BBox"
    // §12.5.2 annotation dictionaries
    static let rect: PDFName = "Rect"
    static let nm: PDFName = "NM"
    static let m: PDFName = "M"
    static let c: PDFName = "C"
    static let ap: PDFName = "AP"
    static let `as`: PDFName = "AS"
    // §12.5.4 border styles
    static let bs: PDFName = "BS"
    static let s: PDFName = "S"
    // §12.5.6.13 ink annotations
    static let inkList: PDFName = "InkList"
    // §12.5.6.19 widget annotations (appearance characteristics)
    static let mk: PDFName = "MK"
    static let i: PDFName = "I"
    static let tp: PDFName = "TP"
    // Resource names Autograph gives what it adds
    static let photo: PDFName = "Photo"
    static let autographWatermarkTitle: PDFName = "AutographWatermarkTitle"
    static let autographWatermarkDate: PDFName = "AutographWatermarkDate"
    static let autographWatermarkGS: PDFName = "AutographWatermarkGS"
}
