import PDFCore
import PDFFonts

/// Reads the PostScript text of a CMap (ISO 32000-2 §9.7.5, §9.10.3; Adobe Technical Note #5014):
/// only the operators that define mappings and the entries `/CMapName`, `/WMode` and
/// `/CIDSystemInfo` are looked at; everything else is skipped.
///
/// Hostile CMaps are bounded: at most ``maxEntries`` mappings, codes of 1 to 4 bytes, and `usecmap`
/// chains at most ``maxDepth`` deep (deeper ones are dropped with a warning).
enum CMapParser {
    static let maxEntries = 500_000
    static let maxDepth = 8

    /// Parses `bytes`.
    /// - Parameters:
    ///   - depth: how many `usecmap` levels lead here (0 for the CMap a font names).
    ///   - parent: a CMap inherited by other means (a stream's `/UseCMap`), overridden by `usecmap`.
    ///   - loader: finds a predefined CMap by name for `usecmap`, given the depth it will be at.
    static func parse(
        _ bytes: [UInt8], depth: Int = 0, parent: CMap? = nil, warnings: inout [String],
        loader: (String, Int) -> CMap?
    ) -> CMap {
        var state = State()
        state.parent = parent
        bytes.withUnsafeBytes { raw in
            var lexer = Lexer(raw)
            state.run(&lexer, depth: depth, loader: loader)
        }
        warnings += state.warnings
        return CMap(
            name: state.name, writingMode: state.writingMode,
            collection: state.registry.map { ($0, state.ordering ?? "", state.supplement) },
            codespaces: state.codespaces, cidRanges: state.cidRanges, notdefRanges: state.notdefRanges,
            textChars: state.textChars, textRanges: state.textRanges, parent: state.parent)
    }

    private struct State {
        var name: String?
        var writingMode = 0
        var registry: String?
        var ordering: String?
        var supplement = 0
        var codespaces: [CMap.Codespace] = []
        var cidRanges: [[CMap.Range]] = [[], [], [], []]
        var notdefRanges: [[CMap.Range]] = [[], [], [], []]
        var textChars: [UInt32: String] = [:]
        var textRanges: [CMap.TextRange] = []
        var parent: CMap?
        var warnings: [String] = []
        var entries = 0
        var truncated = false

        mutating func run(_ lexer: inout Lexer, depth: Int, loader: (String, Int) -> CMap?) {
            var previous: Lexer.Token = .end
            while true {
                let token = lexer.next()
                switch token {
                case .end:
                    return
                case .keyword(let keyword):
                    switch keyword {
                    case Words.beginCodespaceRange: readCodespaces(&lexer)
                    case Words.beginCIDRange: readCIDRanges(&lexer, end: Words.endCIDRange, notdef: false)
                    case Words.beginNotdefRange: readCIDRanges(&lexer, end: Words.endNotdefRange, notdef: true)
                    case Words.beginCIDChar: readCIDChars(&lexer)
                    case Words.beginBFChar: readTextChars(&lexer)
                    case Words.beginBFRange: readTextRanges(&lexer)
                    case Words.useCMap:
                        guard case .name(let used) = previous else { break }
                        if depth + 1 > CMapParser.maxDepth {
                            warnings.append(
                                "usecmap /\(used.string) nested deeper than \(CMapParser.maxDepth) is ignored")
                        } else if let found = loader(used.string, depth + 1) {
                            parent = found
                        } else {
                            warnings.append("usecmap /\(used.string): no such CMap")
                        }
                    default: break
                    }
                default:
                    if case .name(let key) = previous { take(key.string, token) }
                }
                previous = token
                if truncated { return }
            }
        }

        /// Records `/Key value` pairs this model uses.
        mutating func take(_ key: String, _ value: Lexer.Token) {
            switch (key, value) {
            case ("CMapName", .name(let value)): if name == nil { name = value.string }
            case ("WMode", .integer(let value)): writingMode = value == 1 ? 1 : 0
            case ("Registry", .string(let value)): registry = value.text
            case ("Ordering", .string(let value)): ordering = value.text
            case ("Supplement", .integer(let value)): supplement = value
            default: break
            }
        }

        /// Counts one mapping; false (and stops parsing) past the limit.
        mutating func count() -> Bool {
            entries += 1
            if entries > CMapParser.maxEntries {
                if !truncated {
                    warnings.append("the CMap has more than \(CMapParser.maxEntries) mappings; the rest are ignored")
                }
                truncated = true
                return false
            }
            return true
        }

        /// The next token unless it is the keyword `end` (or the input ends).
        static func operand(_ lexer: inout Lexer, end: Keyword) -> Lexer.Token? {
            let token = lexer.next()
            if token == .end { return nil }
            if case .keyword(let keyword) = token, keyword == end { return nil }
            return token
        }

        /// A code string of 1 to 4 bytes as (value, length).
        static func code(_ token: Lexer.Token) -> (value: UInt32, length: Int)? {
            guard case .string(let string) = token, (1...4).contains(string.bytes.count) else { return nil }
            return (string.bytes.reduce(0) { $0 << 8 | UInt32($1) }, string.bytes.count)
        }

