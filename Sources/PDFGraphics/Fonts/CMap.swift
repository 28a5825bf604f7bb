/// A CMap (ISO 32000-2 §9.7.5; Adobe Technical Notes #5014 and #5099): how the bytes of a string
/// split into character codes (codespace ranges), which CID each code selects (`cidrange`,
/// `cidchar`, `notdefrange`) and, for `/ToUnicode` and the `-UCS2` CMaps, which text a code stands
/// for (`bfchar`, `bfrange`).
///
/// Mappings inherited with `usecmap` stay in the parent, consulted after this CMap's own.
final class CMap: Sendable {
    /// A codespace range: codes of `length` bytes whose every byte lies between the corresponding
    /// bytes of `low` and `high` (§9.7.6.2).
    struct Codespace: Sendable, Hashable {
        var length: Int
        var low: UInt32
        var high: UInt32

        /// True when the first `count` bytes of `bytes` from `start` lie in this range's first bytes.
        func matches(_ bytes: [UInt8], at start: Int, count: Int) -> Bool {
            for index in 0..<count {
                let shift = UInt32(8 * (length - 1 - index))
                let byte = UInt32(bytes[start + index])
                guard byte >= (low >> shift) & 0xFF, byte <= (high >> shift) & 0xFF else { return false }
            }
            return true
        }
    }

    /// Codes `low…high` map to `value`, `value + 1`, … (a `cidrange`, or a `cidchar` when low == high).
    struct Range: Sendable, Hashable {
        var low: UInt32
        var high: UInt32
        var value: UInt32
    }

    /// Codes `low…high` map to text: consecutive values from `start` (its last UTF-16 unit
    /// incremented), or one string each from `list`.
    struct TextRange: Sendable {
        var low: UInt32
        var high: UInt32
        var start: [UInt16]
        var list: [String]?
    }

    let name: String?
    /// 0 horizontal, 1 vertical (`/WMode`).
    let writingMode: Int
    /// `/CIDSystemInfo` (registry, ordering, supplement) when the CMap states it.
    let collection: (registry: String, ordering: String, supplement: Int)?
    /// Own and inherited codespace ranges.
    let codespaces: [Codespace]
    /// CID ranges by code length − 1, sorted by `low`.
    let cidRanges: [[Range]]
    let notdefRanges: [[Range]]
    let textChars: [UInt32: String]
    /// Sorted by `low`.
    let textRanges: [TextRange]
    let parent: CMap?

    init(
        name: String?, writingMode: Int, collection: (registry: String, ordering: String, supplement: Int)?,
        codespaces: [Codespace], cidRanges: [[Range]], notdefRanges: [[Range]], textChars: [UInt32: String],
        textRanges: [TextRange], parent: CMap?
    ) {
        self.name = name
        self.writingMode = writingMode
        self.collection = collection ?? parent?.collection
        var spaces = codespaces
        for space in parent?.codespaces ?? [] where !spaces.contains(space) { spaces.append(space) }
        self.codespaces = spaces
        self.cidRanges = cidRanges.map { $0.sorted { $0.low < $1.low } }
        self.notdefRanges = notdefRanges.map { $0.sorted { $0.low < $1.low } }
        self.textChars = textChars
        self.textRanges = textRanges.sorted { $0.low < $1.low }
        self.parent = parent
    }

    /// The Identity-H or Identity-V CMap: two-byte codes that are their CIDs.
    static func identity(vertical: Bool) -> CMap {
        CMap(
            name: vertical ? "Identity-V" : "Identity-H", writingMode: vertical ? 1 : 0,
            collection: ("Adobe", "Identity", 0), codespaces: [Codespace(length: 2, low: 0, high: 0xFFFF)],
            cidRanges: [[], [Range(low: 0, high: 0xFFFF, value: 0)], [], []], notdefRanges: [[], [], [], []],
            textChars: [:], textRanges: [], parent: nil)
    }

    // MARK: Codes

