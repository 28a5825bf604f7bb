import PDFCore

// Names PDFSigning uses that PDFCore does not declare (ISO 32000-2 clauses in the comments). Internal,
// so no two modules' constants meet; PDFCore's public ones (`.type`, `.f`, `.p` …) are used as they are.
extension PDFName {
    // §7.7.2 catalog entries: extensions (§7.12), mark information (§14.7), optional content (§8.11.4)
    static let extensions: PDFName = "Extensions"
    static let markInfo: PDFName = "MarkInfo"
    // §7.8.3 resource dictionaries
    static let pattern: PDFName = "Pattern"
    static let properties: PDFName = "Properties"
    // §12.7 interactive forms
    static let sigFlags: PDFName = "SigFlags"
    static let lock: PDFName = "Lock"
    // §12.8.1 signature dictionaries (Prop_Build after Adobe's signature build dictionary)
    static let subFilter: PDFName = "SubFilter"
    static let location: PDFName = "Location"
    static let reason: PDFName = "Reason"
    static let contactInfo: PDFName = "ContactInfo"
    static let reference: PDFName = "Reference"
    static let propBuild: PDFName = "Prop_Build"
    static let app: PDFName = "App"
    static let rEx: PDFName = "REx"
    // §12.8.2 transform methods
    static let transformMethod: PDFName = "TransformMethod"
    static let transformParams: PDFName = "TransformParams"
    static let docMDP: PDFName = "DocMDP"
    static let fieldMDP: PDFName = "FieldMDP"
    static let action: PDFName = "Action"
    // §12.8.4 long-term validation
    static let dss: PDFName = "DSS"
    static let vri: PDFName = "VRI"
    static let certs: PDFName = "Certs"
    static let ocsps: PDFName = "OCSPs"
    static let crls: PDFName = "CRLs"
    static let cert: PDFName = "Cert"
    static let ocsp: PDFName = "OCSP"
    static let crl: PDFName = "CRL"
    // §12.8.5 document timestamps
    static let etsiRFC3161: PDFName = "ETSI.RFC3161"
    // §14.3.3 document information
    static let modDate: PDFName = "ModDate"
    // Names Autograph gives what it adds
    static let f1: PDFName = "F1"
    static let f2: PDFName = "F2"
    static let im1: PDFName = "Im1"
    static let autographBiometrics: PDFName = "AutographBiometrics"
}
