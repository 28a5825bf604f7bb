import AutographCrypto
public import PDFCore

/// Writes validation material into a document's Document Security Store (`/DSS`, ISO 32000-2
/// §12.8.4.3; ETSI EN 319 142-1 §5.4.2, PAdES B-LT) in one incremental update.
///
/// What the document's `/DSS` already holds stays; an item already there (the same bytes) is not
/// added twice. Each signature's own material is also listed in a `/VRI` entry keyed by the
/// upper-case hexadecimal SHA-1 of its `/Contents` string, as pyHanko and Acrobat write it.
public struct DSSWriter: Sendable {
    /// The document; its bytes stay a prefix of the result.
    public let document: PDFDocument
    /// Whether the update's `/ID` is derived from its content, and where its random bytes come from.
    public var writeOptions: WriteOptions = .default

    /// A writer for `document`.
    public init(document: PDFDocument) {
        self.document = document
    }

    /// The document with `material` for each signature added to its `/DSS`: `contents` is the
    /// signature dictionary's `/Contents` string as stored (zero padding included), the VRI key's source.
    /// - Throws: `.writeFailed` when the update cannot be written; `.documentUnreadable` when the
    ///   document has no catalog.
    public func update(adding entries: [(contents: [UInt8], material: ValidationMaterial)]) throws(SigningError)
        -> [UInt8]
    {
        let update = try incrementalUpdate(adding: entries)
        do {
            return try update.documentBytes()
        } catch {
            throw SigningError(.writeFailed, "the DSS update cannot be written: \(error.message)")
        }
    }

    /// The update that adds `material` for each signature to the document's `/DSS`, not yet
    /// serialized: write it after its `IncrementalUpdate.base` (streamed), or keep only its bytes.
    /// - Throws: `.writeFailed` when a VRI key cannot be computed; `.documentUnreadable` when the
    ///   document has no catalog.
    public func incrementalUpdate(adding entries: [(contents: [UInt8], material: ValidationMaterial)])
        throws(SigningError) -> IncrementalUpdate
    {
        var update = IncrementalUpdate(base: document, options: writeOptions)
        guard let root = update.catalogReference, var catalog = update.object(root).dictionaryValue else {
            throw SigningError(.documentUnreadable, "the document has no catalog to hold a DSS")
        }
        var dss = DSSContents.dictionary(of: document) ?? PDFDictionary()
        // Every item already there stays, read or not; those read are found again by their bytes
        // instead of being written twice.
        var arrays: [PDFName: [PDFObject]] = [:]
        var known: [PDFName: [[UInt8]: PDFObject]] = [:]
        var budget = DSSContents.maxBytes
        for key in [PDFName.certs, .ocsps, .crls] {
            arrays[key] = document.resolve(dss[key] ?? .null).arrayValue ?? []
            for (object, bytes) in DSSContents.items(key, in: dss, of: document, budget: &budget) {
                known[key, default: [:]][bytes] = object
            }
        }
        func references(_ items: [[UInt8]], _ key: PDFName) -> [PDFObject] {
            items.map { bytes in
                if let found = known[key]?[bytes] { return found }
                let reference = PDFObject.reference(update.add(.stream(PDFStream(data: bytes, compress: true))))
                known[key, default: [:]][bytes] = reference
                arrays[key, default: []].append(reference)
                return reference
            }
        }
        var vri = document.resolve(dss[.vri] ?? .null).dictionaryValue ?? PDFDictionary()
        for (contents, material) in entries {
            let key: [UInt8]
            do {
                key = try DigestHasher.hash(.sha1, [contents])
            } catch {
                throw SigningError(.writeFailed, "the VRI key cannot be computed: \(error.message)")
            }
            var entry = PDFDictionary()
            let certificates = references(material.certificates, .certs)
            let ocsps = references(material.ocspResponses, .ocsps)
            let crls = references(material.crls, .crls)
            if !certificates.isEmpty { entry[.cert] = .array(certificates) }
            if !ocsps.isEmpty { entry[.ocsp] = .array(ocsps) }
            if !crls.isEmpty { entry[.crl] = .array(crls) }
            vri[PDFName(key.map { byte in String(byte, radix: 16, uppercase: true).leftPadded(to: 2) }.joined())] =
                .dictionary(entry)
        }
        for key in [PDFName.certs, .ocsps, .crls] where !(arrays[key] ?? []).isEmpty {
            dss[key] = .array(arrays[key, default: []])
        }
        if !vri.isEmpty { dss[.vri] = .dictionary(vri) }
        // The DSS goes in an object of its own: later updates replace it without touching the catalog.
        if case .reference(let existing)? = catalog[.dss] {
            update.replace(existing, with: .dictionary(dss))
        } else {
            catalog[.dss] = .reference(update.add(.dictionary(dss)))
            update.replace(root, with: .dictionary(catalog))
        }
        return update
    }
}

extension String {
    /// The string with zeros in front up to `length` characters.
    fileprivate func leftPadded(to length: Int) -> String {
        count >= length ? self : String(repeating: "0", count: length - count) + self
    }
}
