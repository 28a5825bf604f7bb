/// The PDF/A part and conformance level a document claims in its XMP metadata (ISO 19005-1 §6.7.11:
/// `pdfaid:part` and `pdfaid:conformance`). A claim, not a validation.
public struct PDFAIdentification: Hashable, Sendable {
    /// 1, 2, 3 or 4.
    public var part: Int
    /// `A`, `B`, `U`, `E`, `F` (nil when absent, as PDF/A-4 allows).
    public var conformance: String?

    /// A claim of PDF/A-`part`, with the conformance level `conformance` (nil for none).
    public init(part: Int, conformance: String?) {
        self.part = part
        self.conformance = conformance
    }

    /// PDF/A-1 (ISO 19005-1) forbids transparency (§6.4), whatever its level.
    public var forbidsTransparency: Bool { part == 1 }
}

extension PDFDocument {
    /// The PDF/A identification of the catalog's `/Metadata` stream, or nil when it claims none.
    public var pdfaIdentification: PDFAIdentification? {
        guard let catalog, let stream = resolve(catalog[.metadata] ?? .null).streamValue,
            let data = try? stream.decodedData(maxSize: 1 << 24)
        else { return nil }
        let xmp = XMPPacket(String(decoding: data, as: UTF8.self))
        guard let partText = xmp.property("pdfaid:part"), let part = Int(partText) else { return nil }
        return PDFAIdentification(part: part, conformance: xmp.property("pdfaid:conformance")?.uppercased())
    }
}
