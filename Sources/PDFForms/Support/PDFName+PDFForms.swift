import PDFCore

// Names PDFForms uses that PDFCore does not declare (ISO 32000-2 clauses in the comments). Internal,
// so no two modules' constants meet; PDFCore's public ones (`.type`, `.f`, `.p` …) are used as they are.
extension PDFName {
    // §12.5.6.19 widget annotations (appearance characteristics)
    static let widget: PDFName = "Widget"
    // §12.7.3 the interactive form dictionary
    static let xfa: PDFName = "XFA"
    // §12.7.4 field dictionaries and variable text
    static let dv: PDFName = "DV"
    // §12.7.5 field types: text, choice and button fields
    static let tx: PDFName = "Tx"
    static let ti: PDFName = "TI"
    // The font resource name appearance streams give Autograph's own embedded font
    static let autographF0: PDFName = "AutographF0"
}
