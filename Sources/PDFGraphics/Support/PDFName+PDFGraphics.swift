import PDFCore

// Names PDFGraphics uses that PDFCore does not declare (ISO 32000-2 clauses in the comments). Internal,
// so no two modules' constants meet; PDFCore's public ones (`.type`, `.f`, `.p` …) are used as they are.
extension PDFName {
    // §7.8.3 resource dictionaries and §8.4.5 graphics state parameters
    static let bm: PDFName = "BM"
    static let colorTransform: PDFName = "ColorTransform"
    static let ais: PDFName = "AIS"
    // §8.7 patterns
    static let patternType: PDFName = "PatternType"
    static let paintType: PDFName = "PaintType"
    static let xStep: PDFName = "XStep"
    static let yStep: PDFName = "YStep"
    // §8.9.5 image dictionaries and §7.4.7 JBIG2 parameters
    static let jbig2Globals: PDFName = "JBIG2Globals"
    // §8.10 form XObjects
    static let group: PDFName = "Group"
    // §8.11 optional content (/D, PDFCore's, is also a graphics state's dash pattern, §8.4.5)
    static let ocgs: PDFName = "OCGs"
    static let ve: PDFName = "VE"
    static let baseState: PDFName = "BaseState"
    // §11.6.5 soft masks
    static let g: PDFName = "G"
    static let tr: PDFName = "TR"
    // §11.6.6 transparency group XObjects
    static let cs: PDFName = "CS"
    static let k: PDFName = "K"
    // §12.5.6.5 link annotations and §12.6 actions (/Dest, /A: PDFCore's)
    static let aa: PDFName = "AA"
    static let pa: PDFName = "PA"
    // §12.5.4 border styles and §12.5.6 annotation types without an appearance stream
    static let be: PDFName = "BE"
    static let ic: PDFName = "IC"
    static let rd: PDFName = "RD"
    static let l: PDFName = "L"
    static let le: PDFName = "LE"
    static let ll: PDFName = "LL"
    static let lle: PDFName = "LLE"
    static let llo: PDFName = "LLO"
    static let vertices: PDFName = "Vertices"
    static let quadPoints: PDFName = "QuadPoints"
    // §14.9.4 replacement text
    static let actualText: PDFName = "ActualText"
    // Resource names of the appearances PDFGraphics makes for annotations without one
    static let autographAnnotationGS: PDFName = "AutographAnnotationGS"
    static let autographAnnotationFont: PDFName = "AutographAnnotationFont"
}
