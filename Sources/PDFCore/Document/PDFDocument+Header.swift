extension PDFDocument {
    /// True when the file starts with its `%PDF-` header, as every file an update extends should.
    public var startsWithHeader: Bool { headerOffset == 0 && !headerVersion.isEmpty }

    /// The document as an update should extend it: this one when the file starts with its header;
    /// otherwise the same objects in a file that does, the bytes before the header dropped (offsets
    /// were read relative to it, as qpdf and Acrobat read them) or a `%PDF-` header added when
    /// there is none. Validators refuse a signed file that does not start with `%PDF-`, so
    /// ``IncrementalUpdate`` extends this document, not the damaged file.
    /// - Throws: the errors of opening the document, should its objects no longer read.
    public func startingAtHeader() throws(PDFError) -> PDFDocument {
        guard !startsWithHeader else { return self }
        let bytes: [UInt8]
        if headerVersion.isEmpty {
            let version = version.isEmpty ? "1.7" : version
            // The binary comment marks the file as binary for transfer programs (§7.5.2).
            bytes = Array("%PDF-\(version)\n%".utf8) + [0xE2, 0xE3, 0xCF, 0xD3, 0x0A] + withBytes { Array($0) }
        } else {
            bytes = withBytes { Array($0[headerOffset...]) }
        }
        return try PDFDocument(bytes: bytes, options: options)
    }
}
