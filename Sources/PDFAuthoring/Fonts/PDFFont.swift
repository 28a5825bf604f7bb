public import PDFCore

/// A font that text can be laid out and drawn with in content streams that Autograph writes
/// (form field appearances, signature appearances, watermarks): one of the standard 14 fonts
/// (`StandardFont`, not embedded, WinAnsi text) or an embedded TrueType subset (``EmbeddedFont``,
/// any text its glyphs cover).
///
/// Metrics are in glyph space units of 1/1000 em, so a width times the font size / 1000 is points.
public protocol PDFFont: Sendable {
    /// The font's PostScript name (the `/BaseFont`, without a subset tag).
    var postScriptName: String { get }
    /// Height above the baseline of the tallest glyphs, in 1/1000 em (positive).
    var ascent: Double { get }
    /// Depth below the baseline, in 1/1000 em (negative).
    var descent: Double { get }
    /// Height of capital letters, in 1/1000 em.
    var capHeight: Double { get }

    /// True when every character of `text` has a glyph in this font.
    func canEncode(_ text: String) -> Bool

    /// The advance width of `text` in 1/1000 em (characters without a glyph count as the width of
    /// the font's missing glyph).
    func width(of text: String) -> Double

    /// The bytes of `text` for a string operand of `Tj`/`TJ` with this font selected (one byte
    /// per character in WinAnsi for standard fonts, two-byte glyph ids for embedded fonts).
    /// Embedded fonts remember the glyphs used, so that ``fontDictionary(adding:)`` embeds them.
    func encode(_ text: String) -> [UInt8]

    /// The font dictionary to put in a `/Resources /Font` entry. Embedded fonts add their
    /// descendant font, descriptor, font file and `/ToUnicode` objects through `add` and subset
    /// the glyphs encoded so far; call it after all text has been encoded.
    func fontDictionary(adding add: (PDFObject) -> PDFReference) throws(PDFError) -> PDFDictionary
}
