/// A PDF dictionary (ISO 32000-2 §7.3.7), keeping its keys in the order they were read or set.
///
/// Lookups are linear, which is the fastest choice for the small dictionaries PDF uses.
/// A key set to `.null` is the same as an absent key (§7.3.9), so setting null removes it.
/// Equality ignores the order of keys.
public struct PDFDictionary: Hashable, Sendable, Sequence, ExpressibleByDictionaryLiteral {
    /// One key and its value, in the order the dictionary keeps them.
    public struct Entry: Hashable, Sendable {
        /// The key.
        public var key: PDFName
        /// The value (never `.null` in a dictionary read or set by key).
        public var value: PDFObject
    }

    /// The entries in order: as read from the file, or as first set.
    public private(set) var entries: [Entry]

    /// An empty dictionary.
    public init() { entries = [] }

    /// A dictionary of the given entries, kept as they are: unlike setting keys, duplicate keys and null values are not
    /// removed.
    public init(_ entries: [Entry]) { self.entries = entries }

    /// A dictionary of the literal's pairs in order; a repeated key replaces the earlier value and a `.null` value
    /// leaves the key out.
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

    /// The number of entries.
    public var count: Int { entries.count }
    /// True when the dictionary has no entry.
    public var isEmpty: Bool { entries.isEmpty }
    /// The keys in the entries' order.
    public var keys: [PDFName] { entries.map(\.key) }

    /// Iterates over the entries in order.
    public func makeIterator() -> IndexingIterator<[Entry]> { entries.makeIterator() }

    // Typed accessors (direct values only; resolve references through the document).
    /// The value for `key` when it is a name; nil when absent or of another type, or a reference (these accessors read
    /// direct values only: resolve references through the document).
    public func name(_ key: PDFName) -> PDFName? { self[key]?.nameValue }
    /// The value for `key` as an integer (also a real with an integral value), or nil; references are not resolved.
    public func int(_ key: PDFName) -> Int? { self[key]?.intValue }
    /// The value for `key` as a number (an integer or a real), or nil; references are not resolved.
    public func number(_ key: PDFName) -> Double? { self[key]?.numberValue }
    /// The value for `key` when it is an array, or nil; references are not resolved.
    public func array(_ key: PDFName) -> [PDFObject]? { self[key]?.arrayValue }
    /// The value for `key` when it is a dictionary, or a stream's dictionary; nil otherwise; references are not
    /// resolved.
    public func dictionary(_ key: PDFName) -> PDFDictionary? { self[key]?.dictionaryValue }
    /// The value for `key` when it is a string, or nil; references are not resolved.
    public func string(_ key: PDFName) -> PDFString? { self[key]?.stringValue }
    /// The value for `key` when it is a boolean, or nil; references are not resolved.
    public func bool(_ key: PDFName) -> Bool? { self[key]?.boolValue }
    /// The value for `key` when it is an indirect reference, or nil.
    public func reference(_ key: PDFName) -> PDFReference? { self[key]?.referenceValue }

    /// True when both have the same keys with equal values, in whatever order.
    public static func == (lhs: PDFDictionary, rhs: PDFDictionary) -> Bool {
        guard lhs.entries.count == rhs.entries.count else { return false }
        for entry in lhs.entries where rhs[entry.key] != entry.value { return false }
        return true
    }

    /// Hashes the entries independently of their order, as `==` compares.
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
