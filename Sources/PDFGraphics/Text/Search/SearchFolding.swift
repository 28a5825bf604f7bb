import PDFCore

/// How search compares characters: both the page's text and the query are folded the same way,
/// then compared scalar by scalar.
///
/// Folding, in order: ligatures become their letters (`ﬁ` → `f i`, ``Ligatures``), hyphen variants
/// (U+00AD, U+2010, U+2011) become `-`, the text is put in compatibility decomposition (Unicode
/// §3.11, NFKD, PDFCore's ``UnicodeNFKC``: fullwidth forms and superscripts match plain letters); unless case matters, each scalar becomes its lowercase mapping (`ß` and `ẞ` → `ss`, final
/// `ς` → `σ`); unless diacritics matter, combining marks of a non-zero canonical combining class
/// above 9 (accents, Hebrew points, Arabic harakat; not nukta, virama or kana voicing marks) are
/// dropped.
struct SearchFolding: Hashable, Sendable {
    var caseSensitive: Bool
    var diacriticSensitive: Bool

    init(_ options: SearchOptions) {
        caseSensitive = options.caseSensitive
        diacriticSensitive = options.diacriticSensitive
    }

    /// Calls `body` with each folded scalar of `text`.
    func fold(_ text: String, _ body: (Unicode.Scalar) -> Void) {
        var expanded = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if let letters = Ligatures.letters[scalar.value] {
                expanded.append(contentsOf: letters.unicodeScalars)
            } else {
                switch scalar.value {
                case 0xAD, 0x2010, 0x2011: expanded.append("-")
                default: expanded.append(scalar)
                }
            }
        }
        let decomposed = String(expanded)
        for scalar in UnicodeNFKC.decomposition(decomposed) {
            if caseSensitive {
                emit(scalar, body)
                continue
            }
            switch scalar.value {
            case 0xDF, 0x1E9E:
                body("s")
                body("s")
            case 0x3C2:
                body("\u{3C3}")
            default:
                let lower = scalar.properties.lowercaseMapping
                if lower.unicodeScalars.count == 1, lower.unicodeScalars.first == scalar {
                    emit(scalar, body)
                } else {
                    // A lowercase mapping may bring a combining mark (İ → i̇): decompose it again.
                    for folded in UnicodeNFKC.decomposition(lower) { emit(folded, body) }
                }
            }
        }
    }

    private func emit(_ scalar: Unicode.Scalar, _ body: (Unicode.Scalar) -> Void) {
        if !diacriticSensitive, SearchFolding.isDiacritic(scalar) { return }
        body(scalar)
    }

    /// A combining mark that diacritics-insensitive search ignores.
    static func isDiacritic(_ scalar: Unicode.Scalar) -> Bool {
        guard scalar.value >= 0x300 else { return false }
        return scalar.properties.generalCategory == .nonspacingMark
            && scalar.properties.canonicalCombiningClass.rawValue > 9
    }

    /// A combining mark of a non-zero class: a hit may not begin at one or end just before one.
    static func isAttachedMark(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value >= 0x300 && scalar.properties.canonicalCombiningClass.rawValue != 0
    }

    /// A character that continues a word: a letter, a digit or a mark.
    static func isWordCharacter(_ scalar: Unicode.Scalar) -> Bool {
        let properties = scalar.properties
        if properties.isAlphabetic { return true }
        switch properties.generalCategory {
        case .decimalNumber, .letterNumber, .otherNumber, .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return false
        }
    }
}
