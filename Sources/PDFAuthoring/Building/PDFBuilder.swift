public import PDFCore
import PDFFonts

/// Builds a new PDF from objects (ISO 32000-2 §7.5): a header, the objects in order, a
/// cross-reference table or stream, and a trailer. Used for new documents, samples and test files.
///
/// ```swift
/// var builder = PDFBuilder()
/// builder.addPage(width: 595, height: 842, content: Array("BT /F1 24 Tf 72 760 Td (Hello) Tj ET".utf8))
/// let bytes = builder.build()
/// ```
public struct PDFBuilder {
    /// How the cross-reference is written.
    public enum XRefForm: Sendable {
        /// A classic table (`xref` … `trailer`, §7.5.4), readable by every PDF version.
        case table
        /// A cross-reference stream (PDF 1.5, §7.5.8), whose dictionary is the trailer.
        case stream
    }

    /// The version in the `%PDF-` header, such as `1.7`.
    public var version: String
    /// The document information dictionary; omitted when empty.
    public var info = PDFDictionary()
    /// Entries added to the catalog besides `/Type` and `/Pages`.
    public var catalogEntries = PDFDictionary()
    /// The file ID written in the trailer (16 bytes); a fixed one keeps output reproducible.
    public var fileID: [UInt8] = Array(repeating: 0x42, count: 16)
    private var objects: [PDFObject?] = []
    private var pageReferences: [PDFReference] = []
    private let pagesReference: PDFReference

    /// An empty document with the given header version; the page tree root is object 1.
    public init(version: String = "1.7") {
        self.version = version
        objects.append(nil)  // the page tree root, filled in by build()
        pagesReference = PDFReference(1)
    }

    /// Adds an object and returns its reference.
    @discardableResult
    public mutating func add(_ object: PDFObject) -> PDFReference {
        objects.append(object)
        return PDFReference(objects.count)
    }

    /// Reserves an object number to be set later with ``set(_:to:)`` (for objects that refer to each other).
    public mutating func reserve() -> PDFReference {
        objects.append(nil)
        return PDFReference(objects.count)
    }

    /// Sets a reserved or added object.
    public mutating func set(_ reference: PDFReference, to object: PDFObject) {
        objects[reference.number - 1] = object
    }

    /// The reference of the page tree root, for `/Parent` entries.
    public var pages: PDFReference { pagesReference }

    /// Appends a page object built by the caller (with `/Parent` set to ``pages``) to the page tree.
    public mutating func appendPage(_ reference: PDFReference) {
        pageReferences.append(reference)
    }

    /// Adds a page with a content stream (Flate-compressed when `compress`) and the standard
    /// Helvetica as `/F1` unless `resources` are given; at `reserved` when the page's reference
    /// was needed before (by widgets' `/P`).
    @discardableResult
    public mutating func addPage(
        width: Double = 612, height: Double = 792, content: [UInt8], resources: PDFDictionary? = nil,
        compress: Bool = true, extra: PDFDictionary = PDFDictionary(), reserved: PDFReference? = nil
    ) -> PDFReference {
        let contents = add(.stream(PDFStream(data: content, compress: compress)))
        var page = extra
        page[.type] = .name(.page)
        page[.parent] = .reference(pagesReference)
        page[.mediaBox] = PDFRectangle(x0: 0, y0: 0, x1: width, y1: height).object
        page[.contents] = .reference(contents)
        page[.resources] = .dictionary(resources ?? PDFBuilder.helveticaResources)
        let reference: PDFReference
        if let reserved {
            set(reserved, to: .dictionary(page))
            reference = reserved
        } else {
            reference = add(.dictionary(page))
        }
        pageReferences.append(reference)
        return reference
    }

    /// An `/AcroForm` dictionary for `fields` whose default resources give Helvetica as `/Helv` and
    /// ZapfDingbats as `/ZaDb`, the names form fields' `/DA` use (§12.7.4.3).
    public static func acroForm(fields: [PDFObject]) -> PDFObject {
        let helvetica: PDFObject = .dictionary([
            .type: .name("Font"), .subtype: .name("Type1"), .init("BaseFont"): .name("Helvetica"),
            .init("Encoding"): .name("WinAnsiEncoding"),
        ])
        let dingbats: PDFObject = .dictionary([
            .type: .name("Font"), .subtype: .name("Type1"), .init("BaseFont"): .name("ZapfDingbats"),
        ])
        return .dictionary([
            .fields: .array(fields), .init("DA"): .string(PDFString(text: "/Helv 0 Tf 0 g")),
            .init("DR"): .dictionary([.init("Font"): .dictionary([.init("Helv"): helvetica, .init("ZaDb"): dingbats])]),
        ])
    }

    /// Resources naming the standard Helvetica font `/F1` (a standard 14 font, §9.6.2.2).
    public static let helveticaResources: PDFDictionary = [
        .init("Font"): .dictionary([
            .init("F1"): .dictionary([
                .type: .name("Font"), .subtype: .name("Type1"), .init("BaseFont"): .name("Helvetica"),
                .init("Encoding"): .name("WinAnsiEncoding"),
            ])
        ])
    ]

    /// The file's bytes.
    public func build(xref: XRefForm = .table) -> [UInt8] {
        var all = objects
        all[0] = .dictionary([
            .type: .name(.pages), .kids: .array(pageReferences.map { .reference($0) }),
            .count: .integer(pageReferences.count),
        ])
        var catalog = catalogEntries
        catalog[.type] = .name(.catalog)
        catalog[.pages] = .reference(pagesReference)
        all.append(.dictionary(catalog))
        let catalogReference = PDFReference(all.count)
        var infoReference: PDFReference? = nil
        if !info.isEmpty {
            all.append(.dictionary(info))
            infoReference = PDFReference(all.count)
        }

        var serializer = PDFSerializer()
        serializer.append("%PDF-\(version)\n")
        serializer.append([0x25, 0xE2, 0xE3, 0xCF, 0xD3, 0x0A])
        var entries: [(number: Int, entry: XRefEntry)] = [(0, .free(generation: 65535))]
        for (index, object) in all.enumerated() {
            entries.append((index + 1, .inFile(offset: serializer.output.count, generation: 0)))
            serializer.append("\(index + 1) 0 obj\n")
            serializer.write(object ?? .null)
            serializer.append("\nendobj\n")
        }
        var trailer: PDFDictionary = [.root: .reference(catalogReference)]
        if let infoReference { trailer[.info] = .reference(infoReference) }
        trailer[.id] = .array([
            .string(PDFString(bytes: fileID, isHex: true)), .string(PDFString(bytes: fileID, isHex: true)),
        ])
        let offset = serializer.output.count
        switch xref {
        case .table:
            trailer[.size] = .integer(all.count + 1)
            serializer.append(XRefWriter.table(entries, trailer: trailer, at: offset))
        case .stream:
            trailer[.size] = .integer(all.count + 2)
            serializer.append(XRefWriter.stream(entries, trailer: trailer, number: all.count + 1, at: offset))
        }
        return serializer.output
    }
}