    /// The code starting at `start` and its length in bytes (§9.7.6.2): the first 1, 2, 3 or 4 bytes
    /// that lie in a codespace range. When none does, the length of the range matching the most
    /// leading bytes (§9.7.6.3), or `fallbackLength` when there are no codespace ranges.
    func nextCode(in bytes: [UInt8], at start: Int, fallbackLength: Int = 2) -> (code: UInt32, length: Int) {
        let available = bytes.count - start
        var length = 0
        if codespaces.isEmpty {
            length = fallbackLength
        } else {
            for count in 1...4 where count <= available {
                if codespaces.contains(where: { $0.length == count && $0.matches(bytes, at: start, count: count) }) {
                    length = count
                    break
                }
            }
            if length == 0 {
                var best = (matched: 0, length: Int.max)
                for space in codespaces {
                    var matched = 0
                    while matched < min(space.length, available),
                        space.matches(bytes, at: start, count: matched + 1)
                    {
                        matched += 1
                    }
                    if matched > best.matched || (matched == best.matched && space.length < best.length) {
                        best = (matched, space.length)
                    }
                }
                length = best.length == Int.max ? 1 : best.length
            }
        }
        length = max(1, min(length, available))
        var code: UInt32 = 0
        for index in 0..<length { code = code << 8 | UInt32(bytes[start + index]) }
        return (code, length)
    }

    /// The CID of `code` (`length` bytes), or the `notdefrange` CID, or nil when the CMap maps
    /// neither (the caller uses CID 0).
    func cid(for code: UInt32, length: Int) -> UInt32? {
        var map: CMap? = self
        var depth = 0
        while let current = map, depth < 16 {
            if (1...4).contains(length), let value = Self.find(code, in: current.cidRanges[length - 1]) {
                return value
            }
            map = current.parent
            depth += 1
        }
        map = self
        depth = 0
        while let current = map, depth < 16 {
            // A notdef range maps all its codes to one CID.
            if (1...4).contains(length),
                let value = Self.find(code, in: current.notdefRanges[length - 1], constant: true)
            {
                return value
            }
            map = current.parent
            depth += 1
        }
        return nil
    }

    /// The text of `code` from `bfchar` and `bfrange` mappings, or nil.
    func text(for code: UInt32) -> String? {
        var map: CMap? = self
        var depth = 0
        while let current = map, depth < 16 {
            if let text = current.textChars[code] { return text }
            if let text = current.rangeText(for: code) { return text }
            map = current.parent
            depth += 1
        }
        return nil
    }

    /// True when the CMap (or a parent) has any `bfchar` or `bfrange` mapping.
    var hasText: Bool { !textChars.isEmpty || !textRanges.isEmpty || (parent?.hasText ?? false) }

    /// How many codes the `bfchar` and `bfrange` mappings give text (parents included).
    var textCodeCount: Int {
        textChars.count + textRanges.reduce(0) { $0 + Int($1.high - $1.low) + 1 } + (parent?.textCodeCount ?? 0)
    }

    private func rangeText(for code: UInt32) -> String? {
        var low = 0
        var high = textRanges.count
        while low < high {
            let middle = (low + high) / 2
            if textRanges[middle].low <= code { low = middle + 1 } else { high = middle }
        }
        // Ranges may nest: look back a little for one that contains the code.
        var index = low - 1
        while index >= 0, index >= low - 8 {
            let range = textRanges[index]
            if code >= range.low, code <= range.high {
                let offset = Int(code - range.low)
                if let list = range.list { return offset < list.count ? list[offset] : nil }
                var units = range.start
                guard let last = units.last else { return nil }
                units[units.count - 1] = last &+ UInt16(truncatingIfNeeded: offset)
                return Self.decodeUTF16(units)
            }
            index -= 1
        }
        return nil
    }

    /// The value `code` maps to in sorted `ranges`.
    private static func find(_ code: UInt32, in ranges: [Range], constant: Bool = false) -> UInt32? {
        var low = 0
        var high = ranges.count
        while low < high {
            let middle = (low + high) / 2
            if ranges[middle].low <= code { low = middle + 1 } else { high = middle }
        }
        var index = low - 1
        while index >= 0, index >= low - 8 {
            let range = ranges[index]
            if code >= range.low, code <= range.high {
                return constant ? range.value : range.value &+ (code - range.low)
            }
            index -= 1
        }
        return nil
    }

    /// UTF-16 code units to text; unpaired surrogates become U+FFFD.
    static func decodeUTF16(_ units: [UInt16]) -> String {
        String(decoding: units, as: UTF16.self)
    }
}
