import PDFCore

// Names PDFForms uses that PDFCore does not declare (ISO 32000-2 clauses in the comments). Internal,
// so no two modules' constants meet; PDFCore's public ones (`.type`, `.f`, `.p` …) are used as they are.
extension PDFName {
    // §7.8.3 resource dictionaries
    static let font: PDFName = "Font"
    static let xObject: PDFName = "XObject"
    // §8.10 form XObjects
    static let bBox: PDFName = "BBox"
    static let matrix: PDFName = "Matrix"
    // §9.6 simple fonts
    static let baseFont: PDFName = "BaseFont"
    // §12.5.2 annotation dictionaries
    static let rect: PDFName = "Rect"
    static let border: PDFName = "Border"
    static let ap: PDFName = "AP"
    static let `as`: PDFName = "AS"
    // §12.5.4 border styles
    static let bs: PDFName = "BS"
    static let s: PDFName = "S"
    // §12.5.6.19 widget annotations (appearance characteristics)
    static let widget: PDFName = "Widget"
    static let mk: PDFName = "MK"
    static let ca: PDFName = "CA"
    // §12.7.3 the interactive form dictionary
    static let needAppearances: PDFName = "NeedAppearances"
    static let dr: PDFName = "DR"
    static let xfa: PDFName = "XFA"
    // §12.7.4 field dictionaries and variable text
    static let t: PDFName = "T"
    static let tu: PDFName = "TU"
    static let ff: PDFName = "Ff"
    static let dv: PDFName = "DV"
    static let da: PDFName = "DA"
    static let q: PDFName = "Q"
    // §12.7.5 field types: text, choice and button fields
    static let tx: PDFName = "Tx"
    static let maxLen: PDFName = "MaxLen"
    static let opt: PDFName = "Opt"
    static let ti: PDFName = "TI"
    static let i: PDFName = "I"
    static let off: PDFName = "Off"
    // Font resource names for appearance streams: Helv and ZaDb as form authors use them, AutographF0 Autograph's own
    static let helv: PDFName = "Helv"
    static let zaDb: PDFName = "ZaDb"
    static let autographF0: PDFName = "AutographF0"
}
