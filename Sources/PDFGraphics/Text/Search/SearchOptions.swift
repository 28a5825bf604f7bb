/// How ``TextSearch`` compares a query with the text of a page.
///
/// By default a search ignores case and diacritics ("resume" finds "Résumé"), and finds the query
/// anywhere, also inside longer words.
public struct SearchOptions: Hashable, Sendable {
    /// When true, letters must match in case ("PDF" does not find "pdf").
    public var caseSensitive = false
    /// When true, diacritics must match ("resume" does not find "résumé"); both sides are still
    /// compared in compatibility decomposition (NFKD), so precomposed and combining forms match each other.
    public var diacriticSensitive = false
    /// When true, a hit must begin and end at a word boundary: the characters just before and
    /// after it are not Unicode letters, marks or digits.
    public var wholeWord = false
    /// The most results given; nil for all of them.
    public var maxResults: Int?

    /// The defaults: case and diacritics ignored, hits inside words kept, no limit.
    public init(
        caseSensitive: Bool = false, diacriticSensitive: Bool = false, wholeWord: Bool = false, maxResults: Int? = nil
    ) {
        self.caseSensitive = caseSensitive
        self.diacriticSensitive = diacriticSensitive
        self.wholeWord = wholeWord
        self.maxResults = maxResults
    }
}

/// One hit of a ``TextSearch``.
public struct SearchResult: Hashable, Sendable {
    /// The page, from 0.
    public var pageIndex: Int
    /// The highlight: one quad per line the hit touches, in reading order, in the page's user space
    /// (ISO 32000-2 §8.3.2.3, unrotated). Each goes from the start of the first matched glyph on
    /// its line to the end of the last one, and from the lowest descent to the highest ascent of
    /// those glyphs. A hit that begins or ends inside a ligature glyph covers the whole glyph.
    public var quads: [TextQuad]
    /// The matched text as on the page: the glyphs' text, words separated by a space and lines by a
    /// line feed (a hyphen at the end of a line is kept).
    public var text: String
    /// A snippet around the hit on one line: about 40 characters of the page's text on each side.
    public var context: String

    /// A result with the given values.
    public init(pageIndex: Int, quads: [TextQuad], text: String, context: String) {
        self.pageIndex = pageIndex
        self.quads = quads
        self.text = text
        self.context = context
    }
}
