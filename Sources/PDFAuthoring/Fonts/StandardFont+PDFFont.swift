public import PDFCore
public import PDFFonts

/// A standard font is written by name, without embedding: its metrics come from ``StandardFont``
/// (PDFFonts), its dictionary from here.
extension StandardFont: PDFFont {
    /// The font dictionary, `<< /Type /Font /Subtype /Type1 /BaseFont /Name /Encoding /WinAnsiEncoding >>`
    /// (ISO 32000-2 §9.6.2), without `/Encoding` for Symbol and ZapfDingbats, which use their built-in
    /// encodings. A standard font adds no other objects, and never throws.
    ///
    /// - Parameter add: not called.
    public func fontDictionary(adding add: (PDFObject) -> PDFReference) throws(PDFError) -> PDFDictionary {
        var dictionary: PDFDictionary = [
            .type: .name("Font"), .subtype: .name("Type1"), "BaseFont": .name(PDFName(postScriptName)),
        ]
        if encoding == .winAnsi {
            dictionary["Encoding"] = .name("WinAnsiEncoding")
        }
        return dictionary
    }
}
