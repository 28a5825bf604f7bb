/// A folded query and the matching of it against a ``SearchText``.
struct SearchMatcher: Sendable {
    enum Token: Equatable, Sendable {
        case scalar(Unicode.Scalar)
        /// One or more separators (spaces, line breaks) in the text.
        case whitespace
    }

    let tokens: [Token]
    let folding: SearchFolding
    let wholeWord: Bool

    /// The query folded: runs of white space become one ``Token/whitespace``, leading and trailing
    /// white space is dropped.
    init(query: String, options: SearchOptions) {
        let folding = SearchFolding(options)
        self.folding = folding
        wholeWord = options.wholeWord
        var folded: [Token] = []
        var word = ""
        func flush() {
            guard !word.isEmpty else { return }
            if !folded.isEmpty { folded.append(.whitespace) }
            folding.fold(word) { folded.append(.scalar($0)) }
            word = ""
        }
        for scalar in query.unicodeScalars {
            if scalar.properties.isWhitespace {
                flush()
            } else {
                word.unicodeScalars.append(scalar)
            }
        }
        flush()
        while folded.last == .whitespace { folded.removeLast() }
        tokens = folded
    }

    /// The unit ranges of every hit in `text`, in reading order, not overlapping.
    func matches(in text: SearchText) -> [Range<Int>] {
        guard let first = tokens.first else { return [] }
        let units = text.units
        var found: [Range<Int>] = []
        var start = 0
        while start < units.count {
            let unit = units[start]
            let canStart =
                unit.kind == .character
                ? (first == .scalar(unit.scalar)) : unit.kind == .softHyphen && first == .scalar("-")
            if canStart, let end = match(units, from: start), accept(units, start, end) {
                found.append(start..<end)
                start = end
            } else {
                start += 1
            }
        }
        return found
    }

    /// The end of a hit beginning at `start`, or nil.
    private func match(_ units: [SearchText.Unit], from start: Int) -> Int? {
        var index = start
        var token = 0
        while token < tokens.count {
            guard index < units.count else { return nil }
            let unit = units[index]
            switch tokens[token] {
            case .whitespace:
                guard unit.isSeparator else { return nil }
                while index < units.count, units[index].isSeparator { index += 1 }
                token += 1
            case .scalar(let scalar):
                if unit.kind == .softHyphen {
                    // The hyphen at a line end is matched by a hyphen in the query, else skipped.
                    if scalar == "-" { token += 1 }
                    index += 1
                    continue
                }
                guard unit.kind == .character, unit.scalar == scalar else { return nil }
                index += 1
                token += 1
            }
        }
        return index
    }

    /// False when the hit would cut a base letter from its combining mark, or (whole words only) when
    /// a word character touches it on either side.
    private func accept(_ units: [SearchText.Unit], _ start: Int, _ end: Int) -> Bool {
        if SearchFolding.isAttachedMark(units[start].scalar) { return false }
        if end < units.count, units[end].kind == .character, SearchFolding.isAttachedMark(units[end].scalar) {
            return false
        }
        guard wholeWord else { return true }
        if start > 0, units[start - 1].kind == .character, SearchFolding.isWordCharacter(units[start - 1].scalar) {
            return false
        }
        var after = end
        // A hyphen at a line end that the hit stops before: the word goes on after it.
        if after < units.count, units[after].kind == .softHyphen { after += 1 }
        if after < units.count, units[after].kind == .character, SearchFolding.isWordCharacter(units[after].scalar) {
            return false
        }
        return true
    }
}
