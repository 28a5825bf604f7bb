/// A PDF dictionary (ISO 32000-2 §7.3.7), keeping its keys in the order they were read or set.
///
/// Lookups are linear, which is the fastest choice for the small dictionaries PDF uses.
/// A key set to `.null` is the same as an absent key (§7.3.9), so setting null removes it.
/// Equality ignores the order of keys.
public struct PDFDictionary: Hashable, Sendable, Sequence, ExpressibleByDictionaryLiteral {
    public struct Entry: Hashable, Sendable {
        public var key: PDFName
        public var value: PDFObject
    }

    public private(set) var entries: [Entry]

    public init() { entries = [] }

    public init(_ entries: [Entry]) { self.entries = entries }

    public init(dictionaryLiteral elements: (PDFName, PDFObject)...) {
        entries = []
        entries.reserveCapacity(elements.count)
        for (key, value) in elements { self[key] = value }
    }

    /// The value for `key`, or nil when absent or null.
    public subscript(key: PDFName) -> PDFObject? {
        get {
            for entry in entries where entry.key == key {
                return entry.value.isNull ? Optional<PDFObject>.none : entry.value
            }
            return Optional<PDFObject>.none
        }
        set {
            if let index = entries.firstIndex(where: { $0.key == key }) {
                if let newValue, !newValue.isNull {
                    entries[index].value = newValue
                } else {
                    entries.remove(at: index)
                }
            } else if let newValue, !newValue.isNull {
                entries.append(Entry(key: key, value: newValue))
            }
        }
    }

    /// Appends an entry read from a file; a later duplicate key replaces the earlier value, and a
    /// null value is the same as no entry (§7.3.7).
    package mutating func appendParsed(key: PDFName, value: PDFObject) {
        if value.isNull {
            entries.removeAll { $0.key == key }
            return
        }
        if let index = entries.firstIndex(where: { $0.key == key }) {
            entries[index].value = value
        } else {
            entries.append(Entry(key: key, value: value))
        }
    }

    public var count: Int { entries.count }
    public var isEmpty: Bool { entries.isEmpty }
    public var keys: [PDFName] { entries.map(\.key) }

    public func makeIterator() -> IndexingIterator<[Entry]> { entries.makeIterator() }

    // Typed accessors (direct values only; resolve references through the document).
    public func name(_ key: PDFName) -> PDFName? { self[key]?.nameValue }
    public func int(_ key: PDFName) -> Int? { self[key]?.intValue }
    public func number(_ key: PDFName) -> Double? { self[key]?.numberValue }
    public func array(_ key: PDFName) -> [PDFObject]? { self[key]?.arrayValue }
    public func dictionary(_ key: PDFName) -> PDFDictionary? { self[key]?.dictionaryValue }
    public func string(_ key: PDFName) -> PDFString? { self[key]?.stringValue }
    public func bool(_ key: PDFName) -> Bool? { self[key]?.boolValue }
    public func reference(_ key: PDFName) -> PDFReference? { self[key]?.referenceValue }

    public static func == (lhs: PDFDictionary, rhs: PDFDictionary) -> Bool {
        guard lhs.entries.count == rhs.entries.count else { return false }
        for entry in lhs.entries where rhs[entry.key] != entry.value { return false }
        return true
    }

    public func hash(into hasher: inout Hasher) {
        var combined = 0
        for entry in entries {
            var entryHasher = Hasher()
            entryHasher.combine(entry)
            combined ^= entryHasher.finalize()
        }
        hasher.combine(entries.count)
        hasher.combine(combined)
    }
}
