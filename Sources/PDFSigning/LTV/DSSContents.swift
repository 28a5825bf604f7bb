import PDFCore

/// Reading a document's Document Security Store (`/DSS`, ISO 32000-2 §12.8.4.3) within bounds:
/// the one reader behind the validator's embedded material and `DSSWriter`'s deduplication.
///
/// A `/DSS` comes from the file, so it is read with limits: at most ``maxItems`` items of an
/// array and ``maxBytes`` decoded bytes in all; what lies beyond is left out, as an item that
/// cannot be decoded is.
enum DSSContents {
    /// The most items read of one array (`/Certs`, `/OCSPs`, `/CRLs`).
    static let maxItems = 4096
    /// The most decoded bytes read from one `/DSS`, its three arrays together.
    static let maxBytes = 64 << 20

    /// The catalog's `/DSS` dictionary; nil when the document has none.
    static func dictionary(of document: PDFDocument) -> PDFDictionary? {
        document.resolve(document.catalog?[.dss] ?? .null).dictionaryValue
    }

    /// The streams of `dss[key]` with their decoded bytes, in order, as long as `budget` (decoded
    /// bytes still allowed) lasts.
    static func items(
        _ key: PDFName, in dss: PDFDictionary, of document: PDFDocument, budget: inout Int
    ) -> [(object: PDFObject, bytes: [UInt8])] {
        var found: [(object: PDFObject, bytes: [UInt8])] = []
        for item in (document.resolve(dss[key] ?? .null).arrayValue ?? []).prefix(maxItems) where budget > 0 {
            guard let stream = document.resolve(item).streamValue,
                let bytes = try? stream.decodedData(maxSize: budget)
            else { continue }
            // `maxSize` bounds what filters decode; an unfiltered stream is checked here.
            guard bytes.count <= budget else {
                budget = 0
                break
            }
            budget -= bytes.count
            found.append((item, bytes))
        }
        return found
    }
}