        mutating func readCodespaces(_ lexer: inout Lexer) {
            while let first = Self.operand(&lexer, end: Words.endCodespaceRange),
                let second = Self.operand(&lexer, end: Words.endCodespaceRange)
            {
                guard count(), let low = Self.code(first), let high = Self.code(second), low.length == high.length
                else { if truncated { return } else { continue } }
                codespaces.append(CMap.Codespace(length: low.length, low: low.value, high: high.value))
            }
        }

        mutating func readCIDRanges(_ lexer: inout Lexer, end: Keyword, notdef: Bool) {
            while let first = Self.operand(&lexer, end: end), let second = Self.operand(&lexer, end: end),
                let third = Self.operand(&lexer, end: end)
            {
                guard count() else { return }
                guard let low = Self.code(first), let high = Self.code(second), low.value <= high.value,
                    case .integer(let cid) = third, cid >= 0, cid <= Int(UInt32.max)
                else { continue }
                let range = CMap.Range(low: low.value, high: high.value, value: UInt32(cid))
                if notdef {
                    notdefRanges[low.length - 1].append(range)
                } else {
                    cidRanges[low.length - 1].append(range)
                }
            }
        }

        mutating func readCIDChars(_ lexer: inout Lexer) {
            while let first = Self.operand(&lexer, end: Words.endCIDChar),
                let second = Self.operand(&lexer, end: Words.endCIDChar)
            {
                guard count() else { return }
                guard let code = Self.code(first), case .integer(let cid) = second, cid >= 0, cid <= Int(UInt32.max)
                else { continue }
                cidRanges[code.length - 1].append(CMap.Range(low: code.value, high: code.value, value: UInt32(cid)))
            }
        }

        /// A destination: a UTF-16BE string, or (in old CMaps) a glyph name.
        static func text(_ token: Lexer.Token) -> String? {
            switch token {
            case .string(let string):
                let bytes = string.bytes
                // Most entries are one character of the Basic Multilingual Plane.
                if bytes.count == 2, let scalar = Unicode.Scalar(UInt16(bytes[0]) << 8 | UInt16(bytes[1])) {
                    return String(Character(scalar))
                }
                var units: [UInt16] = []
                var index = 0
                while index + 1 < bytes.count {
                    units.append(UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1]))
                    index += 2
                }
                if bytes.count % 2 == 1 { units.append(UInt16(bytes[bytes.count - 1])) }
                return CMap.decodeUTF16(units)
            case .name(let name): return GlyphNames.unicode(for: name.string)
            case .integer(let value): return value >= 0 ? Unicode.Scalar(UInt32(clamping: value)).map(String.init) : nil
            default: return nil
            }
        }

        mutating func readTextChars(_ lexer: inout Lexer) {
            while let first = Self.operand(&lexer, end: Words.endBFChar),
                let second = Self.operand(&lexer, end: Words.endBFChar)
            {
                guard count() else { return }
                guard let code = Self.code(first), let text = Self.text(second) else { continue }
                textChars[code.value] = text
            }
        }

        mutating func readTextRanges(_ lexer: inout Lexer) {
            while let first = Self.operand(&lexer, end: Words.endBFRange),
                let second = Self.operand(&lexer, end: Words.endBFRange),
                let third = Self.operand(&lexer, end: Words.endBFRange)
            {
                guard count() else { return }
                let low = Self.code(first)
                let high = Self.code(second)
                if third == .arrayOpen {
                    var list: [String] = []
                    while let item = Self.operand(&lexer, end: Words.endBFRange), item != .arrayClose {
                        guard count() else { return }
                        list.append(Self.text(item) ?? "")
                    }
                    guard let low, let high, low.value <= high.value else { continue }
                    textRanges.append(CMap.TextRange(low: low.value, high: high.value, start: [], list: list))
                    continue
                }
                guard let low, let high, low.value <= high.value, case .string(let start) = third,
                    !start.bytes.isEmpty, start.bytes.count <= 512
                else { continue }
                var units: [UInt16] = []
                var index = 0
                while index + 1 < start.bytes.count {
                    units.append(UInt16(start.bytes[index]) << 8 | UInt16(start.bytes[index + 1]))
                    index += 2
                }
                if start.bytes.count % 2 == 1 { units.append(UInt16(start.bytes[start.bytes.count - 1])) }
                textRanges.append(CMap.TextRange(low: low.value, high: high.value, start: units, list: nil))
            }
        }
    }

    /// The CMap operators.
    private enum Words {
        static let beginCodespaceRange = Keyword("begincodespacerange")
        static let endCodespaceRange = Keyword("endcodespacerange")
        static let beginCIDRange = Keyword("begincidrange")
        static let endCIDRange = Keyword("endcidrange")
        static let beginNotdefRange = Keyword("beginnotdefrange")
        static let endNotdefRange = Keyword("endnotdefrange")
        static let beginCIDChar = Keyword("begincidchar")
        static let endCIDChar = Keyword("endcidchar")
        static let beginBFChar = Keyword("beginbfchar")
        static let endBFChar = Keyword("endbfchar")
        static let beginBFRange = Keyword("beginbfrange")
        static let endBFRange = Keyword("endbfrange")
        static let useCMap = Keyword("usecmap")
    }
}
